package eth

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/devauction"
	"github.com/gavel-eth/gavel/contracts/operator"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/miner"
	"github.com/gavel-eth/gavel/params"
)

// DevAuctionConfig is the [Mev.Dev.Auction] section: the dev auction
// operator, which opens, settles, pays out and refunds an auction for every
// dev slot (contracts/operator).
type DevAuctionConfig struct {
	// Disabled deploys no contracts at start-up (--dev.auction=false).
	Disabled bool `toml:",omitempty"`
	// NoOperator turns the in-process operator loop off (--dev.auction.operate=false):
	// auctions are then opened and settled by hand (`gavel auction open|settle`)
	// or by `gavel auction operate`.
	NoOperator bool `toml:",omitempty"`
	// Gas is the beta gas sold per slot (--dev.auction.gas).
	Gas uint64 `toml:",omitempty"`
	// Lead is how many slots ahead an auction opens (--dev.auction.lead).
	Lead uint64 `toml:",omitempty"`
	// SettleLead is how many slots before its slot an auction settles (--dev.auction.settlelead).
	SettleLead uint64 `toml:",omitempty"`
}

// operatorConfig is the loop's configuration. On the dev chain a slot's
// block is final as soon as the slot is over (one node seals it and never
// reorganises), so a slot is judged at once, with one slot of grace.
func (c DevAuctionConfig) operatorConfig() operator.Config {
	return operator.Config{Gas: c.Gas, Lead: c.Lead, SettleLead: c.SettleLead, Grace: 1}
}

// DevAuction is the dev chain's auction: the contracts deployed at start-up
// and, unless turned off, the operator loop run after every dev slot.
type DevAuction struct {
	Service *devauction.Service

	node *Node
	cfg  DevAuctionConfig

	mu      sync.Mutex
	op      *operator.Operator // created once the deployment is mined
	off     bool               // the loop cannot run: logged once
	observe func(operator.Transition)
}

// OnTransition registers fn to see every transition of the operator loop,
// from its first tick on. Call it before the node starts.
func (d *DevAuction) OnTransition(fn func(operator.Transition)) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.observe = fn
}

// EnableDevAuction deploys the auction contracts on the dev chain at
// start-up and runs the operator loop after every slot. New calls it in dev
// mode with the wall clock; tests with manual slots call it from
// testnode.Options.Register when they want the auction (the deployment's
// transactions fill the first blocks).
func (n *Node) EnableDevAuction(cfg DevAuctionConfig) (*DevAuction, error) {
	if n.beacon == nil {
		return nil, errors.New("the dev auction needs dev mode")
	}
	if n.devAuction != nil {
		return n.devAuction, nil
	}
	if !cfg.NoOperator {
		if err := cfg.operatorConfig().Check(); err != nil {
			return nil, err
		}
	}
	d := &DevAuction{Service: devauction.Register(n.stack, devauction.Config{}), node: n, cfg: cfg}
	n.auction, n.devAuction = d.Service, d
	if !cfg.NoOperator {
		n.beacon.OnSlot(d.onSlot)
	}
	return d, nil
}

// Operator returns the operator loop, nil until the deployment is mined (or
// when the loop is off).
func (d *DevAuction) Operator() *operator.Operator {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.op
}

// onSlot runs the operator loop for the slot just over.
func (d *DevAuction) onSlot(ctx context.Context, slot uint64, _ *types.Header) {
	op, err := d.loop(ctx)
	if op == nil {
		switch {
		case errors.Is(err, errOperatedElsewhere): // the separate-L2 setup: expected
			log.Info("Dev auction operator off", "why", err)
		case err != nil:
			log.Error("Dev auction operator not started", "err", err)
		}
		return
	}
	if err := op.Tick(ctx, slot); err != nil {
		log.Warn("Dev auction operator", "slot", slot, "err", err)
	}
}

