package relayapi

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"

	"github.com/gavel-eth/gavel/mevapi"
)

// A gzip submission's first bytes (the bid trace and the signature) are
// wanted before the rest: the signature's verification starts from them and
// runs while the rest is inflated. An inflater hands out its first bytes
// only once it has filled its 32 KiB window, which for a block of
// transactions (literals, slow to decode) took 150-300 µs, all of it before
// the verification could start; the prefix itself takes a few hundred
// compressed bytes. So the first compressed bytes are read into a small
// buffer and inflated on their own (peek): the inflater runs out of input
// right after the prefix. The body is then inflated from its start, the
// buffered bytes first, while the signature is verified.

// readGzip reads a gzip body (readSubmission) with a pooled inflater.
func readGzip(acct *mevapi.Account, body io.Reader, limit int64, prefixLen int, onPrefix func([]byte) error, stop func() error, tooLarge func() error) ([]byte, error) {
	if err := acct.Reserve(gzipState); err != nil {
		return nil, err
	}
	// Inflating takes turns of the node's CPU scheduler; waiting for the
	// network does not.
	network, cpu := acct.Inflating()
	f := takeInflater()
	defer f.give()
	in := &inputCount{r: body, limit: maxPrefixInput}
	var head []byte
	if onPrefix != nil && prefixLen > 0 && prefixLen <= len(f.prefix) {
		var prefix []byte
		var err error
		if head, prefix, err = f.peek(network(in), prefixLen); err != nil {
			return nil, readError(fmt.Errorf("reading body: %w", err))
		}
		if prefix != nil {
			in.limit = 0 // the prefix is in: the rest is read in turns
			if err := onPrefix(prefix); err != nil {
				return nil, err
			}
			onPrefix = nil
		}
	}
	src := network(in)
	if len(head) > 0 {
		src = io.MultiReader(bytes.NewReader(head), src)
	}
	f.br.Reset(src)
	if err := f.zr.Reset(f.br); err != nil {
		return nil, readError(fmt.Errorf("invalid gzip body: %w", err))
	}
	var r io.Reader = cpu(f.zr)
	if onPrefix != nil {
		// The peek did not find the prefix (an unusual compressor, or a
		// header of many KiB): it comes out of the inflater as before.
		r = &prefixFirst{free: f.zr, gated: r, left: prefixLen, in: in}
	}
	out, err := mevapi.ReadAll(acct, stopping(r, stop), limit, -1, prefixLen, onPrefix, tooLarge)
	if errors.Is(err, errPrefixInput) {
		err = fmt.Errorf("invalid gzip body: its first %d bytes inflate to fewer than %d", maxPrefixInput, prefixLen)
	}
	return out, readError(err)
}

// Sizes of the peek (inflater.peek): it inflates the first peekFirst
// compressed bytes, then, if the prefix was not in them, peekInput.
const (
	peekFirst = 1 << 10
	peekInput = 4 << 10
)

// inflater is a gzip reader kept for reuse, with the buffers of its peek.
type inflater struct {
	zr     *gzip.Reader
	br     *bufio.Reader // the read buffer in front of the body (inflateReadBuffer)
	src    bytes.Reader
	head   [peekInput]byte
	prefix [jsonPrefixLen]byte
}

// inflaters are reused inflaters: each holds about 76 KB of inflate state
// and read buffer that would otherwise be allocated for every submission.
// At most 16 are kept (not a sync.Pool: after a burst of a thousand gzip
// connections the pool held a thousand readers, 38 MB outside the body
// budget, until two collections had passed).
var inflaters = make(chan *inflater, 16)

// gzipState is what a gzip submission reserves from the body budget for its
// inflater, besides its chunks: the inflate state and the read buffer in
// front of the connection (76 KB measured with klauspost/compress 1.20)
// and the peek's 6 KiB, rounded up.
const gzipState = 88 << 10

