// Code generated via abigen V2 - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package testbindings

import (
	"bytes"
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Reference imports to suppress errors if they are not otherwise used.
var (
	_ = bytes.Equal
	_ = errors.New
	_ = big.NewInt
	_ = common.Big1
	_ = types.BloomLookup
	_ = abi.ConvertType
)

// ScriptedBidderMetaData contains all meta data concerning the ScriptedBidder contract.
var ScriptedBidderMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[],\"name\":\"MODE_BAD_OFFSET\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MODE_BIDS\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MODE_BURN_GAS\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MODE_OVERSIZED\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MODE_REVERT\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MODE_SHORT\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"contractWETH\",\"name\":\"weth\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"}],\"name\":\"fund\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"getBid\",\"outputs\":[{\"internalType\":\"uint256[]\",\"name\":\"\",\"type\":\"uint256[]\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"mode\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"internalType\":\"uint256[]\",\"name\":\"packedBids\",\"type\":\"uint256[]\"}],\"name\":\"setBids\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"newMode\",\"type\":\"uint256\"}],\"name\":\"setMode\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "170d55c9b4dad1db9478ef2c9e12b846bd",
	Bin: "0x608080604052346015576105e0908161001a8239f35b5f80fdfe60806040526004361015610011575f80fd5b5f3560e01c806302d4c0f9146100c4578063295a5212146100bf5780633c889e6f146100ba578063540ee911146100b55780636bc23d42146100b0578063a4a85b22146100ab578063b3430fc8146100a6578063c5014fcb146100a1578063d72dd3b41461009c578063ec206599146100975763faa8e8d614610092575f80fd5b61034f565b610334565b61031b565b610300565b6102e6565b6101fa565b6101ce565b6101b3565b610153565b610136565b346101285760403660031901126101285760243560043567ffffffffffffffff821161012857366023830112156101285781600401359067ffffffffffffffff8211610128573660248360051b8501011161012857602461012693019061037e565b005b5f80fd5b5f91031261012857565b34610128575f366003190112610128576020600154604051908152f35b346101285760203660031901126101285761016f6004356104ea565b6040518091602082016020835281518091526020604084019201905f5b81811061019a575050500390f35b825184528594506020938401939092019160010161018c565b34610128575f36600319011261012857602060405160018152f35b34610128575f36600319011261012857602060405160038152f35b6001600160a01b0381160361012857565b604036600319011261012857600435610212816101e9565b6024359061021f826101e9565b6001600160a01b0316803b1561012857604051630d0e30db60e41b8152905f8260048134855af19081156102c7575f9360209361028f936102cc575b5060405163095ea7b360e01b81526001600160a01b0390911660048201525f19602482015293849283919082906044820190565b03925af180156102c75761029f57005b6101269060203d6020116102c0575b6102b88183610434565b8101906105c8565b503d6102ae565b6105bd565b806102da876102e093610434565b8061012c565b5f61025b565b34610128575f3660031901126101285760206040515f8152f35b34610128575f36600319011261012857602060405160058152f35b3461012857602036600319011261012857600435600155005b34610128575f36600319011261012857602060405160048152f35b34610128575f36600319011261012857602060405160028152f35b634e487b7160e01b5f52604160045260245ffd5b5f525f60205260405f209067ffffffffffffffff831161040d5768010000000000000000831161040d5781548383558084106103e7575b506103c490915f5260205f2090565b5f5b8381106103d35750505050565b6001906020843594019381840155016103c6565b825f528360205f2091820191015b81811061040257506103b5565b5f81556001016103f5565b61036a565b5f1981146104205760010190565b634e487b7160e01b5f52601160045260245ffd5b90601f8019910116810190811067ffffffffffffffff82111761040d57604052565b67ffffffffffffffff811161040d5760051b60200190565b9061047882610456565b6104856040519182610434565b8281528092610496601f1991610456565b0190602036910137565b90604051918281549182825260208201905f5260205f20925f5b8181106104d15750506104cf92500383610434565b565b84548352600194850194879450602090930192016104ba565b600154600181146105865760028114610561576003811461054f576004811461053e576005146105305761052861052d915f525f60205260405f2090565b6104a0565b90565b60205f52600360205260605ff35b60205f52611388602052620271405ff35b60405f5260016020525f60405260605ff35b50505f5b6103e85a111561057d5761057890610412565b610565565b61052d9061046e565b60405162461bcd60e51b815260206004820152600f60248201526e1cd8dc9a5c1d1959081c995d995c9d608a1b6044820152606490fd5b6040513d5f823e3d90fd5b9081602091031261012857518015158103610128579056",
}

