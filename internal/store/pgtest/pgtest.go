// Package pgtest gives tests real PostgreSQL databases. The server is the
// one GAVEL_TEST_POSTGRES names, started by build/pg/start.sh (.ci/run
// does it); without the variable the PostgreSQL tests are skipped, saying
// how to run them.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvVar names the variable holding the test server's URL.
const EnvVar = "GAVEL_TEST_POSTGRES"

// HowTo says how to run the PostgreSQL tests.
const HowTo = `run: eval "$(build/pg/start.sh)"; make test; build/pg/stop.sh (what .ci/run does)`

// Available reports whether a test server is configured.
func Available() bool { return os.Getenv(EnvVar) != "" }

// SkipUnlessAvailable skips tb, saying why and how to run it, when no
// test server is configured.
func SkipUnlessAvailable(tb testing.TB) {
	tb.Helper()
	if !Available() {
		tb.Skipf("PostgreSQL test skipped: %s is not set; %s", EnvVar, HowTo)
	}
}

// URL creates a new, empty database on the test server and returns its
// URL; the database is dropped when tb ends. It skips tb when no server is
// configured.
func URL(tb testing.TB) string {
	tb.Helper()
	SkipUnlessAvailable(tb)
	return NewDatabase(tb, os.Getenv(EnvVar))
}

// NewDatabase creates a new database on the server of base (a URL of any
// database there) and returns its URL; it is dropped when tb ends.
func NewDatabase(tb testing.TB, base string) string {
	tb.Helper()
	var b [6]byte
	rand.Read(b[:])
	name := "gavel_t_" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		tb.Fatalf("connecting to the test PostgreSQL (%s): %v", EnvVar, err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		tb.Fatalf("creating test database: %v", err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			tb.Logf("dropping test database %s: %v", name, err)
			return
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			tb.Logf("dropping test database %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// Server is a PostgreSQL server of a test's own (build/pg/start.sh), for
// tests that stop and restart it.
type Server struct {
	tb  testing.TB
	dir string
	// URL is the server's "gavel" database.
	URL string
}

// StartServer starts a new server for tb, stopped and removed when tb
// ends. It skips tb when no test server is configured (PostgreSQL is then
// likely not installed).
func StartServer(tb testing.TB) *Server {
	tb.Helper()
	SkipUnlessAvailable(tb)
	out, err := exec.Command(script(tb, "start.sh")).Output()
	if err != nil {
		tb.Fatalf("build/pg/start.sh: %v", err)
	}
	s := &Server{tb: tb}
	for _, line := range strings.Split(string(out), "\n") {
		k, v, ok := strings.Cut(strings.TrimPrefix(line, "export "), "=")
		if !ok {
			continue
		}
		v = strings.Trim(v, "'")
		switch k {
		case EnvVar:
			s.URL = v
		case "GAVEL_PG_DIR":
			s.dir = v
		}
	}
	if s.URL == "" || s.dir == "" {
		tb.Fatalf("build/pg/start.sh printed no URL: %q", out)
	}
	tb.Cleanup(func() { exec.Command(script(tb, "stop.sh"), s.dir).Run() })
	return s
}

// Stop stops the server (fast shutdown: connections are cut), keeping its
// data.
func (s *Server) Stop() {
	s.tb.Helper()
	if out, err := exec.Command(script(s.tb, "stop.sh"), "--keep", s.dir).CombinedOutput(); err != nil {
		s.tb.Fatalf("stopping PostgreSQL: %v: %s", err, out)
	}
}

// Start starts the stopped server again on the same port.
func (s *Server) Start() {
	s.tb.Helper()
	if out, err := exec.Command(script(s.tb, "start.sh"), s.dir).CombinedOutput(); err != nil {
		s.tb.Fatalf("restarting PostgreSQL: %v: %s", err, out)
	}
}

// script finds build/pg/<name> above the test's working directory.
func script(tb testing.TB, name string) string {
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		p := filepath.Join(dir, "build", "pg", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal(fmt.Errorf("build/pg/%s not found above the test directory", name))
		}
		dir = parent
	}
}
