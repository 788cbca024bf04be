package bundleapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"

	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/errclass"
	"github.com/gavel-eth/gavel/mevapi"
	"github.com/gavel-eth/gavel/mevapi/reqsig"
)

// Patterns of the REST routes, for mevapi.Server.Handle (Go 1.22 ServeMux
// patterns).
const (
	PatternCallBundle        = "POST /eth_callBundle"
	PatternEstimateGasBundle = "POST /eth_estimateGasBundle"
)

// maxBodySlack is room for JSON syntax and the other fields on top of the
// hex-encoded transactions.
const maxBodySlack = 64 << 10

// Routes returns the REST handlers keyed by their ServeMux pattern: each
// takes a CallBundleArgs body (application/json, or no Content-Type) and
// answers the bare result object with 200, or {"code":N,"message":...} with
// 400 (bad request, invalid bundle, timeout), 401 (a signature header that
// does not verify), 408 (body too slow), 413 (body too large), 415
// (another Content-Type), 429 (this IP's share of the body budget in use),
// 503 (server busy: no CPU turn, or the body budget in use) or 500. Mount them behind the listener's per-IP request limit (jsonrpc
// Server.LimitIP) so that they count as the JSON-RPC calls do.
func (a *API) Routes() map[string]http.Handler {
	return map[string]http.Handler{
		PatternCallBundle:        a.CallBundleHandler(),
		PatternEstimateGasBundle: a.EstimateGasBundleHandler(),
	}
}

// maxBody bounds a request body: the hex of MaxBytes of transactions plus
// the JSON around them.
func (a *API) maxBody() int64 { return 2*int64(a.sim.Config().MaxBytes) + maxBodySlack }

// CallBundleHandler serves POST /eth_callBundle.
func (a *API) CallBundleHandler() http.Handler {
	return a.handler(func(ctx context.Context, body []byte) (any, error) {
		var args CallBundleArgs
		if err := decodeJSON(body, &args); err != nil {
			return nil, err
		}
		return a.CallBundle(ctx, args)
	})
}

// EstimateGasBundleHandler serves POST /eth_estimateGasBundle.
func (a *API) EstimateGasBundleHandler() http.Handler {
	return a.handler(func(ctx context.Context, body []byte) (any, error) {
		var args EstimateGasBundleArgs
		if err := decodeJSON(body, &args); err != nil {
			return nil, err
		}
		return a.EstimateGasBundle(ctx, args)
	})
}

// handler reads the body under the size limit and the listener's body
// budget, then decodes and simulates it in a turn of the node's CPU
// scheduler, as the JSON-RPC eth_callBundle runs: a flood of simulations
// over REST would otherwise keep every core from the node's slot work,
// health checks and getHeader.
func (a *API) handler(run func(ctx context.Context, body []byte) (any, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := checkContentType(r.Header.Get("Content-Type")); err != nil {
			mevapi.WriteError(w, http.StatusUnsupportedMediaType, err.Error())
			return
		}
		body, err := mevapi.ReadBody(r, a.maxBody())
		if err != nil {
			msg := "cannot read request body: " + err.Error()
			if errors.Is(err, mevapi.ErrBodyTooLarge) {
				msg = err.Error()
			}
			mevapi.WriteError(w, mevapi.BodyStatus(err), msg)
			return
		}
		// A signed request counts its simulation for its signer, as the
		// JSON-RPC call does; the signature covers the raw body.
		ctx := r.Context()
		if header, err := reqsig.FromRequest(r.Header); err != nil {
			mevapi.WriteError(w, http.StatusUnauthorized, "invalid request signature: "+err.Error())
			return
		} else if header != "" {
			signer, err := reqsig.Verify(header, body)
			if err != nil {
				mevapi.WriteError(w, http.StatusUnauthorized, "invalid request signature: "+err.Error())
				return
			}
			ctx = reqsig.WithSigner(ctx, signer)
			if a.stats != nil {
				a.stats.Add(signer, bundle.StatRequest)
			}
		}
		var res any
		if herr := mevapi.AccountOf(r).Run(ctx, int64(len(body)), func(ctx context.Context) { res, err = run(ctx, body) }); herr != nil {
			mevapi.WriteError(w, mevapi.BodyStatus(herr), "server busy: "+herr.Error()+", retry later")
			return
		}
		respond(w, r, res, err)
	})
}

// checkContentType accepts a JSON body: application/json (with any
// parameters) or no Content-Type at all, as curl and scripts send it.
func checkContentType(ct string) error {
	if ct == "" {
		return nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return fmt.Errorf("failed to parse Content-Type header: %v", err)
	}
	if mt != "application/json" {
		return fmt.Errorf("unsupported Content-Type %q: expected application/json or none", mt)
	}
	return nil
}

// decodeJSON decodes a request body, naming where malformed JSON breaks.
func decodeJSON(body []byte, dst any) error {
	if err := json.Unmarshal(body, dst); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return fmt.Errorf("%w: malformed JSON at byte %d: %v", ErrBadRequest, syn.Offset, syn)
		}
		if !errors.Is(err, ErrBadRequest) {
			return fmt.Errorf("%w: %v", ErrBadRequest, err)
		}
		return err
	}
	return nil
}

func respond(w http.ResponseWriter, r *http.Request, res any, err error) {
	if err != nil {
		if errclass.IsInternal(err) {
			log.Error("Bundle simulation failed", "path", r.URL.Path, "err", err)
			mevapi.WriteError(w, http.StatusInternalServerError, "")
			return
		}
		if errors.Is(err, bundle.ErrCancelled) && r.Context().Err() != nil {
			return // nobody is listening
		}
		mevapi.WriteError(w, http.StatusBadRequest, err.Error())
		return
	}
	mevapi.WriteJSON(w, http.StatusOK, res)
}
