package auction

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/gavel-eth/gavel/contracts/bindings"
)

// Backend is what the client needs of an L2 node: *ethclient.Client and the
// simulated backend's client both satisfy it.
type Backend interface {
	bind.ContractBackend
	bind.DeployBackend
	ChainID(ctx context.Context) (*big.Int, error)
	BalanceAt(ctx context.Context, account common.Address, blockNumber *big.Int) (*big.Int, error)
}

// Addresses of one deployment of the auction contracts.
type Addresses struct {
	WETH            common.Address `json:"weth"`
	Accountant      common.Address `json:"accountant"`
	Auctioneer      common.Address `json:"auctioneer"`
	SettlementHouse common.Address `json:"settlementHouse"`
	OpenBidder      common.Address `json:"openBidder"`
}

// Sentinel errors of the client's own checks, before anything is sent.
var (
	ErrNoSigner      = errors.New("no signing key: pass --key or --keystore")
	ErrNotRegistered = errors.New("account is not a registered bidder")
	ErrBadArgument   = errors.New("invalid argument")
)

// maxUint256 is the allowance approved for the Auctioneer, as WETH users expect.
var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

// Client talks to one deployment. Reads need no signer; writes do.
type Client struct {
	backend Backend
	addrs   Addresses
	signer  *bind.TransactOpts

	weth       *bindings.WETH
	auctioneer *bindings.Auctioneer
	house      *bindings.SettlementHouse
	accountant *bindings.Accountant
	openBidder *bindings.OpenBidder

	wethC, auctioneerC, houseC, accountantC, openBidderC *bind.BoundContract
}

// NewClient returns a client for the deployment at addrs. signer may be nil for
// a read-only client.
func NewClient(backend Backend, addrs Addresses, signer *bind.TransactOpts) *Client {
	c := &Client{
		backend:    backend,
		addrs:      addrs,
		signer:     signer,
		weth:       bindings.NewWETH(),
		auctioneer: bindings.NewAuctioneer(),
		house:      bindings.NewSettlementHouse(),
		accountant: bindings.NewAccountant(),
		openBidder: bindings.NewOpenBidder(),
	}
	c.wethC = c.weth.Instance(backend, addrs.WETH)
	c.auctioneerC = c.auctioneer.Instance(backend, addrs.Auctioneer)
	c.houseC = c.house.Instance(backend, addrs.SettlementHouse)
	c.accountantC = c.accountant.Instance(backend, addrs.Accountant)
	c.openBidderC = c.openBidder.Instance(backend, addrs.OpenBidder)
	return c
}

// Addresses returns the deployment the client talks to.
func (c *Client) Addresses() Addresses { return c.addrs }

// From returns the signing account, or the zero address for a read-only client.
func (c *Client) From() common.Address {
	if c.signer == nil {
		return common.Address{}
	}
	return c.signer.From
}

// ---------------------------------------------------------------- transactions

// sendAttempts bounds how often send signs a transaction anew, with the
// node's fresh pending nonce, when another sender of the same key took the
// nonce between send's nonce read and its send: on `gavel --dev` the
// operator loop and a `gavel auction --key $OPERATOR` command share the
// operator key.
const sendAttempts = 3

// nonceTaken reports whether err is the node refusing a transaction because
// its nonce is taken: by a pending transaction the new one does not outbid
// (same fees), or by a mined one. The messages are the JSON-RPC errors
// clients match; the in-process pool's errors read the same.
func nonceTaken(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "replacement transaction underpriced") || strings.Contains(msg, "nonce too low")
}

// send signs and sends data to contract, waits for the receipt and checks its status.
func (c *Client) send(ctx context.Context, contract *bind.BoundContract, data []byte, value *big.Int) (*types.Receipt, error) {
	if c.signer == nil {
		return nil, ErrNoSigner
	}
	opts := *c.signer
	opts.Context = ctx
	opts.Value = value
	var (
		tx  *types.Transaction
		err error
	)
	for attempt := 1; ; attempt++ {
		tx, err = contract.RawTransact(&opts, data)
		if err == nil {
			break
		}
		if opts.Nonce != nil || attempt == sendAttempts || !nonceTaken(err) {
			return nil, DecodeError(err)
		}
	}
	receipt, err := WaitMined(ctx, c.backend, tx.Hash())
	if err != nil {
		return nil, fmt.Errorf("waiting for transaction %s: %w", tx.Hash(), err)
	}
	if receipt.Status != types.ReceiptStatusSuccessful {
		// Replay on the state before the block to name the revert.
		to := contract.Address()
		msg := ethereum.CallMsg{From: opts.From, To: &to, Data: data, Value: value, Gas: tx.Gas()}
		parent := new(big.Int).Sub(receipt.BlockNumber, big.NewInt(1))
		if _, callErr := c.backend.CallContract(ctx, msg, parent); callErr != nil {
			return receipt, fmt.Errorf("%w: tx %s: %w", ErrTxFailed, tx.Hash(), DecodeError(callErr))
		}
		return receipt, fmt.Errorf("%w: tx %s used %d of %d gas", ErrTxFailed, tx.Hash(), receipt.GasUsed, tx.Gas())
	}
	return receipt, nil
}

