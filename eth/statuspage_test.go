package eth_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"io"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"
	gparams "github.com/ethereum/go-ethereum/params"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/devauction"
	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/internal/testnode"
	"github.com/gavel-eth/gavel/params"
)

// chromium finds Debian's headless browser: $GAVEL_CHROMIUM, else chromium
// or chromium-browser on PATH (build/chromium/install.sh installs it). The
// test is skipped without it, except in CI (CI=true), where it must run.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{os.Getenv("GAVEL_CHROMIUM"), "chromium", "chromium-browser"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "true" {
		t.Skip("chromium not found: run build/chromium/install.sh to run this test")
	}
	t.Fatal("chromium not found and CI=true: run build/chromium/install.sh (or set GAVEL_CHROMIUM)")
	return ""
}

// browse runs headless Chromium on url with extra flags and returns its
// stdout. It fails the test on any console message: the page has no
// scripts, so a message means something went wrong (a blocked resource, a
// parse error).
func browse(t *testing.T, browser, url string, flags ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
		"--hide-scrollbars", "--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0",
	}, flags...)
	cmd := exec.CommandContext(ctx, browser, append(args, url)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", strings.Join(flags, " "), err, stderr.String())
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, ":CONSOLE") || strings.Contains(line, "Refused to") {
			t.Errorf("console message on the page: %s", line)
		}
	}
	return stdout.Bytes()
}

// checkScreenshot decodes a PNG screenshot and fails unless it is the
// size asked for and shows a page: not one colour, with a good share of
// pixels that are not the background.
func checkScreenshot(t *testing.T, path string, w, h int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot %s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Fatalf("screenshot %s is %dx%d, want %dx%d", path, b.Dx(), b.Dy(), w, h)
	}
	colours := map[[3]uint32]bool{}
	inked, blue := 0, 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
			if r>>8 < 240 || g>>8 < 240 || bl>>8 < 240 {
				inked++
			}
			if isPlotBlue(img, x, y) {
				blue++
			}
		}
	}
	total := (b.Dx() / 2) * (b.Dy() / 2)
	if len(colours) < 16 || inked*100 < total*3 {
		t.Fatalf("screenshot %s looks blank: %d colours, %d of %d sampled pixels not white", path, len(colours), inked, total)
	}
	if blue == 0 {
		t.Errorf("screenshot %s: no value bar of the plot (#2f6fb3) drawn", path)
	}
}

func isPlotBlue(img image.Image, x, y int) bool {
	r, g, b, _ := img.At(x, y).RGBA()
	near := func(v uint32, want int) bool { d := int(v>>8) - want; return d > -8 && d < 8 }
	return near(r, 0x2f) && near(g, 0x6f) && near(b, 0xb3)
}

