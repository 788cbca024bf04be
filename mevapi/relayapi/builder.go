package relayapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/errclass"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/mevapi"
	"github.com/gavel-eth/gavel/params"
)

// Paths of the relay builder API.
const (
	PathBuilderValidators = "/relay/v1/builder/validators"
	PathBuilderBlocks     = "/relay/v1/builder/blocks"
)

// DefaultMaxSubmissionBytes caps a block submission after gzip decoding
// (15 MiB, the reference relay's API_MAX_PAYLOAD_BYTES).
const DefaultMaxSubmissionBytes = 15 << 20

// Messages of the builder API's 202 answers.
const msgBelowFloor = "accepted bid below floor, skipped validation"

// ErrSubmissionTooLarge is returned when a submission exceeds the limit
// after gzip decoding: the decoder stops there, a gzip bomb is never
// inflated past it.
var ErrSubmissionTooLarge = errors.New("submission too large")

// BuilderRelay is what the builder API needs of the relay (eth/relay.Relay).
type BuilderRelay interface {
	BeaconConfig() *params.BeaconConfig
	Spec() *beacon.Spec
	Validators() []relay.ValidatorDuty
	CheckCancellations(requested bool) error
	CheckBidTrace(t *beacon.BidTrace, fork params.ConsensusFork) error
	Submit(ctx context.Context, req relay.SubmitRequest) (relay.SubmitOutcome, error)
	CheckHeaderTrace(t *beacon.BidTrace, fork params.ConsensusFork) error
	SubmitHeader(ctx context.Context, req relay.HeaderRequest) (relay.SubmitOutcome, error)
	StartSignatureCheck(trace *beacon.BidTrace, sig beacon.BLSSignature) *relay.SignatureCheck
	KnownBuilder(pk beacon.BLSPubkey, slot uint64) bool
}

// BuilderConfig tunes the builder API.
type BuilderConfig struct {
	// MaxSubmissionBytes caps a submission after gzip decoding (15 MiB).
	MaxSubmissionBytes int64
}

// MountBuilder mounts GET /relay/v1/builder/validators, POST
// /relay/v1/builder/blocks and POST /relay/v1/builder/headers.
func MountBuilder(mux interface{ Handle(string, http.Handler) }, r BuilderRelay, cfg BuilderConfig) {
	if cfg.MaxSubmissionBytes <= 0 {
		cfg.MaxSubmissionBytes = DefaultMaxSubmissionBytes
	}
	b := &builderAPI{r: r, cfg: cfg}
	mux.Handle("GET "+PathBuilderValidators, http.HandlerFunc(b.validators))
	mux.Handle("POST "+PathBuilderBlocks, http.HandlerFunc(b.submit))
	mux.Handle("POST "+PathBuilderHeaders, http.HandlerFunc(b.submitHeader))
}

type builderAPI struct {
	r   BuilderRelay
	cfg BuilderConfig
}

// validatorEntry is one item of the validators list.
type validatorEntry struct {
	Slot           string  `json:"slot"`
	ValidatorIndex string  `json:"validator_index"`
	Entry          jsonRaw `json:"entry"`
	// BetaGas is absent while the relay never read the slot's auction from
	// the L2: it reserves nothing it does not know of.
	BetaGas string `json:"beta_gas,omitempty"`
}

// jsonRaw is pre-encoded JSON.
type jsonRaw []byte

// MarshalJSON returns the raw bytes.
func (j jsonRaw) MarshalJSON() ([]byte, error) { return j, nil }

func (b *builderAPI) validators(w http.ResponseWriter, req *http.Request) {
	duties := b.r.Validators()
	out := make([]validatorEntry, 0, len(duties))
	for _, d := range duties {
		entry, err := beacon.MarshalJSONCompact(d.Entry)
		if err != nil {
			log.Error("Encoding a registration failed", "err", err)
			mevapi.WriteError(w, http.StatusInternalServerError, "")
			return
		}
		e := validatorEntry{Slot: strconv.FormatUint(d.Slot, 10), ValidatorIndex: strconv.FormatUint(d.ValidatorIndex, 10), Entry: entry}
		if d.BetaGasKnown {
			e.BetaGas = strconv.FormatUint(d.BetaGas, 10)
		}
		out = append(out, e)
	}
	mevapi.WriteJSON(w, http.StatusOK, out)
}

