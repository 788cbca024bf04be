// Package auctioncli is `gavel auction`: the command line of the L2 gas
// auction for each role. The owner deploys the contracts and registers
// bidders, the operator opens, settles, pays out and refunds auctions, bidders
// wrap ether and bid, users pay gas tokens for bundle hashes, and anyone reads
// the state. It talks to any L2 JSON-RPC endpoint (--l2rpc) and signs with a
// raw key (--key) or a keystore file (--keystore). Flags are parsed here; the
// work is done by contracts/auction.
package auctioncli

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/deploy"
)

// ErrNoAddresses is returned when the contract addresses are neither given nor
// discoverable from the node.
var ErrNoAddresses = errors.New("contract addresses unknown: pass --addresses <file> (written by `gavel auction deploy --out`) or --auctioneer, --weth, --settlement, --accountant; a `gavel --dev` node tells them itself (mev_auctionContracts)")

// ErrUsage is returned for missing or malformed arguments.
var ErrUsage = errors.New("invalid arguments")

// ErrConnection is returned when the node at --l2rpc (or --l1rpc) does not
// answer.
var ErrConnection = errors.New("cannot reach the node")

// ErrPastSlot is returned by `auction open` for a slot that has begun.
var ErrPastSlot = errors.New("slot is not in the future")

// dial connects to the L2 node; tests replace it.
var dial = func(ctx context.Context, url string) (auction.Backend, *rpc.Client, error) {
	rc, err := rpc.DialContext(ctx, url)
	if err != nil {
		return nil, nil, err
	}
	return ethclient.NewClient(rc), rc, nil
}

// DefaultL2RPC is the endpoint used without --l2rpc: a local `gavel --dev`.
const DefaultL2RPC = "http://127.0.0.1:8545"

const (
	flagL2RPC      = "l2rpc"
	flagL1RPC      = "l1rpc"
	flagKey        = "key"
	flagKeystore   = "keystore"
	flagAccount    = "account"
	flagPassword   = "password"
	flagAddresses  = "addresses"
	flagAuctioneer = "auctioneer"
	flagWETH       = "weth"
	flagSettlement = "settlement"
	flagAccountant = "accountant"
	flagOpenBidder = "openbidder"
	flagTimeout    = "timeout"
	flagSlot       = "slot"
	flagGas        = "gas"
	flagPrice      = "price"
	flagHash       = "hash"
	flagAmount     = "amount"
	flagBidder     = "bidder"
	flagOut        = "out"
	flagRecent     = "recent"
)

func connectionFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: flagL2RPC, Value: DefaultL2RPC, EnvVars: []string{"GAVEL_L2RPC"}, Usage: "JSON-RPC URL of the L2 node the contracts live on"},
		&cli.StringFlag{Name: flagKey, EnvVars: []string{"GAVEL_KEY"}, Usage: "hex private key that signs transactions (dev and tests; prefer --keystore elsewhere)"},
		&cli.StringFlag{Name: flagKeystore, Usage: "keystore key file, or directory of key files, that signs transactions"},
		&cli.StringFlag{Name: flagAccount, Usage: "address of the key to use when --keystore is a directory with several keys"},
		&cli.StringFlag{Name: flagPassword, Usage: "file holding the keystore passphrase"},
		&cli.StringFlag{Name: flagAddresses, Usage: "JSON file of the contract addresses (as `gavel auction deploy --out` writes it)"},
		&cli.StringFlag{Name: flagAuctioneer, Usage: "Auctioneer address (overrides --addresses)"},
		&cli.StringFlag{Name: flagWETH, Usage: "WETH address (overrides --addresses)"},
		&cli.StringFlag{Name: flagSettlement, Usage: "SettlementHouse address (overrides --addresses)"},
		&cli.StringFlag{Name: flagAccountant, Usage: "Accountant address (overrides --addresses)"},
		&cli.StringFlag{Name: flagOpenBidder, Usage: "OpenBidder address (overrides --addresses)"},
		&cli.DurationFlag{Name: flagTimeout, Value: 2 * time.Minute, Usage: "how long to wait for the node and for transactions to be mined"},
	}
}

func slotFlag() cli.Flag {
	return &cli.Uint64Flag{Name: flagSlot, Required: true, Usage: "slot of the auction (the L1 slot whose beta gas is sold)"}
}