// inflateReadBuffer is the read buffer in front of a gzip body: a 70 KB
// compressed block in three or so reads of the connection rather than
// the eighteen of the inflater's own 4 KiB buffer (0.1 ms of the
// submission's path to its bid).
const inflateReadBuffer = 32 << 10

// takeInflater returns a kept inflater or a new one.
func takeInflater() *inflater {
	select {
	case f := <-inflaters:
		return f
	default:
		return &inflater{zr: new(gzip.Reader), br: bufio.NewReaderSize(nil, inflateReadBuffer)}
	}
}

// give keeps f for reuse, unless enough are kept.
func (f *inflater) give() {
	f.src.Reset(nil)
	f.br.Reset(nil)
	select {
	case inflaters <- f:
	default: // enough kept: this one is garbage
	}
}

// peek reads the first compressed bytes of a body from src into f.head and
// inflates prefixLen bytes from them: from the first peekFirst, else from
// up to peekInput (or the whole body, when shorter). It returns the bytes
// it read, which the body's inflating must read first, and the prefix (nil
// when it was not in them; decoding will say why); err is src's.
func (f *inflater) peek(src io.Reader, prefixLen int) (head, prefix []byte, err error) {
	n, err := io.ReadAtLeast(src, f.head[:], peekFirst)
	ended := err == io.EOF || err == io.ErrUnexpectedEOF
	if err != nil && !ended {
		return f.head[:n], nil, err
	}
	if p := f.inflatePrefix(f.head[:min(n, peekFirst)], prefixLen); p != nil {
		return f.head[:n], p, nil
	}
	if n > peekFirst || ended {
		return f.head[:n], f.inflatePrefix(f.head[:n], prefixLen), nil
	}
	m, err := io.ReadFull(src, f.head[n:])
	n += m
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return f.head[:n], nil, err
	}
	return f.head[:n], f.inflatePrefix(f.head[:n], prefixLen), nil
}

// inflatePrefix inflates the first prefixLen bytes of the gzip stream that
// begins with head, or returns nil when head does not hold them. The work is
// bounded by head's length and by one window of output.
func (f *inflater) inflatePrefix(head []byte, prefixLen int) []byte {
	f.src.Reset(head)
	if f.zr.Reset(&f.src) != nil {
		return nil
	}
	if n, _ := io.ReadFull(f.zr, f.prefix[:prefixLen]); n < prefixLen {
		return nil
	}
	return f.prefix[:prefixLen]
}

// maxPrefixInput bounds the compressed bytes a gzip submission's first
// bytes (onPrefix's) may take: honest compression needs a few hundred.
const maxPrefixInput = 64 << 10

// errPrefixInput ends a gzip body whose first bytes take more than
// maxPrefixInput compressed bytes.
var errPrefixInput = errors.New("gzip prefix over its input bound")

// prefixFirst inflates a submission's first left bytes without a turn of
// the CPU scheduler, the rest in turns, when the peek did not find them.
// Those first bytes name the builder (onPrefix): read at once, a known
// builder is told apart as soon as they arrive, and a submission that
// cannot use the body budget's reserve leaves it at once, rather than both
// holding their gzip state and first chunk there while a thousand others
// take turns inflating. The work is bounded: a few KiB out of at most
// maxPrefixInput bytes in (inputCount).
type prefixFirst struct {
	free, gated io.Reader
	left        int
	in          *inputCount
}

func (p *prefixFirst) Read(b []byte) (int, error) {
	if p.left <= 0 {
		return p.gated.Read(b)
	}
	n, err := p.free.Read(b[:min(len(b), p.left)])
	if p.left -= n; p.left <= 0 {
		p.in.limit = 0 // the rest is read in turns, unbounded here
	}
	return n, err
}

// inputCount fails reads past limit bytes (0: no limit).
type inputCount struct {
	r     io.Reader
	n     int64
	limit int64
}

func (c *inputCount) Read(b []byte) (int, error) {
	if c.limit > 0 {
		if c.n >= c.limit {
			return 0, errPrefixInput
		}
		b = b[:min(int64(len(b)), c.limit-c.n)]
	}
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}
