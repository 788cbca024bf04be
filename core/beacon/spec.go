package beacon

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	dynssz "github.com/pk910/dynamic-ssz"

	"github.com/gavel-eth/gavel/params"
)

// Spec holds the consensus preset values that shape this package's containers: the
// length of the sync committee bits in every block, the list limits that enter
// hash-tree-roots (the withdrawals root of a payload header, a bid's blob commitments and
// execution requests, a block body's operations) and the limits decoders enforce.
//
// The values come from a beacon node's /eth/v1/config/spec (SpecFromConfig). Containers
// are tagged with both the mainnet size (`ssz-size`, `ssz-max`: what the generated fastssz
// code is built for) and the spec name (`dynssz-size`, `dynssz-max`). A Spec whose values
// are all mainnet's (MainnetSpec, and any network built on the mainnet preset) uses the
// generated code and nothing else; any other Spec encodes, decodes and hashes through
// github.com/pk910/dynamic-ssz, which reads the spec names and falls back to the generated
// code for the containers whose shape the preset does not change. The strict JSON codec
// reads the same tags.
//
// The values gavel reads, with their mainnet and minimal values and where they are used:
//
//	SYNC_COMMITTEE_SIZE                     512  32  SyncAggregate.sync_committee_bits (SYNC_COMMITTEE_SIZE/8 bytes) in every (blinded) block body
//	MAX_WITHDRAWALS_PER_PAYLOAD              16   4  ExecutionPayload.withdrawals limit; the header's withdrawals_root (WithdrawalsRoot)
//	MAX_BLOB_COMMITMENTS_PER_BLOCK         4096  32  blob_kzg_commitments of blocks and bids, BlobsBundle, kzg_proofs and blobs of block contents
//	FIELD_ELEMENTS_PER_EXT_BLOB            8192 8192 Fulu cell proofs limit (times MAX_BLOB_COMMITMENTS_PER_BLOCK)
//	MAX_COMMITTEES_PER_SLOT                  64   4  Electra Attestation.committee_bits (MAX_COMMITTEES_PER_SLOT/8 bytes, rounded up) and its bit limits
//	MAX_VALIDATORS_PER_COMMITTEE           2048 2048 Attestation.aggregation_bits, IndexedAttestation.attesting_indices
//	MAX_PROPOSER_SLASHINGS                   16  16  block body lists
//	MAX_ATTESTER_SLASHINGS                    2   2
//	MAX_ATTESTATIONS                        128 128
//	MAX_DEPOSITS                             16  16
//	MAX_VOLUNTARY_EXITS                      16  16
//	MAX_BLS_TO_EXECUTION_CHANGES             16  16
//	MAX_ATTESTER_SLASHINGS_ELECTRA            1   1
//	MAX_ATTESTATIONS_ELECTRA                  8   8
//	MAX_DEPOSIT_REQUESTS_PER_PAYLOAD       8192   4  ExecutionRequests lists: a bid's and a block's execution_requests root
//	MAX_WITHDRAWAL_REQUESTS_PER_PAYLOAD      16   2
//	MAX_CONSOLIDATION_REQUESTS_PER_PAYLOAD    2   2
//	MAX_TRANSACTIONS_PER_PAYLOAD          2^20 2^20 transactions limit and the header's transactions_root (TransactionsRoot)
//	MAX_BYTES_PER_TRANSACTION             2^30 2^30
//	MAX_EXTRA_DATA_BYTES                     32  32  extra_data of payloads and headers
//
// gavel also depends on these, which must have their mainnet values (else SpecFromConfig
// fails with ErrUnsupportedPreset): BYTES_PER_LOGS_BLOOM 256 (Bloom), FIELD_ELEMENTS_PER_BLOB
// 4096 (Blob, 131072 bytes), CELLS_PER_EXT_BLOB 128 (Fulu proofs per blob) and
// DEPOSIT_CONTRACT_TREE_DEPTH 32 (Deposit.proof). KZG inclusion proofs
// (KZG_COMMITMENT_INCLUSION_PROOF_DEPTH) are never built: the beacon node makes the blob
// sidecars of a published block.
type Spec struct {
	name   string
	values map[string]uint64
	dyn    *dynssz.DynSsz // nil: the mainnet shapes, served by the generated code
	dims   sync.Map       // dynssz tag expression -> resolved value (JSON codec)
}

