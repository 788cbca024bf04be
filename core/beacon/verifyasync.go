package beacon

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	blst "github.com/supranational/blst/bindings/go"
)

// A relay verifies a builder's signature while the handler that started
// the verification reads, inflates and decodes the rest of the submission:
// two goroutines on (here) two cores, both on the path to the bid (the
// relay starts the new goroutine steered onto the other core,
// internal/beside, for its known builders). The verification's parts are
// split between the two: the caller decompresses and checks the signature
// (0.1 ms) before it goes back to its reading; the new goroutine hashes
// the root to the curve (0.3 ms), then runs one Miller loop over both
// pairs (0.6 ms, against 0.85 ms for two) and the final exponentiation
// (0.5 ms). When the new goroutine has not begun the
// hash by the time the caller has read the body, the caller hashes it
// (Verification.Help). blst's own Verify would start a goroutine of its
// own beside the two busy ones and run two Miller loops.

// VerifyRootAsync checks sig over a signing root with pk, as VerifyRoot
// does, and calls done with the result from one new goroutine, started
// with start (go when nil). The caller checks the signature's encoding
// before it returns (see above).
func VerifyRootAsync(pk *PublicKey, root Root, sig BLSSignature, start func(func()), done func(error)) *Verification {
	v := &Verification{
		pk:   pk,
		sig:  newPart(func() (*blst.P2Affine, error) { return checkedSignature(sig) }),
		hash: newPart(func() (*blst.P2Affine, error) { return blst.HashToG2(root[:], dst).ToAffine(), nil }),
	}
	if start == nil {
		start = func(f func()) { go f() }
	}
	start(func() { done(v.finish()) })
	v.sig.claim()
	return v
}

// Help hashes the root to the curve on the caller unless the
// verification's goroutine has begun to.
func (v *Verification) Help() { v.hash.claim() }

// Verification is one verification under way (VerifyRootAsync), whose
// first two parts, the signature's check and the root's hash, are run by
// whichever goroutine claims them first.
type Verification struct {
	pk        *PublicKey
	sig, hash *part[*blst.P2Affine]
}

// finish runs what the caller left and the pairing check
// e(pk, H(root)) · e(-g1, sig) = 1, both Miller loops in one.
func (v *Verification) finish() error {
	if err := v.sig.failed(); err != nil {
		return err // the hash is not worth computing
	}
	h, _ := v.hash.wait()
	s, err := v.sig.wait()
	if err != nil {
		return err
	}
	ctx := blst.PairingCtx(true, dst)
	blst.PairingRawAggregate(ctx, h, &v.pk.p)
	blst.PairingRawAggregate(ctx, s, negG1)
	blst.PairingCommit(ctx)
	if !blst.PairingFinalVerify(ctx, nil) {
		return fmt.Errorf("%w: signature does not verify for %x", ErrInvalidSignature, v.pk.p.Compress())
	}
	return nil
}

// checkedSignature decompresses a signature and checks it is in the G2
// subgroup. The point at infinity is refused here: blst's Verify lets it
// through to a pairing that fails.
func checkedSignature(sig BLSSignature) (*blst.P2Affine, error) {
	s, err := parseSignature(sig)
	if err != nil {
		return nil, err
	}
	if !s.SigValidate(true) {
		return nil, fmt.Errorf("%w: the point at infinity or not in the G2 subgroup", ErrInvalidSignature)
	}
	return s, nil
}

// negG1 is the negated generator of G1, which a signature is paired with.
var negG1 = negatedG1()

// negatedG1 returns -g1: its compressed form is g1's with the flag of the
// larger y flipped (the ZCash encoding blst uses).
func negatedG1() *blst.P1Affine {
	b := blst.P1Generator().ToAffine().Compress()
	b[0] ^= 0x20
	p := new(blst.P1Affine).Uncompress(b)
	if p == nil {
		panic("beacon: -g1 does not decompress")
	}
	return p
}

