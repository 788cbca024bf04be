package auction

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Call names one operator call on a slot's auction, for callers that send it
// without waiting for it to be mined (the operator loop).
type Call string

// The operator calls, by their contract function names.
const (
	CallOpen   Call = "openAuction"
	CallSettle Call = "runAndSettle"
	CallPayout Call = "payout"
	CallRefund Call = "refund"
)

// Send signs and sends call for slot with nonce and returns the transaction
// at once, without waiting for it to be mined; gas is the gas for sale
// (CallOpen only). A caller sending several transactions at once numbers
// them itself: a node's pending nonce may lag what it just accepted. A call
// that would revert fails here, with the revert decoded, because the
// transaction's gas is estimated first.
func (c *Client) Send(ctx context.Context, call Call, slot, gas, nonce uint64) (*types.Transaction, error) {
	if c.signer == nil {
		return nil, ErrNoSigner
	}
	s := new(big.Int).SetUint64(slot)
	var data []byte
	switch call {
	case CallOpen:
		data = c.auctioneer.PackOpenAuction(s, new(big.Int).SetUint64(gas))
	case CallSettle:
		data = c.auctioneer.PackRunAndSettle(s)
	case CallPayout:
		data = c.auctioneer.PackPayout(s)
	case CallRefund:
		data = c.auctioneer.PackRefund(s)
	default:
		return nil, fmt.Errorf("%w: unknown operator call %q", ErrBadArgument, call)
	}
	opts := *c.signer
	opts.Context = ctx
	opts.Nonce = new(big.Int).SetUint64(nonce)
	tx, err := c.auctioneerC.RawTransact(&opts, data)
	if err != nil {
		return nil, DecodeError(err)
	}
	return tx, nil
}

// Status is the state of one slot's auction as auctions(slot) returns it.
type Status struct {
	ItemsForSale *big.Int
	IsOpen       bool
	IsSettled    bool
	IsPaidOut    bool
	IsRefunded   bool
}

// Opened reports whether the auction was ever opened.
func (s Status) Opened() bool { return s.IsOpen || s.IsSettled }

// Finalized reports whether the auction was paid out or refunded.
func (s Status) Finalized() bool { return s.IsPaidOut || s.IsRefunded }

// Word is the auction's state in one word: not opened, open, settled, paid
// out or refunded.
func (s Status) Word() string {
	switch {
	case s.IsRefunded:
		return "refunded"
	case s.IsPaidOut:
		return "paid out"
	case s.IsSettled:
		return "settled"
	case s.IsOpen:
		return "open"
	}
	return "not opened"
}

// Status reads slot's auction state with one call (Auction reads the
// clearing and the bid count too).
func (c *Client) Status(ctx context.Context, slot uint64) (Status, error) {
	a, err := call(ctx, c.auctioneerC, c.auctioneer.PackAuctions(new(big.Int).SetUint64(slot)), c.auctioneer.UnpackAuctions)
	if err != nil {
		return Status{}, err
	}
	return Status{ItemsForSale: a.ItemsForSale, IsOpen: a.IsOpen, IsSettled: a.IsSettled, IsPaidOut: a.IsPaidOut, IsRefunded: a.IsRefunded}, nil
}

// RecentSlots returns the slots of the last n auctions opened, in the order
// they were opened (the Auctioneer's slotsAuctioned list).
func (c *Client) RecentSlots(ctx context.Context, n int) ([]uint64, error) {
	count, err := call(ctx, c.auctioneerC, c.auctioneer.PackSlotsCount(), c.auctioneer.UnpackSlotsCount)
	if err != nil {
		return nil, err
	}
	if !count.IsUint64() {
		return nil, fmt.Errorf("slotsCount %v is out of range", count)
	}
	total := count.Uint64()
	from := uint64(0)
	if n >= 0 && total > uint64(n) {
		from = total - uint64(n)
	}
	out := make([]uint64, 0, total-from)
	for i := from; i < total; i++ {
		s, err := call(ctx, c.auctioneerC, c.auctioneer.PackSlotsAuctioned(new(big.Int).SetUint64(i)), c.auctioneer.UnpackSlotsAuctioned)
		if err != nil {
			return nil, err
		}
		if !s.IsUint64() {
			continue // not a slot anyone operates
		}
		out = append(out, s.Uint64())
	}
	return out, nil
}

// Receipt returns the receipt of a transaction Send returned: ethereum.NotFound
// while it is pending, ErrTxFailed (with the receipt) when it reverted.
func (c *Client) Receipt(ctx context.Context, tx *types.Transaction) (*types.Receipt, error) {
	r, err := c.backend.TransactionReceipt(ctx, tx.Hash())
	if err != nil {
		return nil, err
	}
	if r.Status != types.ReceiptStatusSuccessful {
		return r, fmt.Errorf("%w: tx %s used %d of %d gas", ErrTxFailed, tx.Hash(), r.GasUsed, tx.Gas())
	}
	return r, nil
}

// Operator returns the account the Auctioneer lets open, settle, pay out and
// refund auctions.
func (c *Client) Operator(ctx context.Context) (common.Address, error) {
	return call(ctx, c.auctioneerC, c.auctioneer.PackOperator(), c.auctioneer.UnpackOperator)
}

// PendingNonce returns the signer's next nonce as the node counts it,
// pending transactions included.
func (c *Client) PendingNonce(ctx context.Context) (uint64, error) {
	if c.signer == nil {
		return 0, ErrNoSigner
	}
	return c.backend.PendingNonceAt(ctx, c.signer.From)
}

// Backend returns the node the client talks to.
func (c *Client) Backend() Backend { return c.backend }

// Signer returns the client's signer, nil for a read-only client.
func (c *Client) Signer() *bind.TransactOpts { return c.signer }