// TestStatusPageInChromium opens the relay's status page in headless
// Chromium as a person would, after a few slots of the dev chain, one of
// them with a paid beta bundle: the page renders (a screenshot that is not
// blank, no console message), lists the delivered slots, each linking to
// its data-API record, shows the beta slot's delivery (beta gas and bundle),
// its settled auction (clearing price, paid and included bundles) and an
// upcoming auction with its gas for sale. GAVEL_PAGE_SCREENSHOTS=DIR keeps
// the screenshots (desktop and phone width) in DIR.
func TestStatusPageInChromium(t *testing.T) {
	browser := chromium(t)
	var svc *devauction.Service
	n := testnode.New(t, testnode.Options{Register: func(n *eth.Node) error {
		svc = devauction.Register(n.Stack(), devauction.Config{})
		return nil
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	st := startStepping(t, n)
	dev, err := svc.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	op, err := svc.OperatorClient(ctx, n.Client())
	if err != nil {
		t.Fatal(err)
	}
	bidder := auction.NewClient(n.Client(), dev.Addresses, bind.NewKeyedTransactor(params.DevBidderKeys()[0].Key, big.NewInt(params.DevChainID)))
	must := func(_ *types.Receipt, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	// As in TestBetaBlockEndToEnd: the set-up's receipts are waited for on
	// the wall clock while the stepper steps, so leave room.
	slot := n.Beacon().HeadSlot() + 300
	const sold = 3_000_000
	must(op.OpenAuction(ctx, slot, sold))
	must(op.OpenAuction(ctx, slot+3, sold))
	must(bidder.PlaceBids(ctx, slot, []auction.Bid{{Price: big.NewInt(2 * gparams.GWei), Gas: 2_000_000}}))
	must(op.Settle(ctx, slot))
	txs := betaTxs(t, testnode.Account(4).Key, 0, 1)
	must(bidder.Pay(ctx, slot, 100_000, []common.Hash{bundle.Hash(txs)}))
	st.stop()
	if h := n.Beacon().HeadSlot(); h >= slot-3 {
		t.Fatalf("the L2 set-up took until slot %d, past the target %d", h, slot)
	}
	for n.Beacon().HeadSlot() < slot-3 {
		n.Step()
	}
	var hash common.Hash
	if err := n.RPC().CallContext(ctx, &hash, "mev_sendBetaBundle", map[string]any{"txs": rawTxs(t, txs), "slot": strconv.FormatUint(slot, 10)}); err != nil {
		t.Fatal(err)
	}
	for n.Beacon().HeadSlot() < slot {
		n.Step() // slot-2, slot-1: alpha alone; slot: with the paid bundle
	}
	n.StatusPage().Refresh(ctx)

	url := n.MEVURL() + "/"
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || res.Header.Get("Cache-Control") != "public, max-age=1" {
		t.Fatalf("GET /: %d %v", res.StatusCode, res.Header)
	}
	if bytes.Contains(raw, []byte("<script")) || bytes.Contains(raw, []byte("src=\"http")) || bytes.Contains(raw, []byte("href=\"http")) {
		t.Errorf("the page loads or runs something: it must stand alone")
	}

	dom := string(browse(t, browser, url, "--dump-dom"))
	s := strconv.FormatUint(slot, 10)
	for _, want := range []string{
		"gavel relay", "dev", n.Relay().Relay().Pubkey().String(), // who and where
		"://" + n.Relay().Relay().Pubkey().String() + "@127.0.0.1:", // the connect URL
		`<table id="deliveries">`,
		`href="/relay/v1/data/bidtraces/proposer_payload_delivered?slot=` + s + `">` + s + `</a>`,
		`href="/relay/v1/data/bidtraces/proposer_payload_delivered?slot=` + strconv.FormatUint(slot-1, 10) + `">`,
		"<td>42,000</td><td>1</td></tr>", // the beta slot: 2 txs of 21,000 gas, 1 bundle
		`<table id="settled">`,
		"<tr><td>" + s + "</td><td>2.000</td><td>2,000,000</td><td>1</td><td>1</td><td>0</td>", // clearing price, sold, paid, included, missed
		`<table id="upcoming">`,
		"<tr><td>" + strconv.FormatUint(slot+3, 10) + "</td><td>3,000,000</td><td class=\"l\">open</td>",
		`<svg id="plot"`,
		`<table id="builders">`,
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("the rendered page lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("DOM:\n%s", dom)
	}

	dir := os.Getenv("GAVEL_PAGE_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	for _, size := range []struct {
		name string
		w, h int
	}{{"desktop", 1280, 2100}, {"phone", 390, 2600}} {
		shot := filepath.Join(dir, "status-page-"+size.name+".png")
		browse(t, browser, url, "--window-size="+strconv.Itoa(size.w)+","+strconv.Itoa(size.h), "--screenshot="+shot)
		checkScreenshot(t, shot, size.w, size.h)
	}
}

// TestStatusPageOff: --relay.page=false leaves GET / to the listener's
// 404, and the rest of the relay as it is.
func TestStatusPageOff(t *testing.T) {
	n := testnode.New(t, testnode.Options{Configure: func(_ *node.Config, _ *ethconfig.Config, g *eth.Config) {
		g.Relay.PageDisabled = true
	}})
	n.Step()
	if n.StatusPage() != nil {
		t.Fatal("status page collector runs with the page off")
	}
	res, err := http.Get(n.MEVURL() + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode == http.StatusOK {
		t.Fatalf("GET / with the page off: %d, want an error status", res.StatusCode)
	}
	if code := getJSON(t, n.MEVURL()+"/relay/v1/data/bidtraces/proposer_payload_delivered", nil); code != http.StatusOK {
		t.Fatalf("data API with the page off: %d", code)
	}
}
