package jsonrpc

import (
	"context"
	"errors"
	"strconv"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/errclass"
	"github.com/gavel-eth/gavel/internal/jsonargs"
)

// ErrUnsignedStats is flashbots_getUserStatsV2 called without a request
// signature: the stats are the signer's, so there is no one to answer for.
var ErrUnsignedStats = errors.New("flashbots_getUserStatsV2 answers with the stats of the request's signer: sign the body (X-Flashbots-Signature or X-Ethereum-Signature header \"<address>:<signature>\")")

// FlashbotsStatsAPIs returns the "flashbots" service with
// flashbots_getUserStatsV2, which answers the request signer's own counters
// only, as Flashbots does; signer reads a request's verified signer.
func FlashbotsStatsAPIs(r UserStatsReader, signer bundle.SignerFunc) []rpc.API {
	return []rpc.API{{Namespace: "flashbots", Service: &flashbotsStatsAPI{r, signer}}}
}

type flashbotsStatsAPI struct {
	r      UserStatsReader
	signer bundle.SignerFunc
}

// UserStatsV2Args are flashbots_getUserStatsV2's parameters, the object
// @flashbots/ethers-provider-bundle sends: blockNumber is the latest block
// number, in hex. It is optional, and not checked: gavel's counters do not
// depend on it.
type UserStatsV2Args struct {
	BlockNumber *hexutil.Uint64 `json:"blockNumber,omitempty"`
}

// UnmarshalJSON names a malformed field in JSON terms (jsonargs).
func (a *UserStatsV2Args) UnmarshalJSON(b []byte) error {
	type plain UserStatsV2Args
	return jsonargs.DecodeObject(b, (*plain)(a))
}

// UserStatsV2Result is flashbots_getUserStatsV2's answer: Flashbots' seven
// fields with their types (wei and gas as decimal strings), then gavel's
// counters of the signer as mev_getUserStats gives them. gavel has one
// queue for every searcher, so isHighPriority is false. Gas simulated is
// the gas of the signer's eth_callBundle simulations plus the first clean
// top-of-block simulation of each of its eth_sendBundle bundles per target
// block; validator payments are what its included bundles paid the block's
// fee recipient (priority fees plus direct transfers). The 7-day and 1-day
// windows are whole hours.
type UserStatsV2Result struct {
	IsHighPriority           bool   `json:"isHighPriority"`
	AllTimeValidatorPayments string `json:"allTimeValidatorPayments"`
	AllTimeGasSimulated      string `json:"allTimeGasSimulated"`
	Last7dValidatorPayments  string `json:"last7dValidatorPayments"`
	Last7dGasSimulated       string `json:"last7dGasSimulated"`
	Last1dValidatorPayments  string `json:"last1dValidatorPayments"`
	Last1dGasSimulated       string `json:"last1dGasSimulated"`
	UserStatsResult
}

// GetUserStatsV2 is flashbots_getUserStatsV2: the stats of the key that
// signed the request. A signer gavel never counted gets zeros, as Flashbots
// answers a new key.
func (a *flashbotsStatsAPI) GetUserStatsV2(ctx context.Context, _ *UserStatsV2Args) (*UserStatsV2Result, error) {
	signer, ok := a.signer(ctx)
	if !ok || signer == (common.Address{}) {
		return nil, errclass.RPC(ErrUnsignedStats, CodeInvalidRequest)
	}
	u, err := a.r.SignerStats(ctx, signer)
	switch {
	case errclass.IsInternal(err):
		return nil, errclass.RPC(err, 0)
	case err != nil:
		u = &bundle.SignerStats{}
	}
	res := &UserStatsV2Result{
		AllTimeValidatorPayments: u.AllTime.Payments().String(), AllTimeGasSimulated: strconv.FormatUint(u.AllTime.GasSimulated, 10),
		Last7dValidatorPayments: u.Last7d.Payments().String(), Last7dGasSimulated: strconv.FormatUint(u.Last7d.GasSimulated, 10),
		Last1dValidatorPayments: u.Last1d.Payments().String(), Last1dGasSimulated: strconv.FormatUint(u.Last1d.GasSimulated, 10),
		UserStatsResult: UserStatsResult{Address: signer},
	}
	if err == nil {
		res.UserStatsResult = userStats(signer, u)
	}
	if f, ok := a.r.(flushIntervaler); ok {
		res.UnflushedSeconds = f.FlushInterval().Seconds()
	}
	return res, nil
}
