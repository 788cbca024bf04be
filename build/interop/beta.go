package main

// The beta part of `make interop`: a beta bundle paid on an L2 lands at the
// bottom of its slot's block, on the Lodestar devnet. Everything goes
// through gavel's own CLI, as docs/beta.md "On a real network" tells a user:
//
//   - the L2 is a second process, `gavel --dev --dev.chainid 901` on its own
//     ports (its 2 s blocks do not depend on the devnet's slots, and the
//     devnet's own chain has no auction contracts: its gavel is not --dev);
//   - `gavel auction deploy` puts the contracts there, `gavel auction bidder
//     add` and `wrap` make dev account 1 a bidder with WETH;
//   - the L1 gavel reads settlement from it (--beta.l2rpc, --beta.auctioneer,
//     --beta.settlementhouse);
//   - `gavel auction operate` runs the operator on the L1's slot clock (the
//     beacon node's genesis time and SECONDS_PER_SLOT) and asks the L1
//     node's mev_deliveredBeta what was delivered;
//   - once Lodestar takes gavel's bids, the flow picks a slot S ahead, the
//     bidder bids for S's gas (`gavel auction bid`), a user sends a beta
//     bundle of one transfer for S (`gavel bundle send-beta`) and, once the
//     operator settled S, pays for its hash (`gavel auction pay`).
//
// After the run, checkBeta verifies that the block of slot S (delivered
// through Lodestar's blinded-block flow, imported by both sides) ends with
// the beta transaction right after the builder's proposer payment, that the
// data API's delivered record of S has its beta part, that mev_getBetaBundle
// says included, and that the operator paid S out.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
)

// Keys of the beta flow (public test keys).
const (
	// l2OperatorKey is dev account 0 on the L2: it deploys, owns and
	// operates the auction.
	l2OperatorKey = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	// l2BidderKey is dev account 1 on the L2: the bidder.
	l2BidderKey = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
	// betaUserKey is dev account 3, funded in el-genesis.json: it signs the
	// beta bundle's transaction on the L1.
	betaUserKey = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6"
	// betaTo receives the beta transfer.
	betaTo = "0x000000000000000000000000000000000000be7a"
)

// Operator settings of the run: slot S's auction opens when slot S-24 is
// over and settles when S-8 is over; the flow picks S 18 slots ahead, so
// S is open when the bidder bids, 10 slots remain to bid before settlement
// and 8 to pay after it.
const (
	betaLead       = 24
	betaSettleLead = 8
	betaAhead      = 18
	betaGasForSale = 5_000_000
	betaBidGas     = 1_000_000
	betaPayGas     = 100_000
)

// betaRun is the L2 side of the run and what the beta flow did.
type betaRun struct {
	gavel, work string
	l2URL       string
	addrFile    string
	auctioneer  string
	settlement  string

	mu       sync.Mutex
	slot     uint64 // S, 0 until picked
	hash     string // the beta bundle's hash
	tx       *types.Transaction
	paidAt   uint64 // L1 slot when the payment was mined
	flowErr  error
	flowDone chan struct{}
}

// startL2 starts the L2 (a second gavel --dev), deploys the auction there
// and makes a bidder. It returns the flags the L1 gavel needs to read the
// L2's settlement.
func (r *run) startL2(ctx context.Context, gavel string) (*betaRun, []string, error) {
	b := &betaRun{gavel: gavel, work: r.work}
	var ports [3]int
	for i := range ports {
		p, err := freePort()
		if err != nil {
			return nil, nil, err
		}
		ports[i] = p
	}
	b.l2URL = fmt.Sprintf("http://127.0.0.1:%d", ports[0])
	step("starting the L2: a second gavel --dev (chain id 901, its own ports, no dev auction)")
	if err := r.start(ctx, "l2.log", nil, gavel, "--dev", "--dev.chainid", "901", "--dev.auction=false",
		"--datadir", filepath.Join(r.work, "l2"), "--ipcdisable", "--verbosity", "3",
		"--http.port", strconv.Itoa(ports[0]), "--authrpc.port", strconv.Itoa(ports[1]),
		"--mev.addr", fmt.Sprintf("127.0.0.1:%d", ports[2]),
	); err != nil {
		return nil, nil, err
	}
	if err := waitFor(ctx, 60*time.Second, "the L2's JSON-RPC", func() error {
		ec, err := ethclient.DialContext(ctx, b.l2URL)
		if err != nil {
			return err
		}
		defer ec.Close()
		_, err = ec.BlockNumber(ctx)
		return err
	}); err != nil {
		return nil, nil, err
	}
	b.addrFile = filepath.Join(r.work, "l2.json")
	if _, err := b.cli(ctx, "auction", "deploy", "--l2rpc", b.l2URL, "--key", l2OperatorKey, "--out", b.addrFile); err != nil {
		return nil, nil, err
	}
	raw, err := os.ReadFile(b.addrFile)
	if err != nil {
		return nil, nil, err
	}
	var addrs struct {
		Auctioneer      string `json:"auctioneer"`
		SettlementHouse string `json:"settlementHouse"`
	}
	if err := json.Unmarshal(raw, &addrs); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", b.addrFile, err)
	}
	b.auctioneer, b.settlement = addrs.Auctioneer, addrs.SettlementHouse
	bidder := addressOf(l2BidderKey)
	if _, err := b.cli(ctx, "auction", "bidder", "add", "--l2rpc", b.l2URL, "--addresses", b.addrFile, "--key", l2OperatorKey, bidder.Hex()); err != nil {
		return nil, nil, err
	}
	if _, err := b.cli(ctx, "auction", "wrap", "--l2rpc", b.l2URL, "--addresses", b.addrFile, "--key", l2BidderKey, "--amount", "1ether"); err != nil {
		return nil, nil, err
	}
	step(fmt.Sprintf("L2 at %s: Auctioneer %s, SettlementHouse %s, bidder %s with 1 WETH", b.l2URL, b.auctioneer, b.settlement, bidder))
	return b, []string{"--beta.l2rpc", b.l2URL, "--beta.auctioneer", b.auctioneer, "--beta.settlementhouse", b.settlement}, nil
}

