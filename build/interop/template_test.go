package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadmeTemplate: the README's multi-instance template is what
// `build/interop/run.sh -relays 2` runs. The harness builds each instance's
// relay flags from the README block; this fails when the block and the
// harness's flag list drift apart.
func TestReadmeTemplate(t *testing.T) {
	hosts, err := readTemplate(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	v := templateValues{datadir: "/w/el-a", relayKey: relayKey, beaconURL: "http://127.0.0.1:1", storeURL: "postgres://x", mevAddr: "127.0.0.1:2"}
	for _, h := range hosts {
		args, err := instanceArgs(h, v)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"--datadir", "/w/el-a", "--relay.secretkey", relayKey, "--relay.beacon", "http://127.0.0.1:1", "--store.url", "postgres://x", "--mev.addr", "127.0.0.1:2"}
		if !slices.Equal(args, want) {
			t.Fatalf("instance args %v, want %v", args, want)
		}
	}
}

// TestReadmeTemplateDrift: a README block with a flag more, or one less,
// than the harness runs is refused with a line naming both lists.
func TestReadmeTemplateDrift(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(string) string{
		"extra flag": func(s string) string {
			return strings.Replace(s, "--store.url $DB", "--store.url $DB --store.maxconns 64", 1)
		},
		"missing flag": func(s string) string { return strings.Replace(s, "--relay.beacon http://cl-a:5052 ", "", 1) },
	} {
		changed := edit(string(b))
		if changed == string(b) {
			t.Fatalf("%s: the edit did not apply; update the test with the README", name)
		}
		f := filepath.Join(t.TempDir(), "README.md")
		os.WriteFile(f, []byte(changed), 0o644)
		if _, err := readTemplate(f); err == nil || !strings.Contains(err.Error(), "the harness (build/interop/template.go) runs") {
			t.Errorf("%s: readTemplate: %v, want the drift error", name, err)
		}
	}
}
