package relayapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/log"
	"github.com/klauspost/compress/gzip"

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
	Validators() []relay.ValidatorDuty
	CheckCancellations(requested bool) error
	Submit(ctx context.Context, req relay.SubmitRequest) (relay.SubmitOutcome, error)
	StartSignatureCheck(trace *beacon.BidTrace, sig beacon.BLSSignature) *relay.SignatureCheck
}

// BuilderConfig tunes the builder API.
type BuilderConfig struct {
	// MaxSubmissionBytes caps a submission after gzip decoding (15 MiB).
	MaxSubmissionBytes int64
}

// MountBuilder mounts GET /relay/v1/builder/validators and POST
// /relay/v1/builder/blocks.
func MountBuilder(mux interface{ Handle(string, http.Handler) }, r BuilderRelay, cfg BuilderConfig) {
	if cfg.MaxSubmissionBytes <= 0 {
		cfg.MaxSubmissionBytes = DefaultMaxSubmissionBytes
	}
	b := &builderAPI{r: r, cfg: cfg}
	mux.Handle("GET "+PathBuilderValidators, http.HandlerFunc(b.validators))
	mux.Handle("POST "+PathBuilderBlocks, http.HandlerFunc(b.submit))
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
	BetaGas        string  `json:"beta_gas"`
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
		out = append(out, validatorEntry{
			Slot: strconv.FormatUint(d.Slot, 10), ValidatorIndex: strconv.FormatUint(d.ValidatorIndex, 10),
			Entry: entry, BetaGas: strconv.FormatUint(d.BetaGas, 10),
		})
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
	ssz, err := isSSZ(req.Header.Get("Content-Type"))
	if err != nil {
		mevapi.WriteError(w, http.StatusUnsupportedMediaType, "failed to parse Content-Type header: "+err.Error())
		return
	}
	// The bid trace and the signature lead an SSZ submission: verify the
	// signature while the rest is decompressed and decoded.
	var early *relay.SignatureCheck
	var onPrefix func([]byte)
	if ssz {
		onPrefix = func(prefix []byte) { early = b.earlySignature(prefix, req.Header.Get("Eth-Consensus-Version")) }
	}
	body, err := ReadSubmission(req.Body, req.Header.Get("Content-Encoding") == "gzip", req.ContentLength, b.cfg.MaxSubmissionBytes, onPrefix)
	if err != nil {
		status := http.StatusBadRequest
		if errors.Is(err, ErrSubmissionTooLarge) || errors.Is(err, mevapi.ErrBodyTooLarge) {
			status = http.StatusRequestEntityTooLarge
		}
		mevapi.WriteError(w, status, err.Error())
		return
	}
	sub, err := DecodeSubmission(b.r.BeaconConfig(), req.Header.Get("Eth-Consensus-Version"), body, ssz)
	if err != nil {
		mevapi.WriteError(w, http.StatusBadRequest, err.Error())
		return
	}
	outcome, err := b.r.Submit(req.Context(), relay.SubmitRequest{Submission: sub, Cancellations: cancellations, ReceivedAt: received, DecodedAt: time.Now(), Signature: early})
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

// sszPrefixLen is how many leading bytes of an SSZ submission the body
// reader hands to onPrefix: enough for any fork's bid trace and signature.
const sszPrefixLen = beacon.SubmissionPrefixLen

// earlySignature starts the signature check from an SSZ submission's first
// bytes; nil when they do not parse (decoding will say why).
func (b *builderAPI) earlySignature(prefix []byte, version string) *relay.SignatureCheck {
	if len(prefix) < sszPrefixLen {
		return nil
	}
	var fork params.ConsensusFork
	if version != "" {
		f, err := params.ParseConsensusFork(version)
		if err != nil {
			return nil
		}
		fork = f
	} else {
		slot, err := beacon.SubmissionSlotSSZ(prefix)
		if err != nil {
			return nil
		}
		fork = b.r.BeaconConfig().ForkAtSlot(slot)
	}
	t, err := beacon.SubmissionTraceSSZ(prefix)
	if err != nil {
		return nil
	}
	sig, err := beacon.SubmissionSignatureSSZ(fork, prefix)
	if err != nil {
		return nil
	}
	return b.r.StartSignatureCheck(t, sig)
}

// ReadSubmission reads a submission body, gunzipping it when gzipped, and
// fails once more than limit bytes come out (a gzip bomb is cut off there,
// never inflated whole). size is the announced length (-1 unknown). When
// onPrefix is set it is called with the first sszPrefixLen bytes as soon as
// they are in, before the rest is read; it must not keep the slice.
//
// The returned buffer is allocated once, at its exact length, and is never
// reused: SSZ decoding aliases transactions and blobs into it (see package
// beacon), so it belongs to the decoded submission. A plain body of known
// length is read straight into it; a gzipped body or one of unknown length
// is inflated into pooled chunks, then joined.
func ReadSubmission(body io.Reader, gzipped bool, size, limit int64, onPrefix func([]byte)) ([]byte, error) {
	if !gzipped {
		if size > limit {
			return nil, fmt.Errorf("%w: %d bytes announced, the limit is %d", ErrSubmissionTooLarge, size, limit)
		}
		if size >= 0 {
			return readExact(body, int(size), onPrefix)
		}
		return readChunked(body, limit, "", onPrefix)
	}
	zr, _ := gzipReaders.Get().(*gzip.Reader)
	var err error
	if zr == nil {
		zr, err = gzip.NewReader(body)
	} else {
		err = zr.Reset(body)
	}
	if err != nil {
		return nil, fmt.Errorf("invalid gzip body: %w", err)
	}
	defer gzipReaders.Put(zr)
	return readChunked(zr, limit, " after decompression", onPrefix)
}

// gzipReaders are reused gzip readers: each holds about 40 KB of inflate
// state that would otherwise be allocated for every submission.
var gzipReaders sync.Pool

// readChunk is the size of the pooled pieces readChunked inflates into.
const readChunk = 64 << 10

var readChunks = sync.Pool{New: func() any { b := make([]byte, readChunk); return &b }}

// readExact reads a body of announced length size into one buffer.
func readExact(body io.Reader, size int, onPrefix func([]byte)) ([]byte, error) {
	buf := make([]byte, size)
	n := 0
	if onPrefix != nil && size >= sszPrefixLen {
		if _, err := io.ReadFull(body, buf[:sszPrefixLen]); err != nil {
			return nil, shortBody(err, 0, size)
		}
		onPrefix(buf[:sszPrefixLen])
		n = sszPrefixLen
	}
	if m, err := io.ReadFull(body, buf[n:]); err != nil {
		return nil, shortBody(err, n+m, size)
	}
	var one [1]byte
	if m, err := body.Read(one[:]); m > 0 {
		return nil, fmt.Errorf("reading body: longer than its announced %d bytes", size)
	} else if err != nil && err != io.EOF {
		return nil, readError(err)
	}
	return buf, nil
}

func shortBody(err error, got, size int) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("reading body: %d bytes, shorter than its announced %d", got, size)
	}
	return readError(err)
}

