package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"time"

	"github.com/ethereum/go-ethereum/cmd/utils"
	"github.com/ethereum/go-ethereum/console"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/params"
)

// devIPCPattern is where `gavel --dev` without --datadir puts its IPC
// socket: a temporary directory of its own per process.
const devIPCPattern = "gavel-dev-*"

var versionCommand = &cli.Command{
	Name:   "version",
	Usage:  "Print gavel's version, its go-ethereum version and the build",
	Action: runVersion,
}

func runVersion(ctx *cli.Context) error {
	printVersion(ctx.App.Writer)
	return nil
}

// printVersion writes what `geth version` writes, for gavel.
func printVersion(w io.Writer) {
	fmt.Fprintln(w, "gavel")
	fmt.Fprintln(w, "Version:", params.Version)
	geth, commit, date := "unknown", "", ""
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/ethereum/go-ethereum" {
				geth = dep.Version
			}
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.time":
				date = s.Value
			}
		}
	}
	if commit != "" {
		fmt.Fprintln(w, "Git Commit:", commit)
	}
	if date != "" {
		fmt.Fprintln(w, "Git Commit Date:", date)
	}
	fmt.Fprintln(w, "go-ethereum:", geth)
	fmt.Fprintln(w, "Architecture:", runtime.GOARCH)
	fmt.Fprintln(w, "Go Version:", runtime.Version())
	fmt.Fprintln(w, "Operating System:", runtime.GOOS)
}

var attachCommand = &cli.Command{
	Name:      "attach",
	Usage:     "Start geth's interactive JavaScript console on a running node (IPC, HTTP or WS)",
	ArgsUsage: "[endpoint]",
	Description: "The endpoint is an IPC socket path, http://, https://, ws:// or wss:// URL. Without one,\n" +
		"attach uses <datadir>/gavel.ipc with --datadir, else the IPC socket of the newest running\n" +
		"`gavel --dev` on this machine (with or without --datadir). Flags go before the endpoint.\n" +
		"--exec evaluates one statement and exits.",
	Flags:  []cli.Flag{utils.DataDirFlag, utils.HttpHeaderFlag, utils.JSpathFlag, utils.ExecFlag, utils.PreloadJSFlag},
	Action: runAttach,
}

// errNoEndpoint is returned by attach when no endpoint was given and no dev
// node was found.
var errNoEndpoint = errors.New("no endpoint: pass one (an IPC path or an http:// or ws:// URL), or --datadir of the node; no running `gavel --dev` IPC socket found")

func runAttach(ctx *cli.Context) error {
	for _, a := range ctx.Args().Tail() {
		if len(a) > 1 && a[0] == '-' {
			return fmt.Errorf("%w: %q comes after the endpoint: flags go before it (gavel attach [flags] %s)", errUsage, a, ctx.Args().First())
		}
	}
	if ctx.Args().Len() > 1 {
		return fmt.Errorf("%w: attach takes one endpoint, got %d arguments", errUsage, ctx.Args().Len())
	}
	endpoint := ctx.Args().First()
	if endpoint == "" {
		if ctx.IsSet(utils.DataDirFlag.Name) {
			endpoint = filepath.Join(ctx.String(utils.DataDirFlag.Name), params.ClientName+".ipc")
		} else if endpoint = findDevIPC(); endpoint == "" {
			return errNoEndpoint
		}
	}
	client, err := utils.DialRPCWithHeaders(endpoint, ctx.StringSlice(utils.HttpHeaderFlag.Name))
	if err != nil {
		return fmt.Errorf("attach to %s: %w", endpoint, err)
	}
	defer client.Close()
	history := filepath.Join(os.TempDir(), "gavel-console")
	if ctx.IsSet(utils.DataDirFlag.Name) {
		history = ctx.String(utils.DataDirFlag.Name)
	}
	c, err := console.New(console.Config{
		DataDir: history,
		DocRoot: ctx.String(utils.JSpathFlag.Name),
		Client:  client,
		Preload: utils.MakeConsolePreloads(ctx),
		Printer: ctx.App.Writer,
	})
	if err != nil {
		return fmt.Errorf("start the JavaScript console on %s: %w", endpoint, err)
	}
	defer c.Stop(false)
	if script := ctx.String(utils.ExecFlag.Name); script != "" {
		c.Evaluate(script)
		return nil
	}
	c.Welcome()
	c.Interactive()
	return nil
}

// findDevIPC returns the IPC socket of the newest `gavel --dev` running
// without --datadir that answers, or "".
func findDevIPC() string {
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), devIPCPattern, params.ClientName+".ipc"))
	type cand struct {
		path string
		mod  int64
	}
	var cands []cand
	for _, m := range matches {
		if fi, err := os.Stat(m); err == nil && fi.Mode()&os.ModeSocket != 0 {
			cands = append(cands, cand{m, fi.ModTime().UnixNano()})
		}
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].mod > cands[j].mod })
	for _, c := range cands {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		client, err := rpc.DialIPC(ctx, c.path)
		cancel()
		if err == nil {
			client.Close()
			return c.path
		}
	}
	return ""
}

// linkDevIPC makes a --dev node with a datadir findable by `gavel attach`
// without arguments: a symlink to its IPC socket in a temporary directory
// of devIPCPattern, where findDevIPC looks. It returns the directory, for
// the caller to remove when the node stops. A link left by a killed node
// leads nowhere and is skipped.
func linkDevIPC(socket string) (string, error) {
	abs, err := filepath.Abs(socket)
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", devIPCPattern)
	if err != nil {
		return "", err
	}
	if err := os.Symlink(abs, filepath.Join(dir, params.ClientName+".ipc")); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}
