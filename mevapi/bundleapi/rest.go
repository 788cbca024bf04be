package bundleapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/errclass"
	"github.com/gavel-eth/gavel/mevapi"
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
// takes a CallBundleArgs body and answers the bare result object with 200,
// or {"code":N,"message":...} with 400 (bad request, invalid bundle,
// timeout), 413 (body too large) or 500.
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
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var args CallBundleArgs
		if !a.readJSON(w, r, &args) {
			return
		}
		res, err := a.CallBundle(r.Context(), args)
		respond(w, r, res, err)
	})
}

// EstimateGasBundleHandler serves POST /eth_estimateGasBundle.
func (a *API) EstimateGasBundleHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var args EstimateGasBundleArgs
		if !a.readJSON(w, r, &args) {
			return
		}
		res, err := a.EstimateGasBundle(r.Context(), args)
		respond(w, r, res, err)
	})
}

// readJSON reads the whole body under the size limit and decodes it,
// answering the error itself when it fails.
func (a *API) readJSON(w http.ResponseWriter, r *http.Request, dst any) bool {
	body, err := mevapi.ReadBody(r, a.maxBody())
	if err != nil {
		if errors.Is(err, mevapi.ErrBodyTooLarge) {
			mevapi.WriteError(w, http.StatusRequestEntityTooLarge, err.Error())
			return false
		}
		mevapi.WriteError(w, http.StatusBadRequest, "cannot read request body: "+err.Error())
		return false
	}
	if err := json.Unmarshal(body, dst); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			err = fmt.Errorf("%w: malformed JSON at byte %d: %v", ErrBadRequest, syn.Offset, syn)
		}
		mevapi.WriteError(w, http.StatusBadRequest, err.Error())
		return false
	}
	return true
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
