package main

import (
	"bufio"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/ethclient"
)

// The examples of README.md and docs/*.md are run by TestDocExamples: a
// fenced block opened with "```sh example" is a runnable example; one opened
// with "```sh example-error" shows an error on purpose. Each file's examples
// run in order in one shell, as a reader following the page would, against
// a fresh `gavel --dev` (this binary) whose URLs replace the default ones.
// Expected output is written as "# ..." comment lines after a command: the
// JSON keys of a "# {" or "# [" line must appear in the output, and the
// message of an error line in an example-error block.

// docExample is one runnable block.
type docExample struct {
	file  string
	line  int
	code  string
	isErr bool
}

var exampleOpen = regexp.MustCompile("^\\s*```sh example(-error)?\\s*$")

// docExamples reads the runnable blocks of one markdown file.
func docExamples(t *testing.T, path string) []docExample {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var (
		out  []docExample
		cur  *docExample
		body strings.Builder
		n    int
	)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case cur == nil:
			if m := exampleOpen.FindStringSubmatch(line); m != nil {
				cur = &docExample{file: filepath.Base(path), line: n, isErr: m[1] != ""}
				body.Reset()
			}
		case strings.HasPrefix(strings.TrimSpace(line), "```"):
			cur.code = body.String()
			out = append(out, *cur)
			cur = nil
		default:
			body.WriteString(line + "\n")
		}
	}
	return out
}

// shellPrelude makes curl report HTTP and JSON-RPC errors as failures.
const shellPrelude = `
set -e
check() { # $1: body, $2: HTTP status
	case $2 in 2*) ;; *) echo "HTTP $2" >&2; return 1;; esac
	case $1 in *'"error":{'*|*'"error": {'*) echo "JSON-RPC error" >&2; return 1;; esac
}
curl() {
	_out=$(command curl "$@" -sS -w '\n__HTTP__%{http_code}') || return 1
	_code=${_out##*__HTTP__}
	_body=${_out%__HTTP__*}
	printf '%s' "$_body"
	if [ -n "$GAVEL_EXAMPLE_ERROR" ]; then return 0; fi
	check "$_body" "$_code"
}
`

var jsonKey = regexp.MustCompile(`"([A-Za-z_][A-Za-z0-9_]*)":`)
var errMessage = regexp.MustCompile(`"message":"([^"]{1,40})`)

func TestDocExamples(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatalf("the docs' examples need curl on PATH: %v", err)
	}
	root := filepath.Join("..", "..")
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	shim := t.TempDir()
	script := fmt.Sprintf("#!/bin/sh\nGAVEL_TEST_MAIN=1 exec %q \"$@\"\n", os.Args[0])
	if err := os.WriteFile(filepath.Join(shim, "gavel"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, file := range files {
		examples := docExamples(t, file)
		if len(examples) == 0 {
			continue
		}
		ran += len(examples)
		t.Run(filepath.Base(file), func(t *testing.T) { runDocExamples(t, shim, examples) })
	}
	if ran == 0 {
		t.Fatal("no runnable examples found in README.md and docs/")
	}
}

func runDocExamples(t *testing.T, shim string, examples []docExample) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dev := startDev(t, ctx)
	httpURL, mevURL := dev.urls["JSON-RPC (HTTP)"], dev.urls["MEV listener"]
	if httpURL == "" || mevURL == "" {
		t.Fatalf("dev node banner lacks URLs:\n%s", dev.banner)
	}
	// A reader runs the examples once the node has made its first blocks
	// (validators registered, the auction deployed).
	client, err := ethclient.DialContext(ctx, httpURL)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	for {
		if n, err := client.BlockNumber(ctx); err == nil && n >= 3 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the dev node made no blocks: %v", ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
	hu, _ := url.Parse(httpURL)
	mu, _ := url.Parse(mevURL)
	replacer := strings.NewReplacer(
		"127.0.0.1:8545", hu.Host, "localhost:8545", hu.Host,
		"127.0.0.1:9062", mu.Host, "localhost:9062", mu.Host,
	)
	dir := t.TempDir()
	env := append(os.Environ(), "PATH="+shim+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GAVEL_RPC="+httpURL, "GAVEL_L2RPC="+httpURL)
	for _, ex := range examples {
		code := replacer.Replace(ex.code)
		prelude := shellPrelude
		if ex.isErr {
			prelude += "set +e\nGAVEL_EXAMPLE_ERROR=1\n"
		}
		// Each block runs after the earlier ones of its file have, in one
		// shell: the earlier blocks' assignments are replayed by sourcing
		// the environment they left.
		full := prelude + "[ -f " + filepath.Join(dir, ".env") + " ] && . " + filepath.Join(dir, ".env") + "\n" +
			code + "\nset +e\nset | grep -E '^[A-Z][A-Z0-9_]*=' | grep -vE '^(PATH|HOME|PWD|OLDPWD|SHELL|IFS|PS[0-9]|PPID|OPTIND|GAVEL_TEST_MAIN|GAVEL_EXAMPLE_ERROR|LINENO|_.*)=' > " + filepath.Join(dir, ".env") + "\nexit 0\n"
		cmd := exec.CommandContext(ctx, "sh", "-c", full)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		where := fmt.Sprintf("%s:%d", ex.file, ex.line)
		if err != nil && !ex.isErr {
			t.Fatalf("example at %s failed: %v\n--- example\n%s--- output\n%s", where, err, ex.code, out)
		}
		checkExpected(t, where, ex, string(out))
	}
}

// checkExpected compares the "# ..." lines of an example with its output.
func checkExpected(t *testing.T, where string, ex docExample, out string) {
	for _, line := range strings.Split(ex.code, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "# ") {
			continue
		}
		exp := strings.TrimPrefix(line, "# ")
		if ex.isErr {
			want := ""
			if m := errMessage.FindStringSubmatch(exp); m != nil {
				want = m[1]
			} else if strings.HasPrefix(exp, "Fatal: ") {
				want = strings.TrimPrefix(exp, "Fatal: ")
				if i := strings.IndexAny(want, "0123456789…"); i >= 0 {
					want = want[:i]
				}
				want = want[:min(len(want), 40)]
			}
			if want != "" && !strings.Contains(out, want) {
				t.Errorf("example at %s: the output lacks the error %q:\n%s", where, want, out)
			}
			continue
		}
		if !strings.HasPrefix(exp, "{") && !strings.HasPrefix(exp, "[") && !strings.HasPrefix(exp, "\"") {
			continue
		}
		for _, m := range jsonKey.FindAllStringSubmatch(exp, -1) {
			if !strings.Contains(out, `"`+m[1]+`"`) {
				t.Errorf("example at %s: the output lacks the key %q of the expected line %q:\n%s", where, m[1], exp, out)
			}
		}
	}
}
