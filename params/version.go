package params

// Version is gavel's version, reported by `gavel version` and web3_clientVersion.
const Version = "0.1.0-dev"

// ClientName is the client name in web3_clientVersion.
const ClientName = "gavel"