// startOperator runs `gavel auction operate` on the L1's slot clock (from
// the beacon node), asking the L1 node for deliveries. The L1 node's
// mev_nodeInfo must report the same clock (what the operator and `gavel
// bundle send-beta` use without the flags).
func (r *run) startOperator(ctx context.Context, b *betaRun, rpcURL string, genesisTime, secondsPerSlot uint64) error {
	var info struct {
		GenesisTime uint64 `json:"genesisTime"`
		SlotSeconds uint64 `json:"slotSeconds"`
	}
	if err := rpcCall(ctx, rpcURL, "mev_nodeInfo", []any{}, &info); err != nil {
		return fmt.Errorf("mev_nodeInfo: %w", err)
	}
	if info.GenesisTime != genesisTime || info.SlotSeconds != secondsPerSlot {
		return fmt.Errorf("the L1 gavel's mev_nodeInfo reports genesis %d and %d s slots; the beacon node %d and %d s", info.GenesisTime, info.SlotSeconds, genesisTime, secondsPerSlot)
	}
	step(fmt.Sprintf("starting gavel auction operate (L1 genesis %d, %d s slots, lead %d, settle-lead %d)", genesisTime, secondsPerSlot, betaLead, betaSettleLead))
	return r.start(ctx, "operator.log", nil, b.gavel, "auction", "operate", "--l2rpc", b.l2URL, "--addresses", b.addrFile, "--key", l2OperatorKey,
		"--l1rpc", rpcURL, "--genesis-time", strconv.FormatUint(genesisTime, 10), "--seconds-per-slot", strconv.FormatUint(secondsPerSlot, 10),
		"--gas", strconv.Itoa(betaGasForSale), "--lead", strconv.Itoa(betaLead), "--settle-lead", strconv.Itoa(betaSettleLead))
}

// beaconClock reads the beacon node's genesis time and seconds per slot.
func beaconClock(ctx context.Context, restURL string) (genesis, seconds uint64, err error) {
	var g struct {
		Data struct {
			GenesisTime string `json:"genesis_time"`
		} `json:"data"`
	}
	var spec struct {
		Data map[string]any `json:"data"`
	}
	if err := getJSON(ctx, restURL+"/eth/v1/beacon/genesis", &g); err != nil {
		return 0, 0, err
	}
	if err := getJSON(ctx, restURL+"/eth/v1/config/spec", &spec); err != nil {
		return 0, 0, err
	}
	if genesis, err = strconv.ParseUint(g.Data.GenesisTime, 10, 64); err != nil {
		return 0, 0, fmt.Errorf("genesis_time %q: %w", g.Data.GenesisTime, err)
	}
	sps, _ := spec.Data["SECONDS_PER_SLOT"].(string)
	if seconds, err = strconv.ParseUint(sps, 10, 64); err != nil || seconds == 0 {
		return 0, 0, fmt.Errorf("SECONDS_PER_SLOT %q: %v", sps, err)
	}
	return genesis, seconds, nil
}

