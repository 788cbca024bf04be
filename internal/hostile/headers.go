package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
)

// -attack headers: header-first submissions (POST /relay/v1/builder/headers)
// naming an optimistic builder, whose pubkey is public, for the coming slot,
// every field right but the signature: a valid point, another key's. Each
// passes the checks before the signature and costs the relay the most a
// header can: a BLS verification and, as it would top the auction, the
// signing of its bid. The victim is made optimistic in the target's
// database before the run (-datadir), as `gavel relay builders set
// --optimistic` does; the headers follow the target's dev sample block of
// each coming slot (mev_devSampleSubmission).

// headerVictim is the optimistic builder the headers name.
var headerVictim = builderKeyOf("optimistic victim")

// setupHeaders makes the victim optimistic in the target's database and
// waits for the relay to read it (at its next head slot).
func setupHeaders() {
	if *datadir == "" {
		fail(fmt.Errorf("-attack headers needs -datadir, to make its victim optimistic"))
	}
	st, err := store.OpenSQLite(store.Path(*datadir))
	if err != nil {
		fail(err)
	}
	defer st.Close()
	collateral := new(uint256.Int).Mul(uint256.NewInt(1e18), uint256.NewInt(1000))
	if err := st.SetOptimisticBuilder(context.Background(), store.OptimisticBuilder{
		Pubkey: headerVictim.PublicKey(), Collateral: beacon.U256FromUint256(collateral), Note: "hostile victim", UpdatedAt: time.Now().UnixMilli(),
	}); err != nil {
		fail(err)
	}
	time.Sleep(3 * time.Second) // a few head slots
}

// forgedHeader is the header submission of the coming slot's sample block
// in the victim's name, bidding one ether more, signed by a key of the
// attacker's: SSZ, gzipped.
func forgedHeader(attacker *beacon.SecretKey) ([]byte, error) {
	sample, err := nextSample()
	if err != nil {
		return nil, err
	}
	req := *sample.Fulu
	req.Message.BuilderPubkey = headerVictim.PublicKey()
	req.Message.Value = beacon.U256FromUint256(new(uint256.Int).Add(req.Message.Value.Uint256(), uint256.NewInt(1e18)))
	if req.Signature, err = attacker.Sign(&req.Message, devBuilderDomain); err != nil {
		return nil, err
	}
	h, err := beacon.NewHeaderSubmission(&beacon.Submission{Fork: sample.Fork, Fulu: &req})
	if err != nil {
		return nil, err
	}
	raw, err := h.MarshalSSZ()
	if err != nil {
		return nil, err
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(raw)
	w.Close()
	return z.Bytes(), nil
}

// floodHeaders is -attack headers: -conns clients post the forged header of
// the coming slot one after the other for -hold; the header is forged again
// twice a slot.
func floodHeaders() map[string]int {
	attacker := builderKeyOf("header attacker")
	var cur atomic.Pointer[[]byte]
	refresh := func() {
		if body, err := forgedHeader(attacker); err == nil {
			cur.Store(&body)
		}
	}
	refresh()
	if cur.Load() == nil {
		fail(fmt.Errorf("no dev sample block to forge a header from"))
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(*period / 2):
				refresh()
			}
		}
	}()
	return during(*conns, func(c int, a *answers) {
		client := attackerClient(c)
		for end := time.Now().Add(*hold); time.Now().Before(end); {
			req, _ := http.NewRequest("POST", *target+"/relay/v1/builder/headers", bytes.NewReader(*cur.Load()))
			req.Header.Set("Content-Type", "application/octet-stream")
			req.Header.Set("Content-Encoding", "gzip")
			req.Header.Set("Eth-Consensus-Version", "fulu")
			a.add(answerOf(client.Do(req)))
		}
	})
}
