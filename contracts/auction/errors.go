package auction

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/contracts/bindings"
)

// ErrReverted is matched (errors.Is) by every RevertError.
var ErrReverted = errors.New("contract call reverted")

// ErrTxFailed is returned when a transaction was mined but failed (receipt status 0).
var ErrTxFailed = errors.New("transaction failed on chain")

// RevertError is a contract revert decoded by name: a custom error of one of
// the auction contracts, Error(string) or Panic(uint256).
type RevertError struct {
	// Name is the Solidity error name, e.g. "InvalidBidItems"; "Error" for
	// require messages, "Panic" for panics, "" when the data matched nothing.
	Name string
	// Args are the error's arguments in declaration order.
	Args []ArgValue
	// Data is the raw revert data.
	Data []byte
}

// ArgValue is one named argument of a RevertError.
type ArgValue struct {
	Name  string
	Value any
}

// Error formats the revert as Name(arg=value, ...) with a hint where one helps.
func (e *RevertError) Error() string {
	if e.Name == "" {
		if len(e.Data) == 0 {
			return "execution reverted without a reason"
		}
		return "execution reverted with unknown data " + hexutil.Encode(e.Data)
	}
	parts := make([]string, len(e.Args))
	for i, a := range e.Args {
		v := fmt.Sprint(a.Value)
		if b, ok := a.Value.([]byte); ok {
			v = hexutil.Encode(b)
		}
		if a.Name == "" {
			parts[i] = v
		} else {
			parts[i] = a.Name + "=" + v
		}
	}
	msg := "execution reverted: " + e.Name + "(" + strings.Join(parts, ", ") + ")"
	if hint, ok := hints[e.Name]; ok {
		msg += ": " + hint
	}
	return msg
}

// Is makes errors.Is(err, ErrReverted) true.
func (e *RevertError) Is(target error) bool { return target == ErrReverted }

// hints explain the errors a newcomer meets most.
var hints = map[string]string{
	"Unauthorized":            "the sending account lacks the role (owner or operator) this call needs",
	"AuctionNotOpen":          "no auction is open for this slot (the operator opens it: `gavel auction open`, with the operator's key)",
	"AuctionAlreadyOpen":      "an auction for this slot is already open",
	"AuctionAlreadySettled":   "this slot's auction is already settled",
	"AuctionNotSettled":       "this slot's auction has not been settled yet",
	"AuctionNotClosed":        "this slot's auction is still open or was never opened: settle it first",
	"AuctionAlreadyFinalized": "this slot was already paid out or refunded",
	"BidderNotRegistered":     "the sending account is not a registered bidder (the owner adds it with `gavel auction bidder add`)",
	"BidderNotParticipating":  "this account placed no counted bid in this slot's auction",
	"BidderAlreadyExists":     "the account is already a registered bidder",
	"InvalidId":               "the bid's bidder id is not the sender's (or the id holds stale bids of a removed bidder in this slot)",
	"InvalidBidItems":         "the gas of a bid must be between the minimum gas per bid and the gas for sale",
	"InvalidBidPrice":         "the price per gas must be above zero",
	"TooManyBids":             "the bidder already has the most bids allowed in this slot",
	"AuctionFull":             "the slot holds the most bids it accepts",
	"InsufficientFunds":       "wrap more ether (`gavel auction wrap`) or raise the WETH allowance of the Auctioneer",
	"InsufficientBalance":     "the account holds fewer gas tokens of this slot than the amount",
	"InsufficientPermission":  "approve the spender for the gas tokens first",
	"BundleGasTooLow":         "an entry must pay for at least one plain transaction (21000 gas)",
	"NoBids":                  "pass at least one bid",
	"NothingToWithdraw":       "the account has no balance here",
}

var knownErrors = func() map[[4]byte]abi.Error {
	m := make(map[[4]byte]abi.Error)
	for _, md := range []*bind.MetaData{
		&bindings.AuctioneerMetaData, &bindings.SettlementHouseMetaData, &bindings.AccountantMetaData,
		&bindings.OpenBidderMetaData, &bindings.WETHMetaData,
	} {
		parsed, err := md.ParseABI()
		if err != nil {
			panic("auction: generated ABI does not parse: " + err.Error()) // generated, constant input
		}
		for _, e := range parsed.Errors {
			var id [4]byte
			copy(id[:], e.ID[:4])
			m[id] = e
		}
	}
	return m
}()

var (
	errorStringID = [4]byte{0x08, 0xc3, 0x79, 0xa0} // Error(string)
	panicID       = [4]byte{0x4e, 0x48, 0x7b, 0x71} // Panic(uint256)
)

// DecodeRevert names revert data. It never fails: unknown data gives a
// RevertError without a name.
func DecodeRevert(data []byte) *RevertError {
	re := &RevertError{Data: data}
	if len(data) < 4 {
		return re
	}
	var id [4]byte
	copy(id[:], data[:4])
	switch id {
	case errorStringID:
		if reason, err := abi.UnpackRevert(data); err == nil {
			re.Name = "Error"
			re.Args = []ArgValue{{Value: reason}}
		}
		return re
	case panicID:
		if len(data) == 36 {
			re.Name = "Panic"
			re.Args = []ArgValue{{Name: "code", Value: "0x" + new(big.Int).SetBytes(data[4:]).Text(16)}}
		}
		return re
	}
	e, ok := knownErrors[id]
	if !ok {
		return re
	}
	values, err := e.Inputs.Unpack(data[4:])
	if err != nil {
		return re
	}
	re.Name = e.Name
	for i, in := range e.Inputs {
		re.Args = append(re.Args, ArgValue{Name: in.Name, Value: values[i]})
	}
	return re
}

// DecodeError turns an RPC error that carries revert data (from eth_call or
// eth_estimateGas) into a RevertError and leaves any other error as it is.
func DecodeError(err error) error {
	if err == nil {
		return nil
	}
	var de rpc.DataError
	if errors.As(err, &de) {
		if s, ok := de.ErrorData().(string); ok {
			data, decErr := hex.DecodeString(strings.TrimPrefix(s, "0x"))
			if decErr == nil {
				return DecodeRevert(data)
			}
		}
		if strings.Contains(err.Error(), "execution reverted") {
			return &RevertError{}
		}
	}
	return err
}