// Command returns the `gavel auction` command and its subcommands.
func Command() *cli.Command {
	with := func(extra ...cli.Flag) []cli.Flag { return append(extra, connectionFlags()...) }
	return &cli.Command{
		Name:  "auction",
		Usage: "Operate, bid in and pay through the L2 gas auction",
		Description: "Every subcommand talks to the L2 node at --l2rpc (default a local `gavel --dev`) and signs with\n" +
			"--key or --keystore. Contract addresses come from --addresses, the per-contract flags, or the node\n" +
			"itself on a dev chain. See docs/auction.md.",
		Subcommands: []*cli.Command{
			{
				Name: "deploy", Usage: "Deploy WETH, Accountant, Auctioneer, SettlementHouse and OpenBidder; print their addresses",
				Flags: with(
					&cli.StringFlag{Name: "owner", Usage: "owner of the contracts (default: the signer)"},
					&cli.StringFlag{Name: "operator", Usage: "operator of the contracts (default: the signer)"},
					&cli.Uint64Flag{Name: "fee-bps", Value: deploy.DefaultAdminFeeBps, Usage: "Accountant admin fee in basis points (100 = 1%)"},
					&cli.StringFlag{Name: flagOut, Usage: "also write the addresses as JSON to this file (for --addresses)"},
				),
				Action: runDeploy,
			},
			{
				Name: "bidder", Usage: "Register or remove bidders (owner)",
				Subcommands: []*cli.Command{
					{Name: "add", Usage: "Register a bidder", ArgsUsage: "<address>", Flags: with(), Action: runBidderAdd},
					{Name: "remove", Usage: "Remove a bidder", ArgsUsage: "<address or id>", Flags: with(), Action: runBidderRemove},
				},
			},
			{
				Name: "open", Usage: "Open the auction of a slot (operator); a slot that has begun is refused",
				Flags: with(slotFlag(), &cli.Uint64Flag{Name: flagGas, Required: true, Usage: "gas for sale"},
					&cli.StringFlag{Name: flagL1RPC, Usage: "JSON-RPC of the gavel node whose slot clock the slot belongs to, when the L2 is another node (default: --l2rpc)"}),
				Action: runOpen,
			},
			{
				Name: "bid", Usage: "Bid for gas in a slot (registered bidder); approves WETH for the Auctioneer when needed",
				Flags: with(slotFlag(), &cli.StringFlag{Name: flagL1RPC, Usage: "JSON-RPC of the gavel node whose slot clock the slot belongs to, when the L2 is another node (default: --l2rpc)"},
					&cli.StringSliceFlag{Name: flagPrice, Required: true, Usage: "price per gas with its unit, e.g. 2gwei, 0.5gwei or 1000wei; repeat with --gas for several bids"},
					&cli.StringSliceFlag{Name: flagGas, Required: true, Usage: "gas to buy at the matching --price"},
				),
				Action: runBid,
			},
			{Name: "settle", Usage: "Run and settle the auction of a slot (operator)", Flags: with(slotFlag()), Action: runSettle},
			{
				Name: "info", Usage: "Show the addresses, an auction's state, a bidder's result and balances",
				Flags: with(
					&cli.Uint64Flag{Name: flagSlot, Usage: "slot to show (auction, bids, result, gas tokens, paid bundles)"},
					&cli.StringFlag{Name: flagBidder, Usage: "account to show (default: the signer, if a key is given)"},
					&cli.IntFlag{Name: flagRecent, Value: 8, Usage: "how many of the most recently opened auctions to list with their state (0: none)"},
					&cli.StringFlag{Name: flagL1RPC, Usage: "JSON-RPC of the gavel node whose slots the auctions sell, when the L2 is another node (default: --l2rpc)"},
				),
				Action: runInfo,
			},
			{
				Name: "pay", Usage: "Pay gas tokens of a slot for bundle hashes in the SettlementHouse (approves it when needed)",
				Flags: with(slotFlag(),
					&cli.Uint64Flag{Name: flagGas, Required: true, Usage: "gas tokens to pay (at least 21000)"},
					&cli.StringSliceFlag{Name: flagHash, Required: true, Usage: "bundle hash (as mev_sendBetaBundle returned it); repeat for several"},
				),
				Action: runPay,
			},
			operateCommand(with),
			verifyCommand(with),
			{Name: "payout", Usage: "Send a slot's proceeds to the Accountant: the beta block landed (operator)", Flags: with(slotFlag()), Action: runPayout},
			{Name: "refund", Usage: "Refund a slot's winners: the slot was missed (operator)", Flags: with(slotFlag()), Action: runRefund},
			{
				Name: "wrap", Usage: "Wrap ether into WETH (bidders pay in WETH)",
				Flags:  with(&cli.StringFlag{Name: flagAmount, Required: true, Usage: "ether to wrap, e.g. 10ether or 500gwei"}),
				Action: runWrap,
			},
			{
				Name: "openbidder", Usage: "Bid without a bidder seat, through the OpenBidder contract",
				Subcommands: []*cli.Command{
					{
						Name: "bid", Usage: "Bid for gas in a slot for a bundle hash, sending price × gas in ether",
						Flags: with(slotFlag(),
							&cli.StringFlag{Name: flagPrice, Required: true, Usage: "price per gas with its unit, e.g. 2gwei, 0.5gwei or 1000wei"},
							&cli.Uint64Flag{Name: flagGas, Required: true, Usage: "gas to buy (at least 21000)"},
							&cli.StringFlag{Name: flagHash, Required: true, Usage: "bundle hash the gas pays for (as mev_sendBetaBundle returned it)"},
						),
						Action: runOpenBid,
					},
					{Name: "cancel", Usage: "Cancel one of your bids before its auction settles", ArgsUsage: "<bid id>", Flags: with(), Action: runOpenCancel},
					{Name: "submit", Usage: "After settlement: pay the winning bids' bundle hashes and credit unspent ether (anyone)", Flags: with(slotFlag()), Action: runOpenSubmit},
					{Name: "claim-refund", Usage: "After a refunded slot: credit the bids that had won", Flags: with(slotFlag()), Action: runOpenClaim},
					{Name: "withdraw", Usage: "Take back your unspent or refunded ether", Flags: with(), Action: runOpenWithdraw},
				},
			},
			{
				Name: "reward", Usage: "Set the validator reward address of a slot in the Accountant (operator)",
				Flags:  with(slotFlag(), &cli.StringFlag{Name: "address", Required: true, Usage: "address that receives the slot's validator share"}),
				Action: runReward,
			},
		},
	}
}

