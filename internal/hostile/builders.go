package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/params"
)

// The honest builder probes (-builders): a builder's signed submission of
// a real block for the coming slot, SSZ with gzip (JSON with gzip for
// "builderjson"), as builders send it, while the attack fills the body
// budget. The block comes from the target's mev_devSampleSubmission and is
// signed again with the probe's own builder key:
//
//   - known: one key, whose bids the relay accepted in the baseline (a
//     builder with a recent accepted bid);
//   - builderjson: likewise with a key of its own (one key's submissions
//     racing each other would be refused as older), JSON with the
//     signature first;
//   - priority: a key never used before for every submission, each marked
//     high-priority in the target's database (-datadir) before the run, as
//     `gavel relay builders set` does: a new builder the operator vouches
//     for, never known by its track record;
//   - unknown: a fresh key for every submission, never marked: a
//     brand-new builder nobody vouches for.
var (
	builders  = flag.Bool("builders", false, "also probe honest builders' signed submissions (known, builderjson, priority, unknown)")
	datadir   = flag.String("datadir", "", "-builders: the target's datadir, to mark the priority keys high-priority in its database")
	priorityN = flag.Int("prioritykeys", 200, "-builders: priority keys marked (one per submission)")
)

// builderProbes are the kinds -builders adds to probeKinds.
var builderProbes = []probeKind{{"known", 500 * time.Millisecond}, {"builderjson", 500 * time.Millisecond}, {"priority", 500 * time.Millisecond}, {"unknown", 500 * time.Millisecond}}

// devBuilderDomain is the builder signing domain of `gavel --dev`.
var devBuilderDomain = beacon.BuilderDomain(&params.BeaconConfig{GenesisForkVersion: params.DevGenesisForkVersion})

// builderKeyOf derives a probe builder key from a label.
func builderKeyOf(label string) *beacon.SecretKey {
	ikm := sha256.Sum256([]byte("hostile " + label))
	k, err := beacon.DeriveSecretKey(ikm[:])
	if err != nil {
		fail(err)
	}
	return k
}

// honestBuilders holds what the builder probes share: the latest sample
// block, the known key and the next unused priority key.
type honestBuilders struct {
	known, knownJSON *beacon.SecretKey

	mu       sync.Mutex
	priority int // next unused priority key
}

// theBuilders is set up once per process (setupBuilders).
var theBuilders *honestBuilders

// setupBuilders marks the priority keys high-priority in the target's
// database and waits for the relay to read them (it does at each head slot).
func setupBuilders() {
	theBuilders = &honestBuilders{known: builderKeyOf("known builder"), knownJSON: builderKeyOf("known JSON builder")}
	if *datadir == "" {
		fail(fmt.Errorf("-builders needs -datadir, to mark the priority keys"))
	}
	st, err := store.OpenSQLite(store.Path(*datadir))
	if err != nil {
		fail(err)
	}
	defer st.Close()
	for i := 0; i < *priorityN; i++ {
		k := builderKeyOf(fmt.Sprint("priority builder ", i))
		if err := st.SetBuilderStatus(context.Background(), store.BuilderStatus{Pubkey: k.PublicKey(), Status: store.BuilderHighPriority, Note: "hostile probe", UpdatedAt: time.Now().UnixMilli()}); err != nil {
			fail(err)
		}
	}
	time.Sleep(3 * time.Second) // a few head slots
	// The known builder's first bids: accepted, it is known from now on.
	client := &http.Client{Timeout: 5 * time.Second}
	for i := 0; i < 2; i++ {
		for _, kind := range []string{"known", "builderjson"} {
			if res, err := client.Do(theBuilders.request(kind)); err == nil {
				res.Body.Close()
			}
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// nextSample returns a valid submission for the coming slot, built for
// each submission: the registration probe changes the proposers' gas
// limits every second, and a block built before the change fails the
// gas-limit rule after it. (Building it is not part of the measured time.)
func nextSample() (*beacon.Submission, error) {
	st, raw, msg := rpcCall(*rpcURL, "mev_devSampleSubmission")
	if st != http.StatusOK || msg != "" {
		return nil, fmt.Errorf("mev_devSampleSubmission: HTTP %d %s", st, msg)
	}
	var body json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, err
	}
	sub, err := beacon.DecodeSubmissionJSON(beacon.MainnetSpec, params.ForkFulu, body)
	if err != nil {
		return nil, err
	}
	return sub, nil
}

// request is one honest builder submission of kind.
func (b *honestBuilders) request(kind string) *http.Request {
	var key *beacon.SecretKey
	switch kind {
	case "known":
		key = b.known
	case "builderjson":
		key = b.knownJSON
	case "priority":
		b.mu.Lock()
		i := b.priority % *priorityN
		b.priority++
		b.mu.Unlock()
		key = builderKeyOf(fmt.Sprint("priority builder ", i))
	default:
		ikm := make([]byte, 32)
		rand.Read(ikm)
		var err error
		if key, err = beacon.DeriveSecretKey(ikm); err != nil {
			fail(err)
		}
	}
	sample, err := nextSample()
	if err != nil {
		fail(err)
	}
	if sample.Fulu == nil {
		fail(fmt.Errorf("the dev sample submission is %s, expected fulu", sample.Fork))
	}
	req := *sample.Fulu
	req.Message.BuilderPubkey = key.PublicKey()
	if req.Signature, err = key.Sign(&req.Message, devBuilderDomain); err != nil {
		fail(err)
	}
	sub := &beacon.Submission{Fork: params.ForkFulu, Fulu: &req}
	contentType := "application/octet-stream"
	var raw []byte
	if kind == "builderjson" {
		contentType = "application/json"
		raw, err = sub.MarshalJSONSignatureFirst()
	} else {
		raw, err = sub.MarshalSSZ()
	}
	if err != nil {
		fail(err)
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(raw)
	w.Close()
	// cancellations=1: every submission of the same value is simulated and
	// stored again (200), not skipped at the floor (202).
	r, _ := http.NewRequest("POST", *target+"/relay/v1/builder/blocks?cancellations=1", &z)
	r.Header.Set("Content-Type", contentType)
	r.Header.Set("Content-Encoding", "gzip")
	r.Header.Set("Eth-Consensus-Version", "fulu")
	return r
}

// signedPrefixGzip is, for -signed, one connection's gzip member holding a
// bid trace signed by a fresh key of its own; the zeros that follow are
// one shared member (gzip readers read concatenated members as one
// stream), so that a thousand fresh keys cost a thousand signatures, not a
// thousand 15 MiB compressions.
func signedPrefixGzip() []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(dutyTrace())
	w.Close()
	return b.Bytes()
}