// startFlow picks slot S = now + betaAhead and runs the user side in the
// background: bid, send the beta bundle, wait for settlement, pay. last is
// the last slot the run checks: S must be at least two slots before it.
func (b *betaRun) startFlow(ctx context.Context, rpcURL, mevURL string, now, last uint64, clock func() uint64) error {
	s := now + betaAhead
	if s+2 > last {
		return fmt.Errorf("beta: slot %d (now %d + %d) does not fit in the checked window ending at slot %d", s, now, betaAhead, last)
	}
	b.mu.Lock()
	b.slot = s
	b.flowDone = make(chan struct{})
	b.mu.Unlock()
	go func() {
		defer close(b.flowDone)
		err := b.flow(ctx, rpcURL, mevURL, s, clock)
		b.mu.Lock()
		b.flowErr = err
		b.mu.Unlock()
		if err != nil {
			step("beta flow failed: " + err.Error())
		}
	}()
	return nil
}

func (b *betaRun) flow(ctx context.Context, rpcURL, mevURL string, s uint64, clock func() uint64) error {
	l2 := []string{"--l2rpc", b.l2URL, "--addresses", b.addrFile}
	step(fmt.Sprintf("beta: slot %d picked (now %d); bidding %d gas at 1 gwei", s, clock(), betaBidGas))
	// The operator opened S when S-lead was over: wait for it.
	if err := b.waitState(ctx, s, "open", clock, s-betaSettleLead); err != nil {
		return err
	}
	if _, err := b.cli(ctx, append(append([]string{"auction", "bid"}, l2...), "--key", l2BidderKey, "--slot", strconv.FormatUint(s, 10),
		"--price", "1gwei", "--gas", strconv.Itoa(betaBidGas))...); err != nil {
		return err
	}
	// The user's beta bundle: one transfer without a tip, for slot S.
	out, err := b.cli(ctx, "bundle", "send-beta", "--rpc", rpcURL, "--mev", mevURL, "--key", betaUserKey,
		"--to", betaTo, "--value", "1gwei", "--slot", strconv.FormatUint(s, 10))
	if err != nil {
		return err
	}
	m := regexp.MustCompile(`(?m)^(0x[0-9a-f]{64})$`).FindStringSubmatch(out)
	if m == nil {
		return fmt.Errorf("gavel bundle send-beta printed no bundle hash:\n%s", out)
	}
	hash := m[1]
	status, err := b.betaStatus(ctx, rpcURL, mevURL, hash)
	if err != nil {
		return err
	}
	if len(status.Txs) != 1 {
		return fmt.Errorf("mev_getBetaBundle %s: %d txs, want 1", hash, len(status.Txs))
	}
	var tx types.Transaction
	if err := tx.UnmarshalBinary(common.FromHex(status.Txs[0])); err != nil {
		return fmt.Errorf("mev_getBetaBundle %s: tx: %w", hash, err)
	}
	b.mu.Lock()
	b.hash, b.tx = hash, &tx
	b.mu.Unlock()
	step(fmt.Sprintf("beta: bundle %s (tx %s) sent for slot %d; status %s", hash, tx.Hash(), s, status.Status))
	// Settled when S-settleLead is over; pay before S.
	if err := b.waitState(ctx, s, "settled", clock, s-1); err != nil {
		return err
	}
	if _, err := b.cli(ctx, append(append([]string{"auction", "pay"}, l2...), "--key", l2BidderKey, "--slot", strconv.FormatUint(s, 10),
		"--gas", strconv.Itoa(betaPayGas), "--hash", hash)...); err != nil {
		return err
	}
	paid := clock()
	b.mu.Lock()
	b.paidAt = paid
	b.mu.Unlock()
	if paid >= s {
		return fmt.Errorf("beta: the payment for slot %d was mined only in slot %d", s, paid)
	}
	status, err = b.betaStatus(ctx, rpcURL, mevURL, hash)
	if err != nil {
		return err
	}
	step(fmt.Sprintf("beta: %d gas of slot %d paid for %s (L1 slot %d); status %s", betaPayGas, s, hash, paid, status.Status))
	return nil
}

// waitState waits until `gavel auction info` shows slot s's auction in
// state want, until slot by is over.
func (b *betaRun) waitState(ctx context.Context, s uint64, want string, clock func() uint64, by uint64) error {
	for {
		st, err := b.auctionState(ctx, s)
		if err == nil && st == want {
			return nil
		}
		if clock() > by {
			return fmt.Errorf("beta: slot %d's auction is %q at slot %d, want %q by slot %d (%v)", s, st, clock(), want, by, err)
		}
		if err := sleep(ctx, time.Second); err != nil {
			return err
		}
	}
}

var auctionStateRE = regexp.MustCompile(`(?m)^slot \d+ auction: (.+)$`)