// env is one command's connection.
type env struct {
	ctx    context.Context
	cancel context.CancelFunc
	out    io.Writer
	rpc    *rpc.Client
	be     auction.Backend
	signer *bind.TransactOpts
	client *auction.Client
}

// open connects, loads the key (required when needKey) and resolves the
// contract addresses (unless forDeploy).
func setup(c *cli.Context, needKey, forDeploy bool) (*env, error) {
	e := &env{out: c.App.Writer}
	if e.out == nil {
		e.out = os.Stdout
	}
	e.ctx, e.cancel = context.WithTimeout(c.Context, c.Duration(flagTimeout))
	keys := keySource{hex: c.String(flagKey), keystore: c.String(flagKeystore), account: c.String(flagAccount), password: c.String(flagPassword)}
	if needKey && keys.empty() {
		e.cancel()
		return nil, ErrNoKey
	}
	be, rc, err := dial(e.ctx, c.String(flagL2RPC))
	if err != nil {
		e.cancel()
		return nil, fmt.Errorf("%w at %s: %v", ErrConnection, c.String(flagL2RPC), err)
	}
	e.be, e.rpc = be, rc
	// Dialing HTTP connects to nothing yet: ask something, so a dead node is
	// reported as such and not as missing contracts.
	if _, err := be.ChainID(e.ctx); err != nil {
		e.close()
		return nil, fmt.Errorf("%w at %s: %v", ErrConnection, c.String(flagL2RPC), err)
	}
	if !keys.empty() {
		key, err := keys.load()
		if err != nil {
			e.close()
			return nil, err
		}
		chainID, err := be.ChainID(e.ctx)
		if err != nil {
			e.close()
			return nil, fmt.Errorf("reading the chain id from %s: %w", c.String(flagL2RPC), err)
		}
		e.signer = bind.NewKeyedTransactor(key, chainID)
	}
	if forDeploy {
		return e, nil
	}
	addrs, err := e.addresses(c)
	if err != nil {
		e.close()
		return nil, err
	}
	e.client = auction.NewClient(be, addrs, e.signer)
	return e, nil
}

func (e *env) close() {
	if e.rpc != nil {
		e.rpc.Close()
	}
	e.cancel()
}

