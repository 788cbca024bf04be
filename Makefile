ABIGEN := go run github.com/ethereum/go-ethereum/cmd/abigen

.PHONY: contracts
# contracts: compile contracts/src with the pinned npm solc (installed under contracts/node_modules),
# write contracts/artifacts and regenerate the Go bindings. Needs Node; nothing else does.
contracts:
	cd contracts && npm ci --no-audit --no-fund --loglevel=error
	cd contracts && node compile.js
	$(ABIGEN) --v2 --combined-json contracts/artifacts/combined.json --pkg bindings --out contracts/bindings/bindings.go
	$(ABIGEN) --v2 --combined-json contracts/artifacts/test/combined.json --pkg testbindings --out contracts/bindings/testbindings/testbindings.go