// auctionState is the state `gavel auction info --slot s` prints.
func (b *betaRun) auctionState(ctx context.Context, s uint64) (string, error) {
	out, err := b.cli(ctx, "auction", "info", "--l2rpc", b.l2URL, "--addresses", b.addrFile, "--slot", strconv.FormatUint(s, 10), "--recent", "0")
	if err != nil {
		return "", err
	}
	m := auctionStateRE.FindStringSubmatch(out)
	if m == nil {
		return "", fmt.Errorf("gavel auction info printed no state:\n%s", out)
	}
	return strings.TrimSpace(m[1]), nil
}

// betaStatus is what `gavel bundle beta-status` prints (mev_getBetaBundle),
// reduced to the slot the bundle was sent for.
type betaStatus struct {
	Txs         []string
	Status      string
	BlockHash   string
	IncludedTxs []string
	Included    string
	Reason      string
}

// betaBundleJSON is mev_getBetaBundle's answer.
type betaBundleJSON struct {
	Txs   []string `json:"txs"`
	Slots []struct {
		Slot        string   `json:"slot"`
		Status      string   `json:"status"`
		BlockHash   string   `json:"blockHash"`
		IncludedTxs []string `json:"includedTxs"`
		Included    string   `json:"included"`
		Reason      string   `json:"reason"`
	} `json:"slots"`
}

func (b *betaRun) betaStatus(ctx context.Context, rpcURL, mevURL, hash string) (*betaStatus, error) {
	out, err := b.cli(ctx, "bundle", "beta-status", "--rpc", rpcURL, "--mev", mevURL, hash)
	if err != nil {
		return nil, err
	}
	var res betaBundleJSON
	if i := strings.IndexByte(out, '{'); i < 0 || json.Unmarshal([]byte(out[i:]), &res) != nil || len(res.Slots) != 1 {
		return nil, fmt.Errorf("gavel bundle beta-status printed no bundle of one slot:\n%s", out)
	}
	sl := res.Slots[0]
	return &betaStatus{Txs: res.Txs, Status: sl.Status, BlockHash: sl.BlockHash, IncludedTxs: sl.IncludedTxs, Included: sl.Included, Reason: sl.Reason}, nil
}

// cli runs the gavel binary with args and returns its output (stdout and
// stderr); a failure carries both.
func (b *betaRun) cli(ctx context.Context, args ...string) (string, error) {
	cctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	var out bytes.Buffer
	cmd := command(cctx, b.work, b.gavel, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("gavel %s: %v\n%s", strings.Join(args[:min(3, len(args))], " "), err, out.String())
	}
	return out.String(), nil
}

// betaFigures are the beta checks' results, printed with the others.
type betaFigures struct {
	slot                   uint64
	blockNumber            uint64
	txs, betaIndex         int
	atBottom, afterPayment bool
	betaGasUsed, bundles   string
	status, included       string
	auction                string
}