func (e *env) addresses(c *cli.Context) (auction.Addresses, error) {
	var a auction.Addresses
	if file := c.String(flagAddresses); file != "" {
		data, err := os.ReadFile(file)
		if err != nil {
			return a, fmt.Errorf("%w: --addresses: %v", ErrUsage, err)
		}
		if err := json.Unmarshal(data, &a); err != nil {
			return a, fmt.Errorf("%w: --addresses %s is not an addresses file: %v", ErrUsage, file, err)
		}
	} else if e.rpc != nil && !c.IsSet(flagAuctioneer) {
		// A gavel dev node knows its contracts; other nodes answer "method not found".
		var found auction.Addresses
		if err := e.rpc.CallContext(e.ctx, &found, "mev_auctionContracts"); err == nil {
			a = found
		}
	}
	for _, f := range []struct {
		name string
		dst  *common.Address
	}{{flagAuctioneer, &a.Auctioneer}, {flagWETH, &a.WETH}, {flagSettlement, &a.SettlementHouse}, {flagAccountant, &a.Accountant}, {flagOpenBidder, &a.OpenBidder}} {
		if v := c.String(f.name); v != "" {
			addr, err := parseAddress(f.name, v)
			if err != nil {
				return a, err
			}
			*f.dst = addr
		}
	}
	if a.Auctioneer == (common.Address{}) {
		return a, ErrNoAddresses
	}
	return a, nil
}

func parseAddress(what, s string) (common.Address, error) {
	if !common.IsHexAddress(s) {
		return common.Address{}, fmt.Errorf("%w: %s %q is not an address (0x and 40 hex digits)", ErrUsage, what, s)
	}
	return common.HexToAddress(s), nil
}

func (e *env) printf(format string, args ...any) { fmt.Fprintf(e.out, format, args...) }

func (e *env) sent(what string, r *types.Receipt) {
	e.printf("%s: tx %s in block %d, gas used %d\n", what, r.TxHash, r.BlockNumber, r.GasUsed)
}

// ---------------------------------------------------------------- actions

func runDeploy(c *cli.Context) error {
	e, err := setup(c, true, true)
	if err != nil {
		return err
	}
	defer e.close()
	cfg := deploy.Config{AdminFeeBps: new(big.Int).SetUint64(c.Uint64("fee-bps"))}
	for name, dst := range map[string]*common.Address{"owner": &cfg.Owner, "operator": &cfg.Operator} {
		if v := c.String(name); v != "" {
			if *dst, err = parseAddress("--"+name, v); err != nil {
				return err
			}
		}
	}
	addrs, err := deploy.Deploy(e.ctx, e.be, e.signer, cfg)
	if err != nil {
		return err
	}
	printAddresses(e, addrs)
	if out := c.String(flagOut); out != "" {
		data, _ := json.MarshalIndent(addrs, "", "  ")
		if err := os.WriteFile(out, append(data, '\n'), 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", out, err)
		}
		e.printf("addresses written to %s\n", out)
	}
	return nil
}

func printAddresses(e *env, a auction.Addresses) {
	e.printf("WETH:            %s\n", a.WETH)
	e.printf("Accountant:      %s\n", a.Accountant)
	e.printf("Auctioneer:      %s\n", a.Auctioneer)
	e.printf("SettlementHouse: %s\n", a.SettlementHouse)
	e.printf("OpenBidder:      %s\n", a.OpenBidder)
}

func oneArg(c *cli.Context, what string) (string, error) {
	if c.NArg() != 1 {
		return "", fmt.Errorf("%w: expected one argument, the %s; got %d", ErrUsage, what, c.NArg())
	}
	return c.Args().First(), nil
}

func runBidderAdd(c *cli.Context) error {
	arg, err := oneArg(c, "bidder address")
	if err != nil {
		return err
	}
	addr, err := parseAddress("bidder", arg)
	if err != nil {
		return err
	}
	e, err := setup(c, true, false)
	if err != nil {
		return err
	}
	defer e.close()
	id, r, err := e.client.AddBidder(e.ctx, addr)
	if err != nil {
		return err
	}
	e.sent("bidder added", r)
	e.printf("%s is bidder %d\n", addr, id)
	return nil
}

func runBidderRemove(c *cli.Context) error {
	arg, err := oneArg(c, "bidder address or id")
	if err != nil {
		return err
	}
	e, err := setup(c, true, false)
	if err != nil {
		return err
	}
	defer e.close()
	var id uint8
	if n, convErr := strconv.ParseUint(arg, 10, 8); convErr == nil {
		id = uint8(n)
	} else {
		addr, err := parseAddress("bidder", arg)
		if err != nil {
			return fmt.Errorf("%w: expected a bidder address or an id 1..255", err)
		}
		if id, err = e.client.BidderID(e.ctx, addr); err != nil {
			return err
		}
		if id == 0 {
			return fmt.Errorf("%w: %s", auction.ErrNotRegistered, addr)
		}
	}
	r, err := e.client.RemoveBidder(e.ctx, id)
	if err != nil {
		return err
	}
	e.sent(fmt.Sprintf("bidder %d removed", id), r)
	return nil
}

