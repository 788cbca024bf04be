// Package httpc is the one small HTTP client helper gavel's outgoing
// builder-API calls share: the builder's submissions to relays and the dev
// proposer's calls to the relay.
package httpc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// ErrTooLarge: the answer's body is longer than the caller allows.
var ErrTooLarge = errors.New("answer too large")

// Do sends one request (body may be nil) with the given headers and returns
// the status and the body, read up to limit bytes; a longer body is
// ErrTooLarge rather than silently cut.
func Do(ctx context.Context, client *http.Client, method, url string, body []byte, header map[string]string, limit int64) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return 0, nil, err
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return resp.StatusCode, nil, err
	}
	if int64(len(out)) > limit {
		return resp.StatusCode, nil, fmt.Errorf("%w: %s %s answered more than %d bytes", ErrTooLarge, method, url, limit)
	}
	return resp.StatusCode, out, nil
}