// checkBeta checks slot S once it is over and returns the problems found.
func (b *betaRun) checkBeta(ctx context.Context, ec *ethclient.Client, rpcURL, mevURL, restURL string, clock func() uint64) (betaFigures, []string) {
	var f betaFigures
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	b.mu.Lock()
	s, hash, tx, done := b.slot, b.hash, b.tx, b.flowDone
	b.mu.Unlock()
	f.slot = s
	if s == 0 {
		return f, []string{"beta: no slot was picked (Lodestar never asked gavel for a header?)"}
	}
	select {
	case <-done:
	case <-ctx.Done():
		return f, []string{"beta: " + ctx.Err().Error()}
	}
	b.mu.Lock()
	flowErr := b.flowErr
	b.mu.Unlock()
	if flowErr != nil {
		return f, []string{flowErr.Error()}
	}

	// The beacon block of S and its execution payload, as gavel has it.
	var blk beaconBlock
	if err := getJSON(ctx, fmt.Sprintf("%s/eth/v2/beacon/blocks/%d", restURL, s), &blk); err != nil {
		return f, []string{fmt.Sprintf("beta: slot %d has no beacon block: %v", s, err)}
	}
	hashS := common.HexToHash(blk.Data.Message.Body.ExecutionPayload.BlockHash)
	block, err := ec.BlockByHash(ctx, hashS)
	if err != nil {
		return f, []string{fmt.Sprintf("beta: gavel does not have slot %d's block %s: %v", s, hashS, err)}
	}
	f.blockNumber, f.txs = block.NumberU64(), len(block.Transactions())
	txs := block.Transactions()
	f.betaIndex = -1
	for i, t := range txs {
		if t.Hash() == tx.Hash() {
			f.betaIndex = i
		}
	}
	f.atBottom = f.betaIndex >= 0 && f.betaIndex == len(txs)-1
	if !f.atBottom {
		fail("beta: the beta tx %s is at index %d of slot %d's block %s (%d txs), want the last", tx.Hash(), f.betaIndex, s, hashS, len(txs))
	}
	// Right above it: the alpha block's last tx, the builder's payment to
	// the proposer's fee recipient.
	if f.betaIndex >= 1 {
		pay := txs[f.betaIndex-1]
		from, _ := types.Sender(types.LatestSignerForChainID(pay.ChainId()), pay)
		f.afterPayment = from == addressOf(coinbaseKey) && pay.To() != nil && *pay.To() == common.HexToAddress(feeRecipient)
		if !f.afterPayment {
			fail("beta: the tx above the beta tx in slot %d's block is %s from %s to %v, want the builder's payment from %s to %s",
				s, pay.Hash(), from, pay.To(), addressOf(coinbaseKey), feeRecipient)
		}
	}
	if rc, err := ec.TransactionReceipt(ctx, tx.Hash()); err != nil || rc.Status != types.ReceiptStatusSuccessful {
		fail("beta: the beta tx %s has no successful receipt: %v", tx.Hash(), err)
	}

	// The data API's delivered record of S.
	var delivered []struct {
		BlockHash       string `json:"block_hash"`
		AlphaBlockHash  string `json:"alpha_block_hash"`
		BetaGasUsed     string `json:"beta_gas_used"`
		BetaBundleCount string `json:"beta_bundle_count"`
	}
	if err := getJSON(ctx, fmt.Sprintf("%s/relay/v1/data/bidtraces/proposer_payload_delivered?slot=%d", mevURL, s), &delivered); err != nil || len(delivered) != 1 {
		fail("beta: the data API has %d delivered records for slot %d (%v), want 1", len(delivered), s, err)
	} else {
		d := delivered[0]
		f.betaGasUsed, f.bundles = d.BetaGasUsed, d.BetaBundleCount
		if common.HexToHash(d.BlockHash) != hashS {
			fail("beta: delivered %s for slot %d, the beacon block has %s", d.BlockHash, s, hashS)
		}
		if d.BetaBundleCount != "1" || d.BetaGasUsed != strconv.FormatUint(tx.Gas(), 10) {
			fail("beta: slot %d's delivered record has beta_gas_used %q and beta_bundle_count %q, want %d and 1", s, d.BetaGasUsed, d.BetaBundleCount, tx.Gas())
		}
		if d.AlphaBlockHash == "" || common.HexToHash(d.AlphaBlockHash) == hashS {
			fail("beta: slot %d's delivered record has alpha_block_hash %q, want the builder's block under the beta part", s, d.AlphaBlockHash)
		}
	}

	// mev_getBetaBundle.
	if st, err := b.betaStatus(ctx, rpcURL, mevURL, hash); err != nil {
		fail("beta: %v", err)
	} else {
		f.status, f.included = st.Status, st.Included
		if st.Status != "included" || common.HexToHash(st.BlockHash) != hashS || st.Included != "1 of 1" {
			fail("beta: mev_getBetaBundle %s says %q in %q (%q, %s), want included in %s, 1 of 1", hash, st.Status, st.BlockHash, st.Included, st.Reason, hashS)
		}
	}

	// The operator pays S out once S is over and the L1 node says its
	// block was delivered with the beta part.
	deadline := s + 2 + 8
	for {
		st, err := b.auctionState(ctx, s)
		f.auction = st
		if err == nil && st == "paid out" {
			break
		}
		if clock() > deadline || sleep(ctx, time.Second) != nil {
			fail("beta: slot %d's auction is %q at slot %d, want paid out (%v)", s, st, clock(), err)
			break
		}
	}
	return f, problems
}

func (f betaFigures) print() {
	fmt.Printf("  beta slot                  %d (block %d, %d txs): beta tx at index %d, last %v, right after the proposer payment %v\n",
		f.slot, f.blockNumber, f.txs, f.betaIndex, f.atBottom, f.afterPayment)
	fmt.Printf("  beta delivered record      beta_gas_used %s, beta_bundle_count %s; mev_getBetaBundle %s (%s); auction %s\n",
		f.betaGasUsed, f.bundles, f.status, f.included, f.auction)
}

func addressOf(hexKey string) common.Address {
	k, err := crypto.HexToECDSA(strings.TrimPrefix(hexKey, "0x"))
	if err != nil {
		panic(err) // the constants above
	}
	return crypto.PubkeyToAddress(k.PublicKey)
}
