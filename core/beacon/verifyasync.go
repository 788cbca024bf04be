package beacon

import (
	"fmt"
	"runtime"
	"sync/atomic"

	blst "github.com/supranational/blst/bindings/go"
)

// A relay verifies a builder's signature while the handler that started
// the verification reads, inflates and decodes the rest of the submission:
// two goroutines on (here) two cores, both on the path to the bid. The
// verification's parts are split between them so that they end together:
// the caller hashes the root to the curve (0.3 ms) before it goes back to
// its reading, and decompresses and checks the signature (0.1 ms) too when
// the new goroutine has not started by then; the new goroutine checks the
// signature (unless the caller did), runs both Miller loops and the final
// exponentiation. In the trace of a 1 MB submission the caller's read then
// ends about when the verification does; with everything on the new
// goroutine the verification ended 0.5 ms after the read, with the
// signature's check on the caller and the hash on the new goroutine 0.25 ms
// after. blst's own Verify would start a goroutine of its own beside the
// two busy ones.

// VerifyRootAsync checks sig over a signing root with pk, as VerifyRoot
// does, and calls done with the result from one new goroutine. The caller
// runs a part of the verification before it returns (see above).
func VerifyRootAsync(pk *PublicKey, root Root, sig BLSSignature, done func(error)) {
	v := &splitVerification{pk: pk}
	v.sig.do = func() (*blst.P2Affine, error) { return checkedSignature(sig) }
	v.hash.do = func() (*blst.P2Affine, error) { return blst.HashToG2(root[:], dst).ToAffine(), nil }
	go func() {
		v.started.Store(true)
		done(v.finish())
	}()
	v.hash.claim()
	if !v.started.Load() {
		v.sig.claim()
	}
}

// splitVerification is one verification whose first two parts, the
// root's hash and the signature's check, are run by whichever goroutine
// claims them first.
type splitVerification struct {
	pk        *PublicKey
	sig, hash part[*blst.P2Affine]
	started   atomic.Bool // the new goroutine runs
}

// finish runs what the caller left and the pairing: the signature paired
// with G1's generator against the key paired with the hashed root, compared
// by one final exponentiation, as blst's Verify composes them.
func (v *splitVerification) finish() error {
	s, err := v.sig.wait()
	if err != nil {
		return err
	}
	gtSig := blst.Fp12MillerLoop(s, g1Generator)
	h, _ := v.hash.wait()
	gtKey := blst.Fp12MillerLoop(h, &v.pk.p)
	if !blst.Fp12FinalVerify(gtSig, gtKey) {
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

// g1Generator is G1's generator, which a signature is paired with.
var g1Generator = blst.P1Generator().ToAffine()

// part is a step of a verification run once, by the first goroutine that
// claims it.
type part[T any] struct {
	do    func() (T, error)
	state atomic.Uint32 // partFree, partRunning, partDone
	out   T
	err   error
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
}

// wait returns the part's outcome, running the part when no one has begun
// to. It spins rather than parks while the other goroutine runs it (0.3 ms
// at most): a goroutine woken from a channel joins the waker's run queue,
// and on a busy two-core machine it waited there up to a millisecond for
// the idle core to take it.
func (p *part[T]) wait() (T, error) {
	p.claim()
	for p.state.Load() != partDone {
		runtime.Gosched()
	}
	return p.out, p.err
}