// part is a step of a verification run once, by the first goroutine that
// claims it.
type part[T any] struct {
	do    func() (T, error)
	state atomic.Uint32 // partFree, partRunning, partDone
	done  chan struct{} // closed once out and err are set
	out   T
	err   error
}

func newPart[T any](do func() (T, error)) *part[T] {
	return &part[T]{do: do, done: make(chan struct{})}
}

const (
	partFree = iota
	partRunning
	partDone
)

// claim runs the part unless another goroutine has claimed it.
func (p *part[T]) claim() {
	if !p.state.CompareAndSwap(partFree, partRunning) {
		return
	}
	p.out, p.err = p.do()
	p.state.Store(partDone)
	close(p.done)
}

// failed returns the part's error once it is done, nil before.
func (p *part[T]) failed() error {
	if p.state.Load() != partDone {
		return nil
	}
	return p.err
}

// wait returns the part's outcome, running the part when no one has begun
// to. While the other goroutine runs it, wait spins for as long as the
// part takes (maxSpin) and only then parks: a goroutine woken from a
// channel joins the waker's run queue, and on a busy two-core machine it
// waited there up to a millisecond for the idle core to take it. Spinning
// on, while the other goroutine's thread had lost its core to another
// process, took that core's time from it: at load 4 the 1 MB submission's
// path took 1.8-2.7x one verification, 1.6-1.7x with the verification
// whole on one goroutine, 1.6-1.7x with this bound.
func (p *part[T]) wait() (T, error) {
	p.claim()
	spinWait(p.done)
	return p.out, p.err
}

// maxSpin is how long wait spins: the longest part, the root's hash.
const maxSpin = 300 * time.Microsecond

// VerifyRootBeside checks sig over a signing root with pk, as VerifyRoot
// does, split between the caller and one goroutine started with start (go
// when nil): the caller hashes the root to the curve and runs its Miller
// loop with pk while the goroutine checks the signature and runs its Miller
// loop with the generator; then, while the caller runs the final
// exponentiation over both, the goroutine runs beside (when set and the
// signature decoded): work of the caller's that would otherwise wait for
// the verification, such as a relay signing the bid it will serve. It
// returns once both are done. blst's Verify splits the same way but leaves
// the second core idle during the final exponentiation.
func VerifyRootBeside(pk *PublicKey, root Root, sig BLSSignature, start func(func()), beside func()) error {
	type loop struct {
		gt  *blst.Fp12
		err error
	}
	half := make(chan loop, 1)
	besideDone := make(chan struct{})
	if start == nil {
		start = func(f func()) { go f() }
	}
	start(func() {
		defer close(besideDone)
		s, err := checkedSignature(sig)
		if err != nil {
			half <- loop{err: err}
			return
		}
		half <- loop{gt: blst.Fp12MillerLoop(s, g1)}
		if beside != nil {
			beside()
		}
	})
	h := blst.HashToG2(root[:], dst).ToAffine()
	gt := blst.Fp12MillerLoop(h, &pk.p)
	other := spinRecv(half)
	err := other.err
	if err == nil && !blst.Fp12FinalVerify(gt, other.gt) {
		err = fmt.Errorf("%w: signature does not verify for %x", ErrInvalidSignature, pk.p.Compress())
	}
	spinWait(besideDone)
	return err
}

// g1 is the generator of G1, which a signature is paired with.
var g1 = blst.P1Generator().ToAffine()

// spinRecv receives from ch, spinning (yielding) for up to maxSpin before
// it parks: see part.wait for why.
func spinRecv[T any](ch chan T) T {
	for start := time.Now(); len(ch) == 0 && time.Since(start) < maxSpin; {
		runtime.Gosched()
	}
	return <-ch
}

// spinWait waits for done to be closed, as spinRecv.
func spinWait(done chan struct{}) {
	for start := time.Now(); time.Since(start) < maxSpin; {
		select {
		case <-done:
			return
		default:
			runtime.Gosched()
		}
	}
	<-done
}