func runOpen(c *cli.Context) error {
	e, err := setup(c, true, false)
	if err != nil {
		return err
	}
	defer e.close()
	slot, gas := c.Uint64(flagSlot), c.Uint64(flagGas)
	if err := e.checkFutureSlot(c, slot); err != nil {
		return err
	}
	r, err := e.client.OpenAuction(e.ctx, slot, gas)
	if err != nil {
		return err
	}
	e.sent(fmt.Sprintf("auction of slot %d opened with %d gas for sale", slot, gas), r)
	return nil
}

// checkFutureSlot refuses a slot that has begun, by the slot clock of the
// node at --l1rpc (default: --l2rpc) when that node tells it (the
// mev_nodeInfo of a gavel dev node, or of a gavel node whose relay follows
// a beacon node). Other nodes do not know the L1 slot clock: then the slot
// is not checked.
func (e *env) checkFutureSlot(c *cli.Context, slot uint64) error {
	rc := e.rpc
	if url := c.String(flagL1RPC); url != "" {
		l1, err := rpc.DialContext(e.ctx, url)
		if err != nil {
			return fmt.Errorf("%w at %s: %v", ErrConnection, url, err)
		}
		defer l1.Close()
		rc = l1
	}
	if rc == nil {
		return nil
	}
	var ni struct {
		CurrentSlot uint64 `json:"currentSlot"`
		SlotSeconds uint64 `json:"slotSeconds"`
	}
	if err := rc.CallContext(e.ctx, &ni, "mev_nodeInfo"); err != nil || ni.SlotSeconds == 0 {
		if c.String(flagL1RPC) != "" && err != nil {
			return fmt.Errorf("reading the slot clock from --l1rpc %s: %w", c.String(flagL1RPC), err)
		}
		return nil
	}
	if slot <= ni.CurrentSlot {
		return fmt.Errorf("%w: slot %d, the current slot is %d: open a later one", ErrPastSlot, slot, ni.CurrentSlot)
	}
	return nil
}

// l1Slot is the current slot of the L1 chain the auctions sell, from the
// mev_nodeInfo of --l1rpc, or of the --l2rpc node when it is the default
// one (a dev node is its own L2). An L2 given with --l2rpc alone is not
// asked: a separate L2 dev node answers its own clock, not the L1's. When
// not ok, from says why (empty: nothing to say).
func (e *env) l1Slot(c *cli.Context) (cur, secs uint64, from string, ok bool) {
	rc, from := e.rpc, "--l2rpc "+c.String(flagL2RPC)
	if url := c.String(flagL1RPC); url != "" {
		l1, err := rpc.DialContext(e.ctx, url)
		if err != nil {
			return 0, 0, fmt.Sprintf("--l1rpc %s: %v", url, err), false
		}
		defer l1.Close()
		rc, from = l1, "--l1rpc "+url
	} else if c.IsSet(flagL2RPC) {
		return 0, 0, "pass --l1rpc <the L1 gavel node> to see it (the node at --l2rpc counts its own slots)", false
	}
	if rc == nil {
		return 0, 0, "", false
	}
	var ni struct {
		CurrentSlot uint64 `json:"currentSlot"`
		SlotSeconds uint64 `json:"slotSeconds"`
	}
	// A gavel node tells its slot clock; other nodes answer "method not found".
	if err := rc.CallContext(e.ctx, &ni, "mev_nodeInfo"); err != nil || ni.SlotSeconds == 0 {
		return 0, 0, "", false
	}
	return ni.CurrentSlot, ni.SlotSeconds, from, true
}

// notOpenAdvice adds to a bid's AuctionNotOpen revert what a bidder can do:
// the current L1 slot when it is known, and whether the slot has begun or
// its auction is not open yet (only the operator opens auctions).
func (e *env) notOpenAdvice(c *cli.Context, slot uint64, err error) error {
	var rev *auction.RevertError
	if !errors.As(err, &rev) || rev.Name != "AuctionNotOpen" {
		return err
	}
	cur, _, _, ok := e.l1Slot(c)
	switch {
	case !ok:
		return fmt.Errorf("%w\nslot %d has no open auction: the operator opens each slot's auction some slots ahead and it closes when settled; `gavel auction info` lists the open ones (pass --l1rpc to see the current L1 slot)", err, slot)
	case slot <= cur:
		return fmt.Errorf("%w\nslot %d has begun (the current slot is %d): bid for a later slot; `gavel auction info` lists the open auctions", err, slot, cur)
	default:
		return fmt.Errorf("%w\nthe current slot is %d: slot %d's auction is not open (yet, or no longer: settled auctions take no bids); the operator opens each slot's auction some slots ahead (gavel --dev: 32), `gavel auction info` lists the open ones", err, cur, slot)
	}
}

