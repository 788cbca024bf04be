package beacon

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"reflect"
)

// registrationSize is the SSZ size of a SignedValidatorRegistration.
const registrationSize = 180

// MaxRegistrationsPerRequest bounds how many registrations one request may carry. The SSZ
// limit (VALIDATOR_REGISTRY_LIMIT, 2^40) is not a useful bound; callers cap the body size,
// and this cap keeps a decoded request in proportion to it.
const MaxRegistrationsPerRequest = 1 << 20

// registrationList is the JSON shape of POST /eth/v1/builder/validators: a bare array.
type registrationList struct {
	Registrations []SignedValidatorRegistration `ssz-max:"1048576"`
}

// DecodeRegistrationsJSON decodes the JSON body of POST /eth/v1/builder/validators, a
// bare array of SignedValidatorRegistration.
func DecodeRegistrationsJSON(data []byte) ([]SignedValidatorRegistration, error) {
	var l registrationList
	d := jsonDecoder{data: data}
	f := infoOf(reflect.TypeFor[registrationList]()).fields[0]
	if err := d.decodeTop(reflect.ValueOf(&l.Registrations).Elem(), f.dims); err != nil {
		return nil, err
	}
	return l.Registrations, nil
}

// EncodeRegistrationsJSON encodes registrations as a bare JSON array.
func EncodeRegistrationsJSON(regs []SignedValidatorRegistration) ([]byte, error) {
	f := infoOf(reflect.TypeFor[registrationList]()).fields[0]
	return appendJSON(make([]byte, 0, 512*len(regs)+2), reflect.ValueOf(regs), f.dims, nil)
}

// registrationsIn is how many registrations an SSZ list of them holds: its
// elements are fixed size, so the body's length says, and it must be a
// multiple of one within MaxRegistrationsPerRequest.
func registrationsIn(data []byte) (int, error) {
	if len(data)%registrationSize != 0 {
		return 0, fmt.Errorf("%w: %d bytes is not a multiple of %d (one registration)", ErrInvalidSSZ, len(data), registrationSize)
	}
	n := len(data) / registrationSize
	if n > MaxRegistrationsPerRequest {
		return 0, fmt.Errorf("%w: %d registrations, limit %d", ErrListTooLong, n, MaxRegistrationsPerRequest)
	}
	return n, nil
}

// DecodeRegistrationsSSZ decodes the SSZ body of POST /eth/v1/builder/validators:
// List[SignedValidatorRegistrationV1, VALIDATOR_REGISTRY_LIMIT], whose elements are fixed
// size and so simply concatenated.
func DecodeRegistrationsSSZ(data []byte) ([]SignedValidatorRegistration, error) {
	n, err := registrationsIn(data)
	if err != nil {
		return nil, err
	}
	regs := make([]SignedValidatorRegistration, n)
	for i := range regs {
		if err := regs[i].UnmarshalSSZ(data[i*registrationSize : (i+1)*registrationSize]); err != nil {
			return nil, sszError(fmt.Sprintf("registration %d", i), registrationSize, err)
		}
	}
	return regs, nil
}

// DecodeRegistrationsSSZUnique decodes the SSZ body of POST
// /eth/v1/builder/validators like DecodeRegistrationsSSZ, but leaves out each
// entry that is byte for byte a copy of an earlier one (processing a copy
// again changes nothing), and also returns how many entries the body holds.
// What it allocates grows with the distinct entries, not with the body: a
// request of 90,000 copies of one registration (16.2 MB) decodes into one
// entry, not into 16 MB of garbage for the collector (whose mark assists
// then slowed every allocating goroutine, docs/security.md).
func DecodeRegistrationsSSZUnique(data []byte) (regs []SignedValidatorRegistration, total int, err error) {
	if total, err = registrationsIn(data); err != nil {
		return nil, 0, err
	}
	seed := maphash.MakeSeed()
	first := make(map[uint64]int32, min(total, 1024)) // entry hash -> index of its first entry
	regs = make([]SignedValidatorRegistration, 0, min(total, 1024))
	for i := 0; i < total; i++ {
		entry := data[i*registrationSize : (i+1)*registrationSize]
		h := maphash.Bytes(seed, entry)
		if j, ok := first[h]; ok && bytes.Equal(entry, data[int(j)*registrationSize:(int(j)+1)*registrationSize]) {
			continue
		} else if !ok {
			first[h] = int32(i)
		}
		var r SignedValidatorRegistration
		if err := r.UnmarshalSSZ(entry); err != nil {
			return nil, 0, sszError(fmt.Sprintf("registration %d", i), registrationSize, err)
		}
		regs = append(regs, r)
	}
	return regs, total, nil
}

// EncodeRegistrationsSSZ encodes registrations as the SSZ list body.
func EncodeRegistrationsSSZ(regs []SignedValidatorRegistration) ([]byte, error) {
	out := make([]byte, 0, registrationSize*len(regs))
	for i := range regs {
		var err error
		if out, err = regs[i].MarshalSSZTo(out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// VerifySignature checks the validator's signature under domain (the network's
// BuilderDomain).
func (r *SignedValidatorRegistration) VerifySignature(domain Domain) error {
	return Verify(r.Message.Pubkey, &r.Message, domain, r.Signature)
}

// VerifyRegistrations checks the signatures of many registrations at once with
// VerifyBatch. On failure the error is a *BatchError whose Index is the first bad
// registration.
func VerifyRegistrations(domain Domain, regs []SignedValidatorRegistration) error {
	sets := make([]SignatureSet, len(regs))
	for i := range regs {
		root, err := SigningRoot(&regs[i].Message, domain)
		if err != nil {
			return &BatchError{Index: i, Err: err}
		}
		sets[i] = SignatureSet{Pubkey: regs[i].Message.Pubkey, Root: root, Signature: regs[i].Signature}
	}
	return VerifyBatch(sets)
}
