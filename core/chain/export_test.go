package chain

import "context"

// GethImport is gethImport for the benchmarks of package chain_test: geth's
// own import path for a block, without its database writes, as the baseline
// of the relay's verification.
func (c *Chain) GethImport(ctx context.Context, p *BuilderPayload) error { return c.gethImport(ctx, p) }
