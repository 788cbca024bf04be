package workload

import (
	"encoding/binary"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/core/vm/program"
	"github.com/ethereum/go-ethereum/crypto"
)

// The workload's contracts are hand-written EVM code: an ERC-20 style token
// and a constant-product pool. They do what their Solidity counterparts do
// on the paths a block exercises (balance checks, storage writes, logs,
// calls between contracts) at a similar gas cost, without a compiler in the
// build. TestContracts pins their behaviour.

// Function selectors of the token.
var (
	// SelTransfer is ERC-20 transfer(address,uint256): moves from the caller.
	SelTransfer = selector("transfer(address,uint256)")
	// SelBalanceOf is ERC-20 balanceOf(address).
	SelBalanceOf = selector("balanceOf(address)")
	// SelPull is pull(uint256): moves from the transaction's origin to the
	// caller. It stands in for approve plus transferFrom, the two steps a
	// router uses to take a swapper's tokens, in one storage write less.
	SelPull = selector("pull(uint256)")
)

// TransferTopic is the ERC-20 Transfer event's topic.
var TransferTopic = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))

// SwapTopic is the pool's Swap(address swapper) event; its data is the
// amount paid out.
var SwapTopic = crypto.Keccak256Hash([]byte("Swap(address,uint256)"))

func selector(sig string) uint32 {
	return binary.BigEndian.Uint32(crypto.Keccak256([]byte(sig))[:4])
}

// asm is program.Program with forward jumps: jumpTo leaves a 2-byte target
// that label fills in.
type asm struct {
	p      *program.Program
	labels map[string]int
	fixups map[int]string
}

func newAsm() *asm { return &asm{p: program.New(), labels: map[string]int{}, fixups: map[int]string{}} }

func (a *asm) op(ops ...vm.OpCode) *asm { a.p.Op(ops...); return a }
func (a *asm) push(v any) *asm          { a.p.Push(v); return a }

// jumpTo pushes label's position (patched in bytes) for a JUMP or JUMPI.
func (a *asm) jumpTo(label string) *asm {
	a.fixups[a.p.Size()] = label
	a.p.Push(0xffff) // PUSH2, whatever the final target
	return a
}

func (a *asm) label(name string) *asm {
	var pc uint64
	a.p, pc = a.p.Jumpdest()
	a.labels[name] = int(pc)
	return a
}

func (a *asm) bytes() []byte {
	code := a.p.Bytes()
	for at, l := range a.fixups {
		binary.BigEndian.PutUint16(code[at+1:], uint16(a.labels[l]))
	}
	return code
}

func selWord(sel uint32) *big.Int { return new(big.Int).Lsh(big.NewInt(int64(sel)), 224) }

// TokenCode is the token's runtime code. A holder's balance is kept in the
// storage slot whose key is the holder's address. transfer and pull revert
// on a short balance and log Transfer(from, to, amount); transfer returns
// true.
func TokenCode() []byte {
	a := newAsm()
	a.push(0).op(vm.CALLDATALOAD).push(0xe0).op(vm.SHR) // sel
	a.op(vm.DUP1).push(SelPull).op(vm.EQ).jumpTo("pull").op(vm.JUMPI)
	a.op(vm.DUP1).push(SelBalanceOf).op(vm.EQ).jumpTo("bal").op(vm.JUMPI)
	a.push(SelTransfer).op(vm.EQ).jumpTo("transfer").op(vm.JUMPI)
	a.p.Push0().Push0().Op(vm.REVERT)

	a.label("transfer")
	a.push(0x24).op(vm.CALLDATALOAD).push(0x04).op(vm.CALLDATALOAD).op(vm.CALLER) // from to amt
	a.jumpTo("move").op(vm.JUMP)

	a.label("pull")                                                      // sel
	a.op(vm.POP).push(0x04).op(vm.CALLDATALOAD).op(vm.CALLER, vm.ORIGIN) // from to amt
	a.jumpTo("move").op(vm.JUMP)

	a.label("bal") // sel
	a.op(vm.POP).push(0x04).op(vm.CALLDATALOAD, vm.SLOAD).push(0).op(vm.MSTORE)
	a.p.Return(0, 32)

	a.label("move")                                              // from to amt
	a.op(vm.DUP1, vm.SLOAD)                                      // fb from to amt
	a.op(vm.DUP1, vm.DUP5, vm.GT).jumpTo("fail").op(vm.JUMPI)    // amt > fb: revert
	a.op(vm.DUP4, vm.SWAP1, vm.SUB)                              // fb-amt from to amt
	a.op(vm.DUP2, vm.SSTORE)                                     // from to amt
	a.op(vm.DUP2, vm.SLOAD, vm.DUP4, vm.ADD, vm.DUP3, vm.SSTORE) // from to amt
	a.op(vm.DUP3).push(0).op(vm.MSTORE)
	a.push(TransferTopic.Bytes()).push(32).push(0).op(vm.LOG3) // amt
	a.op(vm.POP).push(1).push(0).op(vm.MSTORE)
	a.p.Return(0, 32)

	a.label("fail")
	a.p.Push0().Push0().Op(vm.REVERT)
	return a.bytes()
}

