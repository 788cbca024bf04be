# gavel's build entry points. cgo stays on: geth's secp256k1 and blst need it.
export CGO_ENABLED = 1

GO       ?= go
GOTEST   ?= $(GO) test
PKGS     := ./...

.PHONY: all gavel test bench lint fuzz clean

all: gavel

## gavel: build the binary to build/bin/gavel
gavel:
	$(GO) build -o build/bin/gavel ./cmd/gavel

## test: the whole test suite (what CI runs)
test:
	$(GOTEST) -timeout 14m $(PKGS)

## bench: every benchmark, with allocations (figures go to docs/benchmarks.md)
bench:
	$(GOTEST) -run '^$$' -bench . -benchmem -timeout 60m $(PKGS)

## lint: formatting and go vet
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

clean:
	rm -rf build/bin