// specKey is one preset value gavel reads.
type specKey struct {
	name    string
	mainnet uint64
	fixed   bool                 // gavel has no other shape for it
	fork    params.ConsensusFork // the first fork whose containers it shapes
}

// specKeys lists every value of the Spec doc comment, in that order.
var specKeys = []specKey{
	{"SYNC_COMMITTEE_SIZE", 512, false, params.ForkAltair},
	{"MAX_WITHDRAWALS_PER_PAYLOAD", MaxWithdrawalsPerPayload, false, params.ForkCapella},
	{"MAX_BLOB_COMMITMENTS_PER_BLOCK", MaxBlobCommitmentsPerBlock, false, params.ForkDeneb},
	{"FIELD_ELEMENTS_PER_EXT_BLOB", FieldElementsPerExtBlob, false, params.ForkFulu},
	{"MAX_COMMITTEES_PER_SLOT", MaxCommitteesPerSlot, false, params.ForkPhase0},
	{"MAX_VALIDATORS_PER_COMMITTEE", MaxValidatorsPerCommittee, false, params.ForkPhase0},
	{"MAX_PROPOSER_SLASHINGS", MaxProposerSlashings, false, params.ForkPhase0},
	{"MAX_ATTESTER_SLASHINGS", MaxAttesterSlashings, false, params.ForkPhase0},
	{"MAX_ATTESTATIONS", MaxAttestations, false, params.ForkPhase0},
	{"MAX_DEPOSITS", MaxDeposits, false, params.ForkPhase0},
	{"MAX_VOLUNTARY_EXITS", MaxVoluntaryExits, false, params.ForkPhase0},
	{"MAX_BLS_TO_EXECUTION_CHANGES", MaxBLSToExecutionChanges, false, params.ForkCapella},
	{"MAX_ATTESTER_SLASHINGS_ELECTRA", MaxAttesterSlashingsElectra, false, params.ForkElectra},
	{"MAX_ATTESTATIONS_ELECTRA", MaxAttestationsElectra, false, params.ForkElectra},
	{"MAX_DEPOSIT_REQUESTS_PER_PAYLOAD", MaxDepositRequests, false, params.ForkElectra},
	{"MAX_WITHDRAWAL_REQUESTS_PER_PAYLOAD", MaxWithdrawalRequests, false, params.ForkElectra},
	{"MAX_CONSOLIDATION_REQUESTS_PER_PAYLOAD", MaxConsolidationRequests, false, params.ForkElectra},
	{"MAX_TRANSACTIONS_PER_PAYLOAD", MaxTransactionsPerPayload, false, params.ForkBellatrix},
	{"MAX_BYTES_PER_TRANSACTION", MaxBytesPerTransaction, false, params.ForkBellatrix},
	{"MAX_EXTRA_DATA_BYTES", MaxExtraDataBytes, false, params.ForkBellatrix},
	{"BYTES_PER_LOGS_BLOOM", BloomLength, true, params.ForkBellatrix},
	{"FIELD_ELEMENTS_PER_BLOB", BlobLength / 32, true, params.ForkDeneb},
	{"CELLS_PER_EXT_BLOB", CellsPerExtBlob, true, params.ForkFulu},
	{"DEPOSIT_CONTRACT_TREE_DEPTH", DepositProofLength - 1, true, params.ForkPhase0},
}

// ErrUnsupportedPreset is returned for preset values gavel cannot handle.
var ErrUnsupportedPreset = errors.New("unsupported consensus preset")

// MainnetSpec is the mainnet preset, the shapes of the generated SSZ code. Sepolia, Holesky,
// Hoodi and most devnets use it.
var MainnetSpec = mustSpec("mainnet", nil)

