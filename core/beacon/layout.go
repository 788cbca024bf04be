package beacon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/params"
)

// Where things sit in the SSZ encoding of the containers, for readers that
// need one field before (or instead of) decoding the whole container.

// SubmissionPrefixLen is how many leading bytes of an SSZ SubmitBlockRequest
// of any fork hold its bid trace and its signature: the trace, one 4-byte
// offset per variable-size field that precedes the signature (the payload,
// from Deneb the blobs bundle, from Electra the execution requests), then the
// signature. Electra's and Fulu's layout is the longest.
const SubmissionPrefixLen = bidTraceSize + 3*4 + SignatureLength

// submissionSignatureOffset is where the signature starts in an SSZ
// SubmitBlockRequest of fork.
func submissionSignatureOffset(fork params.ConsensusFork) int {
	offsets := 1 // execution_payload
	if fork >= params.ForkDeneb {
		offsets++ // blobs_bundle
	}
	if fork >= params.ForkElectra {
		offsets++ // execution_requests
	}
	return bidTraceSize + 4*offsets
}

// SubmissionSignatureSSZ reads the signature of an SSZ SubmitBlockRequest of
// fork from the body's first bytes (SubmissionPrefixLen are always enough),
// so a relay can start verifying it before the rest of the body is in.
func SubmissionSignatureSSZ(fork params.ConsensusFork, prefix []byte) (BLSSignature, error) {
	var sig BLSSignature
	off := submissionSignatureOffset(fork)
	if len(prefix) < off+SignatureLength {
		return sig, fmt.Errorf("%w: %d bytes is too short for a %s submission's signature (ends at byte %d)", ErrInvalidSSZ, len(prefix), fork, off+SignatureLength)
	}
	copy(sig[:], prefix[off:off+SignatureLength])
	return sig, nil
}

// ParentRoot returns the beacon block's parent root, which the execution
// layer receives as the parent beacon block root of the block's payload.
func (c *SignedBlockContents) ParentRoot() common.Hash {
	switch {
	case c.Fulu != nil:
		return common.Hash(c.Fulu.SignedBlock.Message.ParentRoot)
	case c.Electra != nil:
		return common.Hash(c.Electra.SignedBlock.Message.ParentRoot)
	case c.Deneb != nil:
		return common.Hash(c.Deneb.SignedBlock.Message.ParentRoot)
	case c.Capella != nil:
		return common.Hash(c.Capella.Message.ParentRoot)
	case c.Bellatrix != nil:
		return common.Hash(c.Bellatrix.Message.ParentRoot)
	}
	return common.Hash{}
}

// SubmissionPrefixJSONLen is how many leading bytes of a JSON
// SubmitBlockRequest a relay hands to SubmissionPrefixJSON: the bid trace
// and the signature take about 0.9 KB compact, the rest leaves room for
// whitespace.
const SubmissionPrefixJSONLen = 2 << 10

// SubmissionPrefixJSON reads the bid trace (message) and the signature of a
// JSON SubmitBlockRequest from the body's first bytes, when they come
// before any other field: the object's keys are read in order and the
// reading stops at the first other key (execution_payload, ...) or at the
// end of prefix. trace or sig is nil when not found there (JSON fixes no
// order, and most builders send the signature last); err is set only for
// a message or signature that is there and does not decode. A relay uses
// them before the rest is read, as it uses an SSZ submission's prefix;
// Submit still checks the decoded submission's own trace and signature.
func SubmissionPrefixJSON(prefix []byte) (trace *BidTrace, sig *BLSSignature, err error) {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, nil
	}
	for trace == nil || sig == nil {
		tok, err := dec.Token()
		if err != nil {
			return trace, sig, nil
		}
		key, ok := tok.(string)
		if !ok || (key != "message" && key != "signature") {
			return trace, sig, nil
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return trace, sig, nil // cut by the end of the prefix
		}
		d := jsonDecoder{data: raw}
		if key == "message" {
			var t BidTrace
			if err := d.decodeTop(reflect.ValueOf(&t).Elem(), fieldDims{}); err != nil {
				return nil, nil, fmt.Errorf("message: %w", err)
			}
			trace = &t
			continue
		}
		var s BLSSignature
		if err := d.decodeTop(reflect.ValueOf(&s).Elem(), fieldDims{}); err != nil {
			return nil, nil, fmt.Errorf("signature: %w", err)
		}
		sig = &s
	}
	return trace, sig, nil
}