func runBid(c *cli.Context) error {
	prices, gases := c.StringSlice(flagPrice), c.StringSlice(flagGas)
	if len(prices) != len(gases) {
		return fmt.Errorf("%w: %d --price for %d --gas; give one price per gas amount", ErrUsage, len(prices), len(gases))
	}
	bids := make([]auction.Bid, len(prices))
	for i := range prices {
		p, err := ParsePrice(prices[i])
		if err != nil {
			return fmt.Errorf("--price: %w", err)
		}
		g, err := strconv.ParseUint(strings.TrimSpace(gases[i]), 10, 64)
		if err != nil {
			return fmt.Errorf("%w: --gas %q is not a whole number", ErrUsage, gases[i])
		}
		bids[i] = auction.Bid{Price: p, Gas: g}
	}
	e, err := setup(c, true, false)
	if err != nil {
		return err
	}
	defer e.close()
	slot := c.Uint64(flagSlot)
	r, err := e.client.PlaceBids(e.ctx, slot, bids)
	if err != nil {
		return e.notOpenAdvice(c, slot, err)
	}
	e.sent(fmt.Sprintf("%d bid(s) placed in slot %d", len(bids), slot), r)
	return nil
}

func runSettle(c *cli.Context) error {
	e, err := setup(c, true, false)
	if err != nil {
		return err
	}
	defer e.close()
	slot := c.Uint64(flagSlot)
	r, err := e.client.Settle(e.ctx, slot)
	if err != nil {
		return err
	}
	e.sent(fmt.Sprintf("auction of slot %d settled", slot), r)
	st, err := e.client.Auction(e.ctx, slot)
	if err != nil {
		return err
	}
	e.printf("clearing price %s per gas, %s gas sold, proceeds %s\n", FormatWei(st.ClearingPrice), st.ItemsSold, FormatWei(st.Proceeds))
	return nil
}

func parseHash(h string) (common.Hash, error) {
	if !strings.HasPrefix(h, "0x") && !strings.HasPrefix(h, "0X") || len(h) != 66 {
		return common.Hash{}, fmt.Errorf("%w: --hash %q is not a 0x-prefixed 32-byte hash", ErrUsage, h)
	}
	b, err := hex.DecodeString(h[2:])
	if err != nil {
		return common.Hash{}, fmt.Errorf("%w: --hash %q is not a 0x-prefixed 32-byte hash: %v", ErrUsage, h, err)
	}
	return common.BytesToHash(b), nil
}

func runPay(c *cli.Context) error {
	var hashes []common.Hash
	for _, h := range c.StringSlice(flagHash) {
		hash, err := parseHash(h)
		if err != nil {
			return err
		}
		hashes = append(hashes, hash)
	}
	e, err := setup(c, true, false)
	if err != nil {
		return err
	}
	defer e.close()
	slot, gas := c.Uint64(flagSlot), c.Uint64(flagGas)
	r, err := e.client.Pay(e.ctx, slot, gas, hashes)
	if err != nil {
		return err
	}
	e.sent(fmt.Sprintf("paid %d gas of slot %d for %d bundle hash(es)", gas, slot, len(hashes)), r)
	return nil
}

func runPayout(c *cli.Context) error {
	return operatorSlot(c, "paid out to the Accountant", (*auction.Client).Payout)
}

func runRefund(c *cli.Context) error {
	return operatorSlot(c, "refunded to its winners", (*auction.Client).Refund)
}

func operatorSlot(c *cli.Context, what string, do func(*auction.Client, context.Context, uint64) (*types.Receipt, error)) error {
	e, err := setup(c, true, false)
	if err != nil {
		return err
	}
	defer e.close()
	slot := c.Uint64(flagSlot)
	r, err := do(e.client, e.ctx, slot)
	if err != nil {
		return err
	}
	e.sent(fmt.Sprintf("slot %d %s", slot, what), r)
	return nil
}

