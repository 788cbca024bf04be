// Package bundlecli is `gavel bundle`: the searcher's command line. It signs
// transactions (from a key, a keystore or a dev account), simulates bundles
// (eth_callBundle), sends and cancels them (eth_sendBundle, eth_cancelBundle)
// with a request signature, reads their status (flashbots_getBundleStatsV2)
// and does the same for beta bundles (mev_sendBetaBundle, mev_getBetaBundle).
// Flags are parsed here; the node does the work.
package bundlecli

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/internal/auctioncli"
	"github.com/gavel-eth/gavel/mevapi/reqsig"
	"github.com/gavel-eth/gavel/params"
)

// ErrUsage is returned for missing or malformed arguments.
var ErrUsage = errors.New("invalid arguments")

// ErrRPC is returned when the node answers a call with a JSON-RPC error.
var ErrRPC = errors.New("node refused the call")

// DefaultRPC is the node's JSON-RPC used without --rpc: a local `gavel --dev`.
const DefaultRPC = "http://127.0.0.1:8545"

const (
	flagRPC        = "rpc"
	flagMEV        = "mev"
	flagKey        = "key"
	flagKeystore   = "keystore"
	flagAccount    = "account"
	flagPassword   = "password"
	flagDevAccount = "dev-account"
	flagAuthKey    = "auth-key"
	flagTimeout    = "timeout"
	flagTx         = "tx"
	flagTo         = "to"
	flagValue      = "value"
	flagData       = "data"
	flagGas        = "gas"
	flagTip        = "tip"
	flagMaxFee     = "maxfee"
	flagNonce      = "nonce"
	flagBlock      = "block"
	flagReverting  = "reverting"
	flagUUID       = "uuid"
	flagSlot       = "slot"
)

func connectionFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: flagRPC, Value: DefaultRPC, EnvVars: []string{"GAVEL_RPC"}, Usage: "the node's JSON-RPC (nonces, chain id, head)"},
		&cli.StringFlag{Name: flagMEV, EnvVars: []string{"GAVEL_MEV"}, Usage: "the MEV listener's URL (default: what the node reports in mev_nodeInfo, else http://127.0.0.1:9062)"},
		&cli.StringFlag{Name: flagKey, EnvVars: []string{"GAVEL_KEY"}, Usage: "hex private key that signs transactions"},
		&cli.StringFlag{Name: flagKeystore, Usage: "keystore key file, or directory of key files, that signs transactions"},
		&cli.StringFlag{Name: flagAccount, Usage: "address of the key to use when --keystore is a directory with several keys"},
		&cli.StringFlag{Name: flagPassword, Usage: "file holding the keystore passphrase"},
		&cli.IntFlag{Name: flagDevAccount, Value: -1, Usage: "sign with dev test account N (0-9) of `gavel --dev`"},
		&cli.StringFlag{Name: flagAuthKey, EnvVars: []string{"GAVEL_AUTH_KEY"}, Usage: "hex private key for the request signature (X-Flashbots-Signature); default: the transaction key, if any"},
		&cli.DurationFlag{Name: flagTimeout, Value: 30 * time.Second, Usage: "how long to wait for the node"},
	}
}

// txFlags build and sign one transaction (used by sign, and by the bundle
// commands as a shortcut for one --tx).
func txFlags(defaultTip string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: flagTo, Usage: "recipient of the transaction to sign"},
		&cli.StringFlag{Name: flagValue, Value: "0", Usage: "value sent (wei, or with a unit: 1gwei, 0.1ether)"},
		&cli.StringFlag{Name: flagData, Usage: "call data, 0x-hex"},
		&cli.Uint64Flag{Name: flagGas, Usage: "gas limit (default: 21000 for a plain transfer, else eth_estimateGas)"},
		&cli.StringFlag{Name: flagTip, Value: defaultTip, Usage: "maxPriorityFeePerGas"},
		&cli.StringFlag{Name: flagMaxFee, Usage: "maxFeePerGas (default: twice the head's base fee plus the tip)"},
		&cli.Int64Flag{Name: flagNonce, Value: -1, Usage: "nonce (default: the sender's pending nonce)"},
	}
}

func bundleTxsFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: flagTx, Usage: "signed raw transaction, 0x-hex (repeat for several, in bundle order; `gavel bundle sign` makes them)"}
}

// Command returns `gavel bundle` and its subcommands.
func Command() *cli.Command {
	with := func(extra ...cli.Flag) []cli.Flag { return append(extra, connectionFlags()...) }
	return &cli.Command{
		Name:  "bundle",
		Usage: "Sign, simulate, send and cancel bundles and beta bundles; read their status",
		Description: "Talks to the node at --rpc and its MEV listener (--mev, found through mev_nodeInfo by default).\n" +
			"Transactions are signed with --key, --keystore or --dev-account N; requests carry an\n" +
			"X-Flashbots-Signature from --auth-key, or from the transaction key. See docs/bundles.md.",
		Subcommands: []*cli.Command{
			{Name: "sign", Usage: "Sign one transaction and print it as raw hex (for --tx)", Flags: with(txFlags("1gwei")...), Action: withEnv(runSign)},
			{
				Name: "simulate", Usage: "Simulate a bundle on the node's state (eth_callBundle) and print the result",
				Flags: with(append(txFlags("1gwei"), bundleTxsFlag(),
					&cli.Uint64Flag{Name: flagBlock, Usage: "block the bundle is simulated for (default: head + 1)"})...),
				Action: withEnv(runSimulate),
			},
			{
				Name: "send", Usage: "Send a bundle for a block (eth_sendBundle) and print its hash",
				Flags: with(append(txFlags("1gwei"), bundleTxsFlag(),
					&cli.Uint64Flag{Name: flagBlock, Usage: "target block (default: head + 1)"},
					&cli.StringSliceFlag{Name: flagReverting, Usage: "hash of a tx allowed to revert (repeatable)"},
					&cli.StringFlag{Name: flagUUID, Usage: "replacementUuid, to replace or cancel the bundle later"})...),
				Action: withEnv(runSend),
			},
			{
				Name: "cancel", Usage: "Cancel the pending bundle of a replacementUuid (eth_cancelBundle)",
				Flags:  with(&cli.StringFlag{Name: flagUUID, Required: true, Usage: "the bundle's replacementUuid"}),
				Action: withEnv(runCancel),
			},
			{
				Name: "status", Usage: "Print what became of a bundle (flashbots_getBundleStatsV2)", ArgsUsage: "<bundle hash>",
				Flags:  with(&cli.Uint64Flag{Name: flagBlock, Usage: "target block (default: the latest the bundle was sent for)"}),
				Action: withEnv(runStatus),
			},
			{
				Name: "user-stats", Usage: "Print the request signer's own stats (flashbots_getUserStatsV2, signed with --auth-key or the transaction key)",
				Flags: with(), Action: withEnv(runUserStats),
			},
			{
				Name: "send-beta", Usage: "Send a beta bundle for a slot (mev_sendBetaBundle; its txs carry no tip) and print its hash",
				Flags: with(append(txFlags("0"), bundleTxsFlag(),
					&cli.Uint64Flag{Name: flagSlot, Usage: "slot (default: the node's current slot + 2: a dev node, or a relay that has its beacon node's clock)"})...),
				Action: withEnv(runSendBeta),
			},
			{
				Name: "beta-status", Usage: "Print a beta bundle as the node has it (mev_getBetaBundle)", ArgsUsage: "<bundle hash>",
				Flags: with(), Action: withEnv(runBetaStatus),
			},
		},
	}
}

// env is one command's connections and keys.
type env struct {
	ctx    context.Context
	cancel context.CancelFunc
	out    io.Writer
	rpcURL string
	mevURL string
	txKey  *ecdsa.PrivateKey // nil: none given
	auth   *ecdsa.PrivateKey // request signature key; nil: unsigned
	client *ethclient.Client
}

