// Package devauction runs the auction contracts on the `gavel --dev` chain: at
// start-up it deploys them from the dev auction owner (params.DevOwnerKey),
// makes params.DevOperatorKey their operator, registers the two
// params.DevBidderKeys as bidders with WETH to spend, and serves the addresses
// as mev_auctionContracts. None of these is one of the ten test accounts, so
// those start at nonce 0. The addresses are deterministic (the owner's first
// nonces), so they are known, and served, before the deployment is mined.
package devauction

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/deploy"
	"github.com/gavel-eth/gavel/params"
)

// DefaultTimeout bounds the start-up deployment.
const DefaultTimeout = 5 * time.Minute

// ErrNotDeployed is returned by Wait when the deployment failed or was stopped.
var ErrNotDeployed = errors.New("auction contracts not deployed")

// Config chooses the dev deployment's accounts. Zero fields take the
// defaults of DefaultConfig.
type Config struct {
	// Deployer deploys and owns the contracts and registers the bidders.
	Deployer *ecdsa.PrivateKey
	// Operator opens, settles, pays out and refunds auctions.
	Operator *ecdsa.PrivateKey
	// Bidders are registered and given WETH.
	Bidders []*ecdsa.PrivateKey
	Timeout time.Duration
}

// DefaultConfig is the dev deployment of `gavel --dev`: params.DevOwnerKey
// deploys, params.DevOperatorKey operates, params.DevBidderKeys bid.
func DefaultConfig() Config {
	cfg := Config{
		Deployer: params.DevOwnerKey().Key,
		Operator: params.DevOperatorKey().Key,
		Timeout:  DefaultTimeout,
	}
	for _, b := range params.DevBidderKeys() {
		cfg.Bidders = append(cfg.Bidders, b.Key)
	}
	return cfg
}

// withDefaults fills the zero fields from DefaultConfig.
func (c Config) withDefaults() Config {
	def := DefaultConfig()
	if c.Deployer == nil {
		c.Deployer = def.Deployer
	}
	if c.Operator == nil {
		c.Operator = def.Operator
	}
	if c.Bidders == nil {
		c.Bidders = def.Bidders
	}
	if c.Timeout == 0 {
		c.Timeout = def.Timeout
	}
	return c
}

// Service deploys the contracts when the node starts. It is a node.Lifecycle.
type Service struct {
	stack *node.Node
	cfg   Config
	addrs auction.Addresses

	done   chan struct{}
	cancel context.CancelFunc
	mu     sync.Mutex
	dev    deploy.Dev
	err    error
}

// Register adds the service and its mev_auctionContracts method to stack.
// Call it before the node starts, in dev mode only.
func Register(stack *node.Node, cfg Config) *Service {
	cfg = cfg.withDefaults()
	s := &Service{
		stack: stack,
		cfg:   cfg,
		addrs: deploy.Addresses(crypto.PubkeyToAddress(cfg.Deployer.PublicKey), 0),
		done:  make(chan struct{}),
	}
	stack.RegisterLifecycle(s)
	stack.RegisterAPIs([]rpc.API{{Namespace: "mev", Service: &API{s: s}}})
	return s
}

// Addresses returns where the contracts are (or will be once mined).
func (s *Service) Addresses() auction.Addresses { return s.addrs }

// Config returns the service's configuration, defaults filled in: the keys
// of the owner, the operator and the bidders.
func (s *Service) Config() Config { return s.cfg }

// Owner returns the account that deployed and owns the contracts.
func (s *Service) Owner() common.Address {
	return crypto.PubkeyToAddress(s.cfg.Deployer.PublicKey)
}

// Operator returns the account that operates the contracts.
func (s *Service) Operator() common.Address {
	return crypto.PubkeyToAddress(s.cfg.Operator.PublicKey)
}

// Start begins the deployment in the background: its transactions are mined
// as the dev chain produces blocks.
func (s *Service) Start() error {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.Timeout)
	s.cancel = cancel
	go s.run(ctx)
	return nil
}