// readChunked reads src (at most limit bytes) into pooled chunks, then
// copies them into one buffer of the exact length: one allocation and one
// copy, however the length compares with any guess.
func readChunked(src io.Reader, limit int64, what string, onPrefix func([]byte)) ([]byte, error) {
	src = io.LimitReader(src, limit+1)
	var parts []*[]byte
	defer func() {
		for _, c := range parts {
			readChunks.Put(c)
		}
	}()
	total := 0
	for {
		c := readChunks.Get().(*[]byte)
		parts = append(parts, c)
		n := 0
		if len(parts) == 1 && onPrefix != nil {
			m, err := io.ReadFull(src, (*c)[:sszPrefixLen])
			n = m
			if err == nil {
				onPrefix((*c)[:sszPrefixLen])
			} else if err != io.EOF && err != io.ErrUnexpectedEOF {
				return nil, readError(err)
			}
		}
		m, err := io.ReadFull(src, (*c)[n:])
		n += m
		total += n
		if int64(total) > limit {
			return nil, fmt.Errorf("%w: more than %d bytes%s", ErrSubmissionTooLarge, limit, what)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, readError(err)
		}
	}
	out := make([]byte, total)
	for i, c := range parts {
		copy(out[i*readChunk:], *c)
	}
	return out, nil
}

func readError(err error) error {
	var maxErr *http.MaxBytesError
	if errors.As(err, &maxErr) {
		return fmt.Errorf("%w: body over %d bytes", mevapi.ErrBodyTooLarge, maxErr.Limit)
	}
	return fmt.Errorf("reading body: %w", err)
}

// isSSZ reports whether a Content-Type means SSZ (application/octet-stream);
// anything else, or none, means JSON.
func isSSZ(contentType string) (bool, error) {
	if contentType == "" {
		return false, nil
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false, err
	}
	return mt == "application/octet-stream", nil
}

// DecodeSubmission decodes a block submission of the fork named by the
// Eth-Consensus-Version header, or, without it, of its slot's fork. SSZ that
// does not decode is retried as JSON (builders that label JSON as
// octet-stream), as the reference relay does.
func DecodeSubmission(cfg *params.BeaconConfig, version string, body []byte, ssz bool) (*beacon.Submission, error) {
	var fork params.ConsensusFork
	if version != "" {
		f, err := params.ParseConsensusFork(version)
		if err != nil || f < params.ForkBellatrix {
			return nil, errors.New("invalid fork version")
		}
		fork = f
	} else {
		var slot uint64
		var err error
		if ssz {
			slot, err = beacon.SubmissionSlotSSZ(body)
			if err != nil {
				if s, jerr := beacon.SubmissionSlotJSON(body); jerr == nil {
					slot, err = s, nil
				}
			}
		} else {
			slot, err = beacon.SubmissionSlotJSON(body)
		}
		if err != nil {
			return nil, err
		}
		fork = cfg.ForkAtSlot(slot)
	}
	if ssz {
		sub, err := beacon.DecodeSubmissionSSZ(fork, body)
		if err == nil {
			return sub, nil
		}
		if jsub, jerr := beacon.DecodeSubmissionJSON(fork, body); jerr == nil {
			return jsub, nil
		}
		return nil, err
	}
	return beacon.DecodeSubmissionJSON(fork, body)
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
