package eth

import (
	"github.com/gavel-eth/gavel/eth/betapool"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relaystatus"
	"github.com/gavel-eth/gavel/mevapi/statuspage"
)

// newStatusPage builds the relay's status page (GET / on the MEV listener)
// and its collector, which rebuilds the page's snapshot in the background;
// nil when the relay does not run or --relay.page=false. The bid counter
// (n.pageBids) must exist before the relay is built: the relay's recorder
// feeds it.
func newStatusPage(n *Node, cfg Config, beta *betapool.Service) *relaystatus.Collector {
	if n.relay == nil || n.pageBids == nil {
		return nil
	}
	rcfg := relaystatus.Config{
		Relay: func() (relaystatus.Relay, string) {
			if r := n.relay.Relay(); r != nil {
				return r, ""
			}
			return nil, n.relay.Ready().Error()
		},
		Deliveries: n.store,
		Bids:       n.pageBids,
	}
	if pb := newPageBeta(n, cfg.Beta, beta); pb != nil {
		rcfg.Beta, rcfg.L2 = pb, l2Name(cfg.Beta)
	}
	c := relaystatus.NewCollector(rcfg)
	statuspage.New(c).Mount(n.mev)
	return c
}

// submissionRecorder is what the relay hands its verified submissions to:
// the bid-trace writer, through the status page's bid counter when the page
// is on.
func (n *Node) submissionRecorder(next relay.SubmissionRecorder) relay.SubmissionRecorder {
	if n.pageBids == nil {
		return next
	}
	return n.pageBids.Tee(next)
}

// StatusPage is the status page's collector; nil when the page is off.
func (n *Node) StatusPage() *relaystatus.Collector { return n.statusPage }
