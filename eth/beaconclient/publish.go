package beaconclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/ethereum/go-ethereum/log"
	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/params"
)

// Broadcast validation levels of the v2 publish endpoints.
const (
	BroadcastGossip                   = "gossip"
	BroadcastConsensus                = "consensus"
	BroadcastConsensusAndEquivocation = "consensus_and_equivocation"
)

// ErrBadPublish: the publish request itself is malformed (no body, unknown
// broadcast validation level).
var ErrBadPublish = errors.New("invalid publish request")

// PublishRequest is an encoded block for the publish endpoints.
type PublishRequest struct {
	// Fork is sent as Eth-Consensus-Version (required by v2).
	Fork params.ConsensusFork
	// Body is the encoded SignedBlockContents (or SignedBlindedBeaconBlock
	// when Blinded), SSZ when SSZ is set, JSON otherwise.
	Body    []byte
	SSZ     bool
	Blinded bool
	// V1 uses the legacy /eth/v1 endpoints (no broadcast validation).
	V1 bool
	// BroadcastValidation is gossip, consensus or consensus_and_equivocation
	// (the default, as the reference relay uses).
	BroadcastValidation string
	// Fallback is sent to a node that answers 404, 405 or 415: a node that
	// lacks the endpoint or the encoding (Lodestar 1.5 has no
	// /eth/v2/beacon/blocks and takes only JSON on v1).
	Fallback *PublishRequest
}

// request returns p's path, query and headers.
func (p *PublishRequest) request() (path string, query url.Values, hdr http.Header, err error) {
	if len(p.Body) == 0 {
		return "", nil, nil, fmt.Errorf("%w: empty body", ErrBadPublish)
	}
	path = PathBlocksV2
	switch {
	case p.V1 && p.Blinded:
		path = PathBlindedV1
	case p.V1:
		path = PathBlocksV1
	case p.Blinded:
		path = PathBlindedV2
	}
	if !p.V1 {
		bv := p.BroadcastValidation
		switch bv {
		case "":
			bv = BroadcastConsensusAndEquivocation
		case BroadcastGossip, BroadcastConsensus, BroadcastConsensusAndEquivocation:
		default:
			return "", nil, nil, fmt.Errorf("%w: broadcast_validation %q, expected gossip, consensus or consensus_and_equivocation", ErrBadPublish, bv)
		}
		query = url.Values{"broadcast_validation": {bv}}
	}
	hdr = http.Header{"Eth-Consensus-Version": {p.Fork.String()}, "Content-Type": {"application/json"}}
	if p.SSZ {
		hdr.Set("Content-Type", "application/octet-stream")
	}
	return path, query, hdr, nil
}

// unsupported reports whether err is a node's answer that it lacks the
// endpoint or the encoding.
func unsupported(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && (apiErr.Status == http.StatusNotFound || apiErr.Status == http.StatusMethodNotAllowed || apiErr.Status == http.StatusUnsupportedMediaType)
}

// PublishTimeout bounds a publish to one node.
const PublishTimeout = 10 * time.Second

// PublishRaw sends p to every node at once and returns when the first node
// accepts it (200, or 202: broadcast but not integrated), or with every
// node's error when none does. Nodes still working when the first accepts
// carry on in the background (bounded by PublishTimeout), so the block
// reaches all of them even if ctx ends.
func (c *Client) PublishRaw(ctx context.Context, p PublishRequest) error {
	reqs := []*PublishRequest{&p}
	for f := p.Fallback; f != nil; f = f.Fallback {
		reqs = append(reqs, f)
	}
	for _, r := range reqs {
		if _, _, _, err := r.request(); err != nil {
			return err
		}
	}
	bg := context.WithoutCancel(ctx)
	results := make(chan error, len(c.nodes))
	start := time.Now()
	for _, n := range c.nodes {
		go func() {
			ctx, cancel := context.WithTimeout(bg, PublishTimeout)
			defer cancel()
			var err error
			for _, r := range reqs {
				path, query, hdr, _ := r.request()
				var resp *http.Response
				if resp, err = c.do(ctx, n, http.MethodPost, path, query, hdr, r.Body); err == nil {
					resp.Body.Close()
					log.Debug("Published block", "node", n.Redacted(), "path", path, "status", resp.StatusCode, "ms", since(start))
					break
				}
				if !unsupported(err) {
					break
				}
			}
			results <- err
		}()
	}
	var errs []error
	for range c.nodes {
		select {
		case err := <-results:
			if err == nil {
				return nil
			}
			errs = append(errs, err)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return fmt.Errorf("%w: publishing: %w", ErrUnavailable, errors.Join(errs...))
}

// Publish publishes a proposer's unblinded block to every node: v2, SSZ,
// consensus_and_equivocation, and to a node that lacks that endpoint or
// encoding (404, 405, 415) v1 as JSON. Its signature fits the relay's
// Publisher; payload, bundle and requests are already inside block and are
// not needed here.
func (c *Client) Publish(ctx context.Context, block *beacon.SignedBlockContents, _ *beacon.ExecutionPayload, _ *beacon.BlobsBundle, _ *beacon.ExecutionRequests) error {
	body, err := block.MarshalSSZ()
	if err != nil {
		return fmt.Errorf("%w: encoding the %s block: %v", ErrBadPublish, block.Fork, err)
	}
	js, err := block.MarshalJSON()
	if err != nil {
		return fmt.Errorf("%w: encoding the %s block as JSON: %v", ErrBadPublish, block.Fork, err)
	}
	return c.PublishRaw(ctx, PublishRequest{Fork: block.Fork, Body: body, SSZ: true,
		Fallback: &PublishRequest{Fork: block.Fork, Body: js, V1: true}})
}