// loop creates the operator once the contracts are deployed: the dev
// chain's own, or with --beta.l2rpc those of the L2 the relay reads.
func (d *DevAuction) loop(ctx context.Context) (*operator.Operator, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.op != nil || d.off {
		return d.op, nil
	}
	var (
		client *auction.Client
		err    error
	)
	if url := d.node.cfg.Beta.L2RPC; url != "" {
		client, err = d.remoteClient(ctx, url)
		if err != nil {
			d.off = true
			return nil, err
		}
		if client == nil {
			return nil, nil // not reachable or not deployed yet: next slot
		}
	} else {
		if _, ok := d.Service.Deployed(); !ok {
			return nil, nil
		}
		client, err = d.Service.OperatorClient(ctx, ethclient.NewClient(d.node.stack.Attach()))
	}
	if err != nil {
		d.off = true
		return nil, err
	}
	clock := params.SlotClock{GenesisTime: d.node.beacon.GenesisTime(), SecondsPerSlot: uint64(d.node.beacon.Period() / time.Second)}
	deliveries := operator.CanonicalDeliveries{L1: ethclient.NewClient(d.node.stack.Attach()), Clock: clock, Accounts: betaAccounts{d.node}}
	d.op, err = operator.New(client, deliveries, d.cfg.operatorConfig())
	if err != nil {
		d.off = true
		return nil, err
	}
	if d.observe != nil {
		d.op.OnTransition(d.observe)
	}
	return d.op, nil
}

// remoteClient is a client of the L2's contracts (--beta.l2rpc, the
// addresses of --beta.auctioneer or the dev deployment's) signing as the dev
// operator. It returns nil and no error while the L2 or its Auctioneer is not
// there yet, and an error when the dev operator is not the Auctioneer's
// operator (run `gavel auction operate` with the right key then).
func (d *DevAuction) remoteClient(ctx context.Context, url string) (*auction.Client, error) {
	addrs := devAuctionAddresses(d.node)
	if a, err := betaAddresses(d.node.cfg.Beta); err != nil {
		return nil, err
	} else if a != nil {
		addrs.Auctioneer, addrs.SettlementHouse = a.Auctioneer, a.SettlementHouse
	}
	rc, err := rpc.DialContext(ctx, url)
	if err != nil {
		return nil, nil
	}
	client, err := d.Service.OperatorClient(ctx, ethclient.NewClient(rc))
	if err != nil {
		rc.Close()
		return nil, nil
	}
	client = auction.NewClient(client.Backend(), addrs, client.Signer())
	op, err := client.Operator(ctx)
	if err != nil {
		rc.Close()
		return nil, nil // no Auctioneer there (yet)
	}
	if op != client.From() {
		rc.Close()
		return nil, fmt.Errorf("%w: the L2 Auctioneer %s at %s is operated by %s, not by the dev operator %s: the in-process operator stays off (run `gavel auction operate` with the operator's key)",
			errOperatedElsewhere, addrs.Auctioneer, url, op, client.From())
	}
	log.Info("Dev auction operator runs on the L2", "l2", url, "auctioneer", addrs.Auctioneer)
	return client, nil
}

// errOperatedElsewhere: the L2 Auctioneer has another operator than the dev
// one, as in the separate-L2 setup, where `gavel auction operate` runs it.
var errOperatedElsewhere = errors.New("operated elsewhere")

// betaAccounts gives the node's account of each slot's beta merges, to
// the dev operator and mev_deliveredBeta (operator.Accounts): the block the
// relay delivered and the merged fallback block of the dev proposer, each
// with what became of the paid bundles pooled for it (the outcomes stored
// when the block was built), and whether a beta part was due.
type betaAccounts struct{ n *Node }