func setup(c *cli.Context) (*env, error) {
	e := &env{out: c.App.Writer, rpcURL: c.String(flagRPC)}
	e.ctx, e.cancel = context.WithTimeout(context.Background(), c.Duration(flagTimeout))
	var err error
	switch n := c.Int(flagDevAccount); {
	case n >= 0 && (c.String(flagKey) != "" || c.String(flagKeystore) != ""):
		return nil, fmt.Errorf("%w: --dev-account and --key/--keystore both given: choose one", ErrUsage)
	case n >= len(params.DevAccounts()):
		return nil, fmt.Errorf("%w: --dev-account %d: the dev accounts are 0 to %d", ErrUsage, n, len(params.DevAccounts())-1)
	case n >= 0:
		e.txKey = params.DevAccounts()[n].Key
	case c.String(flagKey) != "" || c.String(flagKeystore) != "":
		if e.txKey, err = auctioncli.LoadKey(c.String(flagKey), c.String(flagKeystore), c.String(flagAccount), c.String(flagPassword)); err != nil {
			return nil, err
		}
	}
	e.auth = e.txKey
	if h := c.String(flagAuthKey); h != "" {
		if e.auth, err = crypto.HexToECDSA(strings.TrimPrefix(strings.TrimSpace(h), "0x")); err != nil {
			return nil, fmt.Errorf("%w: --auth-key must be 32 bytes of hex: %v", ErrUsage, err)
		}
	}
	e.mevURL = strings.TrimRight(c.String(flagMEV), "/")
	return e, nil
}

func (e *env) close() {
	if e.client != nil {
		e.client.Close()
	}
	e.cancel()
}

// chain connects to --rpc on first use.
func (e *env) chain() (*ethclient.Client, error) {
	if e.client == nil {
		c, err := ethclient.DialContext(e.ctx, e.rpcURL)
		if err != nil {
			return nil, fmt.Errorf("connecting to the node at %s: %w", e.rpcURL, err)
		}
		e.client = c
	}
	return e.client, nil
}

// nodeInfo is mev_nodeInfo's answer (the fields used here).
type nodeInfo struct {
	MEVListener string `json:"mevListener"`
	Dev         bool   `json:"dev"`
	CurrentSlot uint64 `json:"currentSlot"`
	SlotSeconds uint64 `json:"slotSeconds"`
}

func (e *env) nodeInfo() (nodeInfo, error) {
	var info nodeInfo
	raw, err := call(e.ctx, e.rpcURL, "mev_nodeInfo", nil, nil)
	if err != nil {
		return info, fmt.Errorf("asking the node at %s for mev_nodeInfo: %w", e.rpcURL, err)
	}
	return info, json.Unmarshal(raw, &info)
}

// mev returns the MEV listener's URL: --mev, else the node's own answer.
func (e *env) mev() (string, error) {
	if e.mevURL != "" {
		return e.mevURL, nil
	}
	info, err := e.nodeInfo()
	if err != nil {
		return "", fmt.Errorf("%w (or pass --mev)", err)
	}
	e.mevURL = strings.TrimRight(info.MEVListener, "/")
	return e.mevURL, nil
}

// withEnv sets up the command's env for run and closes it after.
func withEnv(run func(c *cli.Context, e *env) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		e, err := setup(c)
		if err != nil {
			return err
		}
		defer e.close()
		return run(c, e)
	}
}

// callMEV calls method on the MEV listener, signed with the auth key when one is set.
func (e *env) callMEV(method string, params ...any) (json.RawMessage, error) {
	mev, err := e.mev()
	if err != nil {
		return nil, err
	}
	return call(e.ctx, mev+"/", method, params, e.auth)
}

// printMEV calls method on the MEV listener and prints its answer.
func (e *env) printMEV(method string, params ...any) error {
	raw, err := e.callMEV(method, params...)
	if err != nil {
		return err
	}
	return e.printJSON(raw)
}