// Wrap deposits amount wei into WETH.
func (c *Client) Wrap(ctx context.Context, amount *big.Int) (*types.Receipt, error) {
	if amount == nil || amount.Sign() <= 0 {
		return nil, fmt.Errorf("%w: amount to wrap must be above zero", ErrBadArgument)
	}
	return c.send(ctx, c.wethC, c.weth.PackDeposit(), amount)
}

// ApproveWETH lets the Auctioneer take the signer's WETH (max allowance).
func (c *Client) ApproveWETH(ctx context.Context) (*types.Receipt, error) {
	return c.send(ctx, c.wethC, c.weth.PackApprove(c.addrs.Auctioneer, maxUint256), nil)
}

// AddBidder registers bidder (owner only) and returns its id.
func (c *Client) AddBidder(ctx context.Context, bidder common.Address) (uint8, *types.Receipt, error) {
	r, err := c.send(ctx, c.auctioneerC, c.auctioneer.PackNewBidder(bidder), nil)
	if err != nil {
		return 0, r, err
	}
	for _, l := range r.Logs {
		if l.Address != c.addrs.Auctioneer {
			continue
		}
		if ev, err := c.auctioneer.UnpackBidderAddedEvent(l); err == nil {
			return ev.BidderId, r, nil
		}
	}
	return 0, r, errors.New("newBidder succeeded but emitted no BidderAdded event")
}

// RemoveBidder unregisters the bidder with id (owner only).
func (c *Client) RemoveBidder(ctx context.Context, id uint8) (*types.Receipt, error) {
	return c.send(ctx, c.auctioneerC, c.auctioneer.PackRemoveBidder(id), nil)
}

// OpenAuction opens slot's auction of gas for sale (operator only).
func (c *Client) OpenAuction(ctx context.Context, slot uint64, gas uint64) (*types.Receipt, error) {
	return c.send(ctx, c.auctioneerC, c.auctioneer.PackOpenAuction(new(big.Int).SetUint64(slot), new(big.Int).SetUint64(gas)), nil)
}

// Bid is one bid: Price wei per gas for Gas gas.
type Bid struct {
	Price    *big.Int
	Gas      uint64
	BidderID uint8
}

// maxPrice is the largest price a packed bid holds (uint128).
var maxPrice = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))

// Pack encodes b as the Auctioneer packs bids: price << 128 | gas << 8 | id.
func (b Bid) Pack() (*big.Int, error) {
	if b.Price == nil || b.Price.Sign() <= 0 || b.Price.Cmp(maxPrice) > 0 {
		return nil, fmt.Errorf("%w: price per gas must be 1..2^128-1 wei, got %v", ErrBadArgument, b.Price)
	}
	p := new(big.Int).Lsh(b.Price, 128)
	p.Or(p, new(big.Int).Lsh(new(big.Int).SetUint64(b.Gas), 8))
	return p.Or(p, big.NewInt(int64(b.BidderID))), nil
}

// UnpackBid decodes a packed bid.
func UnpackBid(p *big.Int) Bid {
	mask120 := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 120), big.NewInt(1))
	gas := new(big.Int).And(new(big.Int).Rsh(p, 8), mask120)
	return Bid{
		Price:    new(big.Int).Rsh(p, 128),
		Gas:      gas.Uint64(),
		BidderID: uint8(new(big.Int).And(p, big.NewInt(0xff)).Uint64()),
	}
}

