package mevapi

// Large bodies (a builder's submission runs to megabytes) are read into one
// buffer of their exact length that decoders alias. Allocating it is a
// large zeroed allocation whose bytes the garbage collector then pays for
// in proportion to the live heap; a body nothing kept (a submission refused
// or below the floor, the common case while bids improve) gives its buffer
// back with ReleaseBody, and the next large body is read into it.
const (
	bodyPoolMin  = 256 << 10 // smaller bodies: an allocation is cheap enough
	bodyPoolMax  = 4 << 20   // larger ones are rare; not worth holding
	bodyPoolKept = 4         // buffers kept at most (16 MiB)
)

var bodyPool = make(chan []byte, bodyPoolKept)

// takeBody returns a buffer of n bytes: a released one when one is large
// enough, else a new one. Its contents are garbage: the caller overwrites
// all n bytes.
func takeBody(n int64) []byte {
	if n >= bodyPoolMin && n <= bodyPoolMax {
		select {
		case b := <-bodyPool:
			if int64(cap(b)) >= n {
				return b[:n]
			}
		default:
		}
	}
	return make([]byte, n)
}

// takeReleased returns a released buffer for a body of size bytes (-1
// unknown) to be read into, or nil: none is released, or size is outside
// the pooled range or more than the buffer holds.
func takeReleased(size int64) []byte {
	if size >= 0 && (size < bodyPoolMin || size > bodyPoolMax) {
		return nil
	}
	select {
	case b := <-bodyPool:
		if int64(cap(b)) >= size {
			return b[:cap(b)]
		}
		ReleaseBody(b)
	default:
	}
	return nil
}

// ReleaseBody gives back a body ReadAll returned, once nothing refers to it
// or to anything decoded from it (values aliasing it included); it is
// overwritten by a later request. Releasing is optional: a body never
// released is garbage collected.
func ReleaseBody(b []byte) {
	if c := cap(b); c < bodyPoolMin || c > bodyPoolMax {
		return
	}
	select {
	case bodyPool <- b[:0]:
	default:
	}
}
