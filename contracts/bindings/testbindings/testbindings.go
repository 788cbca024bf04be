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
	ABI: "[{\"inputs\":[],\"name\":\"MODE_BAD_OFFSET\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MODE_BIDS\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MODE_BURN_GAS\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MODE_OVERSIZED\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MODE_RAW\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MODE_REVERT\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MODE_SHORT\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"contractWETH\",\"name\":\"weth\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"}],\"name\":\"fund\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"getBid\",\"outputs\":[{\"internalType\":\"uint256[]\",\"name\":\"\",\"type\":\"uint256[]\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"mode\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"internalType\":\"uint256[]\",\"name\":\"packedBids\",\"type\":\"uint256[]\"}],\"name\":\"setBids\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"newMode\",\"type\":\"uint256\"}],\"name\":\"setMode\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes\",\"name\":\"answer\",\"type\":\"bytes\"}],\"name\":\"setRaw\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "170d55c9b4dad1db9478ef2c9e12b846bd",
	Bin: "0x60808060405234601557610897908161001a8239f35b5f80fdfe60806040526004361015610011575f80fd5b5f3560e01c806302d4c0f9146100e4578063295a5212146100df5780633c889e6f146100da578063540ee911146100d55780636bc23d42146100d057806390dd9beb146100cb578063a4a85b22146100c6578063b3430fc8146100c1578063c5014fcb146100bc578063d1d4f145146100b7578063d72dd3b4146100b2578063ec206599146100ad5763faa8e8d6146100a8575f80fd5b6104be565b6104a3565b61048a565b610356565b61033b565b610321565b610235565b610209565b6101ee565b6101d3565b610173565b610156565b346101485760403660031901126101485760243560043567ffffffffffffffff821161014857366023830112156101485781600401359067ffffffffffffffff8211610148573660248360051b85010111610148576024610146930190610503565b005b5f80fd5b5f91031261014857565b34610148575f366003190112610148576020600154604051908152f35b346101485760203660031901126101485761018f600435610746565b6040518091602082016020835281518091526020604084019201905f5b8181106101ba575050500390f35b82518452859450602093840193909201916001016101ac565b34610148575f36600319011261014857602060405160018152f35b34610148575f36600319011261014857602060405160038152f35b34610148575f36600319011261014857602060405160068152f35b6001600160a01b0381160361014857565b60403660031901126101485760043561024d81610224565b6024359061025a82610224565b6001600160a01b0316803b1561014857604051630d0e30db60e41b8152905f8260048134855af1908115610302575f936020936102ca93610307575b5060405163095ea7b360e01b81526001600160a01b0390911660048201525f19602482015293849283919082906044820190565b03925af18015610302576102da57005b6101469060203d6020116102fb575b6102f381836105a3565b81019061083c565b503d6102e9565b610831565b806103158761031b936105a3565b8061014c565b5f610296565b34610148575f3660031901126101485760206040515f8152f35b34610148575f36600319011261014857602060405160058152f35b346101485760203660031901126101485760043567ffffffffffffffff811161014857366023820112156101485780600401359067ffffffffffffffff8211610148573660248383010111610148576024019067ffffffffffffffff8111610485576103cc816103c760025461060f565b610854565b5f601f82116001146104095781906103f9935f926103fe575b50508160011b915f199060031b1c19161790565b600255005b013590505f806103e5565b60025f52601f198216927f405787fa12a823e0f2b7631cc41b3ba8828b3321ca811111fa75cd3aa3bb5ace915f5b85811061046d57508360019510610454575b505050811b01600255005b01355f19600384901b60f8161c191690555f8080610449565b90926020600181928686013581550194019101610437565b6104d9565b3461014857602036600319011261014857600435600155005b34610148575f36600319011261014857602060405160048152f35b34610148575f36600319011261014857602060405160028152f35b634e487b7160e01b5f52604160045260245ffd5b8181106104f8575050565b5f81556001016104ed565b5f525f60205260405f209067ffffffffffffffff831161048557680100000000000000008311610485578154838355808410610565575b50905f5260205f205f5b8381106105515750505050565b600190602084359401938184015501610544565b61057b90835f528460205f2091820191016104ed565b5f61053a565b5f19811461058f5760010190565b634e487b7160e01b5f52601160045260245ffd5b90601f8019910116810190811067ffffffffffffffff82111761048557604052565b67ffffffffffffffff81116104855760051b60200190565b906105e7826105c5565b6105f460405191826105a3565b8281528092610605601f19916105c5565b0190602036910137565b90600182811c9216801561063d575b602083101461062957565b634e487b7160e01b5f52602260045260245ffd5b91607f169161061e565b604051905f826002549161065a8361060f565b80835292600181169081156106df5750600114610680575b61067e925003836105a3565b565b5060025f90815290917f405787fa12a823e0f2b7631cc41b3ba8828b3321ca811111fa75cd3aa3bb5ace5b8183106106c357505090602061067e92820101610672565b60209193508060019154838589010152019101909184926106ab565b6020925061067e94915060ff191682840152151560051b820101610672565b90604051918281549182825260208201905f5260205f20925f5b81811061072d57505061067e925003836105a3565b8454835260019485019487945060209093019201610718565b600154600181146107fa57600281146107d557600381146107c357600481146107b257600581146107a4576006146107945761078c610791915f525f60205260405f2090565b6106fe565b90565b61079c610647565b602081519101f35b60205f52600360205260605ff35b60205f52611388602052620271405ff35b60405f5260016020525f60405260605ff35b50505f5b6103e85a11156107f1576107ec90610581565b6107d9565b610791906105dd565b60405162461bcd60e51b815260206004820152600f60248201526e1cd8dc9a5c1d1959081c995d995c9d608a1b6044820152606490fd5b6040513d5f823e3d90fd5b90816020910312610148575180151581036101485790565b90601f8211610861575050565b61067e9160025f5260205f20906020601f840160051c8301931061088d575b601f0160051c01906104ed565b909150819061088056",
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

// PackMODERAW is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x90dd9beb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MODE_RAW() view returns(uint256)
func (scriptedBidder *ScriptedBidder) PackMODERAW() []byte {
	enc, err := scriptedBidder.abi.Pack("MODE_RAW")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMODERAW is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x90dd9beb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MODE_RAW() view returns(uint256)
func (scriptedBidder *ScriptedBidder) TryPackMODERAW() ([]byte, error) {
	return scriptedBidder.abi.Pack("MODE_RAW")
}

// UnpackMODERAW is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x90dd9beb.
//
// Solidity: function MODE_RAW() view returns(uint256)
func (scriptedBidder *ScriptedBidder) UnpackMODERAW(data []byte) (*big.Int, error) {
	out, err := scriptedBidder.abi.Unpack("MODE_RAW", data)
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

// PackSetRaw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd1d4f145.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setRaw(bytes answer) returns()
func (scriptedBidder *ScriptedBidder) PackSetRaw(answer []byte) []byte {
	enc, err := scriptedBidder.abi.Pack("setRaw", answer)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetRaw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd1d4f145.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setRaw(bytes answer) returns()
func (scriptedBidder *ScriptedBidder) TryPackSetRaw(answer []byte) ([]byte, error) {
	return scriptedBidder.abi.Pack("setRaw", answer)
}
