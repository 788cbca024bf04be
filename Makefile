# gavel's build entry points. cgo stays on: geth's secp256k1 and blst need it.
export CGO_ENABLED = 1

GO       ?= go
GOTEST   ?= $(GO) test
PKGS     := ./...

.PHONY: all gavel test bench lint fuzz clean ssz interop

all: gavel

## gavel: build the binary to build/bin/gavel
gavel:
	$(GO) build -o build/bin/gavel ./cmd/gavel

## test: the whole test suite (what CI runs). The PostgreSQL tests need a
## server: eval "$$(build/pg/start.sh)" first (.ci/run does); without one
## they are skipped and this says so.
test:
	@if [ -z "$$GAVEL_TEST_POSTGRES" ]; then \
		echo 'NOTE: GAVEL_TEST_POSTGRES is not set: the PostgreSQL tests (store backends, relay instances sharing a database) are SKIPPED.'; \
		echo '      To run them: eval "$$(build/pg/start.sh)"; make test; build/pg/stop.sh   (or run .ci/run)'; \
	fi
	$(GOTEST) -timeout 14m $(PKGS)
	$(GOTEST) -race -count=1 -timeout 5m -run '^TestBetaMergeOrderRandomized$$' ./eth/relay

## bench: every benchmark, with allocations (figures go to docs/benchmarks*.md)
bench:
	$(GOTEST) -run '^$$' -bench . -benchmem -timeout 60m $(PKGS)

## interop: gavel (EL + relay + builder) with Lodestar 1.5.1 from npm on a local devnet
## (Lodestar is installed once into build/interop/.cache); prints the figures
interop:
	build/interop/run.sh

## lint: formatting and go vet
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

clean:
	rm -rf build/bin

## ssz: regenerate core/beacon's SSZ code (fastssz sszgen) and JSON method stubs
BEACON_TYPES := builder_types.go payload_types.go block_types.go
BEACON_JSON_SKIP := SigningData,ForkData,Transactions,Withdrawals
ssz:
	cd core/beacon && $(GO) run github.com/ferranbt/fastssz/sszgen --path . \
		--objs $$(grep -h '^type [A-Z][A-Za-z0-9]* struct' $(BEACON_TYPES) | awk '{print $$2}' | grep -v '^BidTraceV2' | paste -sd, -) \
		--output ssz_generated.go
	# fastssz v0.1.4 does not bound a list's length by its input; route it through ours.
	cd core/beacon && sed -i -e 's/ssz\.DecodeDynamicLength(/decodeDynamicLength(/g' \
		-e '1a // Patched by make ssz: list lengths are checked by decodeDynamicLength, transactions and blobs alias the input (aliasBlobs in hex.go, package doc).' ssz_generated.go
	# Transactions and blobs alias the input instead of being copied (package doc of core/beacon).
	cd core/beacon && perl -0pi -e 's/(\w+)\.(\w+) = make\(\[\]Blob, num\)\n\s*for ii := 0; ii < num; ii\+\+ \{\n\s*copy\(\1\.\2\[ii\]\[:\], buf\[ii\*131072:\(ii\+1\)\*131072\]\)\n\s*\}/$$1.$$2 = aliasBlobs(buf, num)/g;' \
		-e 's/if cap\((\w+\.\w+\[indx\])\) == 0 \{\n\s*\1 = make\(\[\]byte, 0, len\(buf\)\)\n\s*\}\n\s*\1 = append\(\1, buf\.\.\.\)/$$1 = buf[:len(buf):len(buf)] \/\/ aliases the input (package doc)/g' ssz_generated.go
	cd core/beacon && $(GO) run ./internal/genjson json_methods.go $(BEACON_JSON_SKIP) $(BEACON_TYPES)

ABIGEN := $(GO) run github.com/ethereum/go-ethereum/cmd/abigen

.PHONY: contracts
## contracts: compile contracts/src with the pinned npm solc (installed under contracts/node_modules),
## write contracts/artifacts and regenerate the Go bindings. Needs Node; nothing else does.
contracts:
	cd contracts && npm ci --no-audit --no-fund --loglevel=error
	cd contracts && node compile.js
	$(ABIGEN) --v2 --combined-json contracts/artifacts/combined.json --pkg bindings --out contracts/bindings/bindings.go
	$(ABIGEN) --v2 --combined-json contracts/artifacts/test/combined.json --pkg testbindings --out contracts/bindings/testbindings/testbindings.go

.PHONY: hostile
## hostile: run the attacks of issues 14 and 25 (internal/hostile) against a fresh `gavel --dev` and print the
## figures (peak RSS, CPU seconds, honest latencies, missed slots); loopback only, about a minute per
## attack (11 attacks; ATTACKS=name runs one, ATTACKS=floods the seven floods of issue 25)
hostile: gavel
	./scripts/hostile.sh
