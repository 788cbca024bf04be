package chain

// geth's tracers register themselves when their packages are imported, as
// geth's own binary does: without them debug_traceTransaction and friends
// fail for every named tracer (callTracer, prestateTracer, ...) and for JS
// tracers. The live tracers serve --vmtrace.
import (
	_ "github.com/ethereum/go-ethereum/eth/tracers/js"
	_ "github.com/ethereum/go-ethereum/eth/tracers/live"
	_ "github.com/ethereum/go-ethereum/eth/tracers/native"
)
