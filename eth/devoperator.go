package eth

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/devauction"
	"github.com/gavel-eth/gavel/contracts/operator"
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
// outcome is known as soon as the slot is over, so no grace is needed
// beyond one slot.
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
	d.op, err = operator.New(client, relayDeliveries{d.node}, d.cfg.operatorConfig())
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

// relayDeliveries tells the dev operator (and mev_deliveredBeta) what the relay delivered
// (relay.DeliveredBeta): a slot without a block delivered through the relay
// is refunded, as is one whose delivered block left out paid pooled
// bundles; paid hashes that no pooled bundle has do not count, so a winner
// cannot force a refund by paying an unknown hash.
type relayDeliveries struct{ n *Node }

// Delivered implements operator.Deliveries.
func (d relayDeliveries) Delivered(ctx context.Context, slot uint64) (included, known bool, err error) {
	if d.n.relay == nil {
		return false, true, nil
	}
	return d.n.relay.Relay().DeliveredBeta(ctx, slot)
}

// OperatorAPI is the relay's part of the mev namespace for auction
// operators: what became of a slot's beta part.
type OperatorAPI struct{ n *Node }

// DeliveredBeta is mev_deliveredBeta's answer.
type DeliveredBeta struct {
	Slot string `json:"slot"`
	// Known is false while the relay cannot tell yet (the L2 could not be read).
	Known bool `json:"known"`
	// Included: the slot's block was delivered through the relay with its
	// beta part (or nothing paid was waiting for it): pay the auction out.
	// False when known: refund (no block through the relay, or the paid
	// pooled bundles were left out).
	Included bool `json:"included"`
}

// DeliveredBeta tells an auction operator (`gavel auction operate`) whether
// to pay slot's auction out or refund it: mev_deliveredBeta. Ask once the
// slot is over.
func (api *OperatorAPI) DeliveredBeta(ctx context.Context, slot hexutil.Uint64) (*DeliveredBeta, error) {
	included, known, err := relayDeliveries{api.n}.Delivered(ctx, uint64(slot))
	if err != nil {
		return nil, err
	}
	return &DeliveredBeta{Slot: strconv.FormatUint(uint64(slot), 10), Known: known, Included: included}, nil
}