// call posts one JSON-RPC call to url, signed with auth when it is set.
func call(ctx context.Context, url, method string, params []any, auth *ecdsa.PrivateKey) (json.RawMessage, error) {
	if params == nil {
		params = []any{}
	}
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if auth != nil {
		sig, err := reqsig.Sign(body, auth)
		if err != nil {
			return nil, err
		}
		req.Header.Set(reqsig.HeaderFlashbots, sig)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	if err != nil {
		return nil, fmt.Errorf("%s: reading the answer: %w", method, err)
	}
	var reply struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &reply); err != nil {
		return nil, fmt.Errorf("%s: HTTP %d, not a JSON-RPC answer: %.200s", method, res.StatusCode, raw)
	}
	if reply.Error != nil {
		return nil, fmt.Errorf("%w: %s: %s (code %d, HTTP %d)", ErrRPC, method, reply.Error.Message, reply.Error.Code, res.StatusCode)
	}
	return reply.Result, nil
}

// printJSON writes raw indented.
func (e *env) printJSON(raw json.RawMessage) error {
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return err
	}
	buf.WriteByte('\n')
	_, err := e.out.Write(buf.Bytes())
	return err
}

// signTx builds and signs the transaction of the tx flags.
func (e *env) signTx(c *cli.Context) (*types.Transaction, error) {
	if e.txKey == nil {
		return nil, fmt.Errorf("%w: no key: pass --dev-account N, --key <hex> or --keystore <file or dir>", ErrUsage)
	}
	if !common.IsHexAddress(c.String(flagTo)) {
		return nil, fmt.Errorf("%w: --to %q is not an address", ErrUsage, c.String(flagTo))
	}
	to := common.HexToAddress(c.String(flagTo))
	value, err := auctioncli.ParseAmount(c.String(flagValue))
	if err != nil {
		return nil, fmt.Errorf("%w: --value: %v", ErrUsage, err)
	}
	tip, err := auctioncli.ParseAmount(c.String(flagTip))
	if err != nil {
		return nil, fmt.Errorf("%w: --tip: %v", ErrUsage, err)
	}
	var data []byte
	if d := c.String(flagData); d != "" {
		if data, err = hexutil.Decode(d); err != nil {
			return nil, fmt.Errorf("%w: --data must be 0x-hex: %v", ErrUsage, err)
		}
	}
	client, err := e.chain()
	if err != nil {
		return nil, err
	}
	chainID, err := client.ChainID(e.ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the chain id from %s: %w", e.rpcURL, err)
	}
	from := crypto.PubkeyToAddress(e.txKey.PublicKey)
	var nonce uint64
	if n := c.Int64(flagNonce); n >= 0 {
		nonce = uint64(n)
	} else if nonce, err = client.PendingNonceAt(e.ctx, from); err != nil {
		return nil, fmt.Errorf("reading the nonce of %s: %w", from, err)
	}
	maxFee := new(big.Int)
	if m := c.String(flagMaxFee); m != "" {
		if maxFee, err = auctioncli.ParseAmount(m); err != nil {
			return nil, fmt.Errorf("%w: --maxfee: %v", ErrUsage, err)
		}
	} else {
		head, err := client.HeaderByNumber(e.ctx, nil)
		if err != nil {
			return nil, fmt.Errorf("reading the head: %w", err)
		}
		if head.BaseFee != nil {
			maxFee.Mul(head.BaseFee, big.NewInt(2))
		}
		maxFee.Add(maxFee, tip)
	}
	gas := c.Uint64(flagGas)
	if gas == 0 {
		if len(data) == 0 {
			if code, err := client.CodeAt(e.ctx, to, nil); err == nil && len(code) == 0 {
				gas = 21000
			}
		}
		if gas == 0 {
			if gas, err = client.EstimateGas(e.ctx, ethereum.CallMsg{From: from, To: &to, Value: value, Data: data}); err != nil {
				return nil, fmt.Errorf("estimating gas (or pass --gas): %w", err)
			}
		}
	}
	return types.SignNewTx(e.txKey, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: maxFee, Gas: gas, To: &to, Value: value, Data: data,
	})
}

