package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shellCommands returns the commands of the "```sh" blocks of a markdown
// page: lines continued with a trailing backslash are joined, comments
// and blank lines dropped.
func shellCommands(page string) []string {
	var (
		out []string
		in  bool
		cur strings.Builder
	)
	for _, line := range strings.Split(page, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case !in && strings.HasPrefix(trimmed, "```sh"):
			in = true
			continue
		case in && strings.HasPrefix(trimmed, "```"):
			in = false
			continue
		case !in:
			continue
		}
		if i := strings.Index(trimmed, " #"); i >= 0 {
			trimmed = strings.TrimSpace(trimmed[:i])
		}
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		more := strings.HasSuffix(trimmed, "\\")
		cur.WriteString(strings.TrimSuffix(trimmed, "\\") + " ")
		if !more {
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		}
	}
	return out
}

// TestOperateCommands runs every gavel node command of docs/operate.md as
// `gavel dumpconfig` with the same flags: each flag the operator's page
// gives must exist and take the value it shows. (Its subcommands are run
// by their own tests and by make interop, as the page says.)
func TestOperateCommands(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "operate.md"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	key := "0x" + strings.Repeat("1f", 32)
	vars := strings.NewReplacer("$RELAY_KEY", key, "$BUILDER_KEY", key, "$COINBASE_KEY", strings.Repeat("2e", 32),
		"$OPERATOR_KEY", strings.Repeat("3d", 32), "/var/lib/gavel", dir)
	checked := 0
	for _, c := range shellCommands(string(page)) {
		args := strings.Fields(vars.Replace(c))
		if len(args) < 2 || args[0] != "gavel" {
			continue
		}
		args = args[1:]
		switch {
		case strings.HasPrefix(args[0], "-"):
			args = append([]string{"dumpconfig"}, args...)
		case args[0] == "dumpconfig":
		default:
			continue
		}
		checked++
		out, errOut, code := gavel(t, args...)
		if code != 0 || !strings.Contains(out, "[Mev.Relay]") || !strings.Contains(out, `SecretKey = "`+key+`"`) {
			t.Errorf("docs/operate.md: gavel %s\nexit %d: %s", strings.Join(args, " "), code, errOut)
		}
	}
	if checked < 3 {
		t.Fatalf("docs/operate.md: %d node commands found, expected at least 3", checked)
	}
}