// ScriptedBidder is an auto generated Go binding around an Ethereum contract.
type ScriptedBidder struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *ScriptedBidder) GetABI() abi.ABI {
	return c.abi
}

// NewScriptedBidder creates a new instance of ScriptedBidder.
func NewScriptedBidder() *ScriptedBidder {
	parsed, err := ScriptedBidderMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &ScriptedBidder{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *ScriptedBidder) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackMODEBADOFFSET is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6bc23d42.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MODE_BAD_OFFSET() view returns(uint256)
func (scriptedBidder *ScriptedBidder) PackMODEBADOFFSET() []byte {
	enc, err := scriptedBidder.abi.Pack("MODE_BAD_OFFSET")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMODEBADOFFSET is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6bc23d42.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MODE_BAD_OFFSET() view returns(uint256)
func (scriptedBidder *ScriptedBidder) TryPackMODEBADOFFSET() ([]byte, error) {
	return scriptedBidder.abi.Pack("MODE_BAD_OFFSET")
}

// UnpackMODEBADOFFSET is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x6bc23d42.
//
// Solidity: function MODE_BAD_OFFSET() view returns(uint256)
func (scriptedBidder *ScriptedBidder) UnpackMODEBADOFFSET(data []byte) (*big.Int, error) {
	out, err := scriptedBidder.abi.Unpack("MODE_BAD_OFFSET", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackMODEBIDS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb3430fc8.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MODE_BIDS() view returns(uint256)
func (scriptedBidder *ScriptedBidder) PackMODEBIDS() []byte {
	enc, err := scriptedBidder.abi.Pack("MODE_BIDS")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMODEBIDS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb3430fc8.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MODE_BIDS() view returns(uint256)
func (scriptedBidder *ScriptedBidder) TryPackMODEBIDS() ([]byte, error) {
	return scriptedBidder.abi.Pack("MODE_BIDS")
}

// UnpackMODEBIDS is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb3430fc8.
//
// Solidity: function MODE_BIDS() view returns(uint256)
func (scriptedBidder *ScriptedBidder) UnpackMODEBIDS(data []byte) (*big.Int, error) {
	out, err := scriptedBidder.abi.Unpack("MODE_BIDS", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackMODEBURNGAS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfaa8e8d6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MODE_BURN_GAS() view returns(uint256)
func (scriptedBidder *ScriptedBidder) PackMODEBURNGAS() []byte {
	enc, err := scriptedBidder.abi.Pack("MODE_BURN_GAS")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMODEBURNGAS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfaa8e8d6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MODE_BURN_GAS() view returns(uint256)
func (scriptedBidder *ScriptedBidder) TryPackMODEBURNGAS() ([]byte, error) {
	return scriptedBidder.abi.Pack("MODE_BURN_GAS")
}

// UnpackMODEBURNGAS is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xfaa8e8d6.
//
// Solidity: function MODE_BURN_GAS() view returns(uint256)
func (scriptedBidder *ScriptedBidder) UnpackMODEBURNGAS(data []byte) (*big.Int, error) {
	out, err := scriptedBidder.abi.Unpack("MODE_BURN_GAS", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackMODEOVERSIZED is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xec206599.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MODE_OVERSIZED() view returns(uint256)
func (scriptedBidder *ScriptedBidder) PackMODEOVERSIZED() []byte {
	enc, err := scriptedBidder.abi.Pack("MODE_OVERSIZED")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMODEOVERSIZED is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xec206599.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MODE_OVERSIZED() view returns(uint256)
func (scriptedBidder *ScriptedBidder) TryPackMODEOVERSIZED() ([]byte, error) {
	return scriptedBidder.abi.Pack("MODE_OVERSIZED")
}

// UnpackMODEOVERSIZED is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xec206599.
//
// Solidity: function MODE_OVERSIZED() view returns(uint256)
func (scriptedBidder *ScriptedBidder) UnpackMODEOVERSIZED(data []byte) (*big.Int, error) {
	out, err := scriptedBidder.abi.Unpack("MODE_OVERSIZED", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackMODEREVERT is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x540ee911.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MODE_REVERT() view returns(uint256)
func (scriptedBidder *ScriptedBidder) PackMODEREVERT() []byte {
	enc, err := scriptedBidder.abi.Pack("MODE_REVERT")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMODEREVERT is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x540ee911.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MODE_REVERT() view returns(uint256)
func (scriptedBidder *ScriptedBidder) TryPackMODEREVERT() ([]byte, error) {
	return scriptedBidder.abi.Pack("MODE_REVERT")
}

// UnpackMODEREVERT is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x540ee911.
//
// Solidity: function MODE_REVERT() view returns(uint256)
func (scriptedBidder *ScriptedBidder) UnpackMODEREVERT(data []byte) (*big.Int, error) {
	out, err := scriptedBidder.abi.Unpack("MODE_REVERT", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackMODESHORT is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc5014fcb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MODE_SHORT() view returns(uint256)
func (scriptedBidder *ScriptedBidder) PackMODESHORT() []byte {
	enc, err := scriptedBidder.abi.Pack("MODE_SHORT")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMODESHORT is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc5014fcb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MODE_SHORT() view returns(uint256)
func (scriptedBidder *ScriptedBidder) TryPackMODESHORT() ([]byte, error) {
	return scriptedBidder.abi.Pack("MODE_SHORT")
}

// UnpackMODESHORT is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xc5014fcb.
//
// Solidity: function MODE_SHORT() view returns(uint256)
func (scriptedBidder *ScriptedBidder) UnpackMODESHORT(data []byte) (*big.Int, error) {
	out, err := scriptedBidder.abi.Unpack("MODE_SHORT", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackFund is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa4a85b22.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function fund(address weth, address spender) payable returns()
func (scriptedBidder *ScriptedBidder) PackFund(weth common.Address, spender common.Address) []byte {
	enc, err := scriptedBidder.abi.Pack("fund", weth, spender)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFund is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa4a85b22.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function fund(address weth, address spender) payable returns()
func (scriptedBidder *ScriptedBidder) TryPackFund(weth common.Address, spender common.Address) ([]byte, error) {
	return scriptedBidder.abi.Pack("fund", weth, spender)
}

// PackGetBid is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3c889e6f.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getBid(uint256 slot) view returns(uint256[])
func (scriptedBidder *ScriptedBidder) PackGetBid(slot *big.Int) []byte {
	enc, err := scriptedBidder.abi.Pack("getBid", slot)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetBid is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3c889e6f.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getBid(uint256 slot) view returns(uint256[])
func (scriptedBidder *ScriptedBidder) TryPackGetBid(slot *big.Int) ([]byte, error) {
	return scriptedBidder.abi.Pack("getBid", slot)
}

// UnpackGetBid is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3c889e6f.
//
// Solidity: function getBid(uint256 slot) view returns(uint256[])
func (scriptedBidder *ScriptedBidder) UnpackGetBid(data []byte) ([]*big.Int, error) {
	out, err := scriptedBidder.abi.Unpack("getBid", data)
	if err != nil {
		return *new([]*big.Int), err
	}
	out0 := *abi.ConvertType(out[0], new([]*big.Int)).(*[]*big.Int)
	return out0, nil
}

// PackMode is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x295a5212.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function mode() view returns(uint256)
func (scriptedBidder *ScriptedBidder) PackMode() []byte {
	enc, err := scriptedBidder.abi.Pack("mode")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMode is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x295a5212.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function mode() view returns(uint256)
func (scriptedBidder *ScriptedBidder) TryPackMode() ([]byte, error) {
	return scriptedBidder.abi.Pack("mode")
}

// UnpackMode is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x295a5212.
//
// Solidity: function mode() view returns(uint256)
func (scriptedBidder *ScriptedBidder) UnpackMode(data []byte) (*big.Int, error) {
	out, err := scriptedBidder.abi.Unpack("mode", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackSetBids is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x02d4c0f9.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setBids(uint256 slot, uint256[] packedBids) returns()
func (scriptedBidder *ScriptedBidder) PackSetBids(slot *big.Int, packedBids []*big.Int) []byte {
	enc, err := scriptedBidder.abi.Pack("setBids", slot, packedBids)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetBids is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x02d4c0f9.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setBids(uint256 slot, uint256[] packedBids) returns()
func (scriptedBidder *ScriptedBidder) TryPackSetBids(slot *big.Int, packedBids []*big.Int) ([]byte, error) {
	return scriptedBidder.abi.Pack("setBids", slot, packedBids)
}

// PackSetMode is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd72dd3b4.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setMode(uint256 newMode) returns()
func (scriptedBidder *ScriptedBidder) PackSetMode(newMode *big.Int) []byte {
	enc, err := scriptedBidder.abi.Pack("setMode", newMode)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetMode is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd72dd3b4.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setMode(uint256 newMode) returns()
func (scriptedBidder *ScriptedBidder) TryPackSetMode(newMode *big.Int) ([]byte, error) {
	return scriptedBidder.abi.Pack("setMode", newMode)
}
