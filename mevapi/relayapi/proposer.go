package relayapi

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/mevapi"
	"github.com/gavel-eth/gavel/params"
)

// Paths of the proposer API (builder-specs).
const (
	PathStatus            = "/eth/v1/builder/status"
	PathRegisterValidator = "/eth/v1/builder/validators"
	PathHeader            = "/eth/v1/builder/header/{slot}/{parent_hash}/{pubkey}"
	PathBlindedBlocksV1   = "/eth/v1/builder/blinded_blocks"
	PathBlindedBlocksV2   = "/eth/v2/builder/blinded_blocks"
)

// Content types of the proposer API.
const (
	contentJSON = "application/json"
	contentSSZ  = "application/octet-stream"
)

// ProposerRelay is what the proposer API needs of the relay (eth/relay.Relay).
type ProposerRelay interface {
	BeaconConfig() *params.BeaconConfig
	Spec() *beacon.Spec
	RegisterValidators(ctx context.Context, regs []beacon.SignedValidatorRegistration) error
	// MaxRegistrations is how many registrations one request may carry.
	MaxRegistrations() int
	GetHeader(ctx context.Context, slot uint64, parent beacon.Root, proposer beacon.BLSPubkey) (*beacon.SignedBuilderBid, error)
	GetPayload(ctx context.Context, blk *beacon.SignedBlindedBeaconBlock, async bool) (*relay.Delivery, error)
}

// MountProposer mounts the builder-specs endpoints a proposer (mev-boost,
// a consensus client) calls.
func MountProposer(mux interface{ Handle(string, http.Handler) }, r ProposerRelay) {
	p := &proposerAPI{r: r}
	mux.Handle("GET "+PathStatus, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }))
	mux.Handle("POST "+PathRegisterValidator, http.HandlerFunc(p.register))
	mux.Handle("GET "+PathHeader, http.HandlerFunc(p.header))
	mux.Handle("POST "+PathBlindedBlocksV1, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { p.blindedBlock(w, req, false) }))
	mux.Handle("POST "+PathBlindedBlocksV2, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { p.blindedBlock(w, req, true) }))
}

type proposerAPI struct {
	r       ProposerRelay
	headers bidCache
}

// bidCache keeps the encoded getHeader answers of the most recent bids: a
// proposer (or several relays' worth of mev-boost instances) asks for the
// same best bid many times, and encoding it is most of the work.
type bidCache struct {
	mu      sync.Mutex
	entries map[*beacon.SignedBuilderBid]*[2][]byte // [json, ssz]
	order   []*beacon.SignedBuilderBid
}

const bidCacheSize = 256

// encoded returns the bid's answer body, JSON ({"version","data"}) or SSZ.
func (c *bidCache) encoded(bid *beacon.SignedBuilderBid, ssz bool) ([]byte, error) {
	i := 0
	if ssz {
		i = 1
	}
	c.mu.Lock()
	if e, ok := c.entries[bid]; ok && e[i] != nil {
		c.mu.Unlock()
		return e[i], nil
	}
	c.mu.Unlock()
	body, err := encodeVersioned(bid.Fork, bid, ssz)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = make(map[*beacon.SignedBuilderBid]*[2][]byte)
	}
	e, ok := c.entries[bid]
	if !ok {
		e = new([2][]byte)
		c.entries[bid] = e
		c.order = append(c.order, bid)
		if len(c.order) > bidCacheSize {
			delete(c.entries, c.order[0])
			c.order = c.order[1:]
		}
	}
	e[i] = body
	return body, nil
}