// MinimalSpec is the consensus-specs minimal preset (presets/minimal), used by local
// devnets (Lodestar's and Prysm's dev modes, Kurtosis with preset minimal).
var MinimalSpec = mustSpec("minimal", map[string]string{
	"SYNC_COMMITTEE_SIZE":                 "32",
	"MAX_WITHDRAWALS_PER_PAYLOAD":         "4",
	"MAX_BLOB_COMMITMENTS_PER_BLOCK":      "32",
	"MAX_COMMITTEES_PER_SLOT":             "4",
	"MAX_DEPOSIT_REQUESTS_PER_PAYLOAD":    "4",
	"MAX_WITHDRAWAL_REQUESTS_PER_PAYLOAD": "2",
})

func mustSpec(name string, values map[string]string) *Spec {
	s, err := NewSpec(name, values, params.LatestConsensusFork)
	if err != nil {
		panic(err)
	}
	return s
}

// SpecFromConfig builds the Spec of a beacon node's /eth/v1/config/spec answer (string
// values keyed by name) for a chain whose newest scheduled fork is last. Values the answer
// lacks are mainnet's (older clients omit the keys of forks they do not know); the name is
// PRESET_BASE, "custom" when absent.
func SpecFromConfig(config map[string]string, last params.ConsensusFork) (*Spec, error) {
	name := config["PRESET_BASE"]
	if name == "" {
		name = "custom"
	}
	return NewSpec(name, config, last)
}

// NewSpec builds a Spec named name from values (decimal strings keyed by spec name, other
// keys ignored) for a chain whose newest scheduled fork is last. Missing values are
// mainnet's, and so are the values of forks after last, whose containers the chain never
// carries (Lodestar 1.5.1's minimal preset still has the early Deneb
// FIELD_ELEMENTS_PER_BLOB of 4). It fails with ErrUnsupportedPreset when a value gavel has
// no other shape for differs from mainnet's, or a value is out of range.
func NewSpec(name string, values map[string]string, last params.ConsensusFork) (*Spec, error) {
	s := &Spec{name: name, values: make(map[string]uint64, len(specKeys))}
	mainnet := true
	var bad []string
	for _, k := range specKeys {
		v := k.mainnet
		if str, ok := values[k.name]; ok && k.fork <= last {
			n, err := strconv.ParseUint(strings.TrimSpace(str), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%w: %s is %q, expected a decimal number", ErrUnsupportedPreset, k.name, str)
			}
			v = n
		}
		switch {
		case k.fixed && v != k.mainnet:
			bad = append(bad, fmt.Sprintf("%s is %d, gavel supports only %d", k.name, v, k.mainnet))
		case v == 0 || v > 1<<40:
			bad = append(bad, fmt.Sprintf("%s is %d, expected 1 to 2^40", k.name, v))
		case k.name == "SYNC_COMMITTEE_SIZE" && v%8 != 0:
			bad = append(bad, fmt.Sprintf("%s is %d, expected a multiple of 8", k.name, v))
		}
		s.values[k.name] = v
		mainnet = mainnet && v == k.mainnet
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("%w: the %s preset: %s", ErrUnsupportedPreset, name, strings.Join(bad, "; "))
	}
	if !mainnet {
		vals := make(map[string]any, len(s.values))
		for k, v := range s.values {
			vals[k] = v
		}
		s.dyn = dynssz.NewDynSsz(vals)
	}
	return s, nil
}

// Name is the preset's name (PRESET_BASE: mainnet, minimal, or custom).
func (s *Spec) Name() string { return s.name }

// IsMainnet reports whether every value is mainnet's: the generated code serves this Spec.
func (s *Spec) IsMainnet() bool { return s.dyn == nil }

// Value returns one of the values listed in the Spec doc comment (0 for other names).
func (s *Spec) Value(name string) uint64 { return s.values[name] }

// String names the preset and lists the values that differ from mainnet's.
func (s *Spec) String() string {
	var diffs []string
	for _, k := range specKeys {
		if v := s.values[k.name]; v != k.mainnet {
			diffs = append(diffs, fmt.Sprintf("%s=%d", k.name, v))
		}
	}
	if len(diffs) == 0 {
		return s.name
	}
	return s.name + " (" + strings.Join(diffs, ", ") + ")"
}

