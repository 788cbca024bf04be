package auctioncli

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strconv"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/params"
)

// ErrNotHonored is returned by `auction verify` when the slot's L1 block did
// not honor what was paid for it on the L2: a bundle the relay had was left
// out, cut short or put out of order for a reason that is not its buyer's.
var ErrNotHonored = errors.New("slot not honored")

// ErrNoSlotBlock is returned by `auction verify` for a slot whose L1 block
// cannot be judged yet: the L1 head is before it.
var ErrNoSlotBlock = errors.New("no L1 block for the slot yet")

const flagL2Block = "l2block"

func verifyCommand(with func(...cli.Flag) []cli.Flag) *cli.Command {
	return &cli.Command{
		Name:  "verify",
		Usage: "Check from L1 and L2 alone that a slot's L1 block honored what was paid for it on the L2 (bidders); exits non-zero when not",
		Description: "verify reads slot S's settlement (SettlementHouse queryBundles) on the L2 at --l2block (default\n" +
			"the latest), finds the L1 block of slot S on the L1 node (--l1rpc, default --l2rpc: a `gavel --dev`\n" +
			"that is its own L2), asks the L1 node for each paid bundle's txs (mev_getBetaBundle), and says\n" +
			"entry by entry whether the block holds each bundle, as a prefix of its txs, in settlement\n" +
			"order, as the block's last txs (after the alpha), and why not where it does not. A bundle cut\n" +
			"short by its buyer (never sent to the relay, gas budget too small, nonce used elsewhere, funds\n" +
			"moved, fee cap below the base fee, a tip) does not make the slot dishonored; anything else\n" +
			"does, as does a missing block when a paid bundle was due. See docs/beta-rules.md.",
		Flags: with(slotFlag(),
			&cli.StringFlag{Name: flagL1RPC, EnvVars: []string{"GAVEL_L1RPC"}, Usage: "JSON-RPC URL of the L1 gavel node that sold the slot (default: --l2rpc)"},
			&cli.Uint64Flag{Name: flagL2Block, Usage: "L2 block number to read the settlement at (default: the latest; use the relay's l2_block from beta_slots to read what it read)"},
			&cli.Uint64Flag{Name: flagGenesisTime, Usage: "L1 genesis time, unix seconds (default: the L1 node's mev_nodeInfo)"},
			&cli.Uint64Flag{Name: flagSecondsPerSlot, Usage: "L1 slot time in seconds (default: the L1 node's mev_nodeInfo)"},
		),
		Action: runVerify,
	}
}

func runVerify(c *cli.Context) error {
	e, err := setup(c, false, false)
	if err != nil {
		return err
	}
	defer e.close()
	slot := c.Uint64(flagSlot)

	l1URL := c.String(flagL1RPC)
	if l1URL == "" {
		l1URL = c.String(flagL2RPC)
	}
	rc, err := rpc.DialContext(e.ctx, l1URL)
	if err != nil {
		return fmt.Errorf("%w at %s: %v", ErrConnection, l1URL, err)
	}
	defer rc.Close()
	l1 := ethclient.NewClient(rc)
	clock, err := verifyClock(c, e.ctx, rc, l1URL)
	if err != nil {
		return err
	}

	number := c.Uint64(flagL2Block)
	if !c.IsSet(flagL2Block) {
		head, err := e.be.HeaderByNumber(e.ctx, nil)
		if err != nil {
			return fmt.Errorf("%w at %s: %v", ErrConnection, c.String(flagL2RPC), err)
		}
		number = head.Number.Uint64()
	}
	entries, err := e.client.BundlesAt(e.ctx, slot, number)
	if err != nil {
		return fmt.Errorf("reading the settlement of slot %d on the L2 at block %d: %w", slot, number, err)
	}

	in := &verifyInput{slot: slot, l2Block: number, entries: entries, pooled: map[common.Hash][]*types.Transaction{}}
	if in.block, err = blockAtSlot(e.ctx, l1, clock, slot); err != nil {
		return err
	}
	if in.block != nil {
		if in.receipts, err = l1.BlockReceipts(e.ctx, rpc.BlockNumberOrHashWithHash(in.block.Hash(), false)); err != nil {
			return fmt.Errorf("reading the receipts of L1 block %d: %w", in.block.NumberU64(), err)
		}
		chainID, err := l1.ChainID(e.ctx)
		if err != nil {
			return fmt.Errorf("%w at %s: %v", ErrConnection, l1URL, err)
		}
		in.signer = types.LatestSignerForChainID(chainID)
		in.state = l1
	}
	for _, en := range entries {
		for _, h := range en.BundleHashes {
			if _, done := in.pooled[h]; done {
				continue
			}
			txs, err := pooledBundle(e.ctx, rc, h, slot)
			if err != nil {
				return err
			}
			in.pooled[h] = txs
		}
	}
	v, err := judge(e.ctx, in)
	if err != nil {
		return err
	}
	v.print(e)
	if !v.honored {
		return fmt.Errorf("%w: slot %d, %s", ErrNotHonored, slot, v.summary)
	}
	return nil
}