// PlaceBids bids in slot from the signer, approving the Auctioneer for WETH first
// when the allowance does not cover the bids' value. The bidder id is filled in.
func (c *Client) PlaceBids(ctx context.Context, slot uint64, bids []Bid) (*types.Receipt, error) {
	if c.signer == nil {
		return nil, ErrNoSigner
	}
	if len(bids) == 0 {
		return nil, fmt.Errorf("%w: no bids", ErrBadArgument)
	}
	id, err := c.BidderID(ctx, c.signer.From)
	if err != nil {
		return nil, err
	}
	if id == 0 {
		return nil, fmt.Errorf("%w: %s (the Auctioneer owner adds bidders with `gavel auction bidder add`)", ErrNotRegistered, c.signer.From)
	}
	packed := make([]*big.Int, len(bids))
	value := new(big.Int)
	for i, b := range bids {
		b.BidderID = id
		if packed[i], err = b.Pack(); err != nil {
			return nil, err
		}
		value.Add(value, new(big.Int).Mul(b.Price, new(big.Int).SetUint64(b.Gas)))
	}
	allowance, err := c.WETHAllowance(ctx, c.signer.From)
	if err != nil {
		return nil, err
	}
	if allowance.Cmp(value) < 0 {
		if _, err := c.ApproveWETH(ctx); err != nil {
			return nil, fmt.Errorf("approving WETH for the Auctioneer: %w", err)
		}
	}
	return c.send(ctx, c.auctioneerC, c.auctioneer.PackBid(new(big.Int).SetUint64(slot), packed), nil)
}

// Settle runs slot's auction and settles it (operator only).
func (c *Client) Settle(ctx context.Context, slot uint64) (*types.Receipt, error) {
	return c.send(ctx, c.auctioneerC, c.auctioneer.PackRunAndSettle(new(big.Int).SetUint64(slot)), nil)
}

// Payout sends slot's proceeds to the Accountant (operator only).
func (c *Client) Payout(ctx context.Context, slot uint64) (*types.Receipt, error) {
	return c.send(ctx, c.auctioneerC, c.auctioneer.PackPayout(new(big.Int).SetUint64(slot)), nil)
}

// Refund returns slot's payments to its winners (operator only).
func (c *Client) Refund(ctx context.Context, slot uint64) (*types.Receipt, error) {
	return c.send(ctx, c.auctioneerC, c.auctioneer.PackRefund(new(big.Int).SetUint64(slot)), nil)
}

// Pay burns gas tokens of slot for bundle hashes in the SettlementHouse,
// approving the house for the tokens first when needed.
func (c *Client) Pay(ctx context.Context, slot uint64, gas uint64, hashes []common.Hash) (*types.Receipt, error) {
	if c.signer == nil {
		return nil, ErrNoSigner
	}
	if len(hashes) == 0 {
		return nil, fmt.Errorf("%w: no bundle hashes", ErrBadArgument)
	}
	s := new(big.Int).SetUint64(slot)
	amount := new(big.Int).SetUint64(gas)
	allowed, err := call(ctx, c.auctioneerC, c.auctioneer.PackAllowance(c.signer.From, c.addrs.SettlementHouse, s), c.auctioneer.UnpackAllowance)
	if err != nil {
		return nil, err
	}
	if allowed.Cmp(amount) < 0 {
		if _, err := c.send(ctx, c.auctioneerC, c.auctioneer.PackApprove(c.addrs.SettlementHouse, s, amount), nil); err != nil {
			return nil, fmt.Errorf("approving the SettlementHouse for gas tokens: %w", err)
		}
	}
	raw := make([][32]byte, len(hashes))
	for i, h := range hashes {
		raw[i] = h
	}
	return c.send(ctx, c.houseC, c.house.PackSubmitBundle(s, amount, raw), nil)
}

// SetValidatorRewardAddress sets who receives slot's validator share (Accountant operator only).
func (c *Client) SetValidatorRewardAddress(ctx context.Context, slot uint64, addr common.Address) (*types.Receipt, error) {
	return c.send(ctx, c.accountantC, c.accountant.PackSetValidatorRewardAddress(new(big.Int).SetUint64(slot), addr), nil)
}

// ---------------------------------------------------------------- reads

func call[T any](ctx context.Context, c *bind.BoundContract, data []byte, unpack func([]byte) (T, error)) (T, error) {
	v, err := bind.Call(c, &bind.CallOpts{Context: ctx}, data, unpack)
	return v, DecodeError(err)
}

// AuctionState is what the chain knows of one slot's auction.
type AuctionState struct {
	ItemsForSale  *big.Int
	IsOpen        bool
	IsSettled     bool
	IsPaidOut     bool
	IsRefunded    bool
	Bids          *big.Int // manual bids placed
	ClearingPrice *big.Int // wei per gas, once settled
	ItemsSold     *big.Int
	Proceeds      *big.Int // WETH collected
}