func (s *Service) run(ctx context.Context) {
	defer close(s.done)
	client := ethclient.NewClient(s.stack.Attach())
	defer client.Close()
	waitIndexed(ctx, client)
	dev, err := deploy.DevDeploy(ctx, client, s.cfg.Deployer, s.Operator(), s.cfg.Bidders...)
	s.mu.Lock()
	s.dev, s.err = dev, err
	s.mu.Unlock()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			log.Info("Auction contract deployment stopped with the node")
			return
		}
		log.Error("Auction contracts not deployed", "err", err)
		return
	}
	if dev.Addresses != s.addrs {
		// The deployer had sent transactions before: the contracts are elsewhere.
		log.Warn("Auction contracts deployed at non-default addresses", "auctioneer", dev.Auctioneer)
		s.mu.Lock()
		s.addrs = dev.Addresses
		s.mu.Unlock()
	}
	log.Info("Auction contracts deployed", "weth", dev.WETH, "auctioneer", dev.Auctioneer,
		"settlementHouse", dev.SettlementHouse, "accountant", dev.Accountant, "openBidder", dev.OpenBidder)
}

// waitIndexed waits until the node's transaction index has caught up
// (eth_syncing false): until then every receipt lookup fails with
// "transaction indexing is in progress", and geth logs a warning for each.
func waitIndexed(ctx context.Context, client *ethclient.Client) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		if p, err := client.SyncProgress(ctx); err != nil || p == nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Stop ends a deployment still waiting for blocks.
func (s *Service) Stop() error {
	if s.cancel != nil {
		s.cancel()
		<-s.done
	}
	return nil
}

// Wait blocks until the deployment is done and returns it.
func (s *Service) Wait(ctx context.Context) (deploy.Dev, error) {
	select {
	case <-s.done:
	case <-ctx.Done():
		return deploy.Dev{}, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.dev, errors.Join(ErrNotDeployed, s.err)
	}
	return s.dev, nil
}

// Deployed returns the deployment without waiting: ok is false while it is
// still under way or when it failed.
func (s *Service) Deployed() (dev deploy.Dev, ok bool) {
	select {
	case <-s.done:
	default:
		return deploy.Dev{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dev, s.err == nil
}

// state returns the addresses, whether they are deployed, and the bidders.
func (s *Service) state() (auction.Addresses, bool, []deploy.DevBidder) {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.done:
		return s.addrs, s.err == nil, s.dev.Bidders
	default:
		return s.addrs, false, nil
	}
}

// API is the service's part of the mev namespace.
type API struct{ s *Service }

// Contracts is the answer of mev_auctionContracts.
type Contracts struct {
	auction.Addresses
	// Owner deployed and owns the contracts (params.DevOwnerKey).
	Owner common.Address `json:"owner"`
	// Operator operates the contracts (params.DevOperatorKey).
	Operator common.Address `json:"operator"`
	// Deployed is false until the deployment is mined.
	Deployed bool `json:"deployed"`
	// Bidders are the registered dev bidders.
	Bidders []deploy.DevBidder `json:"bidders"`
}

// AuctionContracts returns the dev chain's auction contracts:
// mev_auctionContracts.
func (api *API) AuctionContracts() Contracts {
	addrs, deployed, bidders := api.s.state()
	if bidders == nil {
		bidders = []deploy.DevBidder{}
	}
	return Contracts{Addresses: addrs, Owner: api.s.Owner(), Operator: api.s.Operator(), Deployed: deployed, Bidders: bidders}
}

// OperatorClient returns a client of the dev contracts signing as their
// operator (Config().Operator), for a dev auction operator that opens,
// settles, pays out and refunds auctions.
func (s *Service) OperatorClient(ctx context.Context, backend auction.Backend) (*auction.Client, error) {
	chainID, err := backend.ChainID(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	addrs := s.addrs
	s.mu.Unlock()
	return auction.NewClient(backend, addrs, bind.NewKeyedTransactor(s.cfg.Operator, chainID)), nil
}
