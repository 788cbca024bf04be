package eth

import (
	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/mevapi/bundleapi"
)

// RegisterBundles serves bundle simulation: eth_callBundle and
// eth_estimateGasBundle on geth's JSON-RPC servers (HTTP, WS, IPC; the eth
// namespace) and POST /eth_callBundle and POST /eth_estimateGasBundle on the
// MEV listener. It returns the service so the MEV listener's JSON-RPC
// dispatcher can serve the same methods. Call it before the stack starts.
func (n *Node) RegisterBundles(cfg bundle.Config) *bundleapi.API {
	api := bundleapi.NewAPI(bundle.NewSimulator(n.Chain, cfg))
	n.Stack.RegisterAPIs(api.APIs())
	for pattern, h := range api.Routes() {
		n.MEV.Handle(pattern, h)
	}
	return api
}