func (p *proposerAPI) register(w http.ResponseWriter, req *http.Request) {
	if req.ContentLength == 0 {
		mevapi.WriteError(w, http.StatusBadRequest, relay.ErrEmptyRegistrations.Error())
		return
	}
	ssz, err := isSSZ(req.Header.Get("Content-Type"))
	if err != nil {
		mevapi.WriteError(w, http.StatusUnsupportedMediaType, err.Error())
		return
	}
	if err := uncompressed(req.Header.Values("Content-Encoding")); err != nil {
		mevapi.WriteError(w, http.StatusUnsupportedMediaType, err.Error())
		return
	}
	// A body longer than the most registrations a request may carry is
	// refused before it is read: it would only be decoded to be refused.
	limit := registrationsLimit(p.r.MaxRegistrations(), ssz)
	if req.ContentLength > limit {
		w.Header().Set("Connection", "close") // the body is not wanted
		mevapi.WriteError(w, http.StatusRequestEntityTooLarge, registrationsTooLarge(req.ContentLength, p.r.MaxRegistrations(), ssz))
		return
	}
	body, err := mevapi.ReadBody(req, limit)
	if err != nil {
		if errors.Is(err, mevapi.ErrBodyTooLarge) {
			mevapi.WriteError(w, http.StatusRequestEntityTooLarge, registrationsTooLarge(-1, p.r.MaxRegistrations(), ssz))
			return
		}
		mevapi.WriteError(w, mevapi.BodyStatus(err), err.Error())
		return
	}
	if len(body) == 0 {
		mevapi.WriteError(w, http.StatusBadRequest, relay.ErrEmptyRegistrations.Error())
		return
	}
	// Decoding and verifying a large request takes a turn of the
	// listener's CPU gate: cheap requests keep a core.
	var decodeErr error
	gerr := heavy(req, body, func() {
		var regs []beacon.SignedValidatorRegistration
		ctx := relay.WithClient(req.Context(), mevapi.ClientIP(req))
		if ssz {
			// Exact copies of an entry are left out as they are decoded:
			// the decoded request grows with its distinct entries only.
			var total int
			regs, total, decodeErr = beacon.DecodeRegistrationsSSZUnique(body)
			ctx = relay.WithRegistrationCount(ctx, total)
		} else {
			regs, decodeErr = beacon.DecodeRegistrationsJSON(body)
		}
		if decodeErr == nil {
			err = p.r.RegisterValidators(ctx, regs)
		}
	})
	if gerr != nil {
		mevapi.WriteError(w, mevapi.BodyStatus(gerr), gerr.Error())
		return
	}
	if decodeErr != nil {
		mevapi.WriteError(w, http.StatusBadRequest, "invalid registrations: "+decodeErr.Error())
		return
	}
	if err != nil {
		writeRelayError(w, err)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// Sizes of one registration on the wire: SSZ's fixed size, and a bound
// for JSON: the canonical encoding is about 470 bytes (the largest gas
// limit and timestamp), this leaves room for pretty-printing.
const (
	registrationSSZSize     = 180
	registrationMaxJSONSize = 1024
)

// registrationsLimit is the largest body of max registrations.
func registrationsLimit(max int, ssz bool) int64 {
	if ssz {
		return int64(max) * registrationSSZSize
	}
	return int64(max)*registrationMaxJSONSize + 2 // the array's brackets
}

// registrationsTooLarge says why a body was refused; n < 0 when its length
// was not announced.
func registrationsTooLarge(n int64, max int, ssz bool) string {
	each, enc := "180 bytes", "SSZ"
	if !ssz {
		each, enc = fmt.Sprintf("at most %d bytes", registrationMaxJSONSize), "JSON"
	}
	got := "the body is longer"
	if n >= 0 {
		got = fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("registrations body too large: %s, the limit is %d bytes (%s: at most %d registrations of %s each)", got, registrationsLimit(max, ssz), enc, max, each)
}

func (p *proposerAPI) header(w http.ResponseWriter, req *http.Request) {
	wantSSZ, ok := negotiate(req.Header.Get("Accept"))
	if !ok {
		mevapi.WriteError(w, http.StatusNotAcceptable, "not acceptable")
		return
	}
	slot, err := strconv.ParseUint(req.PathValue("slot"), 10, 64)
	if err != nil {
		mevapi.WriteError(w, http.StatusBadRequest, "invalid slot")
		return
	}
	var pubkey beacon.BLSPubkey
	if s := req.PathValue("pubkey"); len(s) != 98 || pubkey.UnmarshalText([]byte(s)) != nil {
		mevapi.WriteError(w, http.StatusBadRequest, "invalid pubkey")
		return
	}
	var parent beacon.Root
	if s := req.PathValue("parent_hash"); len(s) != 66 || parent.UnmarshalText([]byte(s)) != nil {
		mevapi.WriteError(w, http.StatusBadRequest, "invalid hash")
		return
	}
	bid, err := p.r.GetHeader(req.Context(), slot, parent, pubkey)
	if err != nil {
		writeRelayError(w, err)
		return
	}
	if bid == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	body, err := p.headers.encoded(bid, wantSSZ)
	if err != nil {
		log.Error("Encoding a bid failed", "err", err)
		mevapi.WriteError(w, http.StatusInternalServerError, "")
		return
	}
	writeBody(w, http.StatusOK, bid.Fork, body, wantSSZ)
}

func (p *proposerAPI) blindedBlock(w http.ResponseWriter, req *http.Request, v2 bool) {
	wantSSZ := false
	if !v2 {
		var ok bool
		if wantSSZ, ok = negotiate(req.Header.Get("Accept")); !ok {
			mevapi.WriteError(w, http.StatusNotAcceptable, "not acceptable")
			return
		}
	}
	ct := req.Header.Get("Content-Type")
	if ct == "" {
		mevapi.WriteError(w, http.StatusUnsupportedMediaType, "missing Content-Type header")
		return
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mevapi.WriteError(w, http.StatusUnsupportedMediaType, "failed to parse Content-Type header: "+err.Error())
		return
	}
	if mt != contentJSON && mt != contentSSZ {
		mevapi.WriteError(w, http.StatusUnsupportedMediaType, fmt.Sprintf("failed to decode payload: unsupported Content-Type %q, expected %s or %s", mt, contentJSON, contentSSZ))
		return
	}
	if err := uncompressed(req.Header.Values("Content-Encoding")); err != nil {
		mevapi.WriteError(w, http.StatusUnsupportedMediaType, err.Error())
		return
	}
	body, err := mevapi.ReadBody(req, 1<<62)
	if err != nil {
		mevapi.WriteError(w, mevapi.BodyStatus(err), err.Error())
		return
	}
	// Consensus clients send JSON without Eth-Consensus-Version (Lodestar
	// 1.5): the fork is then the fork of the block's slot.
	var fork params.ConsensusFork
	if v := req.Header.Get("Eth-Consensus-Version"); v != "" {
		if fork, err = params.ParseConsensusFork(v); err != nil {
			mevapi.WriteError(w, http.StatusBadRequest, "failed to decode payload: Eth-Consensus-Version: "+err.Error())
			return
		}
	} else {
		var slot uint64
		if mt == contentSSZ {
			slot, err = beacon.BlindedBlockSlotSSZ(body)
		} else {
			slot, err = beacon.BlindedBlockSlotJSON(body)
		}
		if err != nil {
			mevapi.WriteError(w, http.StatusBadRequest, "failed to decode payload: "+err.Error())
			return
		}
		fork = p.r.BeaconConfig().ForkAtSlot(slot)
	}
	if fork < params.ForkBellatrix {
		mevapi.WriteError(w, http.StatusBadRequest, fmt.Sprintf("failed to decode payload: fork %s has no blinded blocks, expected bellatrix or later", fork))
		return
	}
	var blk *beacon.SignedBlindedBeaconBlock
	if mt == contentSSZ {
		blk, err = beacon.DecodeSignedBlindedBeaconBlockSSZ(p.r.Spec(), fork, body)
	} else {
		blk, err = beacon.DecodeSignedBlindedBeaconBlockJSON(p.r.Spec(), fork, body)
	}
	if err != nil {
		mevapi.WriteError(w, http.StatusBadRequest, "failed to decode payload: "+err.Error())
		return
	}
	d, err := p.r.GetPayload(req.Context(), blk, v2)
	if err != nil {
		writeRelayError(w, err)
		return
	}
	if v2 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	resp, err := beacon.PayloadResponse(d.Payload, d.Bundle)
	if err != nil {
		log.Error("Encoding a delivered payload failed", "err", err)
		mevapi.WriteError(w, http.StatusInternalServerError, "")
		return
	}
	writeVersioned(w, http.StatusOK, d.Payload.Fork, containerJSON{resp}, wantSSZ)
}

// sszJSON is an answer that encodes as SSZ and as beacon-API JSON.
type sszJSON interface {
	MarshalSSZ() ([]byte, error)
	MarshalJSON() ([]byte, error)
}

// containerJSON gives a beacon container its beacon-API JSON encoding.
type containerJSON struct{ beacon.Container }

// MarshalJSON encodes the container as beacon-API JSON.
func (c containerJSON) MarshalJSON() ([]byte, error) { return beacon.MarshalJSONCompact(c.Container) }

// writeVersioned writes v as SSZ, or as {"version":fork,"data":v} JSON,
// with the Eth-Consensus-Version header.
func writeVersioned(w http.ResponseWriter, status int, fork params.ConsensusFork, v sszJSON, ssz bool) {
	body, err := encodeVersioned(fork, v, ssz)
	if err != nil {
		log.Error("Encoding a proposer answer failed", "err", err)
		mevapi.WriteError(w, http.StatusInternalServerError, "")
		return
	}
	writeBody(w, status, fork, body, ssz)
}

// encodeVersioned encodes v as SSZ or as {"version":fork,"data":v} JSON.
func encodeVersioned(fork params.ConsensusFork, v sszJSON, ssz bool) ([]byte, error) {
	var body []byte
	var err error
	if ssz {
		body, err = v.MarshalSSZ()
	} else {
		var data []byte
		if data, err = v.MarshalJSON(); err == nil {
			body = make([]byte, 0, len(data)+40)
			body = append(body, `{"version":"`...)
			body = append(body, fork.String()...)
			body = append(body, `","data":`...)
			body = append(append(body, data...), '}', '\n')
		}
	}
	return body, err
}

// writeBody writes an encoded answer with its headers. The header values
// are shared, prebuilt slices: getHeader answers at hundreds of requests per
// second and need not allocate them each time (net/http only reads them).
func writeBody(w http.ResponseWriter, status int, fork params.ConsensusFork, body []byte, ssz bool) {
	h := w.Header()
	if int(fork) < len(forkHeaders) {
		h["Eth-Consensus-Version"] = forkHeaders[fork]
	} else {
		h.Set("Eth-Consensus-Version", fork.String())
	}
	if ssz {
		h["Content-Type"] = headerSSZ
	} else {
		h["Content-Type"] = headerJSON
	}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	w.Write(body)
}

var (
	headerJSON  = []string{contentJSON}
	headerSSZ   = []string{contentSSZ}
	forkHeaders = func() (out [params.LatestConsensusFork + 1][]string) {
		for f := range out {
			out[f] = []string{params.ConsensusFork(f).String()}
		}
		return out
	}()
)

// negotiate picks the answer's encoding from an Accept header: SSZ when
// application/octet-stream has at least JSON's quality, JSON by default; ok
// is false when neither (nor a wildcard) is acceptable.
func negotiate(accept string) (ssz, ok bool) {
	if strings.TrimSpace(accept) == "" {
		return false, true
	}
	qJSON, qSSZ := -1.0, -1.0
	for _, part := range strings.Split(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if s, ok := params["q"]; ok {
			if v, err := strconv.ParseFloat(s, 64); err == nil {
				q = v
			}
		}
		switch mt {
		case contentJSON:
			qJSON = max(qJSON, q)
		case contentSSZ:
			qSSZ = max(qSSZ, q)
		case "*/*", "application/*":
			qJSON = max(qJSON, q)
		}
	}
	switch {
	case qSSZ > 0 && qSSZ >= qJSON:
		return true, true
	case qJSON > 0:
		return false, true
	}
	return false, false
}