// Account implements operator.Accounts.
func (d betaAccounts) Account(ctx context.Context, slot uint64) (operator.SlotAccount, error) {
	if d.n.relay == nil {
		return operator.SlotAccount{Known: true}, nil // no relay, no beta merge, nothing owed
	}
	r := d.n.relay.Relay()
	if r == nil {
		return operator.SlotAccount{}, fmt.Errorf("%w: it has no chain constants from a beacon node yet, so it delivered nothing it can tell of; ask again once /readyz answers 200", ErrRelayNotReady)
	}
	acct := operator.SlotAccount{Known: true, Merges: []operator.Merge{}}
	merge := func(block common.Hash) *operator.Merge {
		for i := range acct.Merges {
			if acct.Merges[i].Block == block {
				return &acct.Merges[i]
			}
		}
		acct.Merges = append(acct.Merges, operator.Merge{Block: block, Bundles: []operator.BundleOutcome{}})
		return &acct.Merges[len(acct.Merges)-1]
	}
	var delivered common.Hash
	rec, err := d.n.store.Delivered(ctx, slot)
	switch {
	case err == nil:
		delivered = common.Hash(rec.BlockHash)
		merge(delivered)
	case !errors.Is(err, store.ErrNotFound):
		return operator.SlotAccount{}, fmt.Errorf("reading the delivery of slot %d: %w", slot, err)
	}
	outs, err := d.n.store.BetaOutcomes(ctx, slot)
	if err != nil {
		return operator.SlotAccount{}, fmt.Errorf("reading the beta outcomes of slot %d: %w", slot, err)
	}
	for _, o := range outs {
		block := o.BlockHash
		if block == (common.Hash{}) { // the delivered block was the alpha as it was
			if block = delivered; block == (common.Hash{}) {
				continue
			}
		}
		out := operator.BundleOutcome{Hash: o.Hash, Reason: o.Reason, Included: []common.Hash{}}
		if o.State == store.BetaIncluded {
			out.Included = o.TxHashes
		} else {
			out.SellerFault = sellerFault(o.Reason)
		}
		m := merge(block)
		m.Bundles = append(m.Bundles, out)
	}
	due, err := r.BetaDue(ctx, slot)
	if err != nil {
		log.Debug("Beta account of a slot unknown: the L2 could not be read", "slot", slot, "err", err)
		return operator.SlotAccount{}, nil
	}
	acct.Due = due
	return acct, nil
}

// sellerFault tells, from the reason a paid bundle was left out of its
// merged block, whether the seller failed (no room left in the block, no
// beta part at all) rather than the bundle's own txs (invalid on the state
// they met: a nonce used elsewhere, funds moved, a fee cap under the base
// fee; a tip; more gas than its entry paid for). Reasons it does not know
// count as the seller's, so a buyer is refunded when in doubt.
func sellerFault(reason string) bool {
	for _, buyers := range []string{miner.ReasonInvalid, miner.ReasonTip, miner.ReasonEntryBudget, miner.ReasonNoGas} {
		if strings.HasPrefix(reason, buyers) {
			return false
		}
	}
	return true
}

// OperatorAPI is the relay's part of the mev namespace for auction
// operators: what became of a slot's beta part.
type OperatorAPI struct{ n *Node }

// DeliveredBeta is mev_deliveredBeta's answer: the node's account of the
// slot's beta merges, which `gavel auction operate` judges against the
// canonical L1 block of the slot (operator.Judge).
type DeliveredBeta struct {
	Slot string `json:"slot"`
	operator.SlotAccount
}

// DeliveredBeta tells an auction operator (`gavel auction operate`) what
// the beta merge did for slot: mev_deliveredBeta. Ask once the slot is over.
func (api *OperatorAPI) DeliveredBeta(ctx context.Context, slot hexutil.Uint64) (*DeliveredBeta, error) {
	acct, err := betaAccounts{api.n}.Account(ctx, uint64(slot))
	if err != nil {
		return nil, err
	}
	return &DeliveredBeta{Slot: strconv.FormatUint(uint64(slot), 10), SlotAccount: acct}, nil
}