func runWrap(c *cli.Context) error {
	amount, err := ParseAmount(c.String(flagAmount))
	if err != nil {
		return fmt.Errorf("--amount: %w", err)
	}
	e, err := setup(c, true, false)
	if err != nil {
		return err
	}
	defer e.close()
	r, err := e.client.Wrap(e.ctx, amount)
	if err != nil {
		return err
	}
	e.sent("wrapped "+FormatWei(amount), r)
	bal, err := e.client.WETHBalance(e.ctx, e.client.From())
	if err != nil {
		return err
	}
	e.printf("WETH balance of %s: %s\n", e.client.From(), FormatWei(bal))
	return nil
}

func runReward(c *cli.Context) error {
	addr, err := parseAddress("--address", c.String("address"))
	if err != nil {
		return err
	}
	e, err := setup(c, true, false)
	if err != nil {
		return err
	}
	defer e.close()
	slot := c.Uint64(flagSlot)
	r, err := e.client.SetValidatorRewardAddress(e.ctx, slot, addr)
	if err != nil {
		return err
	}
	e.sent(fmt.Sprintf("slot %d validator reward address set to %s", slot, addr), r)
	return nil
}

func runInfo(c *cli.Context) error {
	e, err := setup(c, false, false)
	if err != nil {
		return err
	}
	defer e.close()
	who := e.client.From()
	if v := c.String(flagBidder); v != "" {
		if who, err = parseAddress("--bidder", v); err != nil {
			return err
		}
	}
	printAddresses(e, e.client.Addresses())
	if cur, secs, from, ok := e.l1Slot(c); ok {
		e.printf("L1 slot:         %d now (one slot every %ds, from %s)\n", cur, secs, from)
	} else if from != "" {
		e.printf("L1 slot:         unknown: %s\n", from)
	}
	if who != (common.Address{}) {
		id, err := e.client.BidderID(e.ctx, who)
		if err != nil {
			return err
		}
		weth, err := e.client.WETHBalance(e.ctx, who)
		if err != nil {
			return err
		}
		allowed, err := e.client.WETHAllowance(e.ctx, who)
		if err != nil {
			return err
		}
		e.printf("\naccount %s\n", who)
		if id == 0 {
			e.printf("  bidder id:        none (not registered)\n")
		} else {
			e.printf("  bidder id:        %d\n", id)
		}
		e.printf("  WETH balance:     %s\n", FormatWei(weth))
		if allowed.BitLen() == 256 && allowed.Cmp(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))) == 0 {
			e.printf("  WETH allowance:   unlimited (for the Auctioneer)\n")
		} else {
			e.printf("  WETH allowance:   %s (for the Auctioneer)\n", FormatWei(allowed))
		}
	}
	if n := c.Int(flagRecent); n > 0 {
		if err := printRecent(e, n); err != nil {
			return err
		}
	}
	if !c.IsSet(flagSlot) {
		return nil
	}
	slot := c.Uint64(flagSlot)
	st, err := e.client.Auction(e.ctx, slot)
	if err != nil {
		return err
	}
	e.printf("\nslot %d auction: %s\n", slot, stateWord(st))
	e.printf("  gas for sale:     %s\n", st.ItemsForSale)
	e.printf("  manual bids:      %s\n", st.Bids)
	bids, err := e.client.Bids(e.ctx, slot)
	if err != nil {
		return err
	}
	for i, b := range bids {
		e.printf("    #%d bidder %d: %d gas at %s per gas\n", i, b.BidderID, b.Gas, FormatWei(b.Price))
	}
	if st.IsSettled {
		e.printf("  clearing price:   %s per gas\n", FormatWei(st.ClearingPrice))
		e.printf("  gas sold:         %s\n", st.ItemsSold)
		e.printf("  proceeds:         %s\n", FormatWei(st.Proceeds))
	}
	if who != (common.Address{}) {
		res, err := e.client.BidderInfo(e.ctx, slot, who)
		var re *auction.RevertError
		switch {
		case err == nil:
			e.printf("  result of %s: bought %s gas, paid %s\n", who, res.ItemsBought, FormatWei(res.AmountOwed))
		case errors.As(err, &re) && (re.Name == "AuctionNotSettled" || re.Name == "BidderNotParticipating"):
			e.printf("  result of %s: none (%s)\n", who, re.Name)
		default:
			return err
		}
		tokens, err := e.client.GasBalance(e.ctx, who, slot)
		if err != nil {
			return err
		}
		e.printf("  gas tokens of %s: %s\n", who, tokens)
	}
	bundles, err := e.client.Bundles(e.ctx, slot)
	if err != nil {
		return err
	}
	e.printf("  paid bundles (queryBundles): %d\n", len(bundles))
	for i, b := range bundles {
		hs := make([]string, len(b.BundleHashes))
		for j, h := range b.BundleHashes {
			hs[j] = h.Hex()
		}
		e.printf("    #%d %s paid %s gas for %s\n", i, b.Submitter, b.AmountOfGas, strings.Join(hs, ", "))
	}
	return nil
}