// verifyClock is the L1 slot clock from the flags or the L1 node.
func verifyClock(c *cli.Context, ctx context.Context, rc *rpc.Client, url string) (params.SlotClock, error) {
	clock := params.SlotClock{GenesisTime: c.Uint64(flagGenesisTime), SecondsPerSlot: c.Uint64(flagSecondsPerSlot)}
	if c.IsSet(flagGenesisTime) && c.IsSet(flagSecondsPerSlot) {
		return clock, nil
	}
	var ni nodeInfo
	if err := rc.CallContext(ctx, &ni, "mev_nodeInfo"); err != nil {
		return clock, fmt.Errorf("%w (mev_nodeInfo at %s: %v)", ErrNoClock, url, err)
	}
	if !c.IsSet(flagGenesisTime) {
		clock.GenesisTime = ni.GenesisTime
	}
	if !c.IsSet(flagSecondsPerSlot) {
		clock.SecondsPerSlot = ni.SlotSeconds
	}
	if clock.SecondsPerSlot == 0 {
		return clock, fmt.Errorf("%w (the node at %s reports no slot clock)", ErrNoClock, url)
	}
	return clock, nil
}

// headerReader is what blockAtSlot needs of the L1 node.
type headerReader interface {
	HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error)
	BlockByNumber(ctx context.Context, number *big.Int) (*types.Block, error)
}

// blockAtSlot finds the L1 block of slot (its timestamp is the slot's
// start) by binary search over block numbers; nil when the slot has passed
// without a block (missed), ErrNoSlotBlock when the head is before it.
func blockAtSlot(ctx context.Context, l1 headerReader, clock params.SlotClock, slot uint64) (*types.Block, error) {
	want := clock.SlotTime(slot)
	head, err := l1.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("reading the L1 head: %w", err)
	}
	if head.Time < want {
		return nil, fmt.Errorf("%w: slot %d starts at %d, the L1 head (block %d) is at %d (slot %d)", ErrNoSlotBlock, slot, want, head.Number, head.Time, clock.SlotAt(head.Time))
	}
	lo, hi := uint64(0), head.Number.Uint64() // the first block with time >= want is in [lo, hi]
	for lo < hi {
		mid := lo + (hi-lo)/2
		h, err := l1.HeaderByNumber(ctx, new(big.Int).SetUint64(mid))
		if err != nil {
			return nil, fmt.Errorf("reading L1 block %d: %w", mid, err)
		}
		if h.Time < want {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	b, err := l1.BlockByNumber(ctx, new(big.Int).SetUint64(lo))
	if err != nil {
		return nil, fmt.Errorf("reading L1 block %d: %w", lo, err)
	}
	if b.Time() != want {
		return nil, nil // the next block is a later slot's: slot was missed
	}
	return b, nil
}

// betaBundleJSON is the part of mev_getBetaBundle verify reads.
type betaBundleJSON struct {
	Txs   []hexutil.Bytes `json:"txs"`
	Slots []struct {
		Slot string `json:"slot"`
	} `json:"slots"`
}

// pooledBundle asks the L1 node for bundle h's txs; nil when the node never
// got it for slot (an unknown hash is an answer, not a failure).
func pooledBundle(ctx context.Context, rc *rpc.Client, h common.Hash, slot uint64) ([]*types.Transaction, error) {
	var res betaBundleJSON
	if err := rc.CallContext(ctx, &res, "mev_getBetaBundle", h); err != nil {
		var rpcErr rpc.Error
		if errors.As(err, &rpcErr) && rpcErr.ErrorCode() != -32603 && rpcErr.ErrorCode() != -32601 {
			return nil, nil // unknown to the node
		}
		return nil, fmt.Errorf("asking the L1 node for beta bundle %s (mev_getBetaBundle): %w", h, err)
	}
	sent := false
	for _, s := range res.Slots {
		sent = sent || s.Slot == strconv.FormatUint(slot, 10)
	}
	if !sent {
		return nil, nil
	}
	txs := make([]*types.Transaction, len(res.Txs))
	for i, raw := range res.Txs {
		txs[i] = new(types.Transaction)
		if err := txs[i].UnmarshalBinary(raw); err != nil {
			return nil, fmt.Errorf("beta bundle %s from the L1 node: tx %d: %w", h, i, err)
		}
	}
	if got := bundle.Hash(txs); got != h {
		return nil, fmt.Errorf("the L1 node answered bundle %s with txs that hash to %s", h, got)
	}
	return txs, nil
}