func (b *builderAPI) submit(w http.ResponseWriter, req *http.Request) {
	received := time.Now()
	cancellations := req.URL.Query().Get("cancellations") == "1"
	if err := b.r.CheckCancellations(cancellations); err != nil {
		writeRelayError(w, err)
		return
	}
	ssz, gzipped, ok := bodyFormat(w, req)
	if !ok {
		return
	}
	// The bid trace and the signature lead an SSZ submission (and a JSON
	// one that sends its signature before its payload): the checks that
	// need only the trace run on it before the rest is even read, and the
	// signature is verified while the rest is read, decompressed and
	// decoded.
	version := req.Header.Get("Eth-Consensus-Version")
	var early *relay.SignatureCheck
	var rejected error // the message's checks failed: the rest is not read
	var checked bool   // the message's checks ran on the prefix
	var cut readCut
	acct := mevapi.AccountOf(req)
	// Until the prefix names the builder, the body may use the budget's
	// reserve for known builders; then only a known builder whose
	// signature verified keeps that right.
	acct.ExpectVouch()
	// onMessage runs the message's checks and starts the signature's
	// (when the prefix holds it).
	onMessage := func(t *beacon.BidTrace, fork params.ConsensusFork, sig *beacon.BLSSignature) error {
		checked = true
		if rejected = b.r.CheckBidTrace(t, fork); rejected != nil {
			return rejected
		}
		known := sig != nil && b.r.KnownBuilder(t.BuilderPubkey, t.Slot)
		if !known {
			// The general share only: refused at once (503) when the
			// budget's use reaches into the reserve, before the signature
			// costs a BLS verification.
			if err := acct.Unvouched(); err != nil || sig == nil {
				return err
			}
		}
		early = b.r.StartSignatureCheck(t, *sig)
		go cut.onBadSignature(req.Context(), early, http.NewResponseController(w))
		if known {
			// The body is read and inflated beside the verification,
			// on the general share; the reserve waits for its outcome.
			acct.VouchPending(early.Done(), func() bool { return early.Failed() == nil })
		}
		return nil
	}
	prefixLen := sszPrefixLen
	onPrefix := func(prefix []byte) error {
		if prefix[0] == '{' { // JSON labelled octet-stream: checked once decoded
			return acct.Unvouched()
		}
		t, fork, ok := b.traceSSZ(prefix, version)
		if !ok {
			return acct.Unvouched() // decoding says what is wrong
		}
		sig, err := beacon.SubmissionSignatureSSZ(fork, prefix)
		if err != nil {
			return acct.Unvouched()
		}
		return onMessage(t, fork, &sig)
	}
	if !ssz {
		prefixLen = jsonPrefixLen
		onPrefix = func(prefix []byte) error {
			t, sig, err := beacon.SubmissionPrefixJSON(prefix)
			if err != nil || t == nil {
				return acct.Unvouched() // decoding says what is wrong, or the message is not first
			}
			fork, ok := b.fork(version, t.Slot)
			if !ok {
				return acct.Unvouched()
			}
			return onMessage(t, fork, sig)
		}
	}
	// Once the signature check started from the prefix has failed, the rest
	// is not read (or inflated) any further.
	signed := func() error {
		if early == nil {
			return nil
		}
		return early.Failed()
	}
	body, err := readSubmission(acct, req.Body, gzipped, req.ContentLength, b.cfg.MaxSubmissionBytes, prefixLen, onPrefix, signed)
	cut.done()
	if err != nil {
		if rejected != nil {
			writeRelayError(w, rejected)
			return
		}
		if serr := signed(); serr != nil {
			// Whatever ended the read (the check itself, or the read
			// deadline cutOnBadSignature set), the answer is the signature.
			w.Header().Set("Connection", "close") // the rest of the body is not wanted
			writeRelayError(w, serr)
			return
		}
		status := mevapi.BodyStatus(err)
		if errors.Is(err, ErrSubmissionTooLarge) {
			status = http.StatusRequestEntityTooLarge
		}
		mevapi.WriteError(w, status, err.Error())
		return
	}
	if !checked && (!ssz || len(body) > 0 && body[0] == '{') {
		// JSON whose message was not in its first bytes: decode the
		// message first, check it, then the payload.
		if t, err := beacon.SubmissionTraceJSON(body); err == nil {
			if fork, ok := b.fork(version, t.Slot); ok {
				if err := b.r.CheckBidTrace(t, fork); err != nil {
					writeRelayError(w, err)
					return
				}
			}
		}
	}
	if early != nil {
		early.Help() // the root's hash, unless the verification's goroutine began it
	}
	acct.SettleVouch() // a verified known builder decodes ahead of other clients
	var sub *beacon.Submission
	if gerr := heavy(req, body, func() { sub, err = DecodeSubmission(b.r.BeaconConfig(), b.r.Spec(), version, body, ssz) }); gerr != nil {
		mevapi.WriteError(w, mevapi.BodyStatus(gerr), gerr.Error())
		return
	}
	if err != nil {
		mevapi.WriteError(w, http.StatusBadRequest, err.Error())
		return
	}
	sreq := relay.SubmitRequest{Submission: sub, Cancellations: cancellations, ReceivedAt: received, DecodedAt: time.Now(), Signature: early}
	if ssz {
		sreq.SSZ = body // the relay checks it is the SSZ the submission came from
	}
	outcome, err := b.r.Submit(req.Context(), sreq)
	if err != nil || outcome != relay.Accepted {
		// Only an accepted submission is kept (as its builder's bid): the
		// body the decoded one aliases can serve the next request.
		mevapi.ReleaseBody(body)
	}
	if err != nil {
		writeRelayError(w, err)
		return
	}
	switch outcome {
	case relay.BelowFloor:
		if cancellations {
			mevapi.WriteJSON(w, http.StatusAccepted, msgBelowFloor)
		} else {
			mevapi.WriteJSON(w, http.StatusAccepted, map[string]string{"message": msgBelowFloor})
		}
	default:
		w.WriteHeader(http.StatusOK)
	}
}