// Auction reads slot's auction.
func (c *Client) Auction(ctx context.Context, slot uint64) (AuctionState, error) {
	s := new(big.Int).SetUint64(slot)
	a, err := call(ctx, c.auctioneerC, c.auctioneer.PackAuctions(s), c.auctioneer.UnpackAuctions)
	if err != nil {
		return AuctionState{}, err
	}
	cl, err := call(ctx, c.auctioneerC, c.auctioneer.PackClearings(s), c.auctioneer.UnpackClearings)
	if err != nil {
		return AuctionState{}, err
	}
	n, err := call(ctx, c.auctioneerC, c.auctioneer.PackBidCount(s), c.auctioneer.UnpackBidCount)
	if err != nil {
		return AuctionState{}, err
	}
	return AuctionState{
		ItemsForSale: a.ItemsForSale, IsOpen: a.IsOpen, IsSettled: a.IsSettled, IsPaidOut: a.IsPaidOut,
		IsRefunded: a.IsRefunded, Bids: n, ClearingPrice: cl.Price, ItemsSold: cl.ItemsSold, Proceeds: cl.Proceeds,
	}, nil
}

// ItemsForSale reads the gas slot's auction sells (0: never opened).
func (c *Client) ItemsForSale(ctx context.Context, slot uint64) (*big.Int, error) {
	a, err := call(ctx, c.auctioneerC, c.auctioneer.PackAuctions(new(big.Int).SetUint64(slot)), c.auctioneer.UnpackAuctions)
	if err != nil {
		return nil, err
	}
	return a.ItemsForSale, nil
}

// Bids returns the manual bids placed in slot, in arrival order.
func (c *Client) Bids(ctx context.Context, slot uint64) ([]Bid, error) {
	raw, err := call(ctx, c.auctioneerC, c.auctioneer.PackGetBids(new(big.Int).SetUint64(slot)), c.auctioneer.UnpackGetBids)
	if err != nil {
		return nil, err
	}
	out := make([]Bid, len(raw))
	for i, p := range raw {
		out[i] = UnpackBid(p)
	}
	return out, nil
}

// BidderResult is a bidder's outcome in a settled auction.
type BidderResult struct {
	ItemsBought *big.Int // gas tokens minted
	AmountOwed  *big.Int // WETH paid
}

// BidderInfo reads bidder's result in slot; it fails with a RevertError named
// AuctionNotSettled or BidderNotParticipating when there is none.
func (c *Client) BidderInfo(ctx context.Context, slot uint64, bidder common.Address) (BidderResult, error) {
	r, err := call(ctx, c.auctioneerC, c.auctioneer.PackGetBidderInfo(new(big.Int).SetUint64(slot), bidder), c.auctioneer.UnpackGetBidderInfo)
	if err != nil {
		return BidderResult{}, err
	}
	return BidderResult{ItemsBought: r.ItemsBought, AmountOwed: r.AmountOwed}, nil
}

// BidderID returns the registered id of addr (0: not registered).
func (c *Client) BidderID(ctx context.Context, addr common.Address) (uint8, error) {
	return call(ctx, c.auctioneerC, c.auctioneer.PackIdMap(addr), c.auctioneer.UnpackIdMap)
}

// GasBalance returns owner's gas tokens of slot.
func (c *Client) GasBalance(ctx context.Context, owner common.Address, slot uint64) (*big.Int, error) {
	return call(ctx, c.auctioneerC, c.auctioneer.PackBalanceOf(owner, new(big.Int).SetUint64(slot)), c.auctioneer.UnpackBalanceOf)
}

// WETHBalance returns owner's WETH.
func (c *Client) WETHBalance(ctx context.Context, owner common.Address) (*big.Int, error) {
	return call(ctx, c.wethC, c.weth.PackBalanceOf(owner), c.weth.UnpackBalanceOf)
}

// WETHAllowance returns how much of owner's WETH the Auctioneer may take.
func (c *Client) WETHAllowance(ctx context.Context, owner common.Address) (*big.Int, error) {
	return call(ctx, c.wethC, c.weth.PackAllowance(owner, c.addrs.Auctioneer), c.weth.UnpackAllowance)
}

// AccountantBalance returns what account can withdraw from the Accountant.
func (c *Client) AccountantBalance(ctx context.Context, account common.Address) (*big.Int, error) {
	return call(ctx, c.accountantC, c.accountant.PackBalances(account), c.accountant.UnpackBalances)
}

// Bundle is one payment recorded in the SettlementHouse.
type Bundle struct {
	Submitter    common.Address
	AmountOfGas  *big.Int
	BundleHashes []common.Hash
	// L2Block is the number of the L2 block the entry was read at (0 when
	// the reader does not know it).
	L2Block uint64
}

