package relayapi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
	"github.com/gavel-eth/gavel/params"
)

// TestMinimalPresetFlowHTTP runs registration, submission, getHeader and getPayload over
// HTTP against a relay on a minimal-preset chain, for Capella (what Lodestar 1.5.1 runs) and
// Fulu: the bid's header carries the minimal withdrawals root and is signed over the minimal
// hash tree root, the proposer's blinded block with 4 bytes of sync committee bits is
// accepted in JSON and SSZ, and a block of mainnet sizes is refused naming the field.
func TestMinimalPresetFlowHTTP(t *testing.T) {
	for _, capella := range []bool{true, false} {
		fork := params.ForkFulu
		if capella {
			fork = params.ForkCapella
		}
		t.Run(fork.String(), func(t *testing.T) {
			e, base := serverWith(t, relaytest.Options{Capella: capella, Spec: beacon.MinimalSpec})
			registerHTTP(t, e, base, false)
			sub := e.Submission(e.BuildBlock(1, 2, nil))
			raw, _ := sub.MarshalSSZ()
			if code, _, out := do(t, "POST", base+relayapi.PathBuilderBlocks, raw, map[string]string{"Content-Type": "application/octet-stream"}); code != 200 {
				t.Fatalf("submit: %d %s", code, out)
			}
			pk := e.Proposer(1).Key.PublicKey().String()
			code, _, out := do(t, "GET", base+"/eth/v1/builder/header/1/"+sub.BidTrace().ParentHash.String()+"/"+pk, nil, nil)
			if code != 200 {
				t.Fatalf("getHeader: %d %s", code, out)
			}
			var versioned struct {
				Data json.RawMessage `json:"data"`
			}
			if err := json.Unmarshal(out, &versioned); err != nil {
				t.Fatal(err)
			}
			bid, err := beacon.DecodeSignedBuilderBidJSON(beacon.MinimalSpec, fork, versioned.Data)
			if err != nil {
				t.Fatal(err)
			}
			if err := bid.VerifySignature(beacon.BuilderDomain(e.Beacon)); err != nil {
				t.Fatalf("bid signature under the minimal preset: %v", err)
			}
			minimalRoot, _ := beacon.WithdrawalsRoot(beacon.MinimalSpec, nil)
			mainnetRoot, _ := beacon.WithdrawalsRoot(beacon.MainnetSpec, nil)
			var got beacon.Root
			if capella {
				got = bid.Header().Capella.WithdrawalsRoot
			} else {
				got = bid.Header().Deneb.WithdrawalsRoot
			}
			if got != minimalRoot || got == mainnetRoot {
				t.Fatalf("header withdrawals root %s, want the minimal preset's %s (mainnet's is %s)", got, minimalRoot, mainnetRoot)
			}

			blk := e.BlindedBlock(1, bid)
			blkJSON, _ := blk.MarshalJSON()
			if !strings.Contains(string(blkJSON), `"sync_committee_bits":"0x00000000"`) {
				t.Fatalf("the proposer's block has no 4-byte sync committee bits: %.300s", blkJSON)
			}
			// Mainnet-sized sync committee bits: a clear 400 naming the field and the length.
			wrong := strings.Replace(string(blkJSON), `"sync_committee_bits":"0x00000000"`, `"sync_committee_bits":"0x`+strings.Repeat("00", 64)+`"`, 1)
			code, _, out = do(t, "POST", base+relayapi.PathBlindedBlocksV1, []byte(wrong), map[string]string{"Content-Type": "application/json"})
			if msg := errorMessage(t, out); code != 400 || !strings.Contains(msg, "sync_aggregate.sync_committee_bits") || !strings.Contains(msg, "expected 8 (4 bytes)") {
				t.Fatalf("mainnet-sized sync bits: %d %s", code, out)
			}
			// As Lodestar sends it: JSON without Eth-Consensus-Version.
			code, _, out = do(t, "POST", base+relayapi.PathBlindedBlocksV1, blkJSON, map[string]string{"Content-Type": "application/json"})
			if code != 200 || !strings.HasPrefix(string(out), `{"version":"`+fork.String()+`","data":{"execution_payload":`) && !strings.HasPrefix(string(out), `{"version":"`+fork.String()+`","data":{"parent_hash":`) {
				t.Fatalf("getPayload json: %d %.200s", code, out)
			}
			blkSSZ, _ := blk.MarshalSSZ()
			code, _, out = do(t, "POST", base+relayapi.PathBlindedBlocksV1, blkSSZ, map[string]string{"Content-Type": "application/octet-stream", "Accept": "application/octet-stream"})
			if code != 200 || len(out) == 0 {
				t.Fatalf("getPayload ssz: %d %.200s", code, out)
			}
			if e.Publisher.Count() == 0 {
				t.Fatal("nothing published")
			}
			pub := e.Publisher.Blocks[0]
			body, err := pub.MarshalSSZ()
			if err != nil {
				t.Fatal(err)
			}
			var syncBits []byte
			if capella {
				var full beacon.SignedBeaconBlockCapella
				if err := beacon.MinimalSpec.UnmarshalSSZ(&full, body); err != nil {
					t.Fatalf("published block under the minimal preset: %v", err)
				}
				syncBits = full.Message.Body.SyncAggregate.SyncCommitteeBits
			} else {
				var full beacon.SignedBlockContentsFulu
				if err := beacon.MinimalSpec.UnmarshalSSZ(&full, body); err != nil {
					t.Fatalf("published block under the minimal preset: %v", err)
				}
				syncBits = full.SignedBlock.Message.Body.SyncAggregate.SyncCommitteeBits
			}
			if len(syncBits) != 4 {
				t.Fatalf("published block has %d bytes of sync committee bits", len(syncBits))
			}
			if root, err := pub.BlockRoot(); err != nil || root != mustRoot(t, blk) {
				t.Fatalf("published block root %x differs from the signed blinded block's (%v)", root, err)
			}
		})
	}
}

func mustRoot(t *testing.T, b *beacon.SignedBlindedBeaconBlock) [32]byte {
	t.Helper()
	r, err := b.Message().HashTreeRoot()
	if err != nil {
		t.Fatal(err)
	}
	return r
}