// bundleTxs returns the --tx transactions, then the one the tx flags
// describe (when --to is given).
func (e *env) bundleTxs(c *cli.Context) ([]hexutil.Bytes, error) {
	var txs []hexutil.Bytes
	for _, s := range c.StringSlice(flagTx) {
		raw, err := hexutil.Decode(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("%w: --tx %.20s…: not 0x-hex: %v", ErrUsage, s, err)
		}
		txs = append(txs, raw)
	}
	if c.String(flagTo) != "" {
		tx, err := e.signTx(c)
		if err != nil {
			return nil, err
		}
		raw, err := tx.MarshalBinary()
		if err != nil {
			return nil, err
		}
		txs = append(txs, raw)
	}
	if len(txs) == 0 {
		return nil, fmt.Errorf("%w: no transactions: pass --tx <raw> (repeatable) or --to with a key to sign one", ErrUsage)
	}
	return txs, nil
}

// blockBundle is the bundle's transactions and the block it targets.
func (e *env) blockBundle(c *cli.Context) ([]hexutil.Bytes, uint64, error) {
	txs, err := e.bundleTxs(c)
	if err != nil {
		return nil, 0, err
	}
	block, err := e.targetBlock(c)
	return txs, block, err
}

// targetBlock is --block, or head + 1.
func (e *env) targetBlock(c *cli.Context) (uint64, error) {
	if n := c.Uint64(flagBlock); n != 0 {
		return n, nil
	}
	client, err := e.chain()
	if err != nil {
		return 0, err
	}
	head, err := client.BlockNumber(e.ctx)
	if err != nil {
		return 0, fmt.Errorf("reading the head from %s: %w", e.rpcURL, err)
	}
	return head + 1, nil
}

func runSign(c *cli.Context, e *env) error {
	if c.String(flagTo) == "" {
		return fmt.Errorf("%w: --to is required", ErrUsage)
	}
	tx, err := e.signTx(c)
	if err != nil {
		return err
	}
	raw, err := tx.MarshalBinary()
	if err != nil {
		return err
	}
	fmt.Fprintln(e.out, hexutil.Encode(raw))
	return nil
}

func runSimulate(c *cli.Context, e *env) error {
	txs, block, err := e.blockBundle(c)
	if err != nil {
		return err
	}
	return e.printMEV("eth_callBundle", map[string]any{
		"txs": txs, "blockNumber": hexutil.Uint64(block), "stateBlockNumber": "latest"})
}