// Pool storage: the reserves of token0 and token1, then the two tokens.
const (
	slotReserve0 = 0
	slotReserve1 = 1
	slotToken0   = 2
	slotToken1   = 3
)

// PoolCode is a constant-product pool's runtime code (Uniswap v2's
// arithmetic with its 0.3% fee). Its calldata is three words: direction (1:
// token0 in, 0: token1 in), amount in, minimum out. It computes
// out = in*997*rOut / (rIn*1000 + in*997), reverts if that is zero or
// below the minimum, pulls the input token from the transaction's origin,
// sends the output token to it, stores the new reserves, logs
// Swap(origin; out) and returns out.
func PoolCode() []byte {
	a := newAsm()
	a.push(0).op(vm.CALLDATALOAD)                         // z
	a.op(vm.DUP1).push(1).op(vm.SUB)                      // sIn=1-z sOut=z
	a.op(vm.DUP1, vm.SLOAD)                               // rIn sIn sOut
	a.op(vm.DUP3, vm.SLOAD)                               // rOut rIn sIn sOut
	a.push(0x20).op(vm.CALLDATALOAD).push(997).op(vm.MUL) // a997 rOut rIn sIn sOut
	a.op(vm.DUP1, vm.DUP3, vm.MUL)                        // num a997 rOut rIn
	a.op(vm.DUP4).push(1000).op(vm.MUL, vm.DUP3, vm.ADD)  // den num a997 rOut rIn
	a.op(vm.SWAP1, vm.DIV)                                // out a997 rOut rIn sIn sOut
	a.op(vm.SWAP1, vm.POP)                                // out rOut rIn sIn sOut
	a.op(vm.DUP1, vm.ISZERO).jumpTo("fail").op(vm.JUMPI)
	a.push(0x40).op(vm.CALLDATALOAD, vm.DUP2, vm.LT).jumpTo("fail").op(vm.JUMPI)
	// tokenIn.pull(amountIn)
	a.push(selWord(SelPull)).push(0).op(vm.MSTORE)
	a.push(0x20).op(vm.CALLDATALOAD).push(4).op(vm.MSTORE)
	a.push(0x20).push(0).push(0x24).push(0).push(0) // value argsOff argsLen retOff retLen out rOut rIn sIn sOut
	a.op(vm.DUP9).push(slotToken0).op(vm.ADD, vm.SLOAD, vm.GAS, vm.CALL, vm.ISZERO).jumpTo("fail").op(vm.JUMPI)
	// tokenOut.transfer(origin, out)
	a.push(selWord(SelTransfer)).push(0).op(vm.MSTORE)
	a.op(vm.ORIGIN).push(4).op(vm.MSTORE)
	a.op(vm.DUP1).push(0x24).op(vm.MSTORE)
	a.push(0x20).push(0).push(0x44).push(0).push(0)
	a.op(vm.DUP10).push(slotToken0).op(vm.ADD, vm.SLOAD, vm.GAS, vm.CALL, vm.ISZERO).jumpTo("fail").op(vm.JUMPI)
	// reserves
	a.op(vm.DUP1, vm.DUP3, vm.SUB, vm.DUP6, vm.SSTORE)                    // out rOut rIn sIn sOut
	a.push(0x20).op(vm.CALLDATALOAD, vm.DUP4, vm.ADD, vm.DUP5, vm.SSTORE) // out ...
	a.op(vm.DUP1).push(0).op(vm.MSTORE, vm.ORIGIN).push(SwapTopic.Bytes()).push(0x20).push(0).op(vm.LOG2)
	a.p.Return(0, 32)

	a.label("fail")
	a.p.Push0().Push0().Op(vm.REVERT)
	return a.bytes()
}

// TransferData is the calldata of transfer(to, amount).
func TransferData(to common.Address, amount *big.Int) []byte {
	d := make([]byte, 4, 68)
	binary.BigEndian.PutUint32(d, SelTransfer)
	d = append(d, common.LeftPadBytes(to[:], 32)...)
	return append(d, common.LeftPadBytes(amount.Bytes(), 32)...)
}

// BalanceOfData is the calldata of balanceOf(holder).
func BalanceOfData(holder common.Address) []byte {
	d := make([]byte, 4, 36)
	binary.BigEndian.PutUint32(d, SelBalanceOf)
	return append(d, common.LeftPadBytes(holder[:], 32)...)
}

// SwapData is a pool's calldata: zeroForOne pays token0 in.
func SwapData(zeroForOne bool, in, minOut *big.Int) []byte {
	d := make([]byte, 96)
	if zeroForOne {
		d[31] = 1
	}
	in.FillBytes(d[32:64])
	minOut.FillBytes(d[64:96])
	return d
}

// SwapOut is the pool's output for in against reserves rIn, rOut.
func SwapOut(in, rIn, rOut *big.Int) *big.Int {
	a := new(big.Int).Mul(in, big.NewInt(997))
	num := new(big.Int).Mul(a, rOut)
	den := new(big.Int).Add(new(big.Int).Mul(rIn, big.NewInt(1000)), a)
	return num.Div(num, den)
}