// specOr returns s, or MainnetSpec for nil: a zero-valued fork union decodes and hashes
// with the mainnet shapes.
func specOr(s *Spec) *Spec {
	if s == nil {
		return MainnetSpec
	}
	return s
}

// HashTreeRoot returns c's hash-tree-root under the preset.
func (s *Spec) HashTreeRoot(c Container) ([32]byte, error) {
	if s.dyn == nil {
		return c.HashTreeRoot()
	}
	return s.dyn.HashTreeRoot(c)
}

// MarshalSSZ encodes c under the preset.
func (s *Spec) MarshalSSZ(c Container) ([]byte, error) {
	if s.dyn == nil {
		return c.MarshalSSZ()
	}
	return s.dyn.MarshalSSZ(c)
}

// UnmarshalSSZ decodes data into c (a pointer) under the preset.
func (s *Spec) UnmarshalSSZ(c Container, data []byte) error {
	if s.dyn == nil {
		return c.UnmarshalSSZ(data)
	}
	return s.dyn.UnmarshalSSZ(c, data)
}

// DecodeJSON decodes strict beacon-API JSON (UnmarshalJSONStrict) into v with the
// preset's lengths and limits.
func (s *Spec) DecodeJSON(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("beacon: DecodeJSON needs a non-nil pointer, got %T", v)
	}
	d := jsonDecoder{data: data, spec: s.dynOrNil()}
	return d.decodeTop(rv.Elem(), fieldDims{})
}

// EncodeJSON encodes v as compact beacon-API JSON (MarshalJSONCompact) with the preset's
// lengths and limits.
func (s *Spec) EncodeJSON(v any) ([]byte, error) {
	return marshalJSON(v, s.dynOrNil())
}

// dynOrNil returns s when its shapes differ from mainnet's, else nil: the JSON codec then
// reads only the static tags.
func (s *Spec) dynOrNil() *Spec {
	if s == nil || s.dyn == nil {
		return nil
	}
	return s
}

// resolve evaluates a dynssz tag expression ("SYNC_COMMITTEE_SIZE/8").
func (s *Spec) resolve(expr string) (uint64, bool) {
	if v, ok := s.dims.Load(expr); ok {
		return v.(uint64), true
	}
	ok, v, err := s.dyn.ResolveSpecValue(expr)
	if err != nil || !ok {
		return 0, false
	}
	s.dims.Store(expr, v)
	return v, true
}

// fieldDims returns f's dimensions under the preset.
func (s *Spec) fieldDims(f *jsonField) fieldDims {
	if len(f.dynMax) == 0 && len(f.dynSize) == 0 {
		return f.dims
	}
	d := fieldDims{max: slices.Clone(f.dims.max), size: slices.Clone(f.dims.size), bitlist: f.dims.bitlist}
	for i, e := range f.dynMax {
		if v, ok := s.resolve(e); ok && i < len(d.max) {
			d.max[i] = v
		}
	}
	for i, e := range f.dynSize {
		if v, ok := s.resolve(e); ok && i < len(d.size) && d.size[i] >= 0 {
			d.size[i] = int(v)
		}
	}
	return d
}

// Hashable returns c hashed under the preset (c itself on mainnet): what Sign and Verify
// need for a container whose shape the preset changes.
func (s *Spec) Hashable(c Container) Hashable {
	if s.dyn == nil {
		return c
	}
	return specHashable{s, c}
}

// specHashable hashes a container under a preset other than mainnet.
type specHashable struct {
	spec *Spec
	c    Container
}

// HashTreeRoot implements Hashable.
func (h specHashable) HashTreeRoot() ([32]byte, error) { return h.spec.dyn.HashTreeRoot(h.c) }

// SyncAggregate returns an empty sync aggregate of the preset's size: no bits set, the
// zero signature.
func (s *Spec) SyncAggregate() SyncAggregate {
	return SyncAggregate{SyncCommitteeBits: make([]byte, s.values["SYNC_COMMITTEE_SIZE"]/8)}
}