// bodyFormat reads a builder API body's Content-Type (SSZ or JSON) and
// Content-Encoding (gzip or none); it answers 415 and reports false for
// any other.
func bodyFormat(w http.ResponseWriter, req *http.Request) (ssz, gzipped, ok bool) {
	ssz, err := isSSZ(req.Header.Get("Content-Type"))
	if err == nil {
		gzipped, err = contentEncoding(req.Header.Values("Content-Encoding"))
	}
	if err != nil {
		mevapi.WriteError(w, http.StatusUnsupportedMediaType, err.Error())
		return false, false, false
	}
	return ssz, gzipped, true
}

// readCut ends a submission's body read at once when its early signature
// check fails, even while the read waits for bytes that a stalled client
// never sends: an unsigned client cannot hold its buffers until the minimum
// rate cuts it. Once the read is over (done), it no longer touches the
// connection, which may serve the next request.
type readCut struct {
	mu   sync.Mutex
	over bool
}

func (c *readCut) onBadSignature(ctx context.Context, early *relay.SignatureCheck, rc *http.ResponseController) {
	select {
	case <-early.Done():
	case <-ctx.Done():
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.over && early.Failed() != nil {
		rc.SetReadDeadline(time.Now())
	}
}

func (c *readCut) done() {
	c.mu.Lock()
	c.over = true
	c.mu.Unlock()
}

// sszPrefixLen is how many leading bytes of an SSZ submission the body
// reader hands to onPrefix: enough for any fork's bid trace and signature.
const sszPrefixLen = beacon.SubmissionPrefixLen

// jsonPrefixLen is the same for a JSON submission: enough for its message
// and signature when it sends them first (beacon.SubmissionPrefixJSON).
const jsonPrefixLen = beacon.SubmissionPrefixJSONLen

// fork is the submission's fork: its Eth-Consensus-Version header, or
// without one its slot's; false when the header names no fork.
func (b *builderAPI) fork(version string, slot uint64) (params.ConsensusFork, bool) {
	if version == "" {
		return b.r.BeaconConfig().ForkAtSlot(slot), true
	}
	f, err := params.ParseConsensusFork(version)
	if err != nil || f < params.ForkBellatrix {
		return 0, false
	}
	return f, true
}

// traceSSZ reads the bid trace and the fork of an SSZ submission from its
// first bytes; false when they do not parse (decoding will say why).
func (b *builderAPI) traceSSZ(prefix []byte, version string) (*beacon.BidTrace, params.ConsensusFork, bool) {
	if len(prefix) < sszPrefixLen {
		return nil, 0, false
	}
	t, err := beacon.SubmissionTraceSSZ(prefix)
	if err != nil {
		return nil, 0, false
	}
	fork, ok := b.fork(version, t.Slot)
	return t, fork, ok
}

// ReadSubmission reads a submission body, gunzipping it when gzipped, and
// fails once more than limit bytes come out (a gzip bomb is cut off there,
// never inflated whole). size is the announced length (-1 unknown). When
// onPrefix is set it is called with the first sszPrefixLen bytes as soon as
// they are in, before the rest is read; it must not keep the slice.
//
// The bytes are read as they arrive (mevapi.ReadAll), never into a buffer
// sized from the announced length: into a released body's buffer while it
// has room, else into chunks joined into one buffer of the exact length.
// SSZ decoding aliases transactions and blobs into it (see package beacon),
// so it belongs to the decoded submission. A gzip body's first bytes are
// inflated on their own first (gunzip.go), for onPrefix.
func ReadSubmission(body io.Reader, gzipped bool, size, limit int64, onPrefix func([]byte) error) ([]byte, error) {
	return readSubmission(nil, body, gzipped, size, limit, sszPrefixLen, onPrefix, nil)
}

// readSubmission is ReadSubmission within a request's body budget, with
// onPrefix called on the first prefixLen bytes; when stop is set, it is
// asked before each read of the (inflated) body and an error it returns
// ends the read.
func readSubmission(acct *mevapi.Account, body io.Reader, gzipped bool, size, limit int64, prefixLen int, onPrefix func([]byte) error, stop func() error) ([]byte, error) {
	tooLarge := func(what string) func() error {
		return func() error { return fmt.Errorf("%w: more than %d bytes%s", ErrSubmissionTooLarge, limit, what) }
	}
	if !gzipped {
		if size > limit {
			return nil, fmt.Errorf("%w: %d bytes announced, the limit is %d", ErrSubmissionTooLarge, size, limit)
		}
		out, err := mevapi.ReadAll(acct, stopping(body, stop), limit, size, prefixLen, onPrefix, tooLarge(""))
		return out, readError(err)
	}
	return readGzip(acct, body, limit, prefixLen, onPrefix, stop, tooLarge(" after decompression"))
}

// stopping returns r, asking stop (when set) before each read.
func stopping(r io.Reader, stop func() error) io.Reader {
	if stop == nil {
		return r
	}
	return stopReader{r, stop}
}

type stopReader struct {
	r    io.Reader
	stop func() error
}

func (s stopReader) Read(p []byte) (int, error) {
	if err := s.stop(); err != nil {
		return 0, err
	}
	return s.r.Read(p)
}

// heavyBody is the size above which decoding a body (and checking what it
// holds) takes a turn of the node's CPU scheduler (mevapi.Account.Heavy).
const heavyBody = 64 << 10

// heavy runs f, the decoding of body, in a turn of the node's CPU scheduler
// when body is large; small bodies are decoded at once. The error is the
// gate's (mevapi.Account.Heavy): f did not run.
func heavy(req *http.Request, body []byte, f func()) error {
	if len(body) <= heavyBody {
		f()
		return nil
	}
	return mevapi.AccountOf(req).Heavy(int64(len(body)), f)
}

// readError names a body over the listener's raw limit as ErrBodyTooLarge;
// other errors (already worded by mevapi.ReadAll) pass as they are.
func readError(err error) error {
	var maxErr *http.MaxBytesError
	if errors.As(err, &maxErr) {
		return fmt.Errorf("%w: body over %d bytes", mevapi.ErrBodyTooLarge, maxErr.Limit)
	}
	return err
}

// contentEncoding reports whether a submission is gzipped: Content-Encoding
// gzip, or identity or none for a plain body. Any other coding (br, deflate,
// a chain) is refused rather than read as identity.
func contentEncoding(values []string) (gzipped bool, err error) {
	codings := mevapi.ContentCodings(values)
	switch {
	case len(codings) == 0:
		return false, nil
	case len(codings) == 1 && (codings[0] == "gzip" || codings[0] == "x-gzip"):
		return true, nil
	}
	return false, fmt.Errorf("unsupported Content-Encoding %q: send gzip or an uncompressed body", strings.Join(codings, ", "))
}

// uncompressed refuses any Content-Encoding but identity, for the proposer
// API's bodies (registrations, blinded blocks), which are read as they come:
// a gzip or br body must not be decoded as if it were plain.
func uncompressed(values []string) error {
	gzipped, err := contentEncoding(values)
	if err == nil && gzipped {
		err = errors.New("unsupported Content-Encoding \"gzip\": send the body uncompressed")
	}
	if err != nil {
		return fmt.Errorf("%w on this endpoint", err)
	}
	return nil
}

// isSSZ reports whether a request body's Content-Type means SSZ
// (application/octet-stream) or JSON (application/json). A missing
// Content-Type means JSON, as the reference relay reads it (consensus
// clients and scripts send none). Any other type is an error, answered 415
// (builder-specs): a body labelled text/plain or application/xml is not read
// as JSON by guess.
func isSSZ(contentType string) (bool, error) {
	if contentType == "" {
		return false, nil
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false, fmt.Errorf("failed to parse Content-Type header: %v", err)
	}
	switch mt {
	case contentSSZ:
		return true, nil
	case contentJSON:
		return false, nil
	}
	return false, fmt.Errorf("unsupported Content-Type %q: expected %s, %s or none (JSON)", mt, contentJSON, contentSSZ)
}

// DecodeSubmission decodes a block submission of the fork named by the
// Eth-Consensus-Version header, or, without it, of its slot's fork. SSZ that
// does not decode is retried as JSON (builders that label JSON as
// octet-stream), as the reference relay does. spec is the chain's preset.
func DecodeSubmission(cfg *params.BeaconConfig, spec *beacon.Spec, version string, body []byte, ssz bool) (*beacon.Submission, error) {
	return submissions.decode(cfg, spec, version, body, ssz)
}

// bodyCodec is how the builder API decodes one kind of body: its slot
// without decoding it (to pick the fork when no Eth-Consensus-Version
// header names it), and the whole body of a fork, in each encoding.
type bodyCodec[T any] struct {
	minFork       params.ConsensusFork
	badFork       string // the error for a header naming no fork from minFork on
	slotSSZ       func([]byte) (uint64, error)
	slotJSON      func([]byte) (uint64, error)
	ssz, jsonBody func(*beacon.Spec, params.ConsensusFork, []byte) (T, error)
}

var submissions = bodyCodec[*beacon.Submission]{
	minFork: params.ForkBellatrix, badFork: "invalid fork version",
	slotSSZ: beacon.SubmissionSlotSSZ, slotJSON: beacon.SubmissionSlotJSON,
	ssz: beacon.DecodeSubmissionSSZ, jsonBody: beacon.DecodeSubmissionJSON,
}

// decode is DecodeSubmission for the codec's kind of body.
func (c bodyCodec[T]) decode(cfg *params.BeaconConfig, spec *beacon.Spec, version string, body []byte, ssz bool) (T, error) {
	var zero T
	var fork params.ConsensusFork
	if version != "" {
		f, err := params.ParseConsensusFork(version)
		if err != nil || f < c.minFork {
			return zero, errors.New(c.badFork)
		}
		fork = f
	} else {
		var slot uint64
		var err error
		if ssz {
			slot, err = c.slotSSZ(body)
			if err != nil {
				if s, jerr := c.slotJSON(body); jerr == nil {
					slot, err = s, nil
				}
			}
		} else {
			slot, err = c.slotJSON(body)
		}
		if err != nil {
			return zero, err
		}
		fork = cfg.ForkAtSlot(slot)
	}
	if ssz {
		v, err := c.ssz(spec, fork, body)
		if err == nil {
			return v, nil
		}
		if jv, jerr := c.jsonBody(spec, fork, body); jerr == nil {
			return jv, nil
		}
		return zero, err
	}
	return c.jsonBody(spec, fork, body)
}

// writeRelayError answers a relay failure: 500 for the relay's own faults
// (marked errclass.Internal; details only in the log), 400 with the message
// otherwise.
func writeRelayError(w http.ResponseWriter, err error) {
	if errclass.IsInternal(err) {
		log.Error("Relay request failed", "err", err)
		mevapi.WriteError(w, http.StatusInternalServerError, "")
		return
	}
	mevapi.WriteError(w, errclass.HTTPStatus(err), err.Error())
}