// Bundles returns the payments recorded for slot (what the beta-block
// builder reads) at the L2's latest block, each with that block's number:
// a bidder can read the same settlement again at that block or a later one.
func (c *Client) Bundles(ctx context.Context, slot uint64) ([]Bundle, error) {
	head, err := c.backend.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("reading the L2 head: %w", err)
	}
	if head == nil || head.Number == nil || !head.Number.IsUint64() {
		return nil, errors.New("reading the L2 head: the node answered a header without a block number")
	}
	return c.BundlesAt(ctx, slot, head.Number.Uint64())
}

// BundlesAt returns the payments recorded for slot as of L2 block number.
func (c *Client) BundlesAt(ctx context.Context, slot, number uint64) ([]Bundle, error) {
	opts := &bind.CallOpts{Context: ctx, BlockNumber: new(big.Int).SetUint64(number)}
	raw, err := bind.Call(c.houseC, opts, c.house.PackQueryBundles(new(big.Int).SetUint64(slot)), c.house.UnpackQueryBundles)
	if err != nil {
		return nil, DecodeError(err)
	}
	out := make([]Bundle, len(raw))
	for i, b := range raw {
		hashes := make([]common.Hash, len(b.BundleHashes))
		for j, h := range b.BundleHashes {
			hashes[j] = h
		}
		out[i] = Bundle{Submitter: b.Submitter, AmountOfGas: b.AmountOfGas, BundleHashes: hashes, L2Block: number}
	}
	return out, nil
}

// ---------------------------------------------------------------- OpenBidder

// OpenBid bids through the OpenBidder (no bidder seat needed): price wei per
// gas for gas in slot, paying for bundleHash. It sends price × gas wei, which
// the OpenBidder wraps; what is not spent is returned by OpenWithdraw after
// settlement. It returns the bid id.
func (c *Client) OpenBid(ctx context.Context, slot uint64, price *big.Int, gas uint64, bundleHash common.Hash) (*big.Int, *types.Receipt, error) {
	if price == nil || price.Sign() <= 0 || price.Cmp(maxPrice) > 0 {
		return nil, nil, fmt.Errorf("%w: price per gas must be 1..2^128-1 wei, got %v", ErrBadArgument, price)
	}
	value := new(big.Int).Mul(price, new(big.Int).SetUint64(gas))
	r, err := c.send(ctx, c.openBidderC, c.openBidder.PackOpenBid(new(big.Int).SetUint64(slot), price, new(big.Int).SetUint64(gas), bundleHash), value)
	if err != nil {
		return nil, r, err
	}
	for _, l := range r.Logs {
		if ev, err := c.openBidder.UnpackBidOpenedEvent(l); err == nil && l.Address == c.addrs.OpenBidder {
			return ev.BidId, r, nil
		}
	}
	return nil, r, errors.New("openBid succeeded but emitted no BidOpened event")
}

// OpenCancel cancels the signer's OpenBidder bid id before its auction settles.
func (c *Client) OpenCancel(ctx context.Context, id *big.Int) (*types.Receipt, error) {
	return c.send(ctx, c.openBidderC, c.openBidder.PackCancelBid(id), nil)
}

// OpenSubmit has the OpenBidder split what it won in settled slot among its
// bids and pay their bundle hashes (anyone may call it, once per slot).
func (c *Client) OpenSubmit(ctx context.Context, slot uint64) (*types.Receipt, error) {
	return c.send(ctx, c.openBidderC, c.openBidder.PackSubmitBundles(new(big.Int).SetUint64(slot)), nil)
}

// OpenClaimRefund credits the OpenBidder's users after slot was refunded.
func (c *Client) OpenClaimRefund(ctx context.Context, slot uint64) (*types.Receipt, error) {
	return c.send(ctx, c.openBidderC, c.openBidder.PackClaimRefund(new(big.Int).SetUint64(slot)), nil)
}

// OpenWithdraw sends the signer its unspent ether held by the OpenBidder.
func (c *Client) OpenWithdraw(ctx context.Context) (*types.Receipt, error) {
	return c.send(ctx, c.openBidderC, c.openBidder.PackWithdraw(), nil)
}

// OpenOwed returns the ether the OpenBidder holds for account.
func (c *Client) OpenOwed(ctx context.Context, account common.Address) (*big.Int, error) {
	return call(ctx, c.openBidderC, c.openBidder.PackOwed(account), c.openBidder.UnpackOwed)
}