func runSend(c *cli.Context, e *env) error {
	txs, block, err := e.blockBundle(c)
	if err != nil {
		return err
	}
	args := map[string]any{"txs": txs, "blockNumber": hexutil.Uint64(block)}
	if rev := c.StringSlice(flagReverting); len(rev) > 0 {
		args["revertingTxHashes"] = rev
	}
	if u := c.String(flagUUID); u != "" {
		args["replacementUuid"] = u
	}
	raw, err := e.callMEV("eth_sendBundle", args)
	if err != nil {
		return err
	}
	var res struct {
		BundleHash common.Hash `json:"bundleHash"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return fmt.Errorf("eth_sendBundle answered %s: %w", raw, err)
	}
	fmt.Fprintf(e.out, "%s\n", res.BundleHash.Hex())
	fmt.Fprintf(c.App.ErrWriter, "bundle of %d tx(s) sent for block %d; `gavel bundle status%s %s` tells what became of it\n", len(txs), block, signerFlags(c, e), res.BundleHash.Hex())
	return nil
}

// signerFlags are the flags that sign a request as this command's was
// signed, for a hint to run next: a bundle's status is shown only to a
// request signed by the key that sent it. Key material is not repeated.
func signerFlags(c *cli.Context, e *env) string {
	switch {
	case e.auth == nil:
		return ""
	case c.String(flagAuthKey) != "":
		return " --auth-key <the same --auth-key>"
	case c.Int(flagDevAccount) >= 0:
		return fmt.Sprintf(" --dev-account %d", c.Int(flagDevAccount))
	case c.String(flagKeystore) != "":
		return " --keystore <the same keystore>"
	default:
		return " --key <the same --key>"
	}
}

func runCancel(c *cli.Context, e *env) error {
	return e.printMEV("eth_cancelBundle", map[string]any{"replacementUuid": c.String(flagUUID)})
}

func hashArg(c *cli.Context) (common.Hash, error) {
	if err := FlagsBeforeArgs(c, "the bundle hash"); err != nil {
		return common.Hash{}, err
	}
	if c.Args().Len() != 1 {
		return common.Hash{}, fmt.Errorf("%w: expected one bundle hash, got %d arguments", ErrUsage, c.Args().Len())
	}
	s := c.Args().First()
	b, err := hexutil.Decode(s)
	if err != nil || len(b) != 32 {
		return common.Hash{}, fmt.Errorf("%w: %q is not a 32-byte 0x-hex bundle hash", ErrUsage, s)
	}
	return common.BytesToHash(b), nil
}

func runStatus(c *cli.Context, e *env) error {
	h, err := hashArg(c)
	if err != nil {
		return err
	}
	args := map[string]any{"bundleHash": h}
	if n := c.Uint64(flagBlock); n != 0 {
		args["blockNumber"] = hexutil.Uint64(n)
	}
	err = e.printMEV("flashbots_getBundleStatsV2", args)
	if err != nil && strings.Contains(err.Error(), "sent by another signer") {
		how := "this request was unsigned"
		if e.auth != nil {
			how = "this request was signed by " + crypto.PubkeyToAddress(e.auth.PublicKey).Hex()
		}
		return fmt.Errorf("%w\n(%s; sign it with the key that sent the bundle: the same --dev-account N, --key, --keystore or --auth-key that `gavel bundle send` had)", err, how)
	}
	return err
}

// FlagsBeforeArgs refuses a flag given after the command's positional
// arguments (what), which the command line parser would take as one more
// argument, with an error that says where flags go.
func FlagsBeforeArgs(c *cli.Context, what string) error {
	for i, a := range c.Args().Slice() {
		if i > 0 && strings.HasPrefix(a, "-") && len(a) > 1 {
			return fmt.Errorf("%w: %q comes after %s: flags go before it (%s [flags] %s)", ErrUsage, a, what, c.Command.HelpName, c.Args().First())
		}
	}
	return nil
}

func runUserStats(_ *cli.Context, e *env) error {
	if e.auth == nil {
		return fmt.Errorf("%w: user-stats answers for the request's signer: give --auth-key, --key, --keystore or --dev-account", ErrUsage)
	}
	return e.printMEV("flashbots_getUserStatsV2", map[string]any{})
}

func runSendBeta(c *cli.Context, e *env) error {
	txs, err := e.bundleTxs(c)
	if err != nil {
		return err
	}
	slot := c.Uint64(flagSlot)
	if !c.IsSet(flagSlot) {
		info, err := e.nodeInfo()
		if err != nil {
			return fmt.Errorf("%w (or pass --slot)", err)
		}
		if info.SlotSeconds == 0 {
			return fmt.Errorf("%w: --slot is required: the node reports no slot clock (not a dev node, and its relay has no beacon node's constants yet)", ErrUsage)
		}
		slot = info.CurrentSlot + 2
	}
	raw, err := e.callMEV("mev_sendBetaBundle", map[string]any{"txs": txs, "slot": strconv.FormatUint(slot, 10)})
	if err != nil {
		return err
	}
	var h common.Hash
	if err := json.Unmarshal(raw, &h); err != nil {
		return fmt.Errorf("mev_sendBetaBundle answered %s: %w", raw, err)
	}
	fmt.Fprintf(e.out, "%s\n", h.Hex())
	fmt.Fprintf(c.App.ErrWriter, "beta bundle of %d tx(s) sent for slot %d; `gavel bundle beta-status %s` shows it\n", len(txs), slot, h.Hex())
	return nil
}

func runBetaStatus(c *cli.Context, e *env) error {
	h, err := hashArg(c)
	if err != nil {
		return err
	}
	return e.printMEV("mev_getBetaBundle", h)
}
