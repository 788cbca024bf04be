package chain

import (
	"context"
	"sync"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/catalyst"

	"github.com/gavel-eth/gavel/internal/sched"
)

// ForkchoiceAttributes is one engine_forkchoiceUpdated call of the
// consensus client that carried payload attributes and that the engine
// accepted (VALID, a payload id): the head to build on and the attributes of
// the block the consensus client will propose next.
type ForkchoiceAttributes struct {
	Head common.Hash
	PayloadAttributes
}

// AttributesFeed hands the payload attributes of accepted forkchoiceUpdated
// calls to its subscribers. Subscribers are called synchronously on the
// engine API call's goroutine: they must return quickly.
type AttributesFeed struct {
	mu   sync.RWMutex
	subs []func(ForkchoiceAttributes)
}

// Subscribe adds fn to the subscribers.
func (f *AttributesFeed) Subscribe(fn func(ForkchoiceAttributes)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subs = append(f.subs, fn)
}

// send calls every subscriber with a.
func (f *AttributesFeed) send(a ForkchoiceAttributes) {
	f.mu.RLock()
	subs := f.subs
	f.mu.RUnlock()
	for _, fn := range subs {
		fn(a)
	}
}

// engineService is the `engine` namespace served on authrpc: geth's
// ConsensusAPI unchanged, except that the forkchoiceUpdated methods also
// publish their accepted payload attributes on the feed, and say once when
// the consensus client keeps asking for a sync that cannot progress
// (snapSyncWatch).
type engineService struct {
	*catalyst.ConsensusAPI
	feed  *AttributesFeed
	watch *snapSyncWatch // nil: no warning about a sync that cannot progress
	sched *sched.Scheduler
}

// ForkchoiceUpdatedV1 is geth's engine_forkchoiceUpdatedV1, publishing its attributes.
func (s *engineService) ForkchoiceUpdatedV1(ctx context.Context, update engine.ForkchoiceStateV1, attrs *engine.PayloadAttributes) (engine.ForkChoiceResponse, error) {
	defer s.sched.Critical()()
	res, err := s.ConsensusAPI.ForkchoiceUpdatedV1(ctx, update, attrs)
	s.publish(update, attrs, res, err)
	return res, err
}

// ForkchoiceUpdatedV2 is geth's engine_forkchoiceUpdatedV2, publishing its attributes.
func (s *engineService) ForkchoiceUpdatedV2(ctx context.Context, update engine.ForkchoiceStateV1, attrs *engine.PayloadAttributes) (engine.ForkChoiceResponse, error) {
	defer s.sched.Critical()()
	res, err := s.ConsensusAPI.ForkchoiceUpdatedV2(ctx, update, attrs)
	s.publish(update, attrs, res, err)
	return res, err
}

// ForkchoiceUpdatedV3 is geth's engine_forkchoiceUpdatedV3, publishing its attributes.
func (s *engineService) ForkchoiceUpdatedV3(ctx context.Context, update engine.ForkchoiceStateV1, attrs *engine.PayloadAttributes) (engine.ForkChoiceResponse, error) {
	defer s.sched.Critical()()
	res, err := s.ConsensusAPI.ForkchoiceUpdatedV3(ctx, update, attrs)
	s.publish(update, attrs, res, err)
	return res, err
}

// ForkchoiceUpdatedV4 is geth's engine_forkchoiceUpdatedV4, publishing its attributes.
func (s *engineService) ForkchoiceUpdatedV4(ctx context.Context, update engine.ForkchoiceStateV1, attrs *engine.PayloadAttributes, custody *types.CustodyBitmap) (engine.ForkChoiceResponse, error) {
	defer s.sched.Critical()()
	res, err := s.ConsensusAPI.ForkchoiceUpdatedV4(ctx, update, attrs, custody)
	s.publish(update, attrs, res, err)
	return res, err
}

// publish sends the attributes of a forkchoiceUpdated call the engine
// accepted with a payload id; calls that failed, were not VALID (unknown
// head, syncing) or carried no attributes publish nothing. Every answer
// goes to the sync watch.
func (s *engineService) publish(update engine.ForkchoiceStateV1, attrs *engine.PayloadAttributes, res engine.ForkChoiceResponse, err error) {
	s.watch.forkchoice(update.HeadBlockHash, res, err)
	if err != nil || attrs == nil || res.PayloadID == nil || res.PayloadStatus.Status != engine.VALID {
		return
	}
	a := ForkchoiceAttributes{Head: update.HeadBlockHash, PayloadAttributes: PayloadAttributes{
		Timestamp:    attrs.Timestamp,
		PrevRandao:   attrs.Random,
		FeeRecipient: attrs.SuggestedFeeRecipient,
		Withdrawals:  attrs.Withdrawals,
	}}
	if attrs.BeaconRoot != nil {
		a.ParentBeaconRoot = *attrs.BeaconRoot
	}
	s.feed.send(a)
}
