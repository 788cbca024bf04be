// Package statuspage serves the relay's status page at GET / on the MEV
// listener: one server-rendered HTML page (no scripts, no external assets)
// that says who the relay is, how to connect to it, what it delivered,
// which builders bid and won, and the state of the beta market. The page is
// rendered from the latest relaystatus.Snapshot, at most once per snapshot
// and host, so a view costs a map lookup and a write.
package statuspage

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/eth/relaystatus"
	"github.com/gavel-eth/gavel/mevapi"
)

// Source gives the snapshot to render (relaystatus.Collector).
type Source interface {
	Snapshot() *relaystatus.Snapshot
}

// CacheControl is the page's Cache-Control: the snapshot is rebuilt every
// second, so a browser or proxy may keep it that long.
const CacheControl = "public, max-age=1"

// maxHosts bounds the pages rendered per snapshot: one per Host header
// the page was asked under (the connect URL names the host). Past it, the
// page names no host ("HOST"), rendered once: a client sending a new Host
// with every request cannot make each view a rendering.
const maxHosts = 8

//go:embed page.html.tmpl
var pageSource string

var pageTemplate = template.Must(template.New("page").Funcs(funcs).Parse(pageSource))

// Handler serves the page.
type Handler struct {
	src Source

	mu    sync.Mutex
	snap  *relaystatus.Snapshot
	pages map[string]*page // by scheme and host, for snap
}

// page is one rendering, plain and gzipped: browsers take the 5 KB, not
// the 30 KB.
type page struct {
	html, gz []byte
}

// New returns the page's handler over src.
func New(src Source) *Handler { return &Handler{src: src} }

// Mount mounts the page on GET / (the root path alone).
func (h *Handler) Mount(mux interface{ Handle(string, http.Handler) }) {
	mux.Handle("GET /{$}", h)
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	scheme := "http"
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme = "https"
	}
	p, err := h.page(scheme, r.Host)
	if err != nil {
		log.Error("Rendering the status page failed", "err", err)
		mevapi.WriteError(w, http.StatusInternalServerError, "")
		return
	}
	hd := w.Header()
	body := p.html
	hd.Set("Vary", "Accept-Encoding")
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		body = p.gz
		hd.Set("Content-Encoding", "gzip")
	}
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Cache-Control", CacheControl)
	hd.Set("Content-Length", strconv.Itoa(len(body)))
	// Nothing on the page runs or loads from elsewhere: say so to the browser.
	hd.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
	hd.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// page returns the rendered page for the current snapshot, rendering it
// when this snapshot was not rendered for this host yet.
func (h *Handler) page(scheme, host string) (*page, error) {
	snap := h.src.Snapshot()
	key := scheme + "://" + host
	h.mu.Lock()
	if h.snap != snap {
		h.snap, h.pages = snap, make(map[string]*page)
	}
	p, ok := h.pages[key]
	if !ok && len(h.pages) >= maxHosts {
		host, key = "", scheme+"://"
		p, ok = h.pages[key]
	}
	h.mu.Unlock()
	if ok {
		return p, nil
	}

	html, err := Render(snap, scheme, host)
	if err != nil {
		return nil, err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(html)
	zw.Close()
	p = &page{html: html, gz: gz.Bytes()}
	h.mu.Lock()
	if h.snap == snap {
		h.pages[key] = p
	}
	h.mu.Unlock()
	return p, nil
}

// Render renders snap as the page seen under scheme://host.
func Render(snap *relaystatus.Snapshot, scheme, host string) ([]byte, error) {
	v := newView(snap, scheme, host)
	var buf bytes.Buffer
	buf.Grow(32 << 10)
	if err := pageTemplate.Execute(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
