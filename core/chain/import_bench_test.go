package chain

import (
	"context"
	"crypto/ecdsa"
	"crypto/sha256"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/crypto"
	gparams "github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/internal/testutil"
	"github.com/gavel-eth/gavel/params"
)

// gethImport is geth's own import path for one block, as insertChain runs
// it (core/blockchain.go), without the database writes: header rules
// (VerifyHeader), body rules (ValidateBody: tx and withdrawal roots, blob
// count), the senders recovered on every core (SenderCacher), the parent
// state, Process, ValidateState (receipts, bloom, gas, state root). It
// starts from the engine API payload, as newPayload does. Not run: the
// state prefetcher insertChain starts beside Process on a copy of the state
// (it warms caches of an on-disk database; this one is in memory).
func (c *Chain) gethImport(ctx context.Context, p *BuilderPayload) error {
	block, err := engine.ExecutableDataToBlock(*p.Payload, p.VersionedHashes, p.ParentBeaconRoot, p.Requests)
	if err != nil {
		return err
	}
	parent := c.bc.GetHeader(block.ParentHash(), block.NumberU64()-1)
	if parent == nil {
		return ErrUnknownParent
	}
	if err := c.bc.Engine().VerifyHeader(c.bc, block.Header()); err != nil {
		return err
	}
	if err := c.bc.Validator().ValidateBody(block); err != nil {
		return err
	}
	core.SenderCacher().RecoverFromBlocks(types.MakeSigner(c.Config(), block.Number(), block.Time()), []*types.Block{block})
	sdb, err := c.bc.StateAt(parent.Root, parent.Number, parent.Time)
	if err != nil {
		return err
	}
	res, err := c.bc.Processor().Process(ctx, block, sdb, c.bc.JumpDestCache(), c.bc.PrecompileCache(), vm.Config{}, nil)
	if err != nil {
		return err
	}
	return c.bc.Validator().ValidateState(block, sdb, res, false)
}

// importBenchBlock builds, on a fresh chain, a block of 200 EIP-1559
// transfers from 200 distinct senders to fresh accounts followed by the
// builder's payment to a proposer: the relay's BenchmarkSubmission block.
func importBenchBlock(b *testing.B) (*Chain, *BuilderPayload) {
	const transfers, gasLimit = 200, 60_000_000
	g := DevGenesis(gasLimit, 1_700_000_000)
	senders := make([]*ecdsa.PrivateKey, transfers)
	bal := new(big.Int).Mul(big.NewInt(1000), big.NewInt(gparams.Ether))
	for i := range senders {
		seed := sha256.Sum256([]byte{byte(i), byte(i >> 8), 's'})
		senders[i], _ = crypto.ToECDSA(seed[:])
		g.Alloc[crypto.PubkeyToAddress(senders[i].PublicKey)] = types.Account{Balance: bal}
	}
	c, stop, err := NewInMemory(g)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(stop)
	parent := c.Head()
	coinbaseKey := params.DevAccounts()[9].Key
	coinbase := crypto.PubkeyToAddress(coinbaseKey.PublicKey)
	root := common.Hash{0xbe}
	bb, err := c.NewBlockBuilder(context.Background(), parent, BuildAttrs{
		Timestamp: parent.Time + 12, FeeRecipient: coinbase, Random: common.Hash{1}, Withdrawals: types.Withdrawals{}, BeaconRoot: &root, GasLimit: gasLimit,
	})
	if err != nil {
		b.Fatal(err)
	}
	signer := types.LatestSigner(c.Config())
	chainID := big.NewInt(params.DevChainID)
	for i, k := range senders {
		to := common.BytesToAddress(crypto.Keccak256([]byte{byte(i), byte(i >> 8)})[12:])
		tx := types.MustSignNewTx(k, signer, &types.DynamicFeeTx{
			ChainID: chainID, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(100e9), Gas: 21000, To: &to, Value: big.NewInt(1),
		})
		if _, err := bb.ApplyTx(tx); err != nil {
			b.Fatal(err)
		}
	}
	proposer := common.Address{0x9f}
	value := uint256.NewInt(1e15)
	pay := types.MustSignNewTx(coinbaseKey, signer, &types.DynamicFeeTx{
		ChainID: chainID, GasTipCap: common.Big0, GasFeeCap: bb.BaseFee(), Gas: 21000, To: &proposer, Value: value.ToBig(),
	})
	if _, err := bb.ApplyTx(pay); err != nil {
		b.Fatal(err)
	}
	built, err := bb.Finish()
	if err != nil {
		b.Fatal(err)
	}
	return c, &BuilderPayload{
		Payload: built.Envelope.ExecutionPayload, VersionedHashes: []common.Hash{}, ParentBeaconRoot: &root, Requests: built.Requests,
		RegisteredGasLimit: gasLimit, ProposerFeeRecipient: proposer, Value: value,
	}
}

// BenchmarkValidatePayload compares the relay's simulation of a builder's
// block (ValidatePayload) with geth's own import path for the same block
// (gethImport). Every operation starts from the payload, so transactions
// are decoded afresh and sender caches are cold on both sides. "paired"
// runs both in every iteration, in alternating order, so both see the same
// machine load, and reports each one's wall time and their ratio.
func BenchmarkValidatePayload(b *testing.B) {
	c, p := importBenchBlock(b)
	ctx := context.Background()
	validate := func(b *testing.B) {
		if _, err := c.ValidatePayload(ctx, p); err != nil {
			b.Fatal(err)
		}
	}
	gethImport := func(b *testing.B) {
		if err := c.gethImport(ctx, p); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("simulation", func(b *testing.B) {
		start := testutil.CPUTime()
		for b.Loop() {
			validate(b)
		}
		testutil.ReportCPU(b, start)
	})
	b.Run("geth-import", func(b *testing.B) {
		start := testutil.CPUTime()
		for b.Loop() {
			gethImport(b)
		}
		testutil.ReportCPU(b, start)
	})
	b.Run("paired", func(b *testing.B) {
		var sim, geth, simCPU, gethCPU time.Duration
		i := 0
		for b.Loop() {
			run := func(f func(*testing.B), wall, cpu *time.Duration) {
				c0, t0 := testutil.CPUTime(), time.Now()
				f(b)
				*wall += time.Since(t0)
				*cpu += testutil.CPUTime() - c0
			}
			if i%2 == 0 {
				run(validate, &sim, &simCPU)
				run(gethImport, &geth, &gethCPU)
			} else {
				run(gethImport, &geth, &gethCPU)
				run(validate, &sim, &simCPU)
			}
			i++
		}
		n := float64(b.N)
		b.ReportMetric(float64(sim)/n, "sim-ns/op")
		b.ReportMetric(float64(geth)/n, "geth-ns/op")
		b.ReportMetric(float64(simCPU)/n, "sim-cpu-ns/op")
		b.ReportMetric(float64(gethCPU)/n, "geth-cpu-ns/op")
		b.ReportMetric(float64(sim)/float64(geth), "sim/geth-wall")
		b.ReportMetric(float64(simCPU)/float64(max(gethCPU, 1)), "sim/geth-cpu")
	})
}
