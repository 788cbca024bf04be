package relayapi

import (
	"strconv"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
)

// The data API writes its lists with these appenders rather than through
// encoding/json: a 200-item answer spent more time in reflection and in
// re-validating each item's MarshalJSON output than in the database. The
// output is byte-for-byte core/beacon's JSON (data_test.go checks it).

func appendQuoted(b []byte, v uint64) []byte {
	b = append(b, '"')
	b = strconv.AppendUint(b, v, 10)
	return append(b, '"')
}

// appendBidTraceV2Fields appends the fields of t, without braces.
func appendBidTraceV2Fields(b []byte, t *beacon.BidTraceV2) []byte {
	b = append(b, `"slot":`...)
	b = appendQuoted(b, t.Slot)
	b = append(b, `,"parent_hash":`...)
	b = beacon.AppendHexJSON(b, t.ParentHash[:])
	b = append(b, `,"block_hash":`...)
	b = beacon.AppendHexJSON(b, t.BlockHash[:])
	b = append(b, `,"builder_pubkey":`...)
	b = beacon.AppendHexJSON(b, t.BuilderPubkey[:])
	b = append(b, `,"proposer_pubkey":`...)
	b = beacon.AppendHexJSON(b, t.ProposerPubkey[:])
	b = append(b, `,"proposer_fee_recipient":`...)
	b = beacon.AppendHexJSON(b, t.ProposerFeeRecipient[:])
	b = append(b, `,"gas_limit":`...)
	b = appendQuoted(b, t.GasLimit)
	b = append(b, `,"gas_used":`...)
	b = appendQuoted(b, t.GasUsed)
	b = append(b, `,"value":"`...)
	b = append(b, t.Value.String()...)
	b = append(b, `","block_number":`...)
	b = appendQuoted(b, t.BlockNumber)
	b = append(b, `,"num_tx":`...)
	return appendQuoted(b, t.NumTx)
}

// appendBidTraceV2 appends t as a JSON object.
func appendBidTraceV2(b []byte, t *beacon.BidTraceV2) []byte {
	b = append(b, '{')
	return append(appendBidTraceV2Fields(b, t), '}')
}

// appendDelivered appends a delivered payload: the reference fields, then
// gavel's beta fields (alpha_block_hash is the block the builder submitted:
// the block_hash itself when nothing was appended) and, once known, whether
// the block became canonical.
func appendDelivered(b []byte, d *store.DeliveredPayload) []byte {
	b = append(b, '{')
	b = appendBidTraceV2Fields(b, &d.BidTraceV2)
	alpha := d.BlockHash
	if d.AlphaBlockHash != nil {
		alpha = *d.AlphaBlockHash
	}
	b = append(b, `,"alpha_block_hash":`...)
	b = beacon.AppendHexJSON(b, alpha[:])
	b = append(b, `,"beta_gas_used":`...)
	b = appendQuoted(b, d.BetaGasUsed)
	b = append(b, `,"beta_bundle_count":`...)
	b = appendQuoted(b, d.BetaBundleCount)
	if d.Canonical != nil { // left out while the relay has not checked its chain
		b = append(b, `,"canonical":`...)
		b = strconv.AppendBool(b, *d.Canonical)
	}
	return append(b, '}')
}

// appendBidTraceV2WithTimestamp appends t as a JSON object.
func appendBidTraceV2WithTimestamp(b []byte, t *beacon.BidTraceV2WithTimestamp) []byte {
	b = append(b, '{')
	b = appendBidTraceV2Fields(b, &t.BidTraceV2)
	b = append(b, `,"timestamp":`...)
	b = appendQuoted(b, t.Timestamp)
	b = append(b, `,"timestamp_ms":`...)
	b = appendQuoted(b, t.TimestampMs)
	b = append(b, `,"optimistic_submission":`...)
	b = strconv.AppendBool(b, t.OptimisticSubmission)
	return append(b, '}')
}

// bidTraceSize is a generous estimate of one encoded item, to size buffers.
const bidTraceSize = 900
