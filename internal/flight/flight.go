// Package flight keeps the last seconds of the process's execution trace in
// memory, for diagnosing slow answers: with GAVEL_FLIGHT=dir in the
// environment, Start runs a runtime/trace flight recorder and writes its
// window to dir/flight-N.trace on each SIGUSR1 (`go tool trace` reads it).
// `make hostile` with FLIGHT=threshold sends the signal when an honest probe
// is slower than the threshold. Without the variable Start does nothing:
// a node never traces unless asked.
package flight

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/trace"
	"syscall"
	"time"

	"github.com/ethereum/go-ethereum/log"
)

// Env is the environment variable naming the directory for snapshots.
const Env = "GAVEL_FLIGHT"

// window is how much of the trace a snapshot holds at least.
const window = 3 * time.Second

// Start starts the recorder when Env is set; the returned stop function
// ends it (a no-op otherwise).
func Start() (stop func()) {
	dir := os.Getenv(Env)
	if dir == "" {
		return func() {}
	}
	fr := trace.NewFlightRecorder(trace.FlightRecorderConfig{MinAge: window, MaxBytes: 256 << 20})
	if err := fr.Start(); err != nil {
		log.Warn("Flight recorder not started", "err", err)
		return func() {}
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
	done := make(chan struct{})
	go func() {
		for n := 1; ; n++ {
			select {
			case <-done:
				return
			case <-sig:
			}
			if err := snapshot(fr, filepath.Join(dir, fmt.Sprintf("flight-%d.trace", n))); err != nil {
				log.Warn("Flight recorder snapshot failed", "err", err)
			}
		}
	}()
	log.Info("Flight recorder on: SIGUSR1 writes the last seconds of the trace", "dir", dir)
	return func() {
		signal.Stop(sig)
		close(done)
		fr.Stop()
	}
}

func snapshot(fr *trace.FlightRecorder, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := fr.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
