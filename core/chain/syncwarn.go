package chain

import (
	"sync/atomic"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/log"
	gparams "github.com/ethereum/go-ethereum/params"
)

// stuckSyncAnswers is how many forkchoiceUpdated calls in a row must be
// answered SYNCING before the node says why it cannot follow: a node that
// just started, or that peers are about to serve, answers SYNCING a few
// times and then catches up.
const stuckSyncAnswers = 3

// snapSyncWatch warns, once per process, when a consensus client keeps
// asking a node to sync that cannot: the node is in snap sync (geth's
// default) on a network of its own genesis and has no peer. In snap sync
// geth imports no block the consensus client sends after block 1 (the
// sync must fill the database itself) and asks peers for the head
// instead; on a single-node devnet there are none, so the node answers
// SYNCING every slot forever and logs only "Forkchoice requested sync to
// new head" at INFO. Public networks are left out: there, no peers is a
// connectivity problem, and full sync is not the cure.
type snapSyncWatch struct {
	backend *eth.Ethereum
	peers   func() int // the p2p server's peer count

	syncing atomic.Int64 // SYNCING answers in a row
	warned  atomic.Bool
}

// forkchoice looks at one forkchoiceUpdated answer.
func (w *snapSyncWatch) forkchoice(head common.Hash, res engine.ForkChoiceResponse, err error) {
	if w == nil || w.warned.Load() {
		return
	}
	if err != nil || res.PayloadStatus.Status != engine.SYNCING {
		w.syncing.Store(0)
		return
	}
	n := w.syncing.Add(1)
	if n < stuckSyncAnswers || w.backend.Downloader().ConfigSyncMode() != ethconfig.SnapSync || publicGenesis(w.backend.BlockChain().Genesis().Hash()) {
		return
	}
	peers := w.peers()
	if peers != 0 || w.warned.Swap(true) {
		return
	}
	cur := w.backend.BlockChain().CurrentBlock()
	log.Warn("The consensus client keeps asking this node to sync to a head it does not have, and it cannot: it is in snap sync with no peers, "+
		"so it imports none of the consensus client's blocks and waits for peers to serve them. "+
		"On a network of one execution client (a devnet of your own genesis), restart gavel with --syncmode full; "+
		"on a network with other nodes, connect to them (--bootnodes)",
		"head", head, "local", cur.Number, "syncing", n, "peers", peers, "syncmode", "snap", "chainid", w.backend.BlockChain().Config().ChainID)
}

// publicGenesis reports whether hash is the genesis of a network geth
// ships (mainnet, Sepolia, Hoodi).
func publicGenesis(hash common.Hash) bool {
	return hash == gparams.MainnetGenesisHash || hash == gparams.SepoliaGenesisHash || hash == gparams.HoodiGenesisHash
}
