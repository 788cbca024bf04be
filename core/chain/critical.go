package chain

import (
	"context"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// The consensus client's newPayload and getPayload calls are the slot's
// critical path (import of the proposed block, the local block the
// proposer falls back to): each runs as critical work of the node's
// scheduler, so no client turn is handed out meanwhile. forkchoiceUpdated
// is marked in attributes.go.

// NewPayloadV1 is geth's engine_newPayloadV1, as critical work.
func (s *engineService) NewPayloadV1(ctx context.Context, params engine.ExecutableData) (engine.PayloadStatusV1, error) {
	defer s.sched.Critical()()
	return s.ConsensusAPI.NewPayloadV1(ctx, params)
}

// NewPayloadV2 is geth's engine_newPayloadV2, as critical work.
func (s *engineService) NewPayloadV2(ctx context.Context, params engine.ExecutableData) (engine.PayloadStatusV1, error) {
	defer s.sched.Critical()()
	return s.ConsensusAPI.NewPayloadV2(ctx, params)
}

// NewPayloadV3 is geth's engine_newPayloadV3, as critical work.
func (s *engineService) NewPayloadV3(ctx context.Context, params engine.ExecutableData, versionedHashes []common.Hash, beaconRoot *common.Hash) (engine.PayloadStatusV1, error) {
	defer s.sched.Critical()()
	return s.ConsensusAPI.NewPayloadV3(ctx, params, versionedHashes, beaconRoot)
}

// NewPayloadV4 is geth's engine_newPayloadV4, as critical work.
func (s *engineService) NewPayloadV4(ctx context.Context, params engine.ExecutableData, versionedHashes []common.Hash, beaconRoot *common.Hash, executionRequests []hexutil.Bytes) (engine.PayloadStatusV1, error) {
	defer s.sched.Critical()()
	return s.ConsensusAPI.NewPayloadV4(ctx, params, versionedHashes, beaconRoot, executionRequests)
}

// NewPayloadV5 is geth's engine_newPayloadV5, as critical work.
func (s *engineService) NewPayloadV5(ctx context.Context, params engine.ExecutableData, versionedHashes []common.Hash, beaconRoot *common.Hash, executionRequests []hexutil.Bytes) (engine.PayloadStatusV1, error) {
	defer s.sched.Critical()()
	return s.ConsensusAPI.NewPayloadV5(ctx, params, versionedHashes, beaconRoot, executionRequests)
}

// GetPayloadV1 is geth's engine_getPayloadV1, as critical work.
func (s *engineService) GetPayloadV1(payloadID engine.PayloadID) (*engine.ExecutableData, error) {
	defer s.sched.Critical()()
	return s.ConsensusAPI.GetPayloadV1(payloadID)
}

// GetPayloadV2 is geth's engine_getPayloadV2, as critical work.
func (s *engineService) GetPayloadV2(payloadID engine.PayloadID) (*engine.ExecutionPayloadEnvelope, error) {
	defer s.sched.Critical()()
	return s.ConsensusAPI.GetPayloadV2(payloadID)
}

// GetPayloadV3 is geth's engine_getPayloadV3, as critical work.
func (s *engineService) GetPayloadV3(payloadID engine.PayloadID) (*engine.ExecutionPayloadEnvelope, error) {
	defer s.sched.Critical()()
	return s.ConsensusAPI.GetPayloadV3(payloadID)
}

// GetPayloadV4 is geth's engine_getPayloadV4, as critical work.
func (s *engineService) GetPayloadV4(payloadID engine.PayloadID) (*engine.ExecutionPayloadEnvelope, error) {
	defer s.sched.Critical()()
	return s.ConsensusAPI.GetPayloadV4(payloadID)
}

// GetPayloadV5 is geth's engine_getPayloadV5, as critical work.
func (s *engineService) GetPayloadV5(payloadID engine.PayloadID) (*engine.ExecutionPayloadEnvelope, error) {
	defer s.sched.Critical()()
	return s.ConsensusAPI.GetPayloadV5(payloadID)
}

// GetPayloadV6 is geth's engine_getPayloadV6, as critical work.
func (s *engineService) GetPayloadV6(payloadID engine.PayloadID) (*engine.ExecutionPayloadEnvelope, error) {
	defer s.sched.Critical()()
	return s.ConsensusAPI.GetPayloadV6(payloadID)
}
