# ssz regenerates the SSZ code (fastssz sszgen) and the JSON method stubs of core/beacon.
BEACON_TYPES := builder_types.go payload_types.go block_types.go
BEACON_JSON_SKIP := SigningData,ForkData,Transactions,Withdrawals

.PHONY: ssz
ssz:
	cd core/beacon && go run github.com/ferranbt/fastssz/sszgen --path . \
		--objs $$(grep -h '^type [A-Z][A-Za-z0-9]* struct' $(BEACON_TYPES) | awk '{print $$2}' | grep -v '^BidTraceV2' | paste -sd, -) \
		--output ssz_generated.go
	cd core/beacon && go run ./internal/genjson json_methods.go $(BEACON_JSON_SKIP) $(BEACON_TYPES)