// printRecent lists the last n auctions opened with their state: what the
// operator (`gavel auction operate`, or the dev node's own loop) did.
func printRecent(e *env, n int) error {
	slots, err := e.client.RecentSlots(e.ctx, n)
	if err != nil {
		return err
	}
	e.printf("\nrecent auctions (last %d opened):\n", n)
	if len(slots) == 0 {
		e.printf("  none\n")
	}
	for _, s := range slots {
		st, err := e.client.Auction(e.ctx, s)
		if err != nil {
			return err
		}
		e.printf("  slot %-8d %-10s %s gas for sale", s, stateWord(st), st.ItemsForSale)
		switch {
		case st.IsSettled && st.ItemsSold.Sign() == 0:
			e.printf(", nothing sold")
		case st.IsSettled:
			e.printf(", %s sold at %s per gas", st.ItemsSold, FormatWei(st.ClearingPrice))
		default:
			e.printf(", %s bid(s)", st.Bids)
		}
		e.printf("\n")
	}
	return nil
}

func stateWord(st auction.AuctionState) string {
	return auction.Status{IsOpen: st.IsOpen, IsSettled: st.IsSettled, IsPaidOut: st.IsPaidOut, IsRefunded: st.IsRefunded}.Word()
}

func runOpenBid(c *cli.Context) error {
	price, err := ParsePrice(c.String(flagPrice))
	if err != nil {
		return fmt.Errorf("--price: %w", err)
	}
	hash, err := parseHash(c.String(flagHash))
	if err != nil {
		return err
	}
	e, err := setup(c, true, false)
	if err != nil {
		return err
	}
	defer e.close()
	slot, gas := c.Uint64(flagSlot), c.Uint64(flagGas)
	id, r, err := e.client.OpenBid(e.ctx, slot, price, gas, hash)
	if err != nil {
		return err
	}
	e.sent(fmt.Sprintf("OpenBidder bid %v placed in slot %d (%d gas at %s per gas)", id, slot, gas, FormatWei(price)), r)
	return nil
}

func runOpenCancel(c *cli.Context) error {
	arg, err := oneArg(c, "bid id")
	if err != nil {
		return err
	}
	id, ok := new(big.Int).SetString(arg, 10)
	if !ok || id.Sign() < 0 {
		return fmt.Errorf("%w: bid id %q is not a whole number", ErrUsage, arg)
	}
	e, err := setup(c, true, false)
	if err != nil {
		return err
	}
	defer e.close()
	r, err := e.client.OpenCancel(e.ctx, id)
	if err != nil {
		return err
	}
	e.sent(fmt.Sprintf("OpenBidder bid %v cancelled", id), r)
	return nil
}

func runOpenSubmit(c *cli.Context) error {
	e, err := setup(c, true, false)
	if err != nil {
		return err
	}
	defer e.close()
	slot := c.Uint64(flagSlot)
	before, err := e.client.Bundles(e.ctx, slot)
	if err != nil {
		return err
	}
	r, err := e.client.OpenSubmit(e.ctx, slot)
	if err != nil {
		return err
	}
	after, err := e.client.Bundles(e.ctx, slot)
	if err != nil {
		return err
	}
	var paid int
	for _, b := range after[min(len(before), len(after)):] {
		if b.Submitter == e.client.Addresses().OpenBidder {
			paid += len(b.BundleHashes)
		}
	}
	if paid == 0 {
		e.sent(fmt.Sprintf("slot %d settled by the OpenBidder: nothing was paid (no winning OpenBidder bids)", slot), r)
		return nil
	}
	e.sent(fmt.Sprintf("slot %d settled by the OpenBidder: %d winning bundle hash(es) paid", slot, paid), r)
	return nil
}

func runOpenClaim(c *cli.Context) error {
	return operatorSlot(c, "refund credited by the OpenBidder", (*auction.Client).OpenClaimRefund)
}

func runOpenWithdraw(c *cli.Context) error {
	e, err := setup(c, true, false)
	if err != nil {
		return err
	}
	defer e.close()
	owed, err := e.client.OpenOwed(e.ctx, e.client.From())
	if err != nil {
		return err
	}
	r, err := e.client.OpenWithdraw(e.ctx)
	if err != nil {
		return err
	}
	e.sent("withdrew "+FormatWei(owed)+" from the OpenBidder", r)
	return nil
}
