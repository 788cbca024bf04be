package contracts

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"

	"github.com/gavel-eth/gavel/contracts/bindings"
	"github.com/gavel-eth/gavel/contracts/bindings/testbindings"
)

// TestArtifactsMatchSources fails when a source, the compile script or the
// pinned solc changed without `make contracts` being run again.
func TestArtifactsMatchSources(t *testing.T) {
	f, err := os.Open(filepath.Join("artifacts", "SOURCES.sha256"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	listed := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		sum, path, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("malformed manifest line %q", line)
		}
		listed[path] = sum
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}

	want := []string{"compile.js", "package.json", "package-lock.json"}
	err = filepath.WalkDir("src", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".sol") {
			want = append(want, filepath.ToSlash(path))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range want {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		got, ok := listed[path]
		switch {
		case !ok:
			t.Errorf("%s is not in artifacts/SOURCES.sha256: run `make contracts`", path)
		case got != hex.EncodeToString(sum[:]):
			t.Errorf("%s changed since the artifacts were compiled: run `make contracts`", path)
		}
		delete(listed, path)
	}
	for path := range listed {
		t.Errorf("artifacts/SOURCES.sha256 lists %s, which no longer exists: run `make contracts`", path)
	}
}

// TestBindingsMatchArtifacts fails when the Go bindings were not regenerated
// from the committed artifacts.
func TestBindingsMatchArtifacts(t *testing.T) {
	cases := map[string]*bind.MetaData{
		"Accountant":          &bindings.AccountantMetaData,
		"Auctioneer":          &bindings.AuctioneerMetaData,
		"OpenBidder":          &bindings.OpenBidderMetaData,
		"SettlementHouse":     &bindings.SettlementHouseMetaData,
		"WETH":                &bindings.WETHMetaData,
		"test/ScriptedBidder": &testbindings.ScriptedBidderMetaData,
	}
	var names []string
	for n := range cases {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		md := cases[name]
		bin, err := os.ReadFile(filepath.Join("artifacts", name+".bin"))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := md.Bin, "0x"+strings.TrimSpace(string(bin)); got != want {
			t.Errorf("%s: binding bytecode differs from artifacts/%s.bin: run `make contracts`", name, name)
		}
		abiJSON, err := os.ReadFile(filepath.Join("artifacts", name+".abi.json"))
		if err != nil {
			t.Fatal(err)
		}
		var fromFile, fromBinding any
		if err := json.Unmarshal(abiJSON, &fromFile); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(md.ABI), &fromBinding); err != nil {
			t.Fatal(err)
		}
		// abigen drops the spaces of internalType ("contract WETH" -> "contractWETH").
		if !reflect.DeepEqual(normalizeABI(fromFile), normalizeABI(fromBinding)) {
			t.Errorf("%s: binding ABI differs from artifacts/%s.abi.json: run `make contracts`", name, name)
		}
	}
	entries, err := os.ReadDir("artifacts")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".bin"); ok {
			if _, known := cases[n]; !known {
				t.Errorf("artifacts/%s has no binding checked here", e.Name())
			}
		}
	}
}

// normalizeABI removes the whitespace of internalType values.
func normalizeABI(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && k == "internalType" {
				x[k] = strings.Join(strings.Fields(s), "")
			} else {
				x[k] = normalizeABI(e)
			}
		}
	case []any:
		for i, e := range x {
			x[i] = normalizeABI(e)
		}
	}
	return v
}
