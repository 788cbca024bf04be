// Code generated via abigen V2 - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package bindings

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

// SettlementHouseBundle is an auto generated low-level Go binding around an user-defined struct.
type SettlementHouseBundle struct {
	Submitter    common.Address
	AmountOfGas  *big.Int
	BundleHashes [][32]byte
}

// AccountantMetaData contains all meta data concerning the Accountant contract.
var AccountantMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"operator_\",\"type\":\"address\"},{\"internalType\":\"contractWETH\",\"name\":\"weth_\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"adminFeeBps_\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"InvalidAddress\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"bps\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"max\",\"type\":\"uint256\"}],\"name\":\"InvalidFee\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NothingToWithdraw\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"unaccounted\",\"type\":\"uint256\"}],\"name\":\"PaymentNotReceived\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"current\",\"type\":\"address\"}],\"name\":\"RewardAddressAlreadySet\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"Unauthorized\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"bps\",\"type\":\"uint256\"}],\"name\":\"AdminFeeUpdated\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"oldAuctioneer\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newAuctioneer\",\"type\":\"address\"}],\"name\":\"AuctioneerUpdated\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"feeRecipient\",\"type\":\"address\"}],\"name\":\"FeeRecipientUpdated\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"oldOperator\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOperator\",\"type\":\"address\"}],\"name\":\"OperatorUpdated\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferStarted\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferred\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"PaymentReceived\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"adminFee\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"validatorsShare\",\"type\":\"uint256\"}],\"name\":\"PaymentSplit\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"rewardAddress\",\"type\":\"address\"}],\"name\":\"ValidatorRewardAddressSet\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"Withdrawal\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"MAX_FEE_BPS\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"acceptOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"adminFeeBps\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"auctioneer\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"balances\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newOperator\",\"type\":\"address\"}],\"name\":\"changeOperator\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"feeRecipient\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"operator\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"pendingOwner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"recordPayment\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newAuctioneer\",\"type\":\"address\"}],\"name\":\"setAuctioneer\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newRecipient\",\"type\":\"address\"}],\"name\":\"setFeeRecipient\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"rewardAddress\",\"type\":\"address\"}],\"name\":\"setValidatorRewardAddress\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalOwed\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"transferOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"unassigned\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"bps\",\"type\":\"uint256\"}],\"name\":\"updateAdminFee\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"validatorRewardAddress\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"weth\",\"outputs\":[{\"internalType\":\"contractWETH\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"withdraw\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "1c325febb4a012bf9d03761bee1071551f",
	Bin: "0x60a03461012b57601f610b8238819003918201601f19168301916001600160401b0383118484101761012f5780849260809460405283398101031261012b5761004781610143565b9061005460208201610143565b6040820151916001600160a01b038316830361012b57606001515f80546001600160a01b0319166001600160a01b0390951694851781559093929083907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e08180a361271084116101125760805260018060a01b031660018060a01b0319600354161760035560018060a01b03196004541617600455600555604051610a2a90816101588239608051818181610441015281816104d3015261073d0152f35b83631e0bd6c160e31b5f5260045261271060245260445ffd5b5f80fd5b634e487b7160e01b5f52604160045260245ffd5b51906001600160a01b038216820361012b5756fe60806040526004361015610011575f80fd5b5f3560e01c8062ede7e41461095357806306394c9b146108e25780630b879bc2146106f757806327e235e3146106bf5780632e6afcf01461068d57806331b64319146105945780633ccfd60b146104705780633fc8cef31461042c5780634690484014610404578063570ca735146103dc5780635ec2c7bf146103b457806379ba50971461034b5780638da5cb5b146103245780638f3bd6eb146102fa578063cff1b6ef14610282578063d55be8c614610266578063e30c39781461023e578063e6f0681c14610221578063e74b981b146101a1578063e7fa9f7d146101845763f2fde38b146100ff575f80fd5b34610180576020366003190112610180576101186109c4565b5f546001600160a01b0316903382900361017257600180546001600160a01b0319166001600160a01b03929092169182179055907f38d16b8cac22d99fc7c124b9cd0de2d3fa1faef420bfe791d8c362d765e227005f80a3005b6282b42960e81b5f5260045ffd5b5f80fd5b34610180575f366003190112610180576020600954604051908152f35b34610180576020366003190112610180576101ba6109c4565b5f546001600160a01b03163303610172576001600160a01b0316801561021257600480546001600160a01b031916821790557f7a7b5a0a132f9e0581eb8527f66eae9ee89c2a3e79d4ac7e41a1f1f4d48a7fc25f80a2005b63e6c4247b60e01b5f5260045ffd5b34610180575f366003190112610180576020600554604051908152f35b34610180575f366003190112610180576001546040516001600160a01b039091168152602090f35b34610180575f3660031901126101805760206040516127108152f35b34610180576020366003190112610180575f54600435906001600160a01b031633036101725761271081116102e2576020817f36a705a6c19db3ef2d8bf55ca55188c8499831bdf4fb8cd76fc1cf98b740bd2792600555604051908152a1005b631e0bd6c160e31b5f5260045261271060245260445ffd5b34610180576020366003190112610180576004355f526007602052602060405f2054604051908152f35b34610180575f366003190112610180575f546040516001600160a01b039091168152602090f35b34610180575f366003190112610180576001546001600160a01b0381163303610172575f543360018060a01b0382167f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e05f80a36001600160a01b031990811633175f5516600155005b34610180575f366003190112610180576002546040516001600160a01b039091168152602090f35b34610180575f366003190112610180576003546040516001600160a01b039091168152602090f35b34610180575f366003190112610180576004546040516001600160a01b039091168152602090f35b34610180575f366003190112610180576040517f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03168152602090f35b34610180575f36600319011261018057335f52600860205260405f2054801561058557335f5260086020525f60408120556104ad81600954610a10565b60095560405163a9059cbb60e01b8152336004820152602481018290526020816044815f7f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03165af190811561057a575f9161053f575b5015610180576040519081527f7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b6560203392a2005b90506020813d602011610572575b8161055a602093836109da565b8101031261018057518015158103610180578261050b565b3d915061054d565b6040513d5f823e3d90fd5b630686827b60e51b5f5260045ffd5b34610180576040366003190112610180576004356024356001600160a01b03811690819003610180576003546001600160a01b03163303610172578015610212575f828152600660205260409020546001600160a01b0316806106775750815f52600660205260405f20816bffffffffffffffffffffffff60a01b82541617905580827fe009d750f1cd506c6f662a1d48563dc4e497d275638264789b57c2f69d79e4005f80a3815f52600760205260405f2054918261065057005b5f5260076020525f60408120555f52600860205261067360405f20918254610a1d565b9055005b826305f1d7f960e21b5f5260045260245260445ffd5b34610180576020366003190112610180576004355f526006602052602060018060a01b0360405f205416604051908152f35b34610180576020366003190112610180576001600160a01b036106e06109c4565b165f526008602052602060405f2054604051908152f35b346101805760403660031901126101805760025460043590602435906001600160a01b03163303610172576040516370a0823160e01b81523060048201526020816024817f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03165afa90811561057a575f916108b0575b506107836009548092610a10565b80831161089a57508161079591610a1d565b600955600554808202908282041482151715610886577fc1652cb672f78a08dab2125c16e5ad5330744cf519549d543e51fefe612e4305916127106040920490847f4edf5b39e08b0c159ffd68891bacf2cc9020b9d4e9e807b91f94fe88c443538860206108038585610a10565b9360018060a01b03600454165f5260088252865f20610823878254610a1d565b90555f84815260068352879020546001600160a01b03168061086b5750835f5260078252865f20610855868254610a1d565b90555b8651908152a282519182526020820152a2005b5f5260088252865f2061087f868254610a1d565b9055610858565b634e487b7160e01b5f52601160045260245ffd5b82630721d88760e31b5f5260045260245260445ffd5b90506020813d6020116108da575b816108cb602093836109da565b81010312610180575183610775565b3d91506108be565b34610180576020366003190112610180576108fb6109c4565b5f546001600160a01b03163303610172576003546001600160a01b0391821691829082167ffbe5b6cbafb274f445d7fed869dc77a838d8243a22c460de156560e8857cad035f80a36001600160a01b03191617600355005b346101805760203660031901126101805761096c6109c4565b5f546001600160a01b03163303610172576002546001600160a01b0391821691829082167fccb72ff048540d9c58dc3b312999a41b7ef2c516d03616d5401cbdeee7207e3f5f80a36001600160a01b03191617600255005b600435906001600160a01b038216820361018057565b90601f8019910116810190811067ffffffffffffffff8211176109fc57604052565b634e487b7160e01b5f52604160045260245ffd5b9190820391821161088657565b919082018092116108865756",
}

// Accountant is an auto generated Go binding around an Ethereum contract.
type Accountant struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *Accountant) GetABI() abi.ABI {
	return c.abi
}

// NewAccountant creates a new instance of Accountant.
func NewAccountant() *Accountant {
	parsed, err := AccountantMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &Accountant{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *Accountant) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address owner_, address operator_, address weth_, uint256 adminFeeBps_) returns()
func (accountant *Accountant) PackConstructor(owner_ common.Address, operator_ common.Address, weth_ common.Address, adminFeeBps_ *big.Int) []byte {
	enc, err := accountant.abi.Pack("", owner_, operator_, weth_, adminFeeBps_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackMAXFEEBPS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd55be8c6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MAX_FEE_BPS() view returns(uint256)
func (accountant *Accountant) PackMAXFEEBPS() []byte {
	enc, err := accountant.abi.Pack("MAX_FEE_BPS")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMAXFEEBPS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd55be8c6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MAX_FEE_BPS() view returns(uint256)
func (accountant *Accountant) TryPackMAXFEEBPS() ([]byte, error) {
	return accountant.abi.Pack("MAX_FEE_BPS")
}

// UnpackMAXFEEBPS is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xd55be8c6.
//
// Solidity: function MAX_FEE_BPS() view returns(uint256)
func (accountant *Accountant) UnpackMAXFEEBPS(data []byte) (*big.Int, error) {
	out, err := accountant.abi.Unpack("MAX_FEE_BPS", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackAcceptOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x79ba5097.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function acceptOwnership() returns()
func (accountant *Accountant) PackAcceptOwnership() []byte {
	enc, err := accountant.abi.Pack("acceptOwnership")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAcceptOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x79ba5097.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function acceptOwnership() returns()
func (accountant *Accountant) TryPackAcceptOwnership() ([]byte, error) {
	return accountant.abi.Pack("acceptOwnership")
}

// PackAdminFeeBps is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe6f0681c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function adminFeeBps() view returns(uint256)
func (accountant *Accountant) PackAdminFeeBps() []byte {
	enc, err := accountant.abi.Pack("adminFeeBps")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAdminFeeBps is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe6f0681c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function adminFeeBps() view returns(uint256)
func (accountant *Accountant) TryPackAdminFeeBps() ([]byte, error) {
	return accountant.abi.Pack("adminFeeBps")
}

// UnpackAdminFeeBps is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xe6f0681c.
//
// Solidity: function adminFeeBps() view returns(uint256)
func (accountant *Accountant) UnpackAdminFeeBps(data []byte) (*big.Int, error) {
	out, err := accountant.abi.Unpack("adminFeeBps", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackAuctioneer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5ec2c7bf.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function auctioneer() view returns(address)
func (accountant *Accountant) PackAuctioneer() []byte {
	enc, err := accountant.abi.Pack("auctioneer")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAuctioneer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5ec2c7bf.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function auctioneer() view returns(address)
func (accountant *Accountant) TryPackAuctioneer() ([]byte, error) {
	return accountant.abi.Pack("auctioneer")
}

// UnpackAuctioneer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x5ec2c7bf.
//
// Solidity: function auctioneer() view returns(address)
func (accountant *Accountant) UnpackAuctioneer(data []byte) (common.Address, error) {
	out, err := accountant.abi.Unpack("auctioneer", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackBalances is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x27e235e3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function balances(address ) view returns(uint256)
func (accountant *Accountant) PackBalances(arg0 common.Address) []byte {
	enc, err := accountant.abi.Pack("balances", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBalances is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x27e235e3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function balances(address ) view returns(uint256)
func (accountant *Accountant) TryPackBalances(arg0 common.Address) ([]byte, error) {
	return accountant.abi.Pack("balances", arg0)
}

// UnpackBalances is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x27e235e3.
//
// Solidity: function balances(address ) view returns(uint256)
func (accountant *Accountant) UnpackBalances(data []byte) (*big.Int, error) {
	out, err := accountant.abi.Unpack("balances", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackChangeOperator is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06394c9b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function changeOperator(address newOperator) returns()
func (accountant *Accountant) PackChangeOperator(newOperator common.Address) []byte {
	enc, err := accountant.abi.Pack("changeOperator", newOperator)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackChangeOperator is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06394c9b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function changeOperator(address newOperator) returns()
func (accountant *Accountant) TryPackChangeOperator(newOperator common.Address) ([]byte, error) {
	return accountant.abi.Pack("changeOperator", newOperator)
}

// PackFeeRecipient is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x46904840.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function feeRecipient() view returns(address)
func (accountant *Accountant) PackFeeRecipient() []byte {
	enc, err := accountant.abi.Pack("feeRecipient")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFeeRecipient is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x46904840.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function feeRecipient() view returns(address)
func (accountant *Accountant) TryPackFeeRecipient() ([]byte, error) {
	return accountant.abi.Pack("feeRecipient")
}

// UnpackFeeRecipient is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x46904840.
//
// Solidity: function feeRecipient() view returns(address)
func (accountant *Accountant) UnpackFeeRecipient(data []byte) (common.Address, error) {
	out, err := accountant.abi.Unpack("feeRecipient", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackOperator is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x570ca735.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function operator() view returns(address)
func (accountant *Accountant) PackOperator() []byte {
	enc, err := accountant.abi.Pack("operator")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOperator is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x570ca735.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function operator() view returns(address)
func (accountant *Accountant) TryPackOperator() ([]byte, error) {
	return accountant.abi.Pack("operator")
}

// UnpackOperator is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x570ca735.
//
// Solidity: function operator() view returns(address)
func (accountant *Accountant) UnpackOperator(data []byte) (common.Address, error) {
	out, err := accountant.abi.Unpack("operator", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (accountant *Accountant) PackOwner() []byte {
	enc, err := accountant.abi.Pack("owner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function owner() view returns(address)
func (accountant *Accountant) TryPackOwner() ([]byte, error) {
	return accountant.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (accountant *Accountant) UnpackOwner(data []byte) (common.Address, error) {
	out, err := accountant.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackPendingOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe30c3978.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function pendingOwner() view returns(address)
func (accountant *Accountant) PackPendingOwner() []byte {
	enc, err := accountant.abi.Pack("pendingOwner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPendingOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe30c3978.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function pendingOwner() view returns(address)
func (accountant *Accountant) TryPackPendingOwner() ([]byte, error) {
	return accountant.abi.Pack("pendingOwner")
}

// UnpackPendingOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xe30c3978.
//
// Solidity: function pendingOwner() view returns(address)
func (accountant *Accountant) UnpackPendingOwner(data []byte) (common.Address, error) {
	out, err := accountant.abi.Unpack("pendingOwner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackRecordPayment is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0b879bc2.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function recordPayment(uint256 slot, uint256 amount) returns()
func (accountant *Accountant) PackRecordPayment(slot *big.Int, amount *big.Int) []byte {
	enc, err := accountant.abi.Pack("recordPayment", slot, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRecordPayment is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0b879bc2.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function recordPayment(uint256 slot, uint256 amount) returns()
func (accountant *Accountant) TryPackRecordPayment(slot *big.Int, amount *big.Int) ([]byte, error) {
	return accountant.abi.Pack("recordPayment", slot, amount)
}

// PackSetAuctioneer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x00ede7e4.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setAuctioneer(address newAuctioneer) returns()
func (accountant *Accountant) PackSetAuctioneer(newAuctioneer common.Address) []byte {
	enc, err := accountant.abi.Pack("setAuctioneer", newAuctioneer)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetAuctioneer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x00ede7e4.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setAuctioneer(address newAuctioneer) returns()
func (accountant *Accountant) TryPackSetAuctioneer(newAuctioneer common.Address) ([]byte, error) {
	return accountant.abi.Pack("setAuctioneer", newAuctioneer)
}

// PackSetFeeRecipient is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe74b981b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setFeeRecipient(address newRecipient) returns()
func (accountant *Accountant) PackSetFeeRecipient(newRecipient common.Address) []byte {
	enc, err := accountant.abi.Pack("setFeeRecipient", newRecipient)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetFeeRecipient is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe74b981b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setFeeRecipient(address newRecipient) returns()
func (accountant *Accountant) TryPackSetFeeRecipient(newRecipient common.Address) ([]byte, error) {
	return accountant.abi.Pack("setFeeRecipient", newRecipient)
}

// PackSetValidatorRewardAddress is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x31b64319.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setValidatorRewardAddress(uint256 slot, address rewardAddress) returns()
func (accountant *Accountant) PackSetValidatorRewardAddress(slot *big.Int, rewardAddress common.Address) []byte {
	enc, err := accountant.abi.Pack("setValidatorRewardAddress", slot, rewardAddress)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetValidatorRewardAddress is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x31b64319.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setValidatorRewardAddress(uint256 slot, address rewardAddress) returns()
func (accountant *Accountant) TryPackSetValidatorRewardAddress(slot *big.Int, rewardAddress common.Address) ([]byte, error) {
	return accountant.abi.Pack("setValidatorRewardAddress", slot, rewardAddress)
}

// PackTotalOwed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe7fa9f7d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function totalOwed() view returns(uint256)
func (accountant *Accountant) PackTotalOwed() []byte {
	enc, err := accountant.abi.Pack("totalOwed")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTotalOwed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe7fa9f7d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function totalOwed() view returns(uint256)
func (accountant *Accountant) TryPackTotalOwed() ([]byte, error) {
	return accountant.abi.Pack("totalOwed")
}

// UnpackTotalOwed is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xe7fa9f7d.
//
// Solidity: function totalOwed() view returns(uint256)
func (accountant *Accountant) UnpackTotalOwed(data []byte) (*big.Int, error) {
	out, err := accountant.abi.Unpack("totalOwed", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (accountant *Accountant) PackTransferOwnership(newOwner common.Address) []byte {
	enc, err := accountant.abi.Pack("transferOwnership", newOwner)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (accountant *Accountant) TryPackTransferOwnership(newOwner common.Address) ([]byte, error) {
	return accountant.abi.Pack("transferOwnership", newOwner)
}

// PackUnassigned is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8f3bd6eb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function unassigned(uint256 ) view returns(uint256)
func (accountant *Accountant) PackUnassigned(arg0 *big.Int) []byte {
	enc, err := accountant.abi.Pack("unassigned", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackUnassigned is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8f3bd6eb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function unassigned(uint256 ) view returns(uint256)
func (accountant *Accountant) TryPackUnassigned(arg0 *big.Int) ([]byte, error) {
	return accountant.abi.Pack("unassigned", arg0)
}

// UnpackUnassigned is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8f3bd6eb.
//
// Solidity: function unassigned(uint256 ) view returns(uint256)
func (accountant *Accountant) UnpackUnassigned(data []byte) (*big.Int, error) {
	out, err := accountant.abi.Unpack("unassigned", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackUpdateAdminFee is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcff1b6ef.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function updateAdminFee(uint256 bps) returns()
func (accountant *Accountant) PackUpdateAdminFee(bps *big.Int) []byte {
	enc, err := accountant.abi.Pack("updateAdminFee", bps)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackUpdateAdminFee is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcff1b6ef.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function updateAdminFee(uint256 bps) returns()
func (accountant *Accountant) TryPackUpdateAdminFee(bps *big.Int) ([]byte, error) {
	return accountant.abi.Pack("updateAdminFee", bps)
}

// PackValidatorRewardAddress is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2e6afcf0.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function validatorRewardAddress(uint256 ) view returns(address)
func (accountant *Accountant) PackValidatorRewardAddress(arg0 *big.Int) []byte {
	enc, err := accountant.abi.Pack("validatorRewardAddress", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackValidatorRewardAddress is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2e6afcf0.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function validatorRewardAddress(uint256 ) view returns(address)
func (accountant *Accountant) TryPackValidatorRewardAddress(arg0 *big.Int) ([]byte, error) {
	return accountant.abi.Pack("validatorRewardAddress", arg0)
}

// UnpackValidatorRewardAddress is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x2e6afcf0.
//
// Solidity: function validatorRewardAddress(uint256 ) view returns(address)
func (accountant *Accountant) UnpackValidatorRewardAddress(data []byte) (common.Address, error) {
	out, err := accountant.abi.Unpack("validatorRewardAddress", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackWeth is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3fc8cef3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function weth() view returns(address)
func (accountant *Accountant) PackWeth() []byte {
	enc, err := accountant.abi.Pack("weth")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWeth is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3fc8cef3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function weth() view returns(address)
func (accountant *Accountant) TryPackWeth() ([]byte, error) {
	return accountant.abi.Pack("weth")
}

// UnpackWeth is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3fc8cef3.
//
// Solidity: function weth() view returns(address)
func (accountant *Accountant) UnpackWeth(data []byte) (common.Address, error) {
	out, err := accountant.abi.Unpack("weth", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3ccfd60b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function withdraw() returns()
func (accountant *Accountant) PackWithdraw() []byte {
	enc, err := accountant.abi.Pack("withdraw")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3ccfd60b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function withdraw() returns()
func (accountant *Accountant) TryPackWithdraw() ([]byte, error) {
	return accountant.abi.Pack("withdraw")
}

// AccountantAdminFeeUpdated represents a AdminFeeUpdated event raised by the Accountant contract.
type AccountantAdminFeeUpdated struct {
	Bps *big.Int
	Raw *types.Log // Blockchain specific contextual infos
}

const AccountantAdminFeeUpdatedEventName = "AdminFeeUpdated"

// ContractEventName returns the user-defined event name.
func (AccountantAdminFeeUpdated) ContractEventName() string {
	return AccountantAdminFeeUpdatedEventName
}

// UnpackAdminFeeUpdatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event AdminFeeUpdated(uint256 bps)
func (accountant *Accountant) UnpackAdminFeeUpdatedEvent(log *types.Log) (*AccountantAdminFeeUpdated, error) {
	event := "AdminFeeUpdated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != accountant.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AccountantAdminFeeUpdated)
	if len(log.Data) > 0 {
		if err := accountant.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range accountant.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AccountantAuctioneerUpdated represents a AuctioneerUpdated event raised by the Accountant contract.
type AccountantAuctioneerUpdated struct {
	OldAuctioneer common.Address
	NewAuctioneer common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const AccountantAuctioneerUpdatedEventName = "AuctioneerUpdated"

// ContractEventName returns the user-defined event name.
func (AccountantAuctioneerUpdated) ContractEventName() string {
	return AccountantAuctioneerUpdatedEventName
}

// UnpackAuctioneerUpdatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event AuctioneerUpdated(address indexed oldAuctioneer, address indexed newAuctioneer)
func (accountant *Accountant) UnpackAuctioneerUpdatedEvent(log *types.Log) (*AccountantAuctioneerUpdated, error) {
	event := "AuctioneerUpdated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != accountant.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AccountantAuctioneerUpdated)
	if len(log.Data) > 0 {
		if err := accountant.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range accountant.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AccountantFeeRecipientUpdated represents a FeeRecipientUpdated event raised by the Accountant contract.
type AccountantFeeRecipientUpdated struct {
	FeeRecipient common.Address
	Raw          *types.Log // Blockchain specific contextual infos
}

const AccountantFeeRecipientUpdatedEventName = "FeeRecipientUpdated"

// ContractEventName returns the user-defined event name.
func (AccountantFeeRecipientUpdated) ContractEventName() string {
	return AccountantFeeRecipientUpdatedEventName
}

// UnpackFeeRecipientUpdatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event FeeRecipientUpdated(address indexed feeRecipient)
func (accountant *Accountant) UnpackFeeRecipientUpdatedEvent(log *types.Log) (*AccountantFeeRecipientUpdated, error) {
	event := "FeeRecipientUpdated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != accountant.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AccountantFeeRecipientUpdated)
	if len(log.Data) > 0 {
		if err := accountant.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range accountant.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AccountantOperatorUpdated represents a OperatorUpdated event raised by the Accountant contract.
type AccountantOperatorUpdated struct {
	OldOperator common.Address
	NewOperator common.Address
	Raw         *types.Log // Blockchain specific contextual infos
}

const AccountantOperatorUpdatedEventName = "OperatorUpdated"

// ContractEventName returns the user-defined event name.
func (AccountantOperatorUpdated) ContractEventName() string {
	return AccountantOperatorUpdatedEventName
}

// UnpackOperatorUpdatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OperatorUpdated(address indexed oldOperator, address indexed newOperator)
func (accountant *Accountant) UnpackOperatorUpdatedEvent(log *types.Log) (*AccountantOperatorUpdated, error) {
	event := "OperatorUpdated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != accountant.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AccountantOperatorUpdated)
	if len(log.Data) > 0 {
		if err := accountant.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range accountant.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AccountantOwnershipTransferStarted represents a OwnershipTransferStarted event raised by the Accountant contract.
type AccountantOwnershipTransferStarted struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const AccountantOwnershipTransferStartedEventName = "OwnershipTransferStarted"

// ContractEventName returns the user-defined event name.
func (AccountantOwnershipTransferStarted) ContractEventName() string {
	return AccountantOwnershipTransferStartedEventName
}

// UnpackOwnershipTransferStartedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OwnershipTransferStarted(address indexed previousOwner, address indexed newOwner)
func (accountant *Accountant) UnpackOwnershipTransferStartedEvent(log *types.Log) (*AccountantOwnershipTransferStarted, error) {
	event := "OwnershipTransferStarted"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != accountant.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AccountantOwnershipTransferStarted)
	if len(log.Data) > 0 {
		if err := accountant.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range accountant.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AccountantOwnershipTransferred represents a OwnershipTransferred event raised by the Accountant contract.
type AccountantOwnershipTransferred struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const AccountantOwnershipTransferredEventName = "OwnershipTransferred"

// ContractEventName returns the user-defined event name.
func (AccountantOwnershipTransferred) ContractEventName() string {
	return AccountantOwnershipTransferredEventName
}

// UnpackOwnershipTransferredEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (accountant *Accountant) UnpackOwnershipTransferredEvent(log *types.Log) (*AccountantOwnershipTransferred, error) {
	event := "OwnershipTransferred"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != accountant.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AccountantOwnershipTransferred)
	if len(log.Data) > 0 {
		if err := accountant.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range accountant.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AccountantPaymentReceived represents a PaymentReceived event raised by the Accountant contract.
type AccountantPaymentReceived struct {
	Slot   *big.Int
	Amount *big.Int
	Raw    *types.Log // Blockchain specific contextual infos
}

const AccountantPaymentReceivedEventName = "PaymentReceived"

// ContractEventName returns the user-defined event name.
func (AccountantPaymentReceived) ContractEventName() string {
	return AccountantPaymentReceivedEventName
}

// UnpackPaymentReceivedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event PaymentReceived(uint256 indexed slot, uint256 amount)
func (accountant *Accountant) UnpackPaymentReceivedEvent(log *types.Log) (*AccountantPaymentReceived, error) {
	event := "PaymentReceived"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != accountant.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AccountantPaymentReceived)
	if len(log.Data) > 0 {
		if err := accountant.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range accountant.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AccountantPaymentSplit represents a PaymentSplit event raised by the Accountant contract.
type AccountantPaymentSplit struct {
	Slot            *big.Int
	AdminFee        *big.Int
	ValidatorsShare *big.Int
	Raw             *types.Log // Blockchain specific contextual infos
}

const AccountantPaymentSplitEventName = "PaymentSplit"

// ContractEventName returns the user-defined event name.
func (AccountantPaymentSplit) ContractEventName() string {
	return AccountantPaymentSplitEventName
}

// UnpackPaymentSplitEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event PaymentSplit(uint256 indexed slot, uint256 adminFee, uint256 validatorsShare)
func (accountant *Accountant) UnpackPaymentSplitEvent(log *types.Log) (*AccountantPaymentSplit, error) {
	event := "PaymentSplit"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != accountant.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AccountantPaymentSplit)
	if len(log.Data) > 0 {
		if err := accountant.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range accountant.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AccountantValidatorRewardAddressSet represents a ValidatorRewardAddressSet event raised by the Accountant contract.
type AccountantValidatorRewardAddressSet struct {
	Slot          *big.Int
	RewardAddress common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const AccountantValidatorRewardAddressSetEventName = "ValidatorRewardAddressSet"

// ContractEventName returns the user-defined event name.
func (AccountantValidatorRewardAddressSet) ContractEventName() string {
	return AccountantValidatorRewardAddressSetEventName
}

// UnpackValidatorRewardAddressSetEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event ValidatorRewardAddressSet(uint256 indexed slot, address indexed rewardAddress)
func (accountant *Accountant) UnpackValidatorRewardAddressSetEvent(log *types.Log) (*AccountantValidatorRewardAddressSet, error) {
	event := "ValidatorRewardAddressSet"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != accountant.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AccountantValidatorRewardAddressSet)
	if len(log.Data) > 0 {
		if err := accountant.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range accountant.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AccountantWithdrawal represents a Withdrawal event raised by the Accountant contract.
type AccountantWithdrawal struct {
	Account common.Address
	Amount  *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const AccountantWithdrawalEventName = "Withdrawal"

// ContractEventName returns the user-defined event name.
func (AccountantWithdrawal) ContractEventName() string {
	return AccountantWithdrawalEventName
}

// UnpackWithdrawalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Withdrawal(address indexed account, uint256 amount)
func (accountant *Accountant) UnpackWithdrawalEvent(log *types.Log) (*AccountantWithdrawal, error) {
	event := "Withdrawal"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != accountant.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AccountantWithdrawal)
	if len(log.Data) > 0 {
		if err := accountant.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range accountant.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (accountant *Accountant) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], accountant.abi.Errors["InvalidAddress"].ID.Bytes()[:4]) {
		return accountant.UnpackInvalidAddressError(raw[4:])
	}
	if bytes.Equal(raw[:4], accountant.abi.Errors["InvalidFee"].ID.Bytes()[:4]) {
		return accountant.UnpackInvalidFeeError(raw[4:])
	}
	if bytes.Equal(raw[:4], accountant.abi.Errors["NothingToWithdraw"].ID.Bytes()[:4]) {
		return accountant.UnpackNothingToWithdrawError(raw[4:])
	}
	if bytes.Equal(raw[:4], accountant.abi.Errors["PaymentNotReceived"].ID.Bytes()[:4]) {
		return accountant.UnpackPaymentNotReceivedError(raw[4:])
	}
	if bytes.Equal(raw[:4], accountant.abi.Errors["RewardAddressAlreadySet"].ID.Bytes()[:4]) {
		return accountant.UnpackRewardAddressAlreadySetError(raw[4:])
	}
	if bytes.Equal(raw[:4], accountant.abi.Errors["Unauthorized"].ID.Bytes()[:4]) {
		return accountant.UnpackUnauthorizedError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// AccountantInvalidAddress represents a InvalidAddress error raised by the Accountant contract.
type AccountantInvalidAddress struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidAddress()
func AccountantInvalidAddressErrorID() common.Hash {
	return common.HexToHash("0xe6c4247b90bd06996a32d386bb770af9c0018dd1b0ebbb2df2c4499f1eda7b16")
}

// UnpackInvalidAddressError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidAddress()
func (accountant *Accountant) UnpackInvalidAddressError(raw []byte) (*AccountantInvalidAddress, error) {
	out := new(AccountantInvalidAddress)
	if err := accountant.abi.UnpackIntoInterface(out, "InvalidAddress", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AccountantInvalidFee represents a InvalidFee error raised by the Accountant contract.
type AccountantInvalidFee struct {
	Bps *big.Int
	Max *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidFee(uint256 bps, uint256 max)
func AccountantInvalidFeeErrorID() common.Hash {
	return common.HexToHash("0xf05eb6084323a643696383c2ac7880b1e539be4d172853643dce339af5e37796")
}

// UnpackInvalidFeeError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidFee(uint256 bps, uint256 max)
func (accountant *Accountant) UnpackInvalidFeeError(raw []byte) (*AccountantInvalidFee, error) {
	out := new(AccountantInvalidFee)
	if err := accountant.abi.UnpackIntoInterface(out, "InvalidFee", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AccountantNothingToWithdraw represents a NothingToWithdraw error raised by the Accountant contract.
type AccountantNothingToWithdraw struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NothingToWithdraw()
func AccountantNothingToWithdrawErrorID() common.Hash {
	return common.HexToHash("0xd0d04f60bf4f7629141a1f00f5d2908fa0f3e15bf4cbf8bb8edc6fcbdf2509fa")
}

// UnpackNothingToWithdrawError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NothingToWithdraw()
func (accountant *Accountant) UnpackNothingToWithdrawError(raw []byte) (*AccountantNothingToWithdraw, error) {
	out := new(AccountantNothingToWithdraw)
	if err := accountant.abi.UnpackIntoInterface(out, "NothingToWithdraw", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AccountantPaymentNotReceived represents a PaymentNotReceived error raised by the Accountant contract.
type AccountantPaymentNotReceived struct {
	Amount      *big.Int
	Unaccounted *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error PaymentNotReceived(uint256 amount, uint256 unaccounted)
func AccountantPaymentNotReceivedErrorID() common.Hash {
	return common.HexToHash("0x390ec438ea575e984d272129f1f5f3c1a8d62ecec5bd6aee1d2ea10ec63e3c81")
}

// UnpackPaymentNotReceivedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error PaymentNotReceived(uint256 amount, uint256 unaccounted)
func (accountant *Accountant) UnpackPaymentNotReceivedError(raw []byte) (*AccountantPaymentNotReceived, error) {
	out := new(AccountantPaymentNotReceived)
	if err := accountant.abi.UnpackIntoInterface(out, "PaymentNotReceived", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AccountantRewardAddressAlreadySet represents a RewardAddressAlreadySet error raised by the Accountant contract.
type AccountantRewardAddressAlreadySet struct {
	Slot    *big.Int
	Current common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error RewardAddressAlreadySet(uint256 slot, address current)
func AccountantRewardAddressAlreadySetErrorID() common.Hash {
	return common.HexToHash("0x17c75fe4d3d7ed9dbd749feb825492bfd0a2497f686bdd35215f4ace34d4c5a5")
}

// UnpackRewardAddressAlreadySetError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error RewardAddressAlreadySet(uint256 slot, address current)
func (accountant *Accountant) UnpackRewardAddressAlreadySetError(raw []byte) (*AccountantRewardAddressAlreadySet, error) {
	out := new(AccountantRewardAddressAlreadySet)
	if err := accountant.abi.UnpackIntoInterface(out, "RewardAddressAlreadySet", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AccountantUnauthorized represents a Unauthorized error raised by the Accountant contract.
type AccountantUnauthorized struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error Unauthorized()
func AccountantUnauthorizedErrorID() common.Hash {
	return common.HexToHash("0x82b4290015f7ec7256ca2a6247d3c2a89c4865c0e791456df195f40ad0a81367")
}

// UnpackUnauthorizedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error Unauthorized()
func (accountant *Accountant) UnpackUnauthorizedError(raw []byte) (*AccountantUnauthorized, error) {
	out := new(AccountantUnauthorized)
	if err := accountant.abi.UnpackIntoInterface(out, "Unauthorized", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerMetaData contains all meta data concerning the Auctioneer contract.
var AuctioneerMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"operator_\",\"type\":\"address\"},{\"internalType\":\"contractWETH\",\"name\":\"weth_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"accountant_\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"AuctionAlreadyFinalized\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"AuctionAlreadyOpen\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"AuctionAlreadySettled\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxBids\",\"type\":\"uint256\"}],\"name\":\"AuctionFull\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"AuctionNotClosed\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"AuctionNotOpen\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"AuctionNotSettled\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"bidder\",\"type\":\"address\"}],\"name\":\"BidderAlreadyExists\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"BidderLimitReached\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"bidder\",\"type\":\"address\"}],\"name\":\"BidderNotParticipating\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"bidder\",\"type\":\"address\"}],\"name\":\"BidderNotRegistered\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"max\",\"type\":\"uint256\"}],\"name\":\"ContractBidderLimitReached\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"balance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"needed\",\"type\":\"uint256\"}],\"name\":\"InsufficientBalance\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"needed\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"available\",\"type\":\"uint256\"}],\"name\":\"InsufficientFunds\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InsufficientGas\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"}],\"name\":\"InsufficientPermission\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidAddress\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint120\",\"name\":\"items\",\"type\":\"uint120\"},{\"internalType\":\"uint120\",\"name\":\"min\",\"type\":\"uint120\"},{\"internalType\":\"uint120\",\"name\":\"max\",\"type\":\"uint120\"}],\"name\":\"InvalidBidItems\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidBidPrice\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidId\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidItemsForSale\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"maxBids\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"limit\",\"type\":\"uint256\"}],\"name\":\"InvalidMaxBids\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NoAccountant\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NoBids\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"maxBids\",\"type\":\"uint256\"}],\"name\":\"TooManyBids\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"Unauthorized\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"oldAccountant\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newAccountant\",\"type\":\"address\"}],\"name\":\"AccountantUpdated\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"Approval\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint128\",\"name\":\"clearingPrice\",\"type\":\"uint128\"},{\"indexed\":false,\"internalType\":\"uint120\",\"name\":\"itemsSold\",\"type\":\"uint120\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"proceeds\",\"type\":\"uint256\"}],\"name\":\"AuctionCleared\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint120\",\"name\":\"itemsForSale\",\"type\":\"uint120\"}],\"name\":\"AuctionOpened\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"AuctionPaidOut\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"AuctionRefund\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"AuctionSettled\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"bidder\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"packedBid\",\"type\":\"uint256\"}],\"name\":\"BidSkipped\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"bidder\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"uint8\",\"name\":\"bidderId\",\"type\":\"uint8\"}],\"name\":\"BidderAdded\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"bidder\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"uint8\",\"name\":\"bidderId\",\"type\":\"uint8\"}],\"name\":\"BidderRemoved\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"bidder\",\"type\":\"address\"}],\"name\":\"BidderSkipped\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"bidder\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"count\",\"type\":\"uint256\"}],\"name\":\"BidsPlaced\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"maxBids\",\"type\":\"uint256\"}],\"name\":\"MaxBidsUpdated\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"uint120\",\"name\":\"minGasAmount\",\"type\":\"uint120\"}],\"name\":\"MinGasAmountUpdated\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"bool\",\"name\":\"approved\",\"type\":\"bool\"}],\"name\":\"OperatorSet\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"oldOperator\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOperator\",\"type\":\"address\"}],\"name\":\"OperatorUpdated\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferStarted\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferred\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"address\",\"name\":\"caller\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"GET_BID_GAS\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"IdMap\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MAX_BIDS_PER_BIDDER\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MAX_BIDS_PER_SLOT\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MAX_CONTRACT_BIDDERS\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"WETH9\",\"outputs\":[{\"internalType\":\"contractWETH\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"acceptOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"accountant\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"allowance\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"approve\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"auctions\",\"outputs\":[{\"internalType\":\"uint120\",\"name\":\"itemsForSale\",\"type\":\"uint120\"},{\"internalType\":\"bool\",\"name\":\"isOpen\",\"type\":\"bool\"},{\"internalType\":\"bool\",\"name\":\"isSettled\",\"type\":\"bool\"},{\"internalType\":\"bool\",\"name\":\"isPaidOut\",\"type\":\"bool\"},{\"internalType\":\"bool\",\"name\":\"isRefunded\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"internalType\":\"uint256[]\",\"name\":\"packedBids\",\"type\":\"uint256[]\"}],\"name\":\"bid\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"bidCount\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"bidderCount\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"name\":\"bidderMap\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"burn\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newOperator\",\"type\":\"address\"}],\"name\":\"changeOperator\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"clearings\",\"outputs\":[{\"internalType\":\"uint128\",\"name\":\"price\",\"type\":\"uint128\"},{\"internalType\":\"uint120\",\"name\":\"itemsSold\",\"type\":\"uint120\"},{\"internalType\":\"uint256\",\"name\":\"proceeds\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"contractBidders\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"bidder\",\"type\":\"address\"}],\"name\":\"getBidderInfo\",\"outputs\":[{\"internalType\":\"uint120\",\"name\":\"itemsBought\",\"type\":\"uint120\"},{\"internalType\":\"uint128\",\"name\":\"amountOwed\",\"type\":\"uint128\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"getBids\",\"outputs\":[{\"internalType\":\"uint256[]\",\"name\":\"\",\"type\":\"uint256[]\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"isOperator\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"maxBids\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"minGasAmount\",\"outputs\":[{\"internalType\":\"uint120\",\"name\":\"\",\"type\":\"uint120\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"bidder\",\"type\":\"address\"}],\"name\":\"newBidder\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"newId\",\"type\":\"uint8\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"internalType\":\"uint120\",\"name\":\"itemsForSale\",\"type\":\"uint120\"}],\"name\":\"openAuction\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"operator\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint128\",\"name\":\"bidPrice\",\"type\":\"uint128\"},{\"internalType\":\"uint120\",\"name\":\"itemsToBuy\",\"type\":\"uint120\"},{\"internalType\":\"uint8\",\"name\":\"bidderId\",\"type\":\"uint8\"}],\"name\":\"packBid\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"packedBid\",\"type\":\"uint256\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"payout\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"pendingOwner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"refund\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint8\",\"name\":\"bidderId\",\"type\":\"uint8\"}],\"name\":\"removeBidder\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"runAndSettle\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"bool\",\"name\":\"approved\",\"type\":\"bool\"}],\"name\":\"setOperator\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"slotsAuctioned\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"slotsCount\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes4\",\"name\":\"interfaceId\",\"type\":\"bytes4\"}],\"name\":\"supportsInterface\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"transferOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newAccountant\",\"type\":\"address\"}],\"name\":\"updateAccountant\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"newMaxBids\",\"type\":\"uint256\"}],\"name\":\"updateMaxBids\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint120\",\"name\":\"newAmount\",\"type\":\"uint120\"}],\"name\":\"updateMinGasAmount\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"usedIds\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"winners\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "53b7d8773e4f0f50035692bce4ac230cea",
	Bin: "0x60a03461018557601f612e5a38819003918201601f19168301916001600160401b0383118484101761018957808492608094604052833981010312610185576100478161019d565b6100536020830161019d565b6040830151926001600160a01b0384168403610185576060610075910161019d565b5f80546001600160a01b0319166001600160a01b039094169384178155604051949193907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e08180a3603260075560088054614e206001600160781b0319909116179055608052600580546001600160a01b039283166001600160a01b031991821681179092556006805494909316931683179091555f7ffbe5b6cbafb274f445d7fed869dc77a838d8243a22c460de156560e8857cad038180a35f7f24ef9859ca0552587ccbeab6e14ec80ab2b35933f57e8ed5ac17d6c5527832dd8180a3612ca890816101b282396080518181816105b001528181610fc00152818161152301528181611c9c015261290a0152f35b5f80fd5b634e487b7160e01b5f52604160045260245ffd5b51906001600160a01b03821682036101855756fe60806040526004361015610011575f80fd5b5f5f3560e01c8062fdd58e1461242657806301ffc9a7146123d057806306394c9b1461235f578063095bcdb61461234757806312857f5c146122d3578063131d9a271461222d578063173d20da14612157578063199f3edf1461209c578063213cffe4146115c1578063278ecde11461141f57806329feef88146110a1578063325a237a146110845780633fb6bc8614611069578063426a849314610fef5780634aa4a4fc14610fab5780634b826a4214610f8e5780634fb3ccc514610f66578063558a729714610ed4578063570ca73514610eac578063571a26a014610e44578063598af9e714610dea5780635aab742714610dce57806360966d8d14610da85780636c222b1714610d3757806370d29c1114610d1757806379ba509714610cae57806381083bd414610c91578063841847a514610c2357806386d1f5d914610b9e5780638a446114146109e65780638da5cb5b146109bf5780639f235ccd146109a2578063a2fb117514610978578063a54a31011461095d578063afefb9d91461081a578063b390c0ab146107c1578063b6363cf21461076a578063b9a958b414610740578063ba6ec73a146106d5578063d6804b8e1461069b578063e1152343146104ed578063e30c3978146104c4578063e592b60414610413578063eb341a21146103f5578063ed8b01bb146103b8578063f2fde38b146103355763fe99049a1461021e575f80fd5b34610332576080366003190112610332576102376124ab565b61023f6124c1565b6064359160443591906001600160a01b038116338114158061030f575b610277575b5061026c945061265b565b602060405160018152f35b80865260036020526040862060018060a01b0333165f5260205260405f2084875260205260408620548581106102f75761026c968691600181016102be575b505050610261565b6040926102ca916125c8565b928152600360205281812060018060a01b0333165f52602052815f2086825260205220555f8481806102b6565b63731555bd60e01b8752336004526024859052604487fd5b50808652600460209081526040808820335f908152925290205460ff161561025c565b80fd5b50346103325760203660031901126103325761034f6124ab565b81546001600160a01b031690338290036103aa57600180546001600160a01b0319166001600160a01b03929092169182179055907f38d16b8cac22d99fc7c124b9cd0de2d3fa1faef420bfe791d8c362d765e227008380a380f35b6282b42960e81b8352600483fd5b50346103325760203660031901126103325760209060ff906040906001600160a01b036103e36124ab565b16815260098452205416604051908152f35b50346103325780600319360112610332576020600c54604051908152f35b5034610332576020366003190112610332576004356001600160781b0381168091036104c05781546001600160a01b031633036104b2578015610490576020817ff336c9338df0fe75934fd749091bc11f8051b55a141ef6a417ecce245ab25737926001600160781b03196008541617600855604051908152a180f35b63745f5e8560e11b825260045260016024526001600160781b03604452606490fd5b6282b42960e81b8252600482fd5b5080fd5b50346103325780600319360112610332576001546040516001600160a01b039091168152602090f35b503461064b57602036600319011261064b57600554600435906001600160a01b0316330361068d5761051e81612881565b805460ff60881b1916600160881b1790556006546001600160a01b0316801561067e57815f52600f602052600160405f20015480610580575b50507fa26ce335f74e229e2b10e13c5b424c547f0fa446d55ab6d1c391dd68703698f18280a280f35b60405163a9059cbb60e01b81526001600160a01b038316600482015260248101829052602081806044810103815f7f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03165af1908115610640575f9161064f575b501561064b57813b1561064b575f916044839260405194859384926305c3cde160e11b845288600485015260248401525af180156106405761062b575b80610557565b6106389192505f90612549565b5f905f610625565b6040513d5f823e3d90fd5b5f80fd5b610671915060203d602011610677575b6106698183612549565b8101906125e3565b5f6105e8565b503d61065f565b63088d437160e21b5f5260045ffd5b6282b42960e81b5f5260045ffd5b3461064b57602036600319011261064b5760ff6106b6612501565b165f52600a602052602060018060a01b0360405f205416604051908152f35b3461064b57606036600319011261064b576004356001600160801b038116810361064b57610701612526565b60443560ff811680910361064b576020926fffffffffffffffffffffffffffffff006040519360081b16906001600160801b03199060801b1617178152f35b3461064b57602036600319011261064b576004355f526012602052602060405f2054604051908152f35b3461064b57604036600319011261064b576107836124ab565b61078b6124c1565b9060018060a01b03165f52600460205260405f209060018060a01b03165f52602052602060ff60405f2054166040519015158152f35b3461064b57604036600319011261064b576004355f6024356107e48184336129ed565b604080513380825260208201939093527f1b3d7edb2e9c0b0e7c525b20aaaef0f5940d2ed71663c7d39266ecafac7288599190a4005b3461064b57604036600319011261064b57600435610836612526565b6005546001600160a01b0316330361068d57815f52600e60205260405f2090815460ff8160801c1661094a5760781c60ff16610937576001600160781b03169081158015610927575b61091857805460ff60781b1983166001600160801b031990911617600160781b179055601054600160401b811015610904577f665c4d2fa4764b0e70706e6c79cdaea49965e5b9a0d4ecf7e23f038186f39430916108e7826001602094016010556010612511565b81549060031b9086821b915f19901b1916179055604051908152a2005b634e487b7160e01b5f52604160045260245ffd5b63d94d75b160e01b5f5260045ffd5b506001600160501b03821161087f565b826310c3d1cf60e01b5f5260045260245ffd5b836338602da160e21b5f5260045260245ffd5b3461064b575f36600319011261064b57602060405160088152f35b3461064b57602036600319011261064b576004355f526011602052602060405f2054604051908152f35b3461064b575f36600319011261064b576020600754604051908152f35b3461064b575f36600319011261064b575f546040516001600160a01b039091168152602090f35b3461064b57602036600319011261064b576109ff6124ab565b5f546001600160a01b0316330361068d576001600160a01b0381168015610b8f57805f52600960205260ff60405f205416610b7d57600c54801992600119841615610b6e576001935b6001851b81166001191615610b5e57503b610b0a575b600160ff8416931b17600c55805f52600960205260405f2060ff831660ff19825416179055815f52600a60205260405f20816bffffffffffffffffffffffff60a01b825416179055600b549160ff83169260ff8414610af65760ff600160209501169060ff191617600b5580604051927f51e520a616a9bd73be5e4a3c3829c402fd7cbc02e9a1c3155ef48a50314d384f5f80a38152f35b634e487b7160e01b5f52601160045260245ffd5b600d54805f815b610b4057600891501015610b2c576001841b17600d55610a5e565b63269b7f6960e21b5f52600860045260245ffd5b5f198201828111610af657610b5892169182916125d5565b90610b11565b93610b68906125d5565b93610a48565b635b7d9a0d60e01b5f5260045ffd5b633a30f59560e11b5f5260045260245ffd5b63e6c4247b60e01b5f5260045ffd5b3461064b57602036600319011261064b575f54600435906001600160a01b0316330361068d5780158015610c19575b610c02576020817fed2be663a74f111c6b77357874876267a44a111dd4a2dbfe6927bfb852d4e0b692600755604051908152a1005b63579b929d60e01b5f52600452606460245260445ffd5b5060648111610bcd565b3461064b57602036600319011261064b5760043560105481101561064b57601054811015610c7d5760105f527f1b6847dc741a1b0cd08d278845f9d819d87b734759afb55fe2de5cb82a9ae6720154604051908152602090f35b634e487b7160e01b5f52603260045260245ffd5b3461064b575f36600319011261064b576020601054604051908152f35b3461064b575f36600319011261064b576001546001600160a01b038116330361068d575f543360018060a01b0382167f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e05f80a36001600160a01b031990811633175f5516600155005b3461064b575f36600319011261064b57602060ff600b5416604051908152f35b3461064b57602036600319011261064b57610d506124ab565b5f546001600160a01b0316330361068d576006546001600160a01b0391821691829082167f24ef9859ca0552587ccbeab6e14ec80ab2b35933f57e8ed5ac17d6c5527832dd5f80a36001600160a01b03191617600655005b3461064b575f36600319011261064b5760206001600160781b0360085416604051908152f35b3461064b575f36600319011261064b5760206040516103848152f35b3461064b57606036600319011261064b57610e036124ab565b610e0b6124c1565b6001600160a01b039182165f90815260036020908152604080832094909316825292835281812060443582528352819020549051908152f35b3461064b57602036600319011261064b576004355f52600e60205260a060405f205460ff604051916001600160781b0381168352818160781c1615156020840152818160801c1615156040840152818160881c161515606084015260901c1615156080820152f35b3461064b575f36600319011261064b576005546040516001600160a01b039091168152602090f35b3461064b57604036600319011261064b57610eed6124ab565b6024359081151580920361064b57335f52600460205260405f2060018060a01b0382165f5260205260405f2060ff1981541660ff841617905560405191825260018060a01b0316907fceb576d9f15e4e200fdb5096d64d5dfd667e16def20c1eefd14256d8e3faa26760203392a3602060405160018152f35b3461064b575f36600319011261064b576006546040516001600160a01b039091168152602090f35b3461064b575f36600319011261064b576020600d54604051908152f35b3461064b575f36600319011261064b576040517f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03168152602090f35b3461064b57610ffd366124d7565b9091335f52600360205260405f2060018060a01b0382165f5260205260405f20835f526020528160405f205560405191825260018060a01b0316907fb3fd5071835887567a0671151121894ddccc2842f1d10bedad13e0d17cace9a760203392a4602060405160018152f35b3461064b575f36600319011261064b57602060405160648152f35b3461064b575f36600319011261064b576020604051620493e08152f35b3461064b57604036600319011261064b5760043560243567ffffffffffffffff811161064b573660238201121561064b57806004013567ffffffffffffffff811161064b573660248260051b8401011161064b57825f52600e60205260405f20549260ff8460801c1661140d5760ff8460781c16156113fb57335f52600960205260ff60405f2054169182156113e95780156113da57815f52601360205260405f2060ff84165f5260205260405f2093845460018060a01b03811680151590816113cf575b506112a3578260ff61117b9260a01c1661253c565b6007548091116113bd5750825f52601260205260405f20956103846111a184895461253c565b116113a4576001600160781b0316906001600160781b036008541692845f52601560205260405f2060ff87165f5260205260405f2054945f955b828710156112b25760248760051b85010135908860ff8316036112a3578160801c6001600160781b038360081c1690801561129457888210801561128b575b61127057611232929161122c9161256b565b9061253c565b968a5491600160401b83101561090457611254838d600180960190558d612511565b819291549060031b91821b915f19901b191617905501956111db565b87898363745f5e8560e11b5f5260045260245260445260645ffd5b5087821161121a565b63aa04eead60e01b5f5260045ffd5b631bf4348160e31b5f5260045ffd5b8789916112be336128e7565b80821161138f5750835f52601560205260405f2060ff83165f5260205260405f205560018060a01b038254161561134e575b5060ff831660ff825460a01c160160ff8111610af657815460ff60a01b191660a09190911b60ff60a01b1617905560405191825233917fd8437287060104b7f5ad6a394b79f08b7f4a21235e0ea34e3c5db590b6ddc8db90602090a3005b81546001600160a01b0319163390811783555f84815260146020908152604080832093835292905220805460ff191660ff92909216919091179055836112f0565b9062fae2d560e21b5f5260045260245260445ffd5b836310fe5b4760e11b5f5260045261038460245260445ffd5b63072b400560e21b5f5260045260245ffd5b905033141588611166565b63c3bc404360e01b5f5260045ffd5b626866c760e21b5f523360045260245ffd5b636073250f60e01b5f5260045260245ffd5b6338602da160e21b5f5260045260245ffd5b3461064b57602036600319011261064b57600554600435906001600160a01b0316330361068d5761144f81612881565b805460ff60901b1916600160901b1790555f81815260116020526040902054600191905b6101008310806115b8575b15611591576001831b8082161561158657191691815f52601360205260405f2060ff808316165f5260205260405f2054825f52600f6020526114d96001600160801b0360405f2054166001600160501b038360a81c1661256b565b90816114f1575b50506114eb906125d5565b91611473565b60405163a9059cbb60e01b81526001600160a01b0390911660048201526024810191909152602081806044810103815f7f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03165af1908115610640575f91611568575b501561064b5783806114e0565b611580915060203d8111610677576106698183612549565b8461155b565b50916114eb906125d5565b507feeb3847dc674bf6684a376e656c3a3df20f594093ee696e0b12bc5b437db396f5f80a2005b5080151561147e565b3461064b57602036600319011261064b576005546001600160a01b0316330361068d576004355f52600e60205260405f2080549060ff8260801c166120875760ff8260781c16156120725761ffff60781b198216600160801b17905560405190610140820167ffffffffffffffff8111838210176109045760405260606020830152606060408301525f606083015260606080830152606060a0830152606060c0830152606060e08301525f6101008301525f610120830152600435825261202060405161168f8282612549565b6101008152601f198201908136602083013760808501526040516116b38382612549565b61010081528136602083013760a08501526040516116d18382612549565b61010081528136602083013760c08501526116ef6040519283612549565b610100825236602083013760e08301526117126001600160781b03821683612703565b9180515f52601260205260405f208054918291600d54916001945b610100861080612067575b156117555760019061174a878a6126ef565b51510195019461172d565b869492955087919361176f61176983612596565b92612596565b92608086015197610100870151955f5f5f9b5f945b848610611f43575050505050506001955b610100871080611f38575b15611818576117af87836126ef565b51975f995b89518b101561180957600180918b6117eb8e6117d081846126ef565b516117db858d6126ef565b526001600160801b0319926126ef565b51168163ffffffff03176117ff828b6126ef565b52019a01996117b4565b99509750600190960195611795565b87858a86898260011c805b611e8d57508160208701528360408701528260608701526101008601525f9260a08601519160c08701519160e088015194905f976001600160781b038116975b88151580611e84575b15611ab85761187a836126e2565b51935f190193846119d6575b63ffffffff8061189a9216810316866126ef565b51986001600160781b038a60081c168181105f146119ce57915b8c600160ff8d161b8d161561198c575b506118e98b6118e360ff6118db8360801c8861256b565b92168b6126ef565b5161253c565b906118f760ff8d168b6126ef565b518211611938575061190c60ff8c16896126ef565b528161191b60ff8c168b6126ef565b510161192a60ff8c168b6126ef565b52039760801c905b90611863565b93925050988b7f4da793a51dd4cdcb5677c7bc10f36394b4c73f29ddd339170e8558fac8a398fc602082519261197d60018060a01b0391608060ff88169101516126ef565b511693604051908152a3611932565b60800151600160ff8d1690811b909d179c6119ba916001600160a01b03916119b3916126ef565b51166128e7565b6119c760ff8d168b6126ef565b528c6118c4565b5080916118b4565b97939995919a96929894906119eb8b8b6126ef565b516119f58b6126e2565b5260208a01519b5f5b600181811b01908d821015611a96578c908f8f60208560051b850101519360028460011b01918210611a71575b5050821115611a425760051b8d01602001526119fe565b61189a9495999d979b9f9063ffffffff94979b9f999d92508493506020905b60051b8901015292505050611886565b6020908260051b01015190848211611a8b575b508f611a2b565b945092505f80611a84565b63ffffffff9295999d979b9061189a9495999d979b9f90849350602090611a61565b90611acd896001600160781b038d93166125c8565b905f925f93610100830151925f916001936001600160801b038116915b610100861080611e79575b15611d64576001861b9081881615611d585760808501516001600160a01b0390611b209089906126ef565b511690611b318860e08801516126ef565b51611b3c868261256b565b9281151580611c61575b611c25575b87515f52601360205260405f2060ff8b169060ff82165f5260205260405f20918060018060a01b0384541603611bd6575b505080546001600160a81b031660a883901b69ffffffffffffffffffff60a81b1617600160f81b17905515611bc857611bc19291611bb99161253c565b9517956125d5565b9493611aea565b95969050611bc191506125d5565b82546001600160a81b0319166001600160a01b0391909116908117835589515f90815260146020908152604080832093835292905220805460ff191660ff929092169190911790558d80611b7c565b9250611c58919b8388517f0bdaf8434555bc1d62598340846f3c124b9bf07f1abca9f8772d6dbdfc7a21f95f80a361253c565b995f5f92611b4b565b505f8060405160208101906323b872dd60e01b825284602482015230604482015287606482015260648152611c97608482612549565b5190827f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03165af13d15611d51573d67ffffffffffffffff81116109045760405190611cf4601f8201601f191660200183612549565b81523d5f602083013e5b81611d0b575b5015611b46565b809150518015918215611d21575b50508e611d04565b6020821492509082611d37575b50508e80611d19565b611d4a92506020809183010191016125e3565b8e80611d2e565b6060611cfe565b9495611bc191506125d5565b9092611d878989876001600160781b0394515f52601160205260405f20556125c8565b16604051606081019381851067ffffffffffffffff861117610904577fd60c69685f3892a9af8b335cea87381d149cfb0bd61fbbc32a03ff6ac860a64894604052815260016020820183815260408301908582526004355f52600f6020526001600160801b0360405f209451168454916001600160781b0360801b905160801b169160ff60f81b161717835551910155611e746040519283926004357f2f95e6505f529dd225ce705685fe55440c01f2824ac3fb4303f6eef4bd453ff45f80a260043596846001600160781b036040929594936001600160801b0360608401971683521660208201520152565b0390a2005b5086861c1515611af5565b5083151561186c565b95945f9493941987019560208760051b86010151965b600181811b019087821015611f285760208260051b880101519060028160011b01898110611f04575b5089821115611ee35760051b870160200152611ea3565b905060209150989296959791985b60051b880101529394935f190180611823565b60208160051b8a01015190838211611f1d575b50611ecc565b935091508b80611f17565b6020915098929695979198611ef1565b5082871c15156117a0565b90919293949995989c8d89611f5d9a9e999d9a8d85612511565b90549060031b1c90600160ff83161b881615611fd6575b600160ff83161b871615611fca5791611fb184838194611f9760019889986126ef565b526001600160801b03191663ffffffff82900317926126ef565b52019a5b0194939291909c9895999c9b979a969b611784565b50505099600190611fb5565b60ff82165f818152600a6020526040902054600190911b909817976001600160a01b031680151580612038575b61200e575b50611f74565b96600160ff849c939c161b179661202860ff8416886126ef565b52600160ff83161b17985f612008565b508c515f90815260136020908152604080832060ff871684529091529020546001600160a01b03168114612003565b5083861c1515611738565b636073250f60e01b5f5260043560045260245ffd5b6338602da160e21b5f5260043560045260245ffd5b3461064b57604036600319011261064b576004356120b86124c1565b90805f52600e60205260ff60405f205460801c1615612145576120db82826125fb565b54918260f81c1561212257506001600160501b0360409260a81c16905f52600f6020526001600160801b0361211581845f2054168361256b565b1682519182526020820152f35b63172c59b760e01b5f9081526004929092526001600160a01b0316602452604490fd5b6301a0a3b160e21b5f5260045260245ffd5b3461064b57602036600319011261064b57612170612501565b5f546001600160a01b0316330361068d5760ff165f818152600a60205260409020546001600160a01b031680156112a357805f52600960205260405f2060ff198154169055815f52600a60205260405f206bffffffffffffffffffffffff60a01b81541690556001821b1980600c5416600c55600d5416600d55600b5460ff81168015610af65760ff905f1901169060ff191617600b557f1565a03f353c179db4ef7c840f71202c46b7547f6072f70a80ba97c7209bf0fb5f80a3005b3461064b57602036600319011261064b576004355f52601260205260405f20604051806020835491828152019081935f5260205f20905f5b8181106122bd575050508161227b910382612549565b604051918291602083019060208452518091526040830191905f5b8181106122a4575050500390f35b8251845285945060209384019390920191600101612296565b8254845260209093019260019283019201612265565b3461064b57602036600319011261064b576004355f52600f60205260405f20600181549101549061234360405192826001600160801b036001600160781b03869560801c169116846001600160781b036040929594936001600160801b0360608401971683521660208201520152565b0390f35b3461064b5761026c612358366124d7565b913361265b565b3461064b57602036600319011261064b576123786124ab565b5f546001600160a01b0316330361068d576005546001600160a01b0391821691829082167ffbe5b6cbafb274f445d7fed869dc77a838d8243a22c460de156560e8857cad035f80a36001600160a01b03191617600555005b3461064b57602036600319011261064b5760043563ffffffff60e01b811680910361064b576020906301ffc9a760e01b8114908115612415575b506040519015158152f35b630f632fb360e01b1490508261240a565b3461064b57604036600319011261064b57602061248f6124446124ab565b60243561245182826125fb565b9160018060a01b03165f526002845260405f20905f52835260405f20549060ff6001820154165f1461249757506001600160501b035f5b169061253c565b604051908152f35b6001600160501b0380915460a81c16612488565b600435906001600160a01b038216820361064b57565b602435906001600160a01b038216820361064b57565b606090600319011261064b576004356001600160a01b038116810361064b57906024359060443590565b6004359060ff8216820361064b57565b8054821015610c7d575f5260205f2001905f90565b602435906001600160781b038216820361064b57565b91908201809211610af657565b90601f8019910116810190811067ffffffffffffffff82111761090457604052565b81810292918115918404141715610af657565b67ffffffffffffffff81116109045760051b60200190565b906125a08261257e565b6125ad6040519182612549565b82815280926125be601f199161257e565b0190602036910137565b91908203918211610af657565b5f198114610af65760010190565b9081602091031261064b5751801515810361064b5790565b5f818152601360209081526040808320601483528184206001600160a01b039687168086529084528285205460ff168552925290912080549094931690036126405750565b9091505f52601360205260405f205f805260205260405f2090565b9192906126dd7f1b3d7edb2e9c0b0e7c525b20aaaef0f5940d2ed71663c7d39266ecafac7288599161268e8487876129ed565b60018060a01b031693845f52600260205260405f20865f5260205260405f206126b885825461253c565b90556040805133815260208101959095526001600160a01b0390911693918291820190565b0390a4565b805115610c7d5760200190565b8051821015610c7d5760209160051b010190565b600d54604051929392909161202061271b8184612549565b6101008352601f19015f5b8181106128705750508183156128695750600754946001600160781b036008541660015b61010081108061285e575b15612855576001811b908187161561284b5760ff81165f818152600a60205260409020549092906001600160a01b031662062d195a1061283c57846127ee94876127a18e8b5186612b14565b93909283612829575b505050156127fb578051156127f3576127c3848a6126ef565b526127ce83896126ef565b506127dd8360808901516126ef565b5261010086019081511790526125d5565b61274a565b5050506125d5565b50905085517f0bdaf8434555bc1d62598340846f3c124b9bf07f1abca9f8772d6dbdfc7a21f95f80a36125d5565b612834935084612c11565b87875f6127aa565b6307099c5360e21b5f5260045ffd5b6127ee91506125d5565b50505050925050565b5085811c1515612755565b9450505050565b806060602080938701015201612726565b90815f52600e60205260405f2091825460ff8160801c16156128d45760ff8160881c169081156128c6575b506128b45750565b63d9e3dd8360e01b5f5260045260245ffd5b60ff915060901c165f6128ac565b506304a2929760e31b5f5260045260245ffd5b6040516370a0823160e01b81526001600160a01b039182166004820181905290917f00000000000000000000000000000000000000000000000000000000000000001690602083602481855afa928315610640575f936129b8575b50602090604460405180948193636eb1769f60e11b835260048301523060248301525afa908115610640575f91612986575b5080821015612981575090565b905090565b90506020813d6020116129b0575b816129a160209383612549565b8101031261064b57515f612974565b3d9150612994565b9092506020813d6020116129e5575b816129d460209383612549565b8101031261064b5751916020612942565b3d91506129c7565b816129f882826125fb565b6001600160501b03815460a81c169081151580612b05575b612a82575b50505060018060a01b031690815f52600260205260405f20815f5260205260405f205491838310612a59575f52600260205260405f20905f526020520360405f2055565b91608493916040519363670f004560e01b85526004850152602484015260448301526064820152fd5b600101600160ff198254161790555f7f1b3d7edb2e9c0b0e7c525b20aaaef0f5940d2ed71663c7d39266ecafac728859612afa60018060a01b0386169384845260026020526040842086855260205260408420612ae082825461253c565b905560408051338152602081019290925290918291820190565b0390a4815f80612a15565b5060ff60018201541615612a10565b5f80919493946060936040516020810191633c889e6f60e01b8352602482015260248152612b43604482612549565b5191620493e0fa923d93158015612c07575b8015612be0575b612bd95760405f803e5f519360208051951491821592612bcf575b508115612ba5575b50612b9f5750612b8e82612596565b9160051b6040602084013e60019190565b5f925090565b90506001600160fb1b0384168403610af6578360051b6040019081604011610af65714155f612b7f565b851191505f612b77565b505f925090565b506001600160fb1b0381168103610af6578060051b60400180604011610af6578411612b5c565b5060408410612b55565b925f5b8451811015612c9e57612c2781866126ef565b516001600160781b038160081c1660ff851660ff83161491821592612c92575b508115612c7f575b8115612c6c575b50612c6357600101612c14565b50505050505f90565b90506001600160781b038316105f612c56565b6001600160781b03861681109150612c4f565b60801c1591505f612c47565b505050505060019056",
}

// Auctioneer is an auto generated Go binding around an Ethereum contract.
type Auctioneer struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *Auctioneer) GetABI() abi.ABI {
	return c.abi
}

// NewAuctioneer creates a new instance of Auctioneer.
func NewAuctioneer() *Auctioneer {
	parsed, err := AuctioneerMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &Auctioneer{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *Auctioneer) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address owner_, address operator_, address weth_, address accountant_) returns()
func (auctioneer *Auctioneer) PackConstructor(owner_ common.Address, operator_ common.Address, weth_ common.Address, accountant_ common.Address) []byte {
	enc, err := auctioneer.abi.Pack("", owner_, operator_, weth_, accountant_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackGETBIDGAS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x325a237a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function GET_BID_GAS() view returns(uint256)
func (auctioneer *Auctioneer) PackGETBIDGAS() []byte {
	enc, err := auctioneer.abi.Pack("GET_BID_GAS")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGETBIDGAS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x325a237a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function GET_BID_GAS() view returns(uint256)
func (auctioneer *Auctioneer) TryPackGETBIDGAS() ([]byte, error) {
	return auctioneer.abi.Pack("GET_BID_GAS")
}

// UnpackGETBIDGAS is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x325a237a.
//
// Solidity: function GET_BID_GAS() view returns(uint256)
func (auctioneer *Auctioneer) UnpackGETBIDGAS(data []byte) (*big.Int, error) {
	out, err := auctioneer.abi.Unpack("GET_BID_GAS", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackIdMap is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xed8b01bb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function IdMap(address ) view returns(uint8)
func (auctioneer *Auctioneer) PackIdMap(arg0 common.Address) []byte {
	enc, err := auctioneer.abi.Pack("IdMap", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIdMap is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xed8b01bb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function IdMap(address ) view returns(uint8)
func (auctioneer *Auctioneer) TryPackIdMap(arg0 common.Address) ([]byte, error) {
	return auctioneer.abi.Pack("IdMap", arg0)
}

// UnpackIdMap is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xed8b01bb.
//
// Solidity: function IdMap(address ) view returns(uint8)
func (auctioneer *Auctioneer) UnpackIdMap(data []byte) (uint8, error) {
	out, err := auctioneer.abi.Unpack("IdMap", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackMAXBIDSPERBIDDER is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3fb6bc86.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MAX_BIDS_PER_BIDDER() view returns(uint256)
func (auctioneer *Auctioneer) PackMAXBIDSPERBIDDER() []byte {
	enc, err := auctioneer.abi.Pack("MAX_BIDS_PER_BIDDER")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMAXBIDSPERBIDDER is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3fb6bc86.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MAX_BIDS_PER_BIDDER() view returns(uint256)
func (auctioneer *Auctioneer) TryPackMAXBIDSPERBIDDER() ([]byte, error) {
	return auctioneer.abi.Pack("MAX_BIDS_PER_BIDDER")
}

// UnpackMAXBIDSPERBIDDER is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3fb6bc86.
//
// Solidity: function MAX_BIDS_PER_BIDDER() view returns(uint256)
func (auctioneer *Auctioneer) UnpackMAXBIDSPERBIDDER(data []byte) (*big.Int, error) {
	out, err := auctioneer.abi.Unpack("MAX_BIDS_PER_BIDDER", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackMAXBIDSPERSLOT is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5aab7427.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MAX_BIDS_PER_SLOT() view returns(uint256)
func (auctioneer *Auctioneer) PackMAXBIDSPERSLOT() []byte {
	enc, err := auctioneer.abi.Pack("MAX_BIDS_PER_SLOT")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMAXBIDSPERSLOT is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5aab7427.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MAX_BIDS_PER_SLOT() view returns(uint256)
func (auctioneer *Auctioneer) TryPackMAXBIDSPERSLOT() ([]byte, error) {
	return auctioneer.abi.Pack("MAX_BIDS_PER_SLOT")
}

// UnpackMAXBIDSPERSLOT is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x5aab7427.
//
// Solidity: function MAX_BIDS_PER_SLOT() view returns(uint256)
func (auctioneer *Auctioneer) UnpackMAXBIDSPERSLOT(data []byte) (*big.Int, error) {
	out, err := auctioneer.abi.Unpack("MAX_BIDS_PER_SLOT", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackMAXCONTRACTBIDDERS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa54a3101.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MAX_CONTRACT_BIDDERS() view returns(uint256)
func (auctioneer *Auctioneer) PackMAXCONTRACTBIDDERS() []byte {
	enc, err := auctioneer.abi.Pack("MAX_CONTRACT_BIDDERS")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMAXCONTRACTBIDDERS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa54a3101.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MAX_CONTRACT_BIDDERS() view returns(uint256)
func (auctioneer *Auctioneer) TryPackMAXCONTRACTBIDDERS() ([]byte, error) {
	return auctioneer.abi.Pack("MAX_CONTRACT_BIDDERS")
}

// UnpackMAXCONTRACTBIDDERS is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa54a3101.
//
// Solidity: function MAX_CONTRACT_BIDDERS() view returns(uint256)
func (auctioneer *Auctioneer) UnpackMAXCONTRACTBIDDERS(data []byte) (*big.Int, error) {
	out, err := auctioneer.abi.Unpack("MAX_CONTRACT_BIDDERS", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackWETH9 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4aa4a4fc.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function WETH9() view returns(address)
func (auctioneer *Auctioneer) PackWETH9() []byte {
	enc, err := auctioneer.abi.Pack("WETH9")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWETH9 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4aa4a4fc.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function WETH9() view returns(address)
func (auctioneer *Auctioneer) TryPackWETH9() ([]byte, error) {
	return auctioneer.abi.Pack("WETH9")
}

// UnpackWETH9 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x4aa4a4fc.
//
// Solidity: function WETH9() view returns(address)
func (auctioneer *Auctioneer) UnpackWETH9(data []byte) (common.Address, error) {
	out, err := auctioneer.abi.Unpack("WETH9", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackAcceptOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x79ba5097.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function acceptOwnership() returns()
func (auctioneer *Auctioneer) PackAcceptOwnership() []byte {
	enc, err := auctioneer.abi.Pack("acceptOwnership")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAcceptOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x79ba5097.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function acceptOwnership() returns()
func (auctioneer *Auctioneer) TryPackAcceptOwnership() ([]byte, error) {
	return auctioneer.abi.Pack("acceptOwnership")
}

// PackAccountant is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4fb3ccc5.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function accountant() view returns(address)
func (auctioneer *Auctioneer) PackAccountant() []byte {
	enc, err := auctioneer.abi.Pack("accountant")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAccountant is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4fb3ccc5.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function accountant() view returns(address)
func (auctioneer *Auctioneer) TryPackAccountant() ([]byte, error) {
	return auctioneer.abi.Pack("accountant")
}

// UnpackAccountant is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x4fb3ccc5.
//
// Solidity: function accountant() view returns(address)
func (auctioneer *Auctioneer) UnpackAccountant(data []byte) (common.Address, error) {
	out, err := auctioneer.abi.Unpack("accountant", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x598af9e7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function allowance(address , address , uint256 ) view returns(uint256)
func (auctioneer *Auctioneer) PackAllowance(arg0 common.Address, arg1 common.Address, arg2 *big.Int) []byte {
	enc, err := auctioneer.abi.Pack("allowance", arg0, arg1, arg2)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x598af9e7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function allowance(address , address , uint256 ) view returns(uint256)
func (auctioneer *Auctioneer) TryPackAllowance(arg0 common.Address, arg1 common.Address, arg2 *big.Int) ([]byte, error) {
	return auctioneer.abi.Pack("allowance", arg0, arg1, arg2)
}

// UnpackAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x598af9e7.
//
// Solidity: function allowance(address , address , uint256 ) view returns(uint256)
func (auctioneer *Auctioneer) UnpackAllowance(data []byte) (*big.Int, error) {
	out, err := auctioneer.abi.Unpack("allowance", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x426a8493.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function approve(address spender, uint256 id, uint256 amount) returns(bool)
func (auctioneer *Auctioneer) PackApprove(spender common.Address, id *big.Int, amount *big.Int) []byte {
	enc, err := auctioneer.abi.Pack("approve", spender, id, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x426a8493.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function approve(address spender, uint256 id, uint256 amount) returns(bool)
func (auctioneer *Auctioneer) TryPackApprove(spender common.Address, id *big.Int, amount *big.Int) ([]byte, error) {
	return auctioneer.abi.Pack("approve", spender, id, amount)
}

// UnpackApprove is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x426a8493.
//
// Solidity: function approve(address spender, uint256 id, uint256 amount) returns(bool)
func (auctioneer *Auctioneer) UnpackApprove(data []byte) (bool, error) {
	out, err := auctioneer.abi.Unpack("approve", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackAuctions is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x571a26a0.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function auctions(uint256 ) view returns(uint120 itemsForSale, bool isOpen, bool isSettled, bool isPaidOut, bool isRefunded)
func (auctioneer *Auctioneer) PackAuctions(arg0 *big.Int) []byte {
	enc, err := auctioneer.abi.Pack("auctions", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAuctions is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x571a26a0.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function auctions(uint256 ) view returns(uint120 itemsForSale, bool isOpen, bool isSettled, bool isPaidOut, bool isRefunded)
func (auctioneer *Auctioneer) TryPackAuctions(arg0 *big.Int) ([]byte, error) {
	return auctioneer.abi.Pack("auctions", arg0)
}

// AuctionsOutput serves as a container for the return parameters of contract
// method Auctions.
type AuctionsOutput struct {
	ItemsForSale *big.Int
	IsOpen       bool
	IsSettled    bool
	IsPaidOut    bool
	IsRefunded   bool
}

// UnpackAuctions is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x571a26a0.
//
// Solidity: function auctions(uint256 ) view returns(uint120 itemsForSale, bool isOpen, bool isSettled, bool isPaidOut, bool isRefunded)
func (auctioneer *Auctioneer) UnpackAuctions(data []byte) (AuctionsOutput, error) {
	out, err := auctioneer.abi.Unpack("auctions", data)
	outstruct := new(AuctionsOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.ItemsForSale = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.IsOpen = *abi.ConvertType(out[1], new(bool)).(*bool)
	outstruct.IsSettled = *abi.ConvertType(out[2], new(bool)).(*bool)
	outstruct.IsPaidOut = *abi.ConvertType(out[3], new(bool)).(*bool)
	outstruct.IsRefunded = *abi.ConvertType(out[4], new(bool)).(*bool)
	return *outstruct, nil
}

// PackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x00fdd58e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function balanceOf(address owner, uint256 id) view returns(uint256)
func (auctioneer *Auctioneer) PackBalanceOf(owner common.Address, id *big.Int) []byte {
	enc, err := auctioneer.abi.Pack("balanceOf", owner, id)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x00fdd58e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function balanceOf(address owner, uint256 id) view returns(uint256)
func (auctioneer *Auctioneer) TryPackBalanceOf(owner common.Address, id *big.Int) ([]byte, error) {
	return auctioneer.abi.Pack("balanceOf", owner, id)
}

// UnpackBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x00fdd58e.
//
// Solidity: function balanceOf(address owner, uint256 id) view returns(uint256)
func (auctioneer *Auctioneer) UnpackBalanceOf(data []byte) (*big.Int, error) {
	out, err := auctioneer.abi.Unpack("balanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackBid is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x29feef88.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function bid(uint256 slot, uint256[] packedBids) returns()
func (auctioneer *Auctioneer) PackBid(slot *big.Int, packedBids []*big.Int) []byte {
	enc, err := auctioneer.abi.Pack("bid", slot, packedBids)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBid is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x29feef88.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function bid(uint256 slot, uint256[] packedBids) returns()
func (auctioneer *Auctioneer) TryPackBid(slot *big.Int, packedBids []*big.Int) ([]byte, error) {
	return auctioneer.abi.Pack("bid", slot, packedBids)
}

// PackBidCount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb9a958b4.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function bidCount(uint256 slot) view returns(uint256)
func (auctioneer *Auctioneer) PackBidCount(slot *big.Int) []byte {
	enc, err := auctioneer.abi.Pack("bidCount", slot)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBidCount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb9a958b4.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function bidCount(uint256 slot) view returns(uint256)
func (auctioneer *Auctioneer) TryPackBidCount(slot *big.Int) ([]byte, error) {
	return auctioneer.abi.Pack("bidCount", slot)
}

// UnpackBidCount is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb9a958b4.
//
// Solidity: function bidCount(uint256 slot) view returns(uint256)
func (auctioneer *Auctioneer) UnpackBidCount(data []byte) (*big.Int, error) {
	out, err := auctioneer.abi.Unpack("bidCount", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackBidderCount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70d29c11.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function bidderCount() view returns(uint8)
func (auctioneer *Auctioneer) PackBidderCount() []byte {
	enc, err := auctioneer.abi.Pack("bidderCount")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBidderCount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70d29c11.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function bidderCount() view returns(uint8)
func (auctioneer *Auctioneer) TryPackBidderCount() ([]byte, error) {
	return auctioneer.abi.Pack("bidderCount")
}

// UnpackBidderCount is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x70d29c11.
//
// Solidity: function bidderCount() view returns(uint8)
func (auctioneer *Auctioneer) UnpackBidderCount(data []byte) (uint8, error) {
	out, err := auctioneer.abi.Unpack("bidderCount", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackBidderMap is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd6804b8e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function bidderMap(uint8 ) view returns(address)
func (auctioneer *Auctioneer) PackBidderMap(arg0 uint8) []byte {
	enc, err := auctioneer.abi.Pack("bidderMap", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBidderMap is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd6804b8e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function bidderMap(uint8 ) view returns(address)
func (auctioneer *Auctioneer) TryPackBidderMap(arg0 uint8) ([]byte, error) {
	return auctioneer.abi.Pack("bidderMap", arg0)
}

// UnpackBidderMap is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xd6804b8e.
//
// Solidity: function bidderMap(uint8 ) view returns(address)
func (auctioneer *Auctioneer) UnpackBidderMap(data []byte) (common.Address, error) {
	out, err := auctioneer.abi.Unpack("bidderMap", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackBurn is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb390c0ab.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function burn(uint256 id, uint256 amount) returns()
func (auctioneer *Auctioneer) PackBurn(id *big.Int, amount *big.Int) []byte {
	enc, err := auctioneer.abi.Pack("burn", id, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBurn is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb390c0ab.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function burn(uint256 id, uint256 amount) returns()
func (auctioneer *Auctioneer) TryPackBurn(id *big.Int, amount *big.Int) ([]byte, error) {
	return auctioneer.abi.Pack("burn", id, amount)
}

// PackChangeOperator is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06394c9b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function changeOperator(address newOperator) returns()
func (auctioneer *Auctioneer) PackChangeOperator(newOperator common.Address) []byte {
	enc, err := auctioneer.abi.Pack("changeOperator", newOperator)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackChangeOperator is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06394c9b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function changeOperator(address newOperator) returns()
func (auctioneer *Auctioneer) TryPackChangeOperator(newOperator common.Address) ([]byte, error) {
	return auctioneer.abi.Pack("changeOperator", newOperator)
}

// PackClearings is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x12857f5c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function clearings(uint256 ) view returns(uint128 price, uint120 itemsSold, uint256 proceeds)
func (auctioneer *Auctioneer) PackClearings(arg0 *big.Int) []byte {
	enc, err := auctioneer.abi.Pack("clearings", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackClearings is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x12857f5c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function clearings(uint256 ) view returns(uint128 price, uint120 itemsSold, uint256 proceeds)
func (auctioneer *Auctioneer) TryPackClearings(arg0 *big.Int) ([]byte, error) {
	return auctioneer.abi.Pack("clearings", arg0)
}

// ClearingsOutput serves as a container for the return parameters of contract
// method Clearings.
type ClearingsOutput struct {
	Price     *big.Int
	ItemsSold *big.Int
	Proceeds  *big.Int
}

// UnpackClearings is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x12857f5c.
//
// Solidity: function clearings(uint256 ) view returns(uint128 price, uint120 itemsSold, uint256 proceeds)
func (auctioneer *Auctioneer) UnpackClearings(data []byte) (ClearingsOutput, error) {
	out, err := auctioneer.abi.Unpack("clearings", data)
	outstruct := new(ClearingsOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.Price = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.ItemsSold = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	outstruct.Proceeds = abi.ConvertType(out[2], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackContractBidders is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4b826a42.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function contractBidders() view returns(uint256)
func (auctioneer *Auctioneer) PackContractBidders() []byte {
	enc, err := auctioneer.abi.Pack("contractBidders")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackContractBidders is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4b826a42.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function contractBidders() view returns(uint256)
func (auctioneer *Auctioneer) TryPackContractBidders() ([]byte, error) {
	return auctioneer.abi.Pack("contractBidders")
}

// UnpackContractBidders is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x4b826a42.
//
// Solidity: function contractBidders() view returns(uint256)
func (auctioneer *Auctioneer) UnpackContractBidders(data []byte) (*big.Int, error) {
	out, err := auctioneer.abi.Unpack("contractBidders", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackGetBidderInfo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x199f3edf.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getBidderInfo(uint256 slot, address bidder) view returns(uint120 itemsBought, uint128 amountOwed)
func (auctioneer *Auctioneer) PackGetBidderInfo(slot *big.Int, bidder common.Address) []byte {
	enc, err := auctioneer.abi.Pack("getBidderInfo", slot, bidder)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetBidderInfo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x199f3edf.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getBidderInfo(uint256 slot, address bidder) view returns(uint120 itemsBought, uint128 amountOwed)
func (auctioneer *Auctioneer) TryPackGetBidderInfo(slot *big.Int, bidder common.Address) ([]byte, error) {
	return auctioneer.abi.Pack("getBidderInfo", slot, bidder)
}

// GetBidderInfoOutput serves as a container for the return parameters of contract
// method GetBidderInfo.
type GetBidderInfoOutput struct {
	ItemsBought *big.Int
	AmountOwed  *big.Int
}

// UnpackGetBidderInfo is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x199f3edf.
//
// Solidity: function getBidderInfo(uint256 slot, address bidder) view returns(uint120 itemsBought, uint128 amountOwed)
func (auctioneer *Auctioneer) UnpackGetBidderInfo(data []byte) (GetBidderInfoOutput, error) {
	out, err := auctioneer.abi.Unpack("getBidderInfo", data)
	outstruct := new(GetBidderInfoOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.ItemsBought = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.AmountOwed = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackGetBids is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x131d9a27.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getBids(uint256 slot) view returns(uint256[])
func (auctioneer *Auctioneer) PackGetBids(slot *big.Int) []byte {
	enc, err := auctioneer.abi.Pack("getBids", slot)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetBids is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x131d9a27.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getBids(uint256 slot) view returns(uint256[])
func (auctioneer *Auctioneer) TryPackGetBids(slot *big.Int) ([]byte, error) {
	return auctioneer.abi.Pack("getBids", slot)
}

// UnpackGetBids is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x131d9a27.
//
// Solidity: function getBids(uint256 slot) view returns(uint256[])
func (auctioneer *Auctioneer) UnpackGetBids(data []byte) ([]*big.Int, error) {
	out, err := auctioneer.abi.Unpack("getBids", data)
	if err != nil {
		return *new([]*big.Int), err
	}
	out0 := *abi.ConvertType(out[0], new([]*big.Int)).(*[]*big.Int)
	return out0, nil
}

// PackIsOperator is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb6363cf2.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isOperator(address , address ) view returns(bool)
func (auctioneer *Auctioneer) PackIsOperator(arg0 common.Address, arg1 common.Address) []byte {
	enc, err := auctioneer.abi.Pack("isOperator", arg0, arg1)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsOperator is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb6363cf2.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isOperator(address , address ) view returns(bool)
func (auctioneer *Auctioneer) TryPackIsOperator(arg0 common.Address, arg1 common.Address) ([]byte, error) {
	return auctioneer.abi.Pack("isOperator", arg0, arg1)
}

// UnpackIsOperator is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb6363cf2.
//
// Solidity: function isOperator(address , address ) view returns(bool)
func (auctioneer *Auctioneer) UnpackIsOperator(data []byte) (bool, error) {
	out, err := auctioneer.abi.Unpack("isOperator", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackMaxBids is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9f235ccd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function maxBids() view returns(uint256)
func (auctioneer *Auctioneer) PackMaxBids() []byte {
	enc, err := auctioneer.abi.Pack("maxBids")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMaxBids is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9f235ccd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function maxBids() view returns(uint256)
func (auctioneer *Auctioneer) TryPackMaxBids() ([]byte, error) {
	return auctioneer.abi.Pack("maxBids")
}

// UnpackMaxBids is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x9f235ccd.
//
// Solidity: function maxBids() view returns(uint256)
func (auctioneer *Auctioneer) UnpackMaxBids(data []byte) (*big.Int, error) {
	out, err := auctioneer.abi.Unpack("maxBids", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackMinGasAmount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x60966d8d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function minGasAmount() view returns(uint120)
func (auctioneer *Auctioneer) PackMinGasAmount() []byte {
	enc, err := auctioneer.abi.Pack("minGasAmount")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMinGasAmount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x60966d8d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function minGasAmount() view returns(uint120)
func (auctioneer *Auctioneer) TryPackMinGasAmount() ([]byte, error) {
	return auctioneer.abi.Pack("minGasAmount")
}

// UnpackMinGasAmount is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x60966d8d.
//
// Solidity: function minGasAmount() view returns(uint120)
func (auctioneer *Auctioneer) UnpackMinGasAmount(data []byte) (*big.Int, error) {
	out, err := auctioneer.abi.Unpack("minGasAmount", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackNewBidder is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8a446114.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function newBidder(address bidder) returns(uint8 newId)
func (auctioneer *Auctioneer) PackNewBidder(bidder common.Address) []byte {
	enc, err := auctioneer.abi.Pack("newBidder", bidder)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackNewBidder is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8a446114.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function newBidder(address bidder) returns(uint8 newId)
func (auctioneer *Auctioneer) TryPackNewBidder(bidder common.Address) ([]byte, error) {
	return auctioneer.abi.Pack("newBidder", bidder)
}

// UnpackNewBidder is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8a446114.
//
// Solidity: function newBidder(address bidder) returns(uint8 newId)
func (auctioneer *Auctioneer) UnpackNewBidder(data []byte) (uint8, error) {
	out, err := auctioneer.abi.Unpack("newBidder", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackOpenAuction is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xafefb9d9.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function openAuction(uint256 slot, uint120 itemsForSale) returns()
func (auctioneer *Auctioneer) PackOpenAuction(slot *big.Int, itemsForSale *big.Int) []byte {
	enc, err := auctioneer.abi.Pack("openAuction", slot, itemsForSale)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOpenAuction is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xafefb9d9.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function openAuction(uint256 slot, uint120 itemsForSale) returns()
func (auctioneer *Auctioneer) TryPackOpenAuction(slot *big.Int, itemsForSale *big.Int) ([]byte, error) {
	return auctioneer.abi.Pack("openAuction", slot, itemsForSale)
}

// PackOperator is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x570ca735.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function operator() view returns(address)
func (auctioneer *Auctioneer) PackOperator() []byte {
	enc, err := auctioneer.abi.Pack("operator")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOperator is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x570ca735.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function operator() view returns(address)
func (auctioneer *Auctioneer) TryPackOperator() ([]byte, error) {
	return auctioneer.abi.Pack("operator")
}

// UnpackOperator is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x570ca735.
//
// Solidity: function operator() view returns(address)
func (auctioneer *Auctioneer) UnpackOperator(data []byte) (common.Address, error) {
	out, err := auctioneer.abi.Unpack("operator", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (auctioneer *Auctioneer) PackOwner() []byte {
	enc, err := auctioneer.abi.Pack("owner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function owner() view returns(address)
func (auctioneer *Auctioneer) TryPackOwner() ([]byte, error) {
	return auctioneer.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (auctioneer *Auctioneer) UnpackOwner(data []byte) (common.Address, error) {
	out, err := auctioneer.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackPackBid is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xba6ec73a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function packBid(uint128 bidPrice, uint120 itemsToBuy, uint8 bidderId) pure returns(uint256 packedBid)
func (auctioneer *Auctioneer) PackPackBid(bidPrice *big.Int, itemsToBuy *big.Int, bidderId uint8) []byte {
	enc, err := auctioneer.abi.Pack("packBid", bidPrice, itemsToBuy, bidderId)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPackBid is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xba6ec73a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function packBid(uint128 bidPrice, uint120 itemsToBuy, uint8 bidderId) pure returns(uint256 packedBid)
func (auctioneer *Auctioneer) TryPackPackBid(bidPrice *big.Int, itemsToBuy *big.Int, bidderId uint8) ([]byte, error) {
	return auctioneer.abi.Pack("packBid", bidPrice, itemsToBuy, bidderId)
}

// UnpackPackBid is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xba6ec73a.
//
// Solidity: function packBid(uint128 bidPrice, uint120 itemsToBuy, uint8 bidderId) pure returns(uint256 packedBid)
func (auctioneer *Auctioneer) UnpackPackBid(data []byte) (*big.Int, error) {
	out, err := auctioneer.abi.Unpack("packBid", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackPayout is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe1152343.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function payout(uint256 slot) returns()
func (auctioneer *Auctioneer) PackPayout(slot *big.Int) []byte {
	enc, err := auctioneer.abi.Pack("payout", slot)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPayout is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe1152343.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function payout(uint256 slot) returns()
func (auctioneer *Auctioneer) TryPackPayout(slot *big.Int) ([]byte, error) {
	return auctioneer.abi.Pack("payout", slot)
}

// PackPendingOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe30c3978.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function pendingOwner() view returns(address)
func (auctioneer *Auctioneer) PackPendingOwner() []byte {
	enc, err := auctioneer.abi.Pack("pendingOwner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPendingOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe30c3978.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function pendingOwner() view returns(address)
func (auctioneer *Auctioneer) TryPackPendingOwner() ([]byte, error) {
	return auctioneer.abi.Pack("pendingOwner")
}

// UnpackPendingOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xe30c3978.
//
// Solidity: function pendingOwner() view returns(address)
func (auctioneer *Auctioneer) UnpackPendingOwner(data []byte) (common.Address, error) {
	out, err := auctioneer.abi.Unpack("pendingOwner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackRefund is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x278ecde1.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function refund(uint256 slot) returns()
func (auctioneer *Auctioneer) PackRefund(slot *big.Int) []byte {
	enc, err := auctioneer.abi.Pack("refund", slot)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRefund is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x278ecde1.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function refund(uint256 slot) returns()
func (auctioneer *Auctioneer) TryPackRefund(slot *big.Int) ([]byte, error) {
	return auctioneer.abi.Pack("refund", slot)
}

// PackRemoveBidder is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x173d20da.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function removeBidder(uint8 bidderId) returns()
func (auctioneer *Auctioneer) PackRemoveBidder(bidderId uint8) []byte {
	enc, err := auctioneer.abi.Pack("removeBidder", bidderId)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRemoveBidder is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x173d20da.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function removeBidder(uint8 bidderId) returns()
func (auctioneer *Auctioneer) TryPackRemoveBidder(bidderId uint8) ([]byte, error) {
	return auctioneer.abi.Pack("removeBidder", bidderId)
}

// PackRunAndSettle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x213cffe4.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function runAndSettle(uint256 slot) returns()
func (auctioneer *Auctioneer) PackRunAndSettle(slot *big.Int) []byte {
	enc, err := auctioneer.abi.Pack("runAndSettle", slot)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRunAndSettle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x213cffe4.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function runAndSettle(uint256 slot) returns()
func (auctioneer *Auctioneer) TryPackRunAndSettle(slot *big.Int) ([]byte, error) {
	return auctioneer.abi.Pack("runAndSettle", slot)
}

// PackSetOperator is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x558a7297.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setOperator(address spender, bool approved) returns(bool)
func (auctioneer *Auctioneer) PackSetOperator(spender common.Address, approved bool) []byte {
	enc, err := auctioneer.abi.Pack("setOperator", spender, approved)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetOperator is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x558a7297.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setOperator(address spender, bool approved) returns(bool)
func (auctioneer *Auctioneer) TryPackSetOperator(spender common.Address, approved bool) ([]byte, error) {
	return auctioneer.abi.Pack("setOperator", spender, approved)
}

// UnpackSetOperator is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x558a7297.
//
// Solidity: function setOperator(address spender, bool approved) returns(bool)
func (auctioneer *Auctioneer) UnpackSetOperator(data []byte) (bool, error) {
	out, err := auctioneer.abi.Unpack("setOperator", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackSlotsAuctioned is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x841847a5.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function slotsAuctioned(uint256 ) view returns(uint256)
func (auctioneer *Auctioneer) PackSlotsAuctioned(arg0 *big.Int) []byte {
	enc, err := auctioneer.abi.Pack("slotsAuctioned", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSlotsAuctioned is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x841847a5.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function slotsAuctioned(uint256 ) view returns(uint256)
func (auctioneer *Auctioneer) TryPackSlotsAuctioned(arg0 *big.Int) ([]byte, error) {
	return auctioneer.abi.Pack("slotsAuctioned", arg0)
}

// UnpackSlotsAuctioned is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x841847a5.
//
// Solidity: function slotsAuctioned(uint256 ) view returns(uint256)
func (auctioneer *Auctioneer) UnpackSlotsAuctioned(data []byte) (*big.Int, error) {
	out, err := auctioneer.abi.Unpack("slotsAuctioned", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackSlotsCount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x81083bd4.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function slotsCount() view returns(uint256)
func (auctioneer *Auctioneer) PackSlotsCount() []byte {
	enc, err := auctioneer.abi.Pack("slotsCount")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSlotsCount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x81083bd4.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function slotsCount() view returns(uint256)
func (auctioneer *Auctioneer) TryPackSlotsCount() ([]byte, error) {
	return auctioneer.abi.Pack("slotsCount")
}

// UnpackSlotsCount is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x81083bd4.
//
// Solidity: function slotsCount() view returns(uint256)
func (auctioneer *Auctioneer) UnpackSlotsCount(data []byte) (*big.Int, error) {
	out, err := auctioneer.abi.Unpack("slotsCount", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackSupportsInterface is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x01ffc9a7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function supportsInterface(bytes4 interfaceId) pure returns(bool)
func (auctioneer *Auctioneer) PackSupportsInterface(interfaceId [4]byte) []byte {
	enc, err := auctioneer.abi.Pack("supportsInterface", interfaceId)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSupportsInterface is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x01ffc9a7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function supportsInterface(bytes4 interfaceId) pure returns(bool)
func (auctioneer *Auctioneer) TryPackSupportsInterface(interfaceId [4]byte) ([]byte, error) {
	return auctioneer.abi.Pack("supportsInterface", interfaceId)
}

// UnpackSupportsInterface is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x01ffc9a7.
//
// Solidity: function supportsInterface(bytes4 interfaceId) pure returns(bool)
func (auctioneer *Auctioneer) UnpackSupportsInterface(data []byte) (bool, error) {
	out, err := auctioneer.abi.Unpack("supportsInterface", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095bcdb6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transfer(address receiver, uint256 id, uint256 amount) returns(bool)
func (auctioneer *Auctioneer) PackTransfer(receiver common.Address, id *big.Int, amount *big.Int) []byte {
	enc, err := auctioneer.abi.Pack("transfer", receiver, id, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095bcdb6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transfer(address receiver, uint256 id, uint256 amount) returns(bool)
func (auctioneer *Auctioneer) TryPackTransfer(receiver common.Address, id *big.Int, amount *big.Int) ([]byte, error) {
	return auctioneer.abi.Pack("transfer", receiver, id, amount)
}

// UnpackTransfer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x095bcdb6.
//
// Solidity: function transfer(address receiver, uint256 id, uint256 amount) returns(bool)
func (auctioneer *Auctioneer) UnpackTransfer(data []byte) (bool, error) {
	out, err := auctioneer.abi.Unpack("transfer", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfe99049a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferFrom(address sender, address receiver, uint256 id, uint256 amount) returns(bool)
func (auctioneer *Auctioneer) PackTransferFrom(sender common.Address, receiver common.Address, id *big.Int, amount *big.Int) []byte {
	enc, err := auctioneer.abi.Pack("transferFrom", sender, receiver, id, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfe99049a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferFrom(address sender, address receiver, uint256 id, uint256 amount) returns(bool)
func (auctioneer *Auctioneer) TryPackTransferFrom(sender common.Address, receiver common.Address, id *big.Int, amount *big.Int) ([]byte, error) {
	return auctioneer.abi.Pack("transferFrom", sender, receiver, id, amount)
}

// UnpackTransferFrom is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xfe99049a.
//
// Solidity: function transferFrom(address sender, address receiver, uint256 id, uint256 amount) returns(bool)
func (auctioneer *Auctioneer) UnpackTransferFrom(data []byte) (bool, error) {
	out, err := auctioneer.abi.Unpack("transferFrom", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (auctioneer *Auctioneer) PackTransferOwnership(newOwner common.Address) []byte {
	enc, err := auctioneer.abi.Pack("transferOwnership", newOwner)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (auctioneer *Auctioneer) TryPackTransferOwnership(newOwner common.Address) ([]byte, error) {
	return auctioneer.abi.Pack("transferOwnership", newOwner)
}

// PackUpdateAccountant is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6c222b17.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function updateAccountant(address newAccountant) returns()
func (auctioneer *Auctioneer) PackUpdateAccountant(newAccountant common.Address) []byte {
	enc, err := auctioneer.abi.Pack("updateAccountant", newAccountant)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackUpdateAccountant is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6c222b17.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function updateAccountant(address newAccountant) returns()
func (auctioneer *Auctioneer) TryPackUpdateAccountant(newAccountant common.Address) ([]byte, error) {
	return auctioneer.abi.Pack("updateAccountant", newAccountant)
}

// PackUpdateMaxBids is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x86d1f5d9.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function updateMaxBids(uint256 newMaxBids) returns()
func (auctioneer *Auctioneer) PackUpdateMaxBids(newMaxBids *big.Int) []byte {
	enc, err := auctioneer.abi.Pack("updateMaxBids", newMaxBids)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackUpdateMaxBids is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x86d1f5d9.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function updateMaxBids(uint256 newMaxBids) returns()
func (auctioneer *Auctioneer) TryPackUpdateMaxBids(newMaxBids *big.Int) ([]byte, error) {
	return auctioneer.abi.Pack("updateMaxBids", newMaxBids)
}

// PackUpdateMinGasAmount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe592b604.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function updateMinGasAmount(uint120 newAmount) returns()
func (auctioneer *Auctioneer) PackUpdateMinGasAmount(newAmount *big.Int) []byte {
	enc, err := auctioneer.abi.Pack("updateMinGasAmount", newAmount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackUpdateMinGasAmount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe592b604.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function updateMinGasAmount(uint120 newAmount) returns()
func (auctioneer *Auctioneer) TryPackUpdateMinGasAmount(newAmount *big.Int) ([]byte, error) {
	return auctioneer.abi.Pack("updateMinGasAmount", newAmount)
}

// PackUsedIds is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xeb341a21.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function usedIds() view returns(uint256)
func (auctioneer *Auctioneer) PackUsedIds() []byte {
	enc, err := auctioneer.abi.Pack("usedIds")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackUsedIds is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xeb341a21.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function usedIds() view returns(uint256)
func (auctioneer *Auctioneer) TryPackUsedIds() ([]byte, error) {
	return auctioneer.abi.Pack("usedIds")
}

// UnpackUsedIds is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xeb341a21.
//
// Solidity: function usedIds() view returns(uint256)
func (auctioneer *Auctioneer) UnpackUsedIds(data []byte) (*big.Int, error) {
	out, err := auctioneer.abi.Unpack("usedIds", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackWinners is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa2fb1175.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function winners(uint256 ) view returns(uint256)
func (auctioneer *Auctioneer) PackWinners(arg0 *big.Int) []byte {
	enc, err := auctioneer.abi.Pack("winners", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWinners is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa2fb1175.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function winners(uint256 ) view returns(uint256)
func (auctioneer *Auctioneer) TryPackWinners(arg0 *big.Int) ([]byte, error) {
	return auctioneer.abi.Pack("winners", arg0)
}

// UnpackWinners is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa2fb1175.
//
// Solidity: function winners(uint256 ) view returns(uint256)
func (auctioneer *Auctioneer) UnpackWinners(data []byte) (*big.Int, error) {
	out, err := auctioneer.abi.Unpack("winners", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// AuctioneerAccountantUpdated represents a AccountantUpdated event raised by the Auctioneer contract.
type AuctioneerAccountantUpdated struct {
	OldAccountant common.Address
	NewAccountant common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const AuctioneerAccountantUpdatedEventName = "AccountantUpdated"

// ContractEventName returns the user-defined event name.
func (AuctioneerAccountantUpdated) ContractEventName() string {
	return AuctioneerAccountantUpdatedEventName
}

// UnpackAccountantUpdatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event AccountantUpdated(address indexed oldAccountant, address indexed newAccountant)
func (auctioneer *Auctioneer) UnpackAccountantUpdatedEvent(log *types.Log) (*AuctioneerAccountantUpdated, error) {
	event := "AccountantUpdated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != auctioneer.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AuctioneerAccountantUpdated)
	if len(log.Data) > 0 {
		if err := auctioneer.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range auctioneer.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AuctioneerApproval represents a Approval event raised by the Auctioneer contract.
type AuctioneerApproval struct {
	Owner   common.Address
	Spender common.Address
	Id      *big.Int
	Amount  *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const AuctioneerApprovalEventName = "Approval"

// ContractEventName returns the user-defined event name.
func (AuctioneerApproval) ContractEventName() string {
	return AuctioneerApprovalEventName
}

// UnpackApprovalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Approval(address indexed owner, address indexed spender, uint256 indexed id, uint256 amount)
func (auctioneer *Auctioneer) UnpackApprovalEvent(log *types.Log) (*AuctioneerApproval, error) {
	event := "Approval"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != auctioneer.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AuctioneerApproval)
	if len(log.Data) > 0 {
		if err := auctioneer.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range auctioneer.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AuctioneerAuctionCleared represents a AuctionCleared event raised by the Auctioneer contract.
type AuctioneerAuctionCleared struct {
	Slot          *big.Int
	ClearingPrice *big.Int
	ItemsSold     *big.Int
	Proceeds      *big.Int
	Raw           *types.Log // Blockchain specific contextual infos
}

const AuctioneerAuctionClearedEventName = "AuctionCleared"

// ContractEventName returns the user-defined event name.
func (AuctioneerAuctionCleared) ContractEventName() string {
	return AuctioneerAuctionClearedEventName
}

// UnpackAuctionClearedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event AuctionCleared(uint256 indexed slot, uint128 clearingPrice, uint120 itemsSold, uint256 proceeds)
func (auctioneer *Auctioneer) UnpackAuctionClearedEvent(log *types.Log) (*AuctioneerAuctionCleared, error) {
	event := "AuctionCleared"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != auctioneer.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AuctioneerAuctionCleared)
	if len(log.Data) > 0 {
		if err := auctioneer.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range auctioneer.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AuctioneerAuctionOpened represents a AuctionOpened event raised by the Auctioneer contract.
type AuctioneerAuctionOpened struct {
	Slot         *big.Int
	ItemsForSale *big.Int
	Raw          *types.Log // Blockchain specific contextual infos
}

const AuctioneerAuctionOpenedEventName = "AuctionOpened"

// ContractEventName returns the user-defined event name.
func (AuctioneerAuctionOpened) ContractEventName() string {
	return AuctioneerAuctionOpenedEventName
}

// UnpackAuctionOpenedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event AuctionOpened(uint256 indexed slot, uint120 itemsForSale)
func (auctioneer *Auctioneer) UnpackAuctionOpenedEvent(log *types.Log) (*AuctioneerAuctionOpened, error) {
	event := "AuctionOpened"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != auctioneer.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AuctioneerAuctionOpened)
	if len(log.Data) > 0 {
		if err := auctioneer.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range auctioneer.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AuctioneerAuctionPaidOut represents a AuctionPaidOut event raised by the Auctioneer contract.
type AuctioneerAuctionPaidOut struct {
	Slot *big.Int
	Raw  *types.Log // Blockchain specific contextual infos
}

const AuctioneerAuctionPaidOutEventName = "AuctionPaidOut"

// ContractEventName returns the user-defined event name.
func (AuctioneerAuctionPaidOut) ContractEventName() string {
	return AuctioneerAuctionPaidOutEventName
}

// UnpackAuctionPaidOutEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event AuctionPaidOut(uint256 indexed slot)
func (auctioneer *Auctioneer) UnpackAuctionPaidOutEvent(log *types.Log) (*AuctioneerAuctionPaidOut, error) {
	event := "AuctionPaidOut"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != auctioneer.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AuctioneerAuctionPaidOut)
	if len(log.Data) > 0 {
		if err := auctioneer.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range auctioneer.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AuctioneerAuctionRefund represents a AuctionRefund event raised by the Auctioneer contract.
type AuctioneerAuctionRefund struct {
	Slot *big.Int
	Raw  *types.Log // Blockchain specific contextual infos
}

const AuctioneerAuctionRefundEventName = "AuctionRefund"

// ContractEventName returns the user-defined event name.
func (AuctioneerAuctionRefund) ContractEventName() string {
	return AuctioneerAuctionRefundEventName
}

// UnpackAuctionRefundEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event AuctionRefund(uint256 indexed slot)
func (auctioneer *Auctioneer) UnpackAuctionRefundEvent(log *types.Log) (*AuctioneerAuctionRefund, error) {
	event := "AuctionRefund"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != auctioneer.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AuctioneerAuctionRefund)
	if len(log.Data) > 0 {
		if err := auctioneer.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range auctioneer.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AuctioneerAuctionSettled represents a AuctionSettled event raised by the Auctioneer contract.
type AuctioneerAuctionSettled struct {
	Slot *big.Int
	Raw  *types.Log // Blockchain specific contextual infos
}

const AuctioneerAuctionSettledEventName = "AuctionSettled"

// ContractEventName returns the user-defined event name.
func (AuctioneerAuctionSettled) ContractEventName() string {
	return AuctioneerAuctionSettledEventName
}

// UnpackAuctionSettledEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event AuctionSettled(uint256 indexed slot)
func (auctioneer *Auctioneer) UnpackAuctionSettledEvent(log *types.Log) (*AuctioneerAuctionSettled, error) {
	event := "AuctionSettled"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != auctioneer.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AuctioneerAuctionSettled)
	if len(log.Data) > 0 {
		if err := auctioneer.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range auctioneer.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AuctioneerBidSkipped represents a BidSkipped event raised by the Auctioneer contract.
type AuctioneerBidSkipped struct {
	Slot      *big.Int
	Bidder    common.Address
	PackedBid *big.Int
	Raw       *types.Log // Blockchain specific contextual infos
}

const AuctioneerBidSkippedEventName = "BidSkipped"

// ContractEventName returns the user-defined event name.
func (AuctioneerBidSkipped) ContractEventName() string {
	return AuctioneerBidSkippedEventName
}

// UnpackBidSkippedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event BidSkipped(uint256 indexed slot, address indexed bidder, uint256 packedBid)
func (auctioneer *Auctioneer) UnpackBidSkippedEvent(log *types.Log) (*AuctioneerBidSkipped, error) {
	event := "BidSkipped"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != auctioneer.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AuctioneerBidSkipped)
	if len(log.Data) > 0 {
		if err := auctioneer.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range auctioneer.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AuctioneerBidderAdded represents a BidderAdded event raised by the Auctioneer contract.
type AuctioneerBidderAdded struct {
	Bidder   common.Address
	BidderId uint8
	Raw      *types.Log // Blockchain specific contextual infos
}

const AuctioneerBidderAddedEventName = "BidderAdded"

// ContractEventName returns the user-defined event name.
func (AuctioneerBidderAdded) ContractEventName() string {
	return AuctioneerBidderAddedEventName
}

// UnpackBidderAddedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event BidderAdded(address indexed bidder, uint8 indexed bidderId)
func (auctioneer *Auctioneer) UnpackBidderAddedEvent(log *types.Log) (*AuctioneerBidderAdded, error) {
	event := "BidderAdded"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != auctioneer.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AuctioneerBidderAdded)
	if len(log.Data) > 0 {
		if err := auctioneer.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range auctioneer.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AuctioneerBidderRemoved represents a BidderRemoved event raised by the Auctioneer contract.
type AuctioneerBidderRemoved struct {
	Bidder   common.Address
	BidderId uint8
	Raw      *types.Log // Blockchain specific contextual infos
}

const AuctioneerBidderRemovedEventName = "BidderRemoved"

// ContractEventName returns the user-defined event name.
func (AuctioneerBidderRemoved) ContractEventName() string {
	return AuctioneerBidderRemovedEventName
}

// UnpackBidderRemovedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event BidderRemoved(address indexed bidder, uint8 indexed bidderId)
func (auctioneer *Auctioneer) UnpackBidderRemovedEvent(log *types.Log) (*AuctioneerBidderRemoved, error) {
	event := "BidderRemoved"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != auctioneer.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AuctioneerBidderRemoved)
	if len(log.Data) > 0 {
		if err := auctioneer.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range auctioneer.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AuctioneerBidderSkipped represents a BidderSkipped event raised by the Auctioneer contract.
type AuctioneerBidderSkipped struct {
	Slot   *big.Int
	Bidder common.Address
	Raw    *types.Log // Blockchain specific contextual infos
}

const AuctioneerBidderSkippedEventName = "BidderSkipped"

// ContractEventName returns the user-defined event name.
func (AuctioneerBidderSkipped) ContractEventName() string {
	return AuctioneerBidderSkippedEventName
}

// UnpackBidderSkippedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event BidderSkipped(uint256 indexed slot, address indexed bidder)
func (auctioneer *Auctioneer) UnpackBidderSkippedEvent(log *types.Log) (*AuctioneerBidderSkipped, error) {
	event := "BidderSkipped"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != auctioneer.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AuctioneerBidderSkipped)
	if len(log.Data) > 0 {
		if err := auctioneer.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range auctioneer.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AuctioneerBidsPlaced represents a BidsPlaced event raised by the Auctioneer contract.
type AuctioneerBidsPlaced struct {
	Slot   *big.Int
	Bidder common.Address
	Count  *big.Int
	Raw    *types.Log // Blockchain specific contextual infos
}

const AuctioneerBidsPlacedEventName = "BidsPlaced"

// ContractEventName returns the user-defined event name.
func (AuctioneerBidsPlaced) ContractEventName() string {
	return AuctioneerBidsPlacedEventName
}

// UnpackBidsPlacedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event BidsPlaced(uint256 indexed slot, address indexed bidder, uint256 count)
func (auctioneer *Auctioneer) UnpackBidsPlacedEvent(log *types.Log) (*AuctioneerBidsPlaced, error) {
	event := "BidsPlaced"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != auctioneer.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AuctioneerBidsPlaced)
	if len(log.Data) > 0 {
		if err := auctioneer.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range auctioneer.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AuctioneerMaxBidsUpdated represents a MaxBidsUpdated event raised by the Auctioneer contract.
type AuctioneerMaxBidsUpdated struct {
	MaxBids *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const AuctioneerMaxBidsUpdatedEventName = "MaxBidsUpdated"

// ContractEventName returns the user-defined event name.
func (AuctioneerMaxBidsUpdated) ContractEventName() string {
	return AuctioneerMaxBidsUpdatedEventName
}

// UnpackMaxBidsUpdatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event MaxBidsUpdated(uint256 maxBids)
func (auctioneer *Auctioneer) UnpackMaxBidsUpdatedEvent(log *types.Log) (*AuctioneerMaxBidsUpdated, error) {
	event := "MaxBidsUpdated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != auctioneer.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AuctioneerMaxBidsUpdated)
	if len(log.Data) > 0 {
		if err := auctioneer.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range auctioneer.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AuctioneerMinGasAmountUpdated represents a MinGasAmountUpdated event raised by the Auctioneer contract.
type AuctioneerMinGasAmountUpdated struct {
	MinGasAmount *big.Int
	Raw          *types.Log // Blockchain specific contextual infos
}

const AuctioneerMinGasAmountUpdatedEventName = "MinGasAmountUpdated"

// ContractEventName returns the user-defined event name.
func (AuctioneerMinGasAmountUpdated) ContractEventName() string {
	return AuctioneerMinGasAmountUpdatedEventName
}

// UnpackMinGasAmountUpdatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event MinGasAmountUpdated(uint120 minGasAmount)
func (auctioneer *Auctioneer) UnpackMinGasAmountUpdatedEvent(log *types.Log) (*AuctioneerMinGasAmountUpdated, error) {
	event := "MinGasAmountUpdated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != auctioneer.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AuctioneerMinGasAmountUpdated)
	if len(log.Data) > 0 {
		if err := auctioneer.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range auctioneer.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AuctioneerOperatorSet represents a OperatorSet event raised by the Auctioneer contract.
type AuctioneerOperatorSet struct {
	Owner    common.Address
	Spender  common.Address
	Approved bool
	Raw      *types.Log // Blockchain specific contextual infos
}

const AuctioneerOperatorSetEventName = "OperatorSet"

// ContractEventName returns the user-defined event name.
func (AuctioneerOperatorSet) ContractEventName() string {
	return AuctioneerOperatorSetEventName
}

// UnpackOperatorSetEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OperatorSet(address indexed owner, address indexed spender, bool approved)
func (auctioneer *Auctioneer) UnpackOperatorSetEvent(log *types.Log) (*AuctioneerOperatorSet, error) {
	event := "OperatorSet"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != auctioneer.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AuctioneerOperatorSet)
	if len(log.Data) > 0 {
		if err := auctioneer.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range auctioneer.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AuctioneerOperatorUpdated represents a OperatorUpdated event raised by the Auctioneer contract.
type AuctioneerOperatorUpdated struct {
	OldOperator common.Address
	NewOperator common.Address
	Raw         *types.Log // Blockchain specific contextual infos
}

const AuctioneerOperatorUpdatedEventName = "OperatorUpdated"

// ContractEventName returns the user-defined event name.
func (AuctioneerOperatorUpdated) ContractEventName() string {
	return AuctioneerOperatorUpdatedEventName
}

// UnpackOperatorUpdatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OperatorUpdated(address indexed oldOperator, address indexed newOperator)
func (auctioneer *Auctioneer) UnpackOperatorUpdatedEvent(log *types.Log) (*AuctioneerOperatorUpdated, error) {
	event := "OperatorUpdated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != auctioneer.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AuctioneerOperatorUpdated)
	if len(log.Data) > 0 {
		if err := auctioneer.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range auctioneer.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AuctioneerOwnershipTransferStarted represents a OwnershipTransferStarted event raised by the Auctioneer contract.
type AuctioneerOwnershipTransferStarted struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const AuctioneerOwnershipTransferStartedEventName = "OwnershipTransferStarted"

// ContractEventName returns the user-defined event name.
func (AuctioneerOwnershipTransferStarted) ContractEventName() string {
	return AuctioneerOwnershipTransferStartedEventName
}

// UnpackOwnershipTransferStartedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OwnershipTransferStarted(address indexed previousOwner, address indexed newOwner)
func (auctioneer *Auctioneer) UnpackOwnershipTransferStartedEvent(log *types.Log) (*AuctioneerOwnershipTransferStarted, error) {
	event := "OwnershipTransferStarted"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != auctioneer.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AuctioneerOwnershipTransferStarted)
	if len(log.Data) > 0 {
		if err := auctioneer.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range auctioneer.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AuctioneerOwnershipTransferred represents a OwnershipTransferred event raised by the Auctioneer contract.
type AuctioneerOwnershipTransferred struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const AuctioneerOwnershipTransferredEventName = "OwnershipTransferred"

// ContractEventName returns the user-defined event name.
func (AuctioneerOwnershipTransferred) ContractEventName() string {
	return AuctioneerOwnershipTransferredEventName
}

// UnpackOwnershipTransferredEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (auctioneer *Auctioneer) UnpackOwnershipTransferredEvent(log *types.Log) (*AuctioneerOwnershipTransferred, error) {
	event := "OwnershipTransferred"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != auctioneer.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AuctioneerOwnershipTransferred)
	if len(log.Data) > 0 {
		if err := auctioneer.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range auctioneer.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// AuctioneerTransfer represents a Transfer event raised by the Auctioneer contract.
type AuctioneerTransfer struct {
	Caller common.Address
	From   common.Address
	To     common.Address
	Id     *big.Int
	Amount *big.Int
	Raw    *types.Log // Blockchain specific contextual infos
}

const AuctioneerTransferEventName = "Transfer"

// ContractEventName returns the user-defined event name.
func (AuctioneerTransfer) ContractEventName() string {
	return AuctioneerTransferEventName
}

// UnpackTransferEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Transfer(address caller, address indexed from, address indexed to, uint256 indexed id, uint256 amount)
func (auctioneer *Auctioneer) UnpackTransferEvent(log *types.Log) (*AuctioneerTransfer, error) {
	event := "Transfer"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != auctioneer.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(AuctioneerTransfer)
	if len(log.Data) > 0 {
		if err := auctioneer.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range auctioneer.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (auctioneer *Auctioneer) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["AuctionAlreadyFinalized"].ID.Bytes()[:4]) {
		return auctioneer.UnpackAuctionAlreadyFinalizedError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["AuctionAlreadyOpen"].ID.Bytes()[:4]) {
		return auctioneer.UnpackAuctionAlreadyOpenError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["AuctionAlreadySettled"].ID.Bytes()[:4]) {
		return auctioneer.UnpackAuctionAlreadySettledError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["AuctionFull"].ID.Bytes()[:4]) {
		return auctioneer.UnpackAuctionFullError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["AuctionNotClosed"].ID.Bytes()[:4]) {
		return auctioneer.UnpackAuctionNotClosedError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["AuctionNotOpen"].ID.Bytes()[:4]) {
		return auctioneer.UnpackAuctionNotOpenError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["AuctionNotSettled"].ID.Bytes()[:4]) {
		return auctioneer.UnpackAuctionNotSettledError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["BidderAlreadyExists"].ID.Bytes()[:4]) {
		return auctioneer.UnpackBidderAlreadyExistsError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["BidderLimitReached"].ID.Bytes()[:4]) {
		return auctioneer.UnpackBidderLimitReachedError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["BidderNotParticipating"].ID.Bytes()[:4]) {
		return auctioneer.UnpackBidderNotParticipatingError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["BidderNotRegistered"].ID.Bytes()[:4]) {
		return auctioneer.UnpackBidderNotRegisteredError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["ContractBidderLimitReached"].ID.Bytes()[:4]) {
		return auctioneer.UnpackContractBidderLimitReachedError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["InsufficientBalance"].ID.Bytes()[:4]) {
		return auctioneer.UnpackInsufficientBalanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["InsufficientFunds"].ID.Bytes()[:4]) {
		return auctioneer.UnpackInsufficientFundsError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["InsufficientGas"].ID.Bytes()[:4]) {
		return auctioneer.UnpackInsufficientGasError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["InsufficientPermission"].ID.Bytes()[:4]) {
		return auctioneer.UnpackInsufficientPermissionError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["InvalidAddress"].ID.Bytes()[:4]) {
		return auctioneer.UnpackInvalidAddressError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["InvalidBidItems"].ID.Bytes()[:4]) {
		return auctioneer.UnpackInvalidBidItemsError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["InvalidBidPrice"].ID.Bytes()[:4]) {
		return auctioneer.UnpackInvalidBidPriceError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["InvalidId"].ID.Bytes()[:4]) {
		return auctioneer.UnpackInvalidIdError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["InvalidItemsForSale"].ID.Bytes()[:4]) {
		return auctioneer.UnpackInvalidItemsForSaleError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["InvalidMaxBids"].ID.Bytes()[:4]) {
		return auctioneer.UnpackInvalidMaxBidsError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["NoAccountant"].ID.Bytes()[:4]) {
		return auctioneer.UnpackNoAccountantError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["NoBids"].ID.Bytes()[:4]) {
		return auctioneer.UnpackNoBidsError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["TooManyBids"].ID.Bytes()[:4]) {
		return auctioneer.UnpackTooManyBidsError(raw[4:])
	}
	if bytes.Equal(raw[:4], auctioneer.abi.Errors["Unauthorized"].ID.Bytes()[:4]) {
		return auctioneer.UnpackUnauthorizedError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// AuctioneerAuctionAlreadyFinalized represents a AuctionAlreadyFinalized error raised by the Auctioneer contract.
type AuctioneerAuctionAlreadyFinalized struct {
	Slot *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AuctionAlreadyFinalized(uint256 slot)
func AuctioneerAuctionAlreadyFinalizedErrorID() common.Hash {
	return common.HexToHash("0xd9e3dd83cb606db66317bea5193005c8423e9b375fc770c3fa041f5060d0fc3f")
}

// UnpackAuctionAlreadyFinalizedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AuctionAlreadyFinalized(uint256 slot)
func (auctioneer *Auctioneer) UnpackAuctionAlreadyFinalizedError(raw []byte) (*AuctioneerAuctionAlreadyFinalized, error) {
	out := new(AuctioneerAuctionAlreadyFinalized)
	if err := auctioneer.abi.UnpackIntoInterface(out, "AuctionAlreadyFinalized", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerAuctionAlreadyOpen represents a AuctionAlreadyOpen error raised by the Auctioneer contract.
type AuctioneerAuctionAlreadyOpen struct {
	Slot *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AuctionAlreadyOpen(uint256 slot)
func AuctioneerAuctionAlreadyOpenErrorID() common.Hash {
	return common.HexToHash("0x10c3d1cf428ed036211a0614d1e9d93ed639c6ce05eaebf838b7056f8fbfc72e")
}

// UnpackAuctionAlreadyOpenError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AuctionAlreadyOpen(uint256 slot)
func (auctioneer *Auctioneer) UnpackAuctionAlreadyOpenError(raw []byte) (*AuctioneerAuctionAlreadyOpen, error) {
	out := new(AuctioneerAuctionAlreadyOpen)
	if err := auctioneer.abi.UnpackIntoInterface(out, "AuctionAlreadyOpen", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerAuctionAlreadySettled represents a AuctionAlreadySettled error raised by the Auctioneer contract.
type AuctioneerAuctionAlreadySettled struct {
	Slot *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AuctionAlreadySettled(uint256 slot)
func AuctioneerAuctionAlreadySettledErrorID() common.Hash {
	return common.HexToHash("0xe180b6847026740c9babdde34d0483f38db5a6ca6d58c525d7ff02fde820ba59")
}

// UnpackAuctionAlreadySettledError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AuctionAlreadySettled(uint256 slot)
func (auctioneer *Auctioneer) UnpackAuctionAlreadySettledError(raw []byte) (*AuctioneerAuctionAlreadySettled, error) {
	out := new(AuctioneerAuctionAlreadySettled)
	if err := auctioneer.abi.UnpackIntoInterface(out, "AuctionAlreadySettled", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerAuctionFull represents a AuctionFull error raised by the Auctioneer contract.
type AuctioneerAuctionFull struct {
	Slot    *big.Int
	MaxBids *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AuctionFull(uint256 slot, uint256 maxBids)
func AuctioneerAuctionFullErrorID() common.Hash {
	return common.HexToHash("0x21fcb68eef04dd59c6c0817f65bc815248acb9138dd06c2879ffe9f04d1f7e93")
}

// UnpackAuctionFullError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AuctionFull(uint256 slot, uint256 maxBids)
func (auctioneer *Auctioneer) UnpackAuctionFullError(raw []byte) (*AuctioneerAuctionFull, error) {
	out := new(AuctioneerAuctionFull)
	if err := auctioneer.abi.UnpackIntoInterface(out, "AuctionFull", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerAuctionNotClosed represents a AuctionNotClosed error raised by the Auctioneer contract.
type AuctioneerAuctionNotClosed struct {
	Slot *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AuctionNotClosed(uint256 slot)
func AuctioneerAuctionNotClosedErrorID() common.Hash {
	return common.HexToHash("0x251494b8545578f2094ed4eff69d80e48da6fdd9fb454a426c64f16a08dc3def")
}

// UnpackAuctionNotClosedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AuctionNotClosed(uint256 slot)
func (auctioneer *Auctioneer) UnpackAuctionNotClosedError(raw []byte) (*AuctioneerAuctionNotClosed, error) {
	out := new(AuctioneerAuctionNotClosed)
	if err := auctioneer.abi.UnpackIntoInterface(out, "AuctionNotClosed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerAuctionNotOpen represents a AuctionNotOpen error raised by the Auctioneer contract.
type AuctioneerAuctionNotOpen struct {
	Slot *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AuctionNotOpen(uint256 slot)
func AuctioneerAuctionNotOpenErrorID() common.Hash {
	return common.HexToHash("0x6073250f1c93c015009918b0d9e443387084bf176e2835eb92710c0f4fc9651d")
}

// UnpackAuctionNotOpenError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AuctionNotOpen(uint256 slot)
func (auctioneer *Auctioneer) UnpackAuctionNotOpenError(raw []byte) (*AuctioneerAuctionNotOpen, error) {
	out := new(AuctioneerAuctionNotOpen)
	if err := auctioneer.abi.UnpackIntoInterface(out, "AuctionNotOpen", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerAuctionNotSettled represents a AuctionNotSettled error raised by the Auctioneer contract.
type AuctioneerAuctionNotSettled struct {
	Slot *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AuctionNotSettled(uint256 slot)
func AuctioneerAuctionNotSettledErrorID() common.Hash {
	return common.HexToHash("0x06828ec4644da9248a4759d68405bfcd98340597e17de116df10c0367ae9be1c")
}

// UnpackAuctionNotSettledError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AuctionNotSettled(uint256 slot)
func (auctioneer *Auctioneer) UnpackAuctionNotSettledError(raw []byte) (*AuctioneerAuctionNotSettled, error) {
	out := new(AuctioneerAuctionNotSettled)
	if err := auctioneer.abi.UnpackIntoInterface(out, "AuctionNotSettled", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerBidderAlreadyExists represents a BidderAlreadyExists error raised by the Auctioneer contract.
type AuctioneerBidderAlreadyExists struct {
	Bidder common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error BidderAlreadyExists(address bidder)
func AuctioneerBidderAlreadyExistsErrorID() common.Hash {
	return common.HexToHash("0x7461eb2aafcc73e51317d4fccb211b580c3f45f7837bf925cc72257d61042fd0")
}

// UnpackBidderAlreadyExistsError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error BidderAlreadyExists(address bidder)
func (auctioneer *Auctioneer) UnpackBidderAlreadyExistsError(raw []byte) (*AuctioneerBidderAlreadyExists, error) {
	out := new(AuctioneerBidderAlreadyExists)
	if err := auctioneer.abi.UnpackIntoInterface(out, "BidderAlreadyExists", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerBidderLimitReached represents a BidderLimitReached error raised by the Auctioneer contract.
type AuctioneerBidderLimitReached struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error BidderLimitReached()
func AuctioneerBidderLimitReachedErrorID() common.Hash {
	return common.HexToHash("0x5b7d9a0d52f0209e21f4a657b14de5da440c8bc9177733dcaf2f574a3ea12a4f")
}

// UnpackBidderLimitReachedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error BidderLimitReached()
func (auctioneer *Auctioneer) UnpackBidderLimitReachedError(raw []byte) (*AuctioneerBidderLimitReached, error) {
	out := new(AuctioneerBidderLimitReached)
	if err := auctioneer.abi.UnpackIntoInterface(out, "BidderLimitReached", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerBidderNotParticipating represents a BidderNotParticipating error raised by the Auctioneer contract.
type AuctioneerBidderNotParticipating struct {
	Slot   *big.Int
	Bidder common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error BidderNotParticipating(uint256 slot, address bidder)
func AuctioneerBidderNotParticipatingErrorID() common.Hash {
	return common.HexToHash("0x172c59b734928e5b56143a4e32d3000e97ce8e528d530d5125b5b1e82ec0e784")
}

// UnpackBidderNotParticipatingError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error BidderNotParticipating(uint256 slot, address bidder)
func (auctioneer *Auctioneer) UnpackBidderNotParticipatingError(raw []byte) (*AuctioneerBidderNotParticipating, error) {
	out := new(AuctioneerBidderNotParticipating)
	if err := auctioneer.abi.UnpackIntoInterface(out, "BidderNotParticipating", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerBidderNotRegistered represents a BidderNotRegistered error raised by the Auctioneer contract.
type AuctioneerBidderNotRegistered struct {
	Bidder common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error BidderNotRegistered(address bidder)
func AuctioneerBidderNotRegisteredErrorID() common.Hash {
	return common.HexToHash("0x01a19b1c963fdf82967f3fda215ec3b0e74d96a048f319b0488475a309cb35c8")
}

// UnpackBidderNotRegisteredError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error BidderNotRegistered(address bidder)
func (auctioneer *Auctioneer) UnpackBidderNotRegisteredError(raw []byte) (*AuctioneerBidderNotRegistered, error) {
	out := new(AuctioneerBidderNotRegistered)
	if err := auctioneer.abi.UnpackIntoInterface(out, "BidderNotRegistered", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerContractBidderLimitReached represents a ContractBidderLimitReached error raised by the Auctioneer contract.
type AuctioneerContractBidderLimitReached struct {
	Max *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ContractBidderLimitReached(uint256 max)
func AuctioneerContractBidderLimitReachedErrorID() common.Hash {
	return common.HexToHash("0x9a6dfda4efcb899e8fed0d58002b8750f0db5a7b2f3a67ca8ecac0a6b6500f70")
}

// UnpackContractBidderLimitReachedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ContractBidderLimitReached(uint256 max)
func (auctioneer *Auctioneer) UnpackContractBidderLimitReachedError(raw []byte) (*AuctioneerContractBidderLimitReached, error) {
	out := new(AuctioneerContractBidderLimitReached)
	if err := auctioneer.abi.UnpackIntoInterface(out, "ContractBidderLimitReached", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerInsufficientBalance represents a InsufficientBalance error raised by the Auctioneer contract.
type AuctioneerInsufficientBalance struct {
	Owner   common.Address
	Id      *big.Int
	Balance *big.Int
	Needed  *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InsufficientBalance(address owner, uint256 id, uint256 balance, uint256 needed)
func AuctioneerInsufficientBalanceErrorID() common.Hash {
	return common.HexToHash("0x670f0045645db9dfaaa56caecfd0b318670e27d707af244933e1fd70a5868e61")
}

// UnpackInsufficientBalanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InsufficientBalance(address owner, uint256 id, uint256 balance, uint256 needed)
func (auctioneer *Auctioneer) UnpackInsufficientBalanceError(raw []byte) (*AuctioneerInsufficientBalance, error) {
	out := new(AuctioneerInsufficientBalance)
	if err := auctioneer.abi.UnpackIntoInterface(out, "InsufficientBalance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerInsufficientFunds represents a InsufficientFunds error raised by the Auctioneer contract.
type AuctioneerInsufficientFunds struct {
	Needed    *big.Int
	Available *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InsufficientFunds(uint256 needed, uint256 available)
func AuctioneerInsufficientFundsErrorID() common.Hash {
	return common.HexToHash("0x03eb8b54a949acec2cd08fdb6d6bd4647a1f2c907d75d6900648effa92eb147f")
}

// UnpackInsufficientFundsError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InsufficientFunds(uint256 needed, uint256 available)
func (auctioneer *Auctioneer) UnpackInsufficientFundsError(raw []byte) (*AuctioneerInsufficientFunds, error) {
	out := new(AuctioneerInsufficientFunds)
	if err := auctioneer.abi.UnpackIntoInterface(out, "InsufficientFunds", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerInsufficientGas represents a InsufficientGas error raised by the Auctioneer contract.
type AuctioneerInsufficientGas struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InsufficientGas()
func AuctioneerInsufficientGasErrorID() common.Hash {
	return common.HexToHash("0x1c26714c035362f785e44b6773a87881da86705e5698c55bb550907617bb1353")
}

// UnpackInsufficientGasError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InsufficientGas()
func (auctioneer *Auctioneer) UnpackInsufficientGasError(raw []byte) (*AuctioneerInsufficientGas, error) {
	out := new(AuctioneerInsufficientGas)
	if err := auctioneer.abi.UnpackIntoInterface(out, "InsufficientGas", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerInsufficientPermission represents a InsufficientPermission error raised by the Auctioneer contract.
type AuctioneerInsufficientPermission struct {
	Spender common.Address
	Id      *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InsufficientPermission(address spender, uint256 id)
func AuctioneerInsufficientPermissionErrorID() common.Hash {
	return common.HexToHash("0x731555bdadbbefb864914986669d651c81dc25efa78ee1ae85026a3165dec896")
}

// UnpackInsufficientPermissionError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InsufficientPermission(address spender, uint256 id)
func (auctioneer *Auctioneer) UnpackInsufficientPermissionError(raw []byte) (*AuctioneerInsufficientPermission, error) {
	out := new(AuctioneerInsufficientPermission)
	if err := auctioneer.abi.UnpackIntoInterface(out, "InsufficientPermission", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerInvalidAddress represents a InvalidAddress error raised by the Auctioneer contract.
type AuctioneerInvalidAddress struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidAddress()
func AuctioneerInvalidAddressErrorID() common.Hash {
	return common.HexToHash("0xe6c4247b90bd06996a32d386bb770af9c0018dd1b0ebbb2df2c4499f1eda7b16")
}

// UnpackInvalidAddressError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidAddress()
func (auctioneer *Auctioneer) UnpackInvalidAddressError(raw []byte) (*AuctioneerInvalidAddress, error) {
	out := new(AuctioneerInvalidAddress)
	if err := auctioneer.abi.UnpackIntoInterface(out, "InvalidAddress", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerInvalidBidItems represents a InvalidBidItems error raised by the Auctioneer contract.
type AuctioneerInvalidBidItems struct {
	Items *big.Int
	Min   *big.Int
	Max   *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidBidItems(uint120 items, uint120 min, uint120 max)
func AuctioneerInvalidBidItemsErrorID() common.Hash {
	return common.HexToHash("0xe8bebd0aa71567e18dfb1828cf143d7ad5b0c17dc05244fb19c32e4f3015910f")
}

// UnpackInvalidBidItemsError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidBidItems(uint120 items, uint120 min, uint120 max)
func (auctioneer *Auctioneer) UnpackInvalidBidItemsError(raw []byte) (*AuctioneerInvalidBidItems, error) {
	out := new(AuctioneerInvalidBidItems)
	if err := auctioneer.abi.UnpackIntoInterface(out, "InvalidBidItems", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerInvalidBidPrice represents a InvalidBidPrice error raised by the Auctioneer contract.
type AuctioneerInvalidBidPrice struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidBidPrice()
func AuctioneerInvalidBidPriceErrorID() common.Hash {
	return common.HexToHash("0xaa04eead677cb7793ab2b53c1eea66ed0e77c35f9761968b7de4b7089426c230")
}

// UnpackInvalidBidPriceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidBidPrice()
func (auctioneer *Auctioneer) UnpackInvalidBidPriceError(raw []byte) (*AuctioneerInvalidBidPrice, error) {
	out := new(AuctioneerInvalidBidPrice)
	if err := auctioneer.abi.UnpackIntoInterface(out, "InvalidBidPrice", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerInvalidId represents a InvalidId error raised by the Auctioneer contract.
type AuctioneerInvalidId struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidId()
func AuctioneerInvalidIdErrorID() common.Hash {
	return common.HexToHash("0xdfa1a408860d09b3a48293a777aa052aa693dea19a077bbc934298b3ce4acd29")
}

// UnpackInvalidIdError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidId()
func (auctioneer *Auctioneer) UnpackInvalidIdError(raw []byte) (*AuctioneerInvalidId, error) {
	out := new(AuctioneerInvalidId)
	if err := auctioneer.abi.UnpackIntoInterface(out, "InvalidId", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerInvalidItemsForSale represents a InvalidItemsForSale error raised by the Auctioneer contract.
type AuctioneerInvalidItemsForSale struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidItemsForSale()
func AuctioneerInvalidItemsForSaleErrorID() common.Hash {
	return common.HexToHash("0xd94d75b1f043816d4b8920c42f970428153d451b0a2745653782b6d5799e33c1")
}

// UnpackInvalidItemsForSaleError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidItemsForSale()
func (auctioneer *Auctioneer) UnpackInvalidItemsForSaleError(raw []byte) (*AuctioneerInvalidItemsForSale, error) {
	out := new(AuctioneerInvalidItemsForSale)
	if err := auctioneer.abi.UnpackIntoInterface(out, "InvalidItemsForSale", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerInvalidMaxBids represents a InvalidMaxBids error raised by the Auctioneer contract.
type AuctioneerInvalidMaxBids struct {
	MaxBids *big.Int
	Limit   *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidMaxBids(uint256 maxBids, uint256 limit)
func AuctioneerInvalidMaxBidsErrorID() common.Hash {
	return common.HexToHash("0x579b929ddc0c011869f8c1329e684a6fcba7a498e69f6a5d1e5f50fb93b08748")
}

// UnpackInvalidMaxBidsError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidMaxBids(uint256 maxBids, uint256 limit)
func (auctioneer *Auctioneer) UnpackInvalidMaxBidsError(raw []byte) (*AuctioneerInvalidMaxBids, error) {
	out := new(AuctioneerInvalidMaxBids)
	if err := auctioneer.abi.UnpackIntoInterface(out, "InvalidMaxBids", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerNoAccountant represents a NoAccountant error raised by the Auctioneer contract.
type AuctioneerNoAccountant struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NoAccountant()
func AuctioneerNoAccountantErrorID() common.Hash {
	return common.HexToHash("0x22350dc4d4bb23055196d3c2aded4571c8fb1b2957bda283569522a8ab596c7b")
}

// UnpackNoAccountantError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NoAccountant()
func (auctioneer *Auctioneer) UnpackNoAccountantError(raw []byte) (*AuctioneerNoAccountant, error) {
	out := new(AuctioneerNoAccountant)
	if err := auctioneer.abi.UnpackIntoInterface(out, "NoAccountant", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerNoBids represents a NoBids error raised by the Auctioneer contract.
type AuctioneerNoBids struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NoBids()
func AuctioneerNoBidsErrorID() common.Hash {
	return common.HexToHash("0xc3bc4043f03718d7373347979352a488714a2cff0e87ce76a66fc291a21fb29d")
}

// UnpackNoBidsError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NoBids()
func (auctioneer *Auctioneer) UnpackNoBidsError(raw []byte) (*AuctioneerNoBids, error) {
	out := new(AuctioneerNoBids)
	if err := auctioneer.abi.UnpackIntoInterface(out, "NoBids", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerTooManyBids represents a TooManyBids error raised by the Auctioneer contract.
type AuctioneerTooManyBids struct {
	MaxBids *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TooManyBids(uint256 maxBids)
func AuctioneerTooManyBidsErrorID() common.Hash {
	return common.HexToHash("0x1cad00149182e2de1adac64cbd609bd48db54eba6e4d95dfa274cb1fbcd3a9fd")
}

// UnpackTooManyBidsError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TooManyBids(uint256 maxBids)
func (auctioneer *Auctioneer) UnpackTooManyBidsError(raw []byte) (*AuctioneerTooManyBids, error) {
	out := new(AuctioneerTooManyBids)
	if err := auctioneer.abi.UnpackIntoInterface(out, "TooManyBids", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// AuctioneerUnauthorized represents a Unauthorized error raised by the Auctioneer contract.
type AuctioneerUnauthorized struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error Unauthorized()
func AuctioneerUnauthorizedErrorID() common.Hash {
	return common.HexToHash("0x82b4290015f7ec7256ca2a6247d3c2a89c4865c0e791456df195f40ad0a81367")
}

// UnpackUnauthorizedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error Unauthorized()
func (auctioneer *Auctioneer) UnpackUnauthorizedError(raw []byte) (*AuctioneerUnauthorized, error) {
	out := new(AuctioneerUnauthorized)
	if err := auctioneer.abi.UnpackIntoInterface(out, "Unauthorized", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// OpenBidderMetaData contains all meta data concerning the OpenBidder contract.
var OpenBidderMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"contractAuctioneer\",\"name\":\"auctioneer_\",\"type\":\"address\"},{\"internalType\":\"contractSettlementHouse\",\"name\":\"house_\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"AlreadyProcessed\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"AuctionNotSettled\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"AuctionSettled\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"bidId\",\"type\":\"uint256\"}],\"name\":\"BidNotOpen\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidBid\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"bidId\",\"type\":\"uint256\"}],\"name\":\"NotBidOwner\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"NotRefundable\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NothingToWithdraw\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"max\",\"type\":\"uint256\"}],\"name\":\"SlotFull\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"sent\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"expected\",\"type\":\"uint256\"}],\"name\":\"WrongValue\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"bidId\",\"type\":\"uint256\"}],\"name\":\"BidCancelled\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"bidId\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"bidder\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint128\",\"name\":\"weiPerGas\",\"type\":\"uint128\"},{\"indexed\":false,\"internalType\":\"uint120\",\"name\":\"amountOfGas\",\"type\":\"uint120\"},{\"indexed\":false,\"internalType\":\"bytes32\",\"name\":\"bundleHash\",\"type\":\"bytes32\"}],\"name\":\"BidOpened\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"bidId\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint120\",\"name\":\"gasFilled\",\"type\":\"uint120\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"cost\",\"type\":\"uint256\"}],\"name\":\"BidSettled\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"SlotRefunded\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"Withdrawal\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"MAX_OPEN_BIDS\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MIN_BID_GAS\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"auctioneer\",\"outputs\":[{\"internalType\":\"contractAuctioneer\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"bids\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"bidder\",\"type\":\"address\"},{\"internalType\":\"enumOpenBidder.State\",\"name\":\"state\",\"type\":\"uint8\"},{\"internalType\":\"uint128\",\"name\":\"weiPerGas\",\"type\":\"uint128\"},{\"internalType\":\"uint120\",\"name\":\"amountOfGas\",\"type\":\"uint120\"},{\"internalType\":\"uint120\",\"name\":\"gasFilled\",\"type\":\"uint120\"},{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"bundleHash\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"bidsCount\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"bidId\",\"type\":\"uint256\"}],\"name\":\"cancelBid\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"claimRefund\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"getBid\",\"outputs\":[{\"internalType\":\"uint256[]\",\"name\":\"packedBids\",\"type\":\"uint256[]\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"house\",\"outputs\":[{\"internalType\":\"contractSettlementHouse\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"minBidGas\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"internalType\":\"uint128\",\"name\":\"weiPerGas\",\"type\":\"uint128\"},{\"internalType\":\"uint120\",\"name\":\"amountOfGas\",\"type\":\"uint120\"},{\"internalType\":\"bytes32\",\"name\":\"bundleHash\",\"type\":\"bytes32\"}],\"name\":\"openBid\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"bidId\",\"type\":\"uint256\"}],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"openBids\",\"outputs\":[{\"internalType\":\"uint256[]\",\"name\":\"\",\"type\":\"uint256[]\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"owed\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"slotStatus\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"submitBundles\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"weth\",\"outputs\":[{\"internalType\":\"contractWETH\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"withdraw\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	ID:  "948728c70d9fbfd512febd2cc7d2d7803c",
	Bin: "0x60e0806040523461022257604081611fb5803803809161001f828561022e565b833981010312610222578051906001600160a01b0382169081830361022257602001516001600160a01b038116928382036102225760805260a0526040516312a9293f60e21b8152602081600481855afa9081156101bf575f916101e5575b5060c081905260405163095ea7b360e01b8152600481018390525f1960248201529190602090839060449082905f906001600160a01b03165af180156101bf575f936020936044926101ca575b50604051948593849263558a729760e01b84526004840152600160248401525af180156101bf57610190575b604051611d37908161027e82396080518181816101be0152818161063b015281816109100152818161096c01528181610c2b01528181610cd101528181610d24015281816111cc0152818161174e0152818161187f01528181611b020152611c99015260a051818181610133015281816110140152611091015260c051818181601c0152818161024f0152818161146601526114e70152f35b6101b19060203d6020116101b8575b6101a9818361022e565b810190610265565b505f6100f7565b503d61019f565b6040513d5f823e3d90fd5b6101e090853d87116101b8576101a9818361022e565b6100cb565b90506020813d602011610226575b816102006020938361022e565b810103126102225751906001600160a01b03821682036102225790602061007e565b5f80fd5b3d91506101f3565b601f909101601f19168101906001600160401b0382119082101761025157604052565b634e487b7160e01b5f52604160045260245ffd5b9081602091031261022257518015158103610222579056fe608080604052600436101561005b575b50361561001a575f80fd5b7f00000000000000000000000000000000000000000000000000000000000000006001600160a01b0316330361004c57005b63c6388ef760e01b5f5260045ffd5b5f905f3560e01c9081632798e31b1461164157508063335922421461161f5780633c889e6f146116005780633ccfd60b146114b25780633fbffcef146114955780633fc8cef3146114505780634352f27714610bfc5780634423c5f114610b425780635b7baf641461093f5780635ec2c7bf146108fa5780637e604bc0146108de57806389674c42146108c157806389f50fb61461084d5780639703ef35146105cf578063df18e04714610592578063fbfda30a146101655763ff9b3acf0361000f57346101625780600319360112610162576040517f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03168152602090f35b80fd5b506080366003190112610162576024356001600160801b03811660043581830361058e576044356001600160781b03811680820361058a576040516302b8d13560e51b815260048101849052606435929060a0816024817f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03165afa801561057f57889089928a91610548575b506105345786158015610524575b801561051c575b61050d57816104fa575b506104eb576102278286611a4e565b8034036104d55750610237611c84565b848852600260205280604089205410156104be5750867f00000000000000000000000000000000000000000000000000000000000000006001600160a01b0316803b156104ba578160049160405192838092630d0e30db60e41b825234905af180156104af57610496575b50549560405160e0810181811067ffffffffffffffff8211176104825760405233815287602082016001815260408301898152606084019087825260808501918d835260a08601938b8552600160401b60c08801968c8852101561046e5760018e018f5561030f8e6116a3565b979097610459575187546001600160a01b0319166001600160a01b03919091161787555160048110156104455760209e956103fa958f99946104079b966001600160781b039160409b9660049688549060ff60a01b9060a01b169060ff60a01b19161788556001600160801b03600189019251168254918560801b905160801b169160ff60f81b161717905551166001600160781b036002860191166001600160781b03198254161790555160038401555191015589845260018d526fffffffffffffffffffffffffffffff008585209260081b16906001600160801b03199060801b161790611a29565b86815260028a5220611a29565b604051938452858401526040830152827fa9d318e585cbbeabea5c93df1965b4bb07189bb448cc84d255411485275a9cfb60603394a4604051908152f35b634e487b7160e01b8f52602160045260248ffd5b50634e487b7160e01b8f5260048f905260248ffd5b634e487b7160e01b8f52604160045260248ffd5b634e487b7160e01b8a52604160045260248afd5b816104a0916116ef565b6104ab57865f6102a2565b8680fd5b6040513d84823e3d90fd5b5080fd5b63aba335b960e01b88526004859052602452604487fd5b63195a3ca160e01b885234600452602452604487fd5b63c6388ef760e01b8752600487fd5b6001600160781b0391501682115f610218565b63c6388ef760e01b8952600489fd5b50841561020e565b5061052d611739565b8410610207565b6302f95e6560e41b89526004869052602489fd5b91505061056d915060a03d60a011610578575b61056581836116ef565b810190611981565b50509190915f6101f9565b503d61055b565b6040513d8a823e3d90fd5b8580fd5b8380fd5b5034610162576020366003190112610162576004356001600160a01b038116908190036104ba578160409160209352600583522054604051908152f35b5034610162576020366003190112610162576004356105ed816116a3565b508054336001600160a01b038216036108395760a01c60ff16600481101561082557600103610811576003810180546040516302b8d13560e51b81526004810182905291929160a0816024817f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03165afa9081156108065786916107e2575b506107d05750805460ff60a01b1916600160a11b178155600101546106af90608081901c6001600160781b0316906001600160801b0316611a4e565b33845260056020526106c660408520918254611a91565b90555480835260026020526040832090835260016020526040832090805490845b846106f28284611842565b90549060031b1c1461070c5761070790611a9e565b6106e7565b600181018082116107bc5783811015610781579061077761076661077c936107606107378288611842565b90549060031b1c6107488689611842565b90919082549060031b91821b915f19901b1916179055565b87611842565b90549060031b1c6107488388611842565b611a9e565b61070c565b86866107958761079087611aac565b611aac565b7fc1546e394b1975212fe013e7e6995653585f44e568c407d1157483f7d4b945818280a280f35b634e487b7160e01b87526011600452602487fd5b6302f95e6560e41b8552600452602484fd5b6107fb915060a03d60a0116105785761056581836116ef565b50509150505f610673565b6040513d88823e3d90fd5b6387d9933760e01b83526004829052602483fd5b634e487b7160e01b84526021600452602484fd5b63012c461b60e51b84526004839052602484fd5b5034610162576020366003190112610162576004358152600260205260408120604051918260208354918281520192825260208220915b8181106108ab576108a78561089b818703826116ef565b6040519182918261166a565b0390f35b8254845260209093019260019283019201610884565b503461016257806003193601126101625760206040516152088152f35b5034610162578060031936011261016257602060405160328152f35b50346101625780600319360112610162576040517f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03168152602090f35b5034610162576020366003190112610162576040516302b8d13560e51b81526004803590820181905290917f00000000000000000000000000000000000000000000000000000000000000006001600160a01b031660a084602481845afa80156104af576024948391610b1e575b50158015610b04575b610af357606090838352600460205260408320600260ff19825416179055604051948580926304a15fd760e21b82528660048301525afa928315610ae6578193610ab3575b5081815260036020526040812092815b8454811015610a8a5780610a30610a2460019388611842565b90549060031b1c6116a3565b506001600160781b0360028201541680610a4d575b505001610a0b565b610a61906001600160801b03861690611a4e565b90838060a01b0390541685526005602052610a8160408620918254611a91565b90555f80610a45565b82847fdd7dc4518e179f010aca0be5f16f6c69f879313580ead19b7762665c5307323c8280a280f35b610ad691935060603d606011610adf575b610ace81836116ef565b8101906119df565b5050915f6109fb565b503d610ac4565b50604051903d90823e3d90fd5b5090637ed0862160e11b8252600452fd5b508282526004602052600160ff60408420541614156109b6565b610b37915060a03d60a0116105785761056581836116ef565b93505050505f6109ad565b50346101625760203660031901126101625760043581548110156104ba57610b69906116a3565b509081549060ff8260a01c16926001810154936001600160781b036002830154169060046003840154930154936040519560018060a01b031686526004821015610be8575060e0956001600160781b039160208701526001600160801b038116604087015260801c166060850152608084015260a083015260c0820152f35b634e487b7160e01b81526021600452602490fd5b5034610162576020366003190112610162576040516302b8d13560e51b8152600480359082015260a0816024817f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03165afa9081156104af578290839261142a575b5015611415576004358252600460205260ff6040832054166114005780156113f95760025b6004358352600460205260ff60408420911660ff19825416179055819060405163199f3edf60e01b8152600435600482015230602482015260408160448160018060a01b037f0000000000000000000000000000000000000000000000000000000000000000165afa8491816113ac575b5061139b575b50611394575b6040516304a15fd760e21b815260048035908201526060816024817f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03165afa908115611389578391611368575b50610d68600435611ae7565b906004358552600260205260408520936004358652600160205260408620610d8f846117fc565b92610d99856117fc565b9188905b868210611273575050505090855b838110610eef5750505050825b8254811015610ebf57610dce610a248285611842565b5060ff815460a01c166004811015610eab5790600180939214610df3575b5001610db8565b5f516020611d175f395f51905f526040610e0d8488611842565b90549060031b1c92610e286001600160801b0388168a611a4e565b90600360a01b60ff60a01b19825416178155600281016001600160781b03198154169055610e7882610e73898401546001600160801b036001600160781b038260801c169116611a4e565b611a08565b90878060a01b039054168a526005602052610e97838b20918254611a91565b90558151908982526020820152a25f610dec565b634e487b7160e01b86526021600452602486fd5b8360043581526002602052610ed660408220611a61565b60043581526001602052610eec60408220611a61565b80f35b610f03610efc828461182e565b5187611842565b90549060031b1c90610f14826116a3565b5060018101906001600160781b03825460801c168681105f1461126857610f3c908097611a08565b95610f506001600160801b038a1682611a4e565b91600360a01b60ff60a01b198254161781558b610fd26040610fb486610e736001600160781b03881699600288016001600160781b038c166001600160781b0319825416179055546001600160801b036001600160781b038260801c169116611a4e565b84546001600160a01b03168452600560205292208054909290611a91565b90558b615208831061116057506040906004825191610ff184846116ef565b60018352601f198401366020850137015481511561114c5760208201528c9291907f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03163b1561058e57918382518094631638179b60e31b825260648201936004356004840152602483015260606044830152805180945260206084830191019383905b80821061112e575092935090915081900381837f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03165af19081156111255750611108575b505092805f516020611d175f395f51905f526040611102946001975b82519182526020820152a26004358a52600360205260408a20611a29565b01610dab565b81611115919693966116ef565b6111215792895f6110c8565b8980fd5b513d84823e3d90fd5b9250925060208060019286518152019401920192869293869261107c565b634e487b7160e01b8e52603260045260248efd5b9190819694939661118d575b50505090805f516020611d175f395f51905f526040611102946001976110e4565b546040516304ade6db60e11b81526001600160a01b039182166004808301919091523560248201526044810192909252909160209183916064918391907f0000000000000000000000000000000000000000000000000000000000000000165af1801561125d57611201575b808b9161116c565b91906020833d8211611255575b8161121b602093836116ef565b81010312611251575f516020611d175f395f51905f526040839260019761124461110297611974565b50975093945050506111f9565b8a80fd5b3d915061120e565b6040513d8d823e3d90fd5b50610f3c8680611a08565b9194959661129161128a83889c9b9497969c61182e565b5184611842565b90549060031b1c60801c97855b801580158061134a575b15611313575f198201918083116112ff578d6112cf826112c8868461182e565b519261182e565b526112e56112dd848d61182e565b51918c61182e565b521561129e57634e487b7160e01b8b52601160045260248bfd5b634e487b7160e01b8d52601160045260248dfd5b50600192999b9596919897939a9b61132b828861182e565b52611341611339838661182e565b51918961182e565b52019091610d9d565b505f1982018281116112ff576113618c918f61182e565b51106112a8565b611381915060603d606011610adf57610ace81836116ef565b50505f610d5c565b6040513d85823e3d90fd5b5080610d07565b6001600160781b031691505f610d01565b9091506040813d6040116113f1575b816113c8604093836116ef565b810103126113ed576113e560206113de83611725565b92016119cb565b50905f610cfb565b8480fd5b3d91506113bb565b6001610c8a565b635ad313b960e01b8252600480359052602482fd5b6301a0a3b160e21b8252600480359052602482fd5b9050611445915060a03d60a0116105785761056581836116ef565b93505090505f610c65565b50346101625780600319360112610162576040517f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03168152602090f35b503461016257806003193601126101625760209054604051908152f35b50346115ed575f3660031901126115ed57335f52600560205260405f205480156115f157335f908152600560205260408120557f00000000000000000000000000000000000000000000000000000000000000006001600160a01b0316803b156115ed575f8091602460405180948193632e1a7d4d60e01b83528760048401525af180156115e2576115cd575b508180808084335af13d156115c8573d67ffffffffffffffff81116115b45760405190611576601f8201601f1916602001836116ef565b81528360203d92013e5b156104ba576040519081527f7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b6560203392a280f35b634e487b7160e01b84526041600452602484fd5b611580565b6115da9192505f906116ef565b5f905f61153f565b6040513d5f823e3d90fd5b5f80fd5b630686827b60e51b5f5260045ffd5b346115ed5760203660031901126115ed576108a761089b600435611857565b346115ed575f3660031901126115ed576020611639611739565b604051908152f35b346115ed5760203660031901126115ed576020906004355f526004825260ff60405f2054168152f35b60206040818301928281528451809452019201905f5b81811061168d5750505090565b8251845260209384019390920191600101611680565b5f548110156116db575f8080526005919091027f290decd9548b62a8d60345a988386fc84ba6bc95484008f6362f93160ef3e5630191565b634e487b7160e01b5f52603260045260245ffd5b90601f8019910116810190811067ffffffffffffffff82111761171157604052565b634e487b7160e01b5f52604160045260245ffd5b51906001600160781b03821682036115ed57565b6040516360966d8d60e01b81526020816004817f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03165afa80156115e2575f906117a4575b6001600160781b0316905061520881111561179d5790565b5061520890565b506020813d6020116117dc575b816117be602093836116ef565b810103126115ed576117d76001600160781b0391611725565b611785565b3d91506117b1565b67ffffffffffffffff81116117115760051b60200190565b90611806826117e4565b61181360405191826116ef565b8281528092611824601f19916117e4565b0190602036910137565b80518210156116db5760209160051b010190565b80548210156116db575f5260205f2001905f90565b9061186182611ae7565b60405163ed8b01bb60e01b81523060048201529091906020816024817f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03165afa80156115e2575f90611937575b60ff915016906118c5836117fc565b948215611919575f52600160205260405f20905f5b8481106118e8575050505050565b80846119006118f96001948661182e565b5186611842565b90549060031b1c17611912828a61182e565b52016118da565b50505050905060405161192d6020826116ef565b5f81525f36813790565b506020813d60201161196c575b81611951602093836116ef565b810103126115ed575160ff811681036115ed5760ff906118b6565b3d9150611944565b519081151582036115ed57565b908160a09103126115ed5761199581611725565b916119a260208301611974565b916119af60408201611974565b916119c860806119c160608501611974565b9301611974565b90565b51906001600160801b03821682036115ed57565b908160609103126115ed576119f3816119cb565b916040611a0260208401611725565b92015190565b91908203918211611a1557565b634e487b7160e01b5f52601160045260245ffd5b90815491600160401b8310156117115782610748916001611a4c95018155611842565b565b81810292918115918404141715611a1557565b8054905f815581611a70575050565b5f5260205f20908101905b818110611a86575050565b5f8155600101611a7b565b91908201809211611a1557565b5f198114611a155760010190565b80548015611ad3575f190190611ac28282611842565b8154905f199060031b1b1916905555565b634e487b7160e01b5f52603160045260245ffd5b6040516302b8d13560e51b8152600481018290529091905f907f00000000000000000000000000000000000000000000000000000000000000006001600160a01b031660a082602481845afa9182156115e2575f92611c59575b506020600491604051928380926360966d8d60e01b82525afa80156115e2575f90611c19575b6001600160781b03915016611b7a611c84565b945f52600160205260405f20805494611b92866117fc565b965f5b87811080611c10575b15611c0657806001600160781b03611bb9611bee9387611842565b90549060031b1c60081c16868110908115611bf3575b506107775780611be8611be18a611a9e565b998c61182e565b52611a9e565b611b95565b90506001600160781b038816105f611bcf565b5050939450505050565b50818710611b9e565b506020813d602011611c51575b81611c33602093836116ef565b810103126115ed57611c4c6001600160781b0391611725565b611b67565b3d9150611c26565b6004919250611c7860209160a03d60a0116105785761056581836116ef565b50505050929150611b41565b604051639f235ccd60e01b81526020816004817f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03165afa9081156115e2575f91611ce4575b506032811015611cde5790565b50603290565b90506020813d602011611d0e575b81611cff602093836116ef565b810103126115ed57515f611cd1565b3d9150611cf256fe95bd93cffa2a0f064bbac35ec26ae17389a8a48d3cf6aa3c061a3a6775b23732",
}

// OpenBidder is an auto generated Go binding around an Ethereum contract.
type OpenBidder struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *OpenBidder) GetABI() abi.ABI {
	return c.abi
}

// NewOpenBidder creates a new instance of OpenBidder.
func NewOpenBidder() *OpenBidder {
	parsed, err := OpenBidderMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &OpenBidder{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *OpenBidder) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address auctioneer_, address house_) returns()
func (openBidder *OpenBidder) PackConstructor(auctioneer_ common.Address, house_ common.Address) []byte {
	enc, err := openBidder.abi.Pack("", auctioneer_, house_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackMAXOPENBIDS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7e604bc0.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MAX_OPEN_BIDS() view returns(uint256)
func (openBidder *OpenBidder) PackMAXOPENBIDS() []byte {
	enc, err := openBidder.abi.Pack("MAX_OPEN_BIDS")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMAXOPENBIDS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7e604bc0.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MAX_OPEN_BIDS() view returns(uint256)
func (openBidder *OpenBidder) TryPackMAXOPENBIDS() ([]byte, error) {
	return openBidder.abi.Pack("MAX_OPEN_BIDS")
}

// UnpackMAXOPENBIDS is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x7e604bc0.
//
// Solidity: function MAX_OPEN_BIDS() view returns(uint256)
func (openBidder *OpenBidder) UnpackMAXOPENBIDS(data []byte) (*big.Int, error) {
	out, err := openBidder.abi.Unpack("MAX_OPEN_BIDS", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackMINBIDGAS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x89674c42.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MIN_BID_GAS() view returns(uint256)
func (openBidder *OpenBidder) PackMINBIDGAS() []byte {
	enc, err := openBidder.abi.Pack("MIN_BID_GAS")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMINBIDGAS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x89674c42.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MIN_BID_GAS() view returns(uint256)
func (openBidder *OpenBidder) TryPackMINBIDGAS() ([]byte, error) {
	return openBidder.abi.Pack("MIN_BID_GAS")
}

// UnpackMINBIDGAS is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x89674c42.
//
// Solidity: function MIN_BID_GAS() view returns(uint256)
func (openBidder *OpenBidder) UnpackMINBIDGAS(data []byte) (*big.Int, error) {
	out, err := openBidder.abi.Unpack("MIN_BID_GAS", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackAuctioneer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5ec2c7bf.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function auctioneer() view returns(address)
func (openBidder *OpenBidder) PackAuctioneer() []byte {
	enc, err := openBidder.abi.Pack("auctioneer")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAuctioneer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5ec2c7bf.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function auctioneer() view returns(address)
func (openBidder *OpenBidder) TryPackAuctioneer() ([]byte, error) {
	return openBidder.abi.Pack("auctioneer")
}

// UnpackAuctioneer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x5ec2c7bf.
//
// Solidity: function auctioneer() view returns(address)
func (openBidder *OpenBidder) UnpackAuctioneer(data []byte) (common.Address, error) {
	out, err := openBidder.abi.Unpack("auctioneer", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackBids is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4423c5f1.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function bids(uint256 ) view returns(address bidder, uint8 state, uint128 weiPerGas, uint120 amountOfGas, uint120 gasFilled, uint256 slot, bytes32 bundleHash)
func (openBidder *OpenBidder) PackBids(arg0 *big.Int) []byte {
	enc, err := openBidder.abi.Pack("bids", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBids is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4423c5f1.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function bids(uint256 ) view returns(address bidder, uint8 state, uint128 weiPerGas, uint120 amountOfGas, uint120 gasFilled, uint256 slot, bytes32 bundleHash)
func (openBidder *OpenBidder) TryPackBids(arg0 *big.Int) ([]byte, error) {
	return openBidder.abi.Pack("bids", arg0)
}

// BidsOutput serves as a container for the return parameters of contract
// method Bids.
type BidsOutput struct {
	Bidder      common.Address
	State       uint8
	WeiPerGas   *big.Int
	AmountOfGas *big.Int
	GasFilled   *big.Int
	Slot        *big.Int
	BundleHash  [32]byte
}

// UnpackBids is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x4423c5f1.
//
// Solidity: function bids(uint256 ) view returns(address bidder, uint8 state, uint128 weiPerGas, uint120 amountOfGas, uint120 gasFilled, uint256 slot, bytes32 bundleHash)
func (openBidder *OpenBidder) UnpackBids(data []byte) (BidsOutput, error) {
	out, err := openBidder.abi.Unpack("bids", data)
	outstruct := new(BidsOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.Bidder = *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	outstruct.State = *abi.ConvertType(out[1], new(uint8)).(*uint8)
	outstruct.WeiPerGas = abi.ConvertType(out[2], new(big.Int)).(*big.Int)
	outstruct.AmountOfGas = abi.ConvertType(out[3], new(big.Int)).(*big.Int)
	outstruct.GasFilled = abi.ConvertType(out[4], new(big.Int)).(*big.Int)
	outstruct.Slot = abi.ConvertType(out[5], new(big.Int)).(*big.Int)
	outstruct.BundleHash = *abi.ConvertType(out[6], new([32]byte)).(*[32]byte)
	return *outstruct, nil
}

// PackBidsCount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3fbffcef.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function bidsCount() view returns(uint256)
func (openBidder *OpenBidder) PackBidsCount() []byte {
	enc, err := openBidder.abi.Pack("bidsCount")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBidsCount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3fbffcef.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function bidsCount() view returns(uint256)
func (openBidder *OpenBidder) TryPackBidsCount() ([]byte, error) {
	return openBidder.abi.Pack("bidsCount")
}

// UnpackBidsCount is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3fbffcef.
//
// Solidity: function bidsCount() view returns(uint256)
func (openBidder *OpenBidder) UnpackBidsCount(data []byte) (*big.Int, error) {
	out, err := openBidder.abi.Unpack("bidsCount", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackCancelBid is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9703ef35.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function cancelBid(uint256 bidId) returns()
func (openBidder *OpenBidder) PackCancelBid(bidId *big.Int) []byte {
	enc, err := openBidder.abi.Pack("cancelBid", bidId)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCancelBid is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9703ef35.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function cancelBid(uint256 bidId) returns()
func (openBidder *OpenBidder) TryPackCancelBid(bidId *big.Int) ([]byte, error) {
	return openBidder.abi.Pack("cancelBid", bidId)
}

// PackClaimRefund is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5b7baf64.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function claimRefund(uint256 slot) returns()
func (openBidder *OpenBidder) PackClaimRefund(slot *big.Int) []byte {
	enc, err := openBidder.abi.Pack("claimRefund", slot)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackClaimRefund is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5b7baf64.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function claimRefund(uint256 slot) returns()
func (openBidder *OpenBidder) TryPackClaimRefund(slot *big.Int) ([]byte, error) {
	return openBidder.abi.Pack("claimRefund", slot)
}

// PackGetBid is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3c889e6f.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getBid(uint256 slot) view returns(uint256[] packedBids)
func (openBidder *OpenBidder) PackGetBid(slot *big.Int) []byte {
	enc, err := openBidder.abi.Pack("getBid", slot)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetBid is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3c889e6f.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getBid(uint256 slot) view returns(uint256[] packedBids)
func (openBidder *OpenBidder) TryPackGetBid(slot *big.Int) ([]byte, error) {
	return openBidder.abi.Pack("getBid", slot)
}

// UnpackGetBid is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3c889e6f.
//
// Solidity: function getBid(uint256 slot) view returns(uint256[] packedBids)
func (openBidder *OpenBidder) UnpackGetBid(data []byte) ([]*big.Int, error) {
	out, err := openBidder.abi.Unpack("getBid", data)
	if err != nil {
		return *new([]*big.Int), err
	}
	out0 := *abi.ConvertType(out[0], new([]*big.Int)).(*[]*big.Int)
	return out0, nil
}

// PackHouse is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xff9b3acf.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function house() view returns(address)
func (openBidder *OpenBidder) PackHouse() []byte {
	enc, err := openBidder.abi.Pack("house")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackHouse is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xff9b3acf.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function house() view returns(address)
func (openBidder *OpenBidder) TryPackHouse() ([]byte, error) {
	return openBidder.abi.Pack("house")
}

// UnpackHouse is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xff9b3acf.
//
// Solidity: function house() view returns(address)
func (openBidder *OpenBidder) UnpackHouse(data []byte) (common.Address, error) {
	out, err := openBidder.abi.Unpack("house", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackMinBidGas is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x33592242.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function minBidGas() view returns(uint256)
func (openBidder *OpenBidder) PackMinBidGas() []byte {
	enc, err := openBidder.abi.Pack("minBidGas")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMinBidGas is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x33592242.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function minBidGas() view returns(uint256)
func (openBidder *OpenBidder) TryPackMinBidGas() ([]byte, error) {
	return openBidder.abi.Pack("minBidGas")
}

// UnpackMinBidGas is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x33592242.
//
// Solidity: function minBidGas() view returns(uint256)
func (openBidder *OpenBidder) UnpackMinBidGas(data []byte) (*big.Int, error) {
	out, err := openBidder.abi.Unpack("minBidGas", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackOpenBid is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfbfda30a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function openBid(uint256 slot, uint128 weiPerGas, uint120 amountOfGas, bytes32 bundleHash) payable returns(uint256 bidId)
func (openBidder *OpenBidder) PackOpenBid(slot *big.Int, weiPerGas *big.Int, amountOfGas *big.Int, bundleHash [32]byte) []byte {
	enc, err := openBidder.abi.Pack("openBid", slot, weiPerGas, amountOfGas, bundleHash)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOpenBid is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfbfda30a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function openBid(uint256 slot, uint128 weiPerGas, uint120 amountOfGas, bytes32 bundleHash) payable returns(uint256 bidId)
func (openBidder *OpenBidder) TryPackOpenBid(slot *big.Int, weiPerGas *big.Int, amountOfGas *big.Int, bundleHash [32]byte) ([]byte, error) {
	return openBidder.abi.Pack("openBid", slot, weiPerGas, amountOfGas, bundleHash)
}

// UnpackOpenBid is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xfbfda30a.
//
// Solidity: function openBid(uint256 slot, uint128 weiPerGas, uint120 amountOfGas, bytes32 bundleHash) payable returns(uint256 bidId)
func (openBidder *OpenBidder) UnpackOpenBid(data []byte) (*big.Int, error) {
	out, err := openBidder.abi.Unpack("openBid", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackOpenBids is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x89f50fb6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function openBids(uint256 slot) view returns(uint256[])
func (openBidder *OpenBidder) PackOpenBids(slot *big.Int) []byte {
	enc, err := openBidder.abi.Pack("openBids", slot)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOpenBids is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x89f50fb6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function openBids(uint256 slot) view returns(uint256[])
func (openBidder *OpenBidder) TryPackOpenBids(slot *big.Int) ([]byte, error) {
	return openBidder.abi.Pack("openBids", slot)
}

// UnpackOpenBids is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x89f50fb6.
//
// Solidity: function openBids(uint256 slot) view returns(uint256[])
func (openBidder *OpenBidder) UnpackOpenBids(data []byte) ([]*big.Int, error) {
	out, err := openBidder.abi.Unpack("openBids", data)
	if err != nil {
		return *new([]*big.Int), err
	}
	out0 := *abi.ConvertType(out[0], new([]*big.Int)).(*[]*big.Int)
	return out0, nil
}

// PackOwed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdf18e047.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owed(address ) view returns(uint256)
func (openBidder *OpenBidder) PackOwed(arg0 common.Address) []byte {
	enc, err := openBidder.abi.Pack("owed", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOwed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdf18e047.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function owed(address ) view returns(uint256)
func (openBidder *OpenBidder) TryPackOwed(arg0 common.Address) ([]byte, error) {
	return openBidder.abi.Pack("owed", arg0)
}

// UnpackOwed is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xdf18e047.
//
// Solidity: function owed(address ) view returns(uint256)
func (openBidder *OpenBidder) UnpackOwed(data []byte) (*big.Int, error) {
	out, err := openBidder.abi.Unpack("owed", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackSlotStatus is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2798e31b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function slotStatus(uint256 ) view returns(uint8)
func (openBidder *OpenBidder) PackSlotStatus(arg0 *big.Int) []byte {
	enc, err := openBidder.abi.Pack("slotStatus", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSlotStatus is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2798e31b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function slotStatus(uint256 ) view returns(uint8)
func (openBidder *OpenBidder) TryPackSlotStatus(arg0 *big.Int) ([]byte, error) {
	return openBidder.abi.Pack("slotStatus", arg0)
}

// UnpackSlotStatus is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x2798e31b.
//
// Solidity: function slotStatus(uint256 ) view returns(uint8)
func (openBidder *OpenBidder) UnpackSlotStatus(data []byte) (uint8, error) {
	out, err := openBidder.abi.Unpack("slotStatus", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackSubmitBundles is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4352f277.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function submitBundles(uint256 slot) returns()
func (openBidder *OpenBidder) PackSubmitBundles(slot *big.Int) []byte {
	enc, err := openBidder.abi.Pack("submitBundles", slot)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSubmitBundles is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4352f277.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function submitBundles(uint256 slot) returns()
func (openBidder *OpenBidder) TryPackSubmitBundles(slot *big.Int) ([]byte, error) {
	return openBidder.abi.Pack("submitBundles", slot)
}

// PackWeth is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3fc8cef3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function weth() view returns(address)
func (openBidder *OpenBidder) PackWeth() []byte {
	enc, err := openBidder.abi.Pack("weth")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWeth is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3fc8cef3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function weth() view returns(address)
func (openBidder *OpenBidder) TryPackWeth() ([]byte, error) {
	return openBidder.abi.Pack("weth")
}

// UnpackWeth is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3fc8cef3.
//
// Solidity: function weth() view returns(address)
func (openBidder *OpenBidder) UnpackWeth(data []byte) (common.Address, error) {
	out, err := openBidder.abi.Unpack("weth", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3ccfd60b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function withdraw() returns()
func (openBidder *OpenBidder) PackWithdraw() []byte {
	enc, err := openBidder.abi.Pack("withdraw")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3ccfd60b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function withdraw() returns()
func (openBidder *OpenBidder) TryPackWithdraw() ([]byte, error) {
	return openBidder.abi.Pack("withdraw")
}

// OpenBidderBidCancelled represents a BidCancelled event raised by the OpenBidder contract.
type OpenBidderBidCancelled struct {
	BidId *big.Int
	Raw   *types.Log // Blockchain specific contextual infos
}

const OpenBidderBidCancelledEventName = "BidCancelled"

// ContractEventName returns the user-defined event name.
func (OpenBidderBidCancelled) ContractEventName() string {
	return OpenBidderBidCancelledEventName
}

// UnpackBidCancelledEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event BidCancelled(uint256 indexed bidId)
func (openBidder *OpenBidder) UnpackBidCancelledEvent(log *types.Log) (*OpenBidderBidCancelled, error) {
	event := "BidCancelled"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != openBidder.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(OpenBidderBidCancelled)
	if len(log.Data) > 0 {
		if err := openBidder.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range openBidder.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// OpenBidderBidOpened represents a BidOpened event raised by the OpenBidder contract.
type OpenBidderBidOpened struct {
	BidId       *big.Int
	Slot        *big.Int
	Bidder      common.Address
	WeiPerGas   *big.Int
	AmountOfGas *big.Int
	BundleHash  [32]byte
	Raw         *types.Log // Blockchain specific contextual infos
}

const OpenBidderBidOpenedEventName = "BidOpened"

// ContractEventName returns the user-defined event name.
func (OpenBidderBidOpened) ContractEventName() string {
	return OpenBidderBidOpenedEventName
}

// UnpackBidOpenedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event BidOpened(uint256 indexed bidId, uint256 indexed slot, address indexed bidder, uint128 weiPerGas, uint120 amountOfGas, bytes32 bundleHash)
func (openBidder *OpenBidder) UnpackBidOpenedEvent(log *types.Log) (*OpenBidderBidOpened, error) {
	event := "BidOpened"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != openBidder.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(OpenBidderBidOpened)
	if len(log.Data) > 0 {
		if err := openBidder.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range openBidder.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// OpenBidderBidSettled represents a BidSettled event raised by the OpenBidder contract.
type OpenBidderBidSettled struct {
	BidId     *big.Int
	GasFilled *big.Int
	Cost      *big.Int
	Raw       *types.Log // Blockchain specific contextual infos
}

const OpenBidderBidSettledEventName = "BidSettled"

// ContractEventName returns the user-defined event name.
func (OpenBidderBidSettled) ContractEventName() string {
	return OpenBidderBidSettledEventName
}

// UnpackBidSettledEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event BidSettled(uint256 indexed bidId, uint120 gasFilled, uint256 cost)
func (openBidder *OpenBidder) UnpackBidSettledEvent(log *types.Log) (*OpenBidderBidSettled, error) {
	event := "BidSettled"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != openBidder.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(OpenBidderBidSettled)
	if len(log.Data) > 0 {
		if err := openBidder.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range openBidder.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// OpenBidderSlotRefunded represents a SlotRefunded event raised by the OpenBidder contract.
type OpenBidderSlotRefunded struct {
	Slot *big.Int
	Raw  *types.Log // Blockchain specific contextual infos
}

const OpenBidderSlotRefundedEventName = "SlotRefunded"

// ContractEventName returns the user-defined event name.
func (OpenBidderSlotRefunded) ContractEventName() string {
	return OpenBidderSlotRefundedEventName
}

// UnpackSlotRefundedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event SlotRefunded(uint256 indexed slot)
func (openBidder *OpenBidder) UnpackSlotRefundedEvent(log *types.Log) (*OpenBidderSlotRefunded, error) {
	event := "SlotRefunded"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != openBidder.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(OpenBidderSlotRefunded)
	if len(log.Data) > 0 {
		if err := openBidder.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range openBidder.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// OpenBidderWithdrawal represents a Withdrawal event raised by the OpenBidder contract.
type OpenBidderWithdrawal struct {
	Account common.Address
	Amount  *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const OpenBidderWithdrawalEventName = "Withdrawal"

// ContractEventName returns the user-defined event name.
func (OpenBidderWithdrawal) ContractEventName() string {
	return OpenBidderWithdrawalEventName
}

// UnpackWithdrawalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Withdrawal(address indexed account, uint256 amount)
func (openBidder *OpenBidder) UnpackWithdrawalEvent(log *types.Log) (*OpenBidderWithdrawal, error) {
	event := "Withdrawal"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != openBidder.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(OpenBidderWithdrawal)
	if len(log.Data) > 0 {
		if err := openBidder.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range openBidder.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (openBidder *OpenBidder) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], openBidder.abi.Errors["AlreadyProcessed"].ID.Bytes()[:4]) {
		return openBidder.UnpackAlreadyProcessedError(raw[4:])
	}
	if bytes.Equal(raw[:4], openBidder.abi.Errors["AuctionNotSettled"].ID.Bytes()[:4]) {
		return openBidder.UnpackAuctionNotSettledError(raw[4:])
	}
	if bytes.Equal(raw[:4], openBidder.abi.Errors["AuctionSettled"].ID.Bytes()[:4]) {
		return openBidder.UnpackAuctionSettledError(raw[4:])
	}
	if bytes.Equal(raw[:4], openBidder.abi.Errors["BidNotOpen"].ID.Bytes()[:4]) {
		return openBidder.UnpackBidNotOpenError(raw[4:])
	}
	if bytes.Equal(raw[:4], openBidder.abi.Errors["InvalidBid"].ID.Bytes()[:4]) {
		return openBidder.UnpackInvalidBidError(raw[4:])
	}
	if bytes.Equal(raw[:4], openBidder.abi.Errors["NotBidOwner"].ID.Bytes()[:4]) {
		return openBidder.UnpackNotBidOwnerError(raw[4:])
	}
	if bytes.Equal(raw[:4], openBidder.abi.Errors["NotRefundable"].ID.Bytes()[:4]) {
		return openBidder.UnpackNotRefundableError(raw[4:])
	}
	if bytes.Equal(raw[:4], openBidder.abi.Errors["NothingToWithdraw"].ID.Bytes()[:4]) {
		return openBidder.UnpackNothingToWithdrawError(raw[4:])
	}
	if bytes.Equal(raw[:4], openBidder.abi.Errors["SlotFull"].ID.Bytes()[:4]) {
		return openBidder.UnpackSlotFullError(raw[4:])
	}
	if bytes.Equal(raw[:4], openBidder.abi.Errors["WrongValue"].ID.Bytes()[:4]) {
		return openBidder.UnpackWrongValueError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// OpenBidderAlreadyProcessed represents a AlreadyProcessed error raised by the OpenBidder contract.
type OpenBidderAlreadyProcessed struct {
	Slot *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AlreadyProcessed(uint256 slot)
func OpenBidderAlreadyProcessedErrorID() common.Hash {
	return common.HexToHash("0x5ad313b98307396503216a4ca5839434f3e05ef29ed082d717dcd5c817b52ba6")
}

// UnpackAlreadyProcessedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AlreadyProcessed(uint256 slot)
func (openBidder *OpenBidder) UnpackAlreadyProcessedError(raw []byte) (*OpenBidderAlreadyProcessed, error) {
	out := new(OpenBidderAlreadyProcessed)
	if err := openBidder.abi.UnpackIntoInterface(out, "AlreadyProcessed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// OpenBidderAuctionNotSettled represents a AuctionNotSettled error raised by the OpenBidder contract.
type OpenBidderAuctionNotSettled struct {
	Slot *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AuctionNotSettled(uint256 slot)
func OpenBidderAuctionNotSettledErrorID() common.Hash {
	return common.HexToHash("0x06828ec4644da9248a4759d68405bfcd98340597e17de116df10c0367ae9be1c")
}

// UnpackAuctionNotSettledError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AuctionNotSettled(uint256 slot)
func (openBidder *OpenBidder) UnpackAuctionNotSettledError(raw []byte) (*OpenBidderAuctionNotSettled, error) {
	out := new(OpenBidderAuctionNotSettled)
	if err := openBidder.abi.UnpackIntoInterface(out, "AuctionNotSettled", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// OpenBidderAuctionSettled represents a AuctionSettled error raised by the OpenBidder contract.
type OpenBidderAuctionSettled struct {
	Slot *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AuctionSettled(uint256 slot)
func OpenBidderAuctionSettledErrorID() common.Hash {
	return common.HexToHash("0x2f95e6505f529dd225ce705685fe55440c01f2824ac3fb4303f6eef4bd453ff4")
}

// UnpackAuctionSettledError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AuctionSettled(uint256 slot)
func (openBidder *OpenBidder) UnpackAuctionSettledError(raw []byte) (*OpenBidderAuctionSettled, error) {
	out := new(OpenBidderAuctionSettled)
	if err := openBidder.abi.UnpackIntoInterface(out, "AuctionSettled", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// OpenBidderBidNotOpen represents a BidNotOpen error raised by the OpenBidder contract.
type OpenBidderBidNotOpen struct {
	BidId *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error BidNotOpen(uint256 bidId)
func OpenBidderBidNotOpenErrorID() common.Hash {
	return common.HexToHash("0x87d99337a3c805883c21e4487cae6b37b0f77f0a76b8f92ed69f0bd003199771")
}

// UnpackBidNotOpenError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error BidNotOpen(uint256 bidId)
func (openBidder *OpenBidder) UnpackBidNotOpenError(raw []byte) (*OpenBidderBidNotOpen, error) {
	out := new(OpenBidderBidNotOpen)
	if err := openBidder.abi.UnpackIntoInterface(out, "BidNotOpen", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// OpenBidderInvalidBid represents a InvalidBid error raised by the OpenBidder contract.
type OpenBidderInvalidBid struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidBid()
func OpenBidderInvalidBidErrorID() common.Hash {
	return common.HexToHash("0xc6388ef7fa5b3311415adf90a33e975a1094a30eda7bb67fa93d9fd841e87494")
}

// UnpackInvalidBidError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidBid()
func (openBidder *OpenBidder) UnpackInvalidBidError(raw []byte) (*OpenBidderInvalidBid, error) {
	out := new(OpenBidderInvalidBid)
	if err := openBidder.abi.UnpackIntoInterface(out, "InvalidBid", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// OpenBidderNotBidOwner represents a NotBidOwner error raised by the OpenBidder contract.
type OpenBidderNotBidOwner struct {
	BidId *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotBidOwner(uint256 bidId)
func OpenBidderNotBidOwnerErrorID() common.Hash {
	return common.HexToHash("0x2588c360a69d1e6281c2db40f526a4de486133b042e455462b68b20480b3db4a")
}

// UnpackNotBidOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotBidOwner(uint256 bidId)
func (openBidder *OpenBidder) UnpackNotBidOwnerError(raw []byte) (*OpenBidderNotBidOwner, error) {
	out := new(OpenBidderNotBidOwner)
	if err := openBidder.abi.UnpackIntoInterface(out, "NotBidOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// OpenBidderNotRefundable represents a NotRefundable error raised by the OpenBidder contract.
type OpenBidderNotRefundable struct {
	Slot *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotRefundable(uint256 slot)
func OpenBidderNotRefundableErrorID() common.Hash {
	return common.HexToHash("0xfda10c426a11978b887145c723a575d4e1fc1c4b48639722b8555b939daf7c50")
}

// UnpackNotRefundableError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotRefundable(uint256 slot)
func (openBidder *OpenBidder) UnpackNotRefundableError(raw []byte) (*OpenBidderNotRefundable, error) {
	out := new(OpenBidderNotRefundable)
	if err := openBidder.abi.UnpackIntoInterface(out, "NotRefundable", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// OpenBidderNothingToWithdraw represents a NothingToWithdraw error raised by the OpenBidder contract.
type OpenBidderNothingToWithdraw struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NothingToWithdraw()
func OpenBidderNothingToWithdrawErrorID() common.Hash {
	return common.HexToHash("0xd0d04f60bf4f7629141a1f00f5d2908fa0f3e15bf4cbf8bb8edc6fcbdf2509fa")
}

// UnpackNothingToWithdrawError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NothingToWithdraw()
func (openBidder *OpenBidder) UnpackNothingToWithdrawError(raw []byte) (*OpenBidderNothingToWithdraw, error) {
	out := new(OpenBidderNothingToWithdraw)
	if err := openBidder.abi.UnpackIntoInterface(out, "NothingToWithdraw", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// OpenBidderSlotFull represents a SlotFull error raised by the OpenBidder contract.
type OpenBidderSlotFull struct {
	Slot *big.Int
	Max  *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error SlotFull(uint256 slot, uint256 max)
func OpenBidderSlotFullErrorID() common.Hash {
	return common.HexToHash("0xaba335b9815615c031a87b289087ba3bb26e7bb6ecbae4c5af64f079b04a012f")
}

// UnpackSlotFullError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error SlotFull(uint256 slot, uint256 max)
func (openBidder *OpenBidder) UnpackSlotFullError(raw []byte) (*OpenBidderSlotFull, error) {
	out := new(OpenBidderSlotFull)
	if err := openBidder.abi.UnpackIntoInterface(out, "SlotFull", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// OpenBidderWrongValue represents a WrongValue error raised by the OpenBidder contract.
type OpenBidderWrongValue struct {
	Sent     *big.Int
	Expected *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error WrongValue(uint256 sent, uint256 expected)
func OpenBidderWrongValueErrorID() common.Hash {
	return common.HexToHash("0x195a3ca12ac3744ef64727effb118b3b203c382e49c7a7d24d450eae5e3b889a")
}

// UnpackWrongValueError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error WrongValue(uint256 sent, uint256 expected)
func (openBidder *OpenBidder) UnpackWrongValueError(raw []byte) (*OpenBidderWrongValue, error) {
	out := new(OpenBidderWrongValue)
	if err := openBidder.abi.UnpackIntoInterface(out, "WrongValue", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementHouseMetaData contains all meta data concerning the SettlementHouse contract.
var SettlementHouseMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"contractAuctioneer\",\"name\":\"auctioneer_\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"AuctionRefunded\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amountOfGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"min\",\"type\":\"uint256\"}],\"name\":\"BundleGasTooLow\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NoBundleHashes\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"count\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"max\",\"type\":\"uint256\"}],\"name\":\"TooManyBundleHashes\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"index\",\"type\":\"uint256\"}],\"name\":\"ZeroBundleHash\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"index\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amountOfGas\",\"type\":\"uint256\"}],\"name\":\"BundleSubmitted\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"MAX_BUNDLE_HASHES\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MIN_BUNDLE_GAS\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"auctioneer\",\"outputs\":[{\"internalType\":\"contractAuctioneer\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"bundleCount\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"}],\"name\":\"queryBundles\",\"outputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"submitter\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountOfGas\",\"type\":\"uint256\"},{\"internalType\":\"bytes32[]\",\"name\":\"bundleHashes\",\"type\":\"bytes32[]\"}],\"internalType\":\"structSettlementHouse.Bundle[]\",\"name\":\"\",\"type\":\"tuple[]\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"slot\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amountOfGas\",\"type\":\"uint256\"},{\"internalType\":\"bytes32[]\",\"name\":\"bundleHashes\",\"type\":\"bytes32[]\"}],\"name\":\"submitBundle\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "ba92c5d7773b4abc4b4fa2d711fa8be961",
	Bin: "0x60a034606d57601f6107d138819003918201601f19168301916001600160401b03831184841017607157808492602094604052833981010312606d57516001600160a01b0381168103606d5760805260405161074b9081610086823960805181818161011d01526104d10152f35b5f80fd5b634e487b7160e01b5f52604160045260245ffdfe60806040526004361015610011575f80fd5b5f5f3560e01c80632c10123d146105455780634ec213721461051c57806352cd5ef1146105005780635ec2c7bf146104bc5780638854851b146104a15763b1c0bcd81461005c575f80fd5b3461039757606036600319011261039757600435602435916044359167ffffffffffffffff831161039757366023840112156103975782600401359367ffffffffffffffff85116103975760248560051b85010194368611610397578015610492576040811161047b575f5b818110156100f95760248160051b87010135156100e7576001016100c8565b634afbf80b60e11b5f5260045260245ffd5b50909192946152088310610462576040516302b8d13560e51b8152600481018590527f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03169060a081602481855afa90811561038c575f916103e5575b506103d257604051637f4c824d60e11b81523360048201523060248201528560448201528460648201526020816084815f865af1801561038c5761039b575b50803b15610397575f809160446040518094819363b390c0ab60e01b83528a60048401528960248401525af1801561038c57610377575b50838652856020526040862094855495604051926101f0846106d4565b338452602084019286845261020486610726565b956102126040519788610704565b8652602401602086015b8282106103675750505060408301938452600160401b871015610353576001870180825587101561033f5787526020872091516003870290920180546001600160a01b0319166001600160a01b039390931692909217825551600182015590518051916002019067ffffffffffffffff831161032b57600160401b831161032b578154838355808410610305575b5060200190865260208620865b8381106102f157505050506040519081527fb0d0de334e8e1f701ed2565fe4444e38aa000716992f545363a8662cd75d2f4f60203392a480f35b6001906020845194019381840155016102b7565b828852836020892091820191015b81811061032057506102aa565b888155600101610313565b634e487b7160e01b87526041600452602487fd5b634e487b7160e01b88526032600452602488fd5b634e487b7160e01b88526041600452602488fd5b813581526020918201910161021c565b6103849196505f90610704565b5f945f6101d3565b6040513d5f823e3d90fd5b5f80fd5b6020813d6020116103ca575b816103b460209383610704565b81010312610397576103c59061073e565b61019c565b3d91506103a7565b8463243a950f60e01b5f5260045260245ffd5b905060a0813d60a01161045a575b8161040060a09383610704565b810103126103975780516effffffffffffffffffffffffffffff811603610397576080816104336020610454940161073e565b506104406040820161073e565b5061044d6060820161073e565b500161073e565b5f61015d565b3d91506103f3565b8263d9d3130160e01b5f5260045261520860245260445ffd5b631b3f2ab960e21b5f52600452604060245260445ffd5b63134321bb60e21b5f5260045ffd5b34610397575f36600319011261039757602060405160408152f35b34610397575f366003190112610397576040517f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03168152602090f35b34610397575f3660031901126103975760206040516152088152f35b34610397576020366003190112610397576004355f525f602052602060405f2054604051908152f35b34610397576020366003190112610397576004355f525f60205260405f2080549061056f82610726565b9161057d6040519384610704565b8083526020830180925f5260205f205f915b83831061064b57848660405191829160208301906020845251809152604083019060408160051b85010192915f905b8282106105cd57505050500390f35b919390929450603f198682030182528451602060806040606085019360018060a01b0381511686528381015184870152015193606060408201528451809452019201905f905b8082106106335750505060208060019296019201920185949391926105be565b90919260208060019286518152019401920190610613565b604051610657816106d4565b60018060a01b03835416815260018301546020820152600283016040519081602082549182815201915f5260205f20905f905b8082106106bc5750505092600392826106a96020946001970382610704565b604082015281520192019201919061058f565b9091926001602081928654815201940192019061068a565b6060810190811067ffffffffffffffff8211176106f057604052565b634e487b7160e01b5f52604160045260245ffd5b90601f8019910116810190811067ffffffffffffffff8211176106f057604052565b67ffffffffffffffff81116106f05760051b60200190565b519081151582036103975756",
}

// SettlementHouse is an auto generated Go binding around an Ethereum contract.
type SettlementHouse struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *SettlementHouse) GetABI() abi.ABI {
	return c.abi
}

// NewSettlementHouse creates a new instance of SettlementHouse.
func NewSettlementHouse() *SettlementHouse {
	parsed, err := SettlementHouseMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &SettlementHouse{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *SettlementHouse) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address auctioneer_) returns()
func (settlementHouse *SettlementHouse) PackConstructor(auctioneer_ common.Address) []byte {
	enc, err := settlementHouse.abi.Pack("", auctioneer_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackMAXBUNDLEHASHES is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8854851b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MAX_BUNDLE_HASHES() view returns(uint256)
func (settlementHouse *SettlementHouse) PackMAXBUNDLEHASHES() []byte {
	enc, err := settlementHouse.abi.Pack("MAX_BUNDLE_HASHES")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMAXBUNDLEHASHES is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8854851b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MAX_BUNDLE_HASHES() view returns(uint256)
func (settlementHouse *SettlementHouse) TryPackMAXBUNDLEHASHES() ([]byte, error) {
	return settlementHouse.abi.Pack("MAX_BUNDLE_HASHES")
}

// UnpackMAXBUNDLEHASHES is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8854851b.
//
// Solidity: function MAX_BUNDLE_HASHES() view returns(uint256)
func (settlementHouse *SettlementHouse) UnpackMAXBUNDLEHASHES(data []byte) (*big.Int, error) {
	out, err := settlementHouse.abi.Unpack("MAX_BUNDLE_HASHES", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackMINBUNDLEGAS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x52cd5ef1.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MIN_BUNDLE_GAS() view returns(uint256)
func (settlementHouse *SettlementHouse) PackMINBUNDLEGAS() []byte {
	enc, err := settlementHouse.abi.Pack("MIN_BUNDLE_GAS")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMINBUNDLEGAS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x52cd5ef1.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MIN_BUNDLE_GAS() view returns(uint256)
func (settlementHouse *SettlementHouse) TryPackMINBUNDLEGAS() ([]byte, error) {
	return settlementHouse.abi.Pack("MIN_BUNDLE_GAS")
}

// UnpackMINBUNDLEGAS is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x52cd5ef1.
//
// Solidity: function MIN_BUNDLE_GAS() view returns(uint256)
func (settlementHouse *SettlementHouse) UnpackMINBUNDLEGAS(data []byte) (*big.Int, error) {
	out, err := settlementHouse.abi.Unpack("MIN_BUNDLE_GAS", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackAuctioneer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5ec2c7bf.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function auctioneer() view returns(address)
func (settlementHouse *SettlementHouse) PackAuctioneer() []byte {
	enc, err := settlementHouse.abi.Pack("auctioneer")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAuctioneer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5ec2c7bf.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function auctioneer() view returns(address)
func (settlementHouse *SettlementHouse) TryPackAuctioneer() ([]byte, error) {
	return settlementHouse.abi.Pack("auctioneer")
}

// UnpackAuctioneer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x5ec2c7bf.
//
// Solidity: function auctioneer() view returns(address)
func (settlementHouse *SettlementHouse) UnpackAuctioneer(data []byte) (common.Address, error) {
	out, err := settlementHouse.abi.Unpack("auctioneer", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackBundleCount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4ec21372.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function bundleCount(uint256 slot) view returns(uint256)
func (settlementHouse *SettlementHouse) PackBundleCount(slot *big.Int) []byte {
	enc, err := settlementHouse.abi.Pack("bundleCount", slot)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBundleCount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4ec21372.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function bundleCount(uint256 slot) view returns(uint256)
func (settlementHouse *SettlementHouse) TryPackBundleCount(slot *big.Int) ([]byte, error) {
	return settlementHouse.abi.Pack("bundleCount", slot)
}

// UnpackBundleCount is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x4ec21372.
//
// Solidity: function bundleCount(uint256 slot) view returns(uint256)
func (settlementHouse *SettlementHouse) UnpackBundleCount(data []byte) (*big.Int, error) {
	out, err := settlementHouse.abi.Unpack("bundleCount", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackQueryBundles is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2c10123d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function queryBundles(uint256 slot) view returns((address,uint256,bytes32[])[])
func (settlementHouse *SettlementHouse) PackQueryBundles(slot *big.Int) []byte {
	enc, err := settlementHouse.abi.Pack("queryBundles", slot)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackQueryBundles is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2c10123d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function queryBundles(uint256 slot) view returns((address,uint256,bytes32[])[])
func (settlementHouse *SettlementHouse) TryPackQueryBundles(slot *big.Int) ([]byte, error) {
	return settlementHouse.abi.Pack("queryBundles", slot)
}

// UnpackQueryBundles is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x2c10123d.
//
// Solidity: function queryBundles(uint256 slot) view returns((address,uint256,bytes32[])[])
func (settlementHouse *SettlementHouse) UnpackQueryBundles(data []byte) ([]SettlementHouseBundle, error) {
	out, err := settlementHouse.abi.Unpack("queryBundles", data)
	if err != nil {
		return *new([]SettlementHouseBundle), err
	}
	out0 := *abi.ConvertType(out[0], new([]SettlementHouseBundle)).(*[]SettlementHouseBundle)
	return out0, nil
}

// PackSubmitBundle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb1c0bcd8.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function submitBundle(uint256 slot, uint256 amountOfGas, bytes32[] bundleHashes) returns()
func (settlementHouse *SettlementHouse) PackSubmitBundle(slot *big.Int, amountOfGas *big.Int, bundleHashes [][32]byte) []byte {
	enc, err := settlementHouse.abi.Pack("submitBundle", slot, amountOfGas, bundleHashes)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSubmitBundle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb1c0bcd8.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function submitBundle(uint256 slot, uint256 amountOfGas, bytes32[] bundleHashes) returns()
func (settlementHouse *SettlementHouse) TryPackSubmitBundle(slot *big.Int, amountOfGas *big.Int, bundleHashes [][32]byte) ([]byte, error) {
	return settlementHouse.abi.Pack("submitBundle", slot, amountOfGas, bundleHashes)
}

// SettlementHouseBundleSubmitted represents a BundleSubmitted event raised by the SettlementHouse contract.
type SettlementHouseBundleSubmitted struct {
	Sender      common.Address
	Slot        *big.Int
	Index       *big.Int
	AmountOfGas *big.Int
	Raw         *types.Log // Blockchain specific contextual infos
}

const SettlementHouseBundleSubmittedEventName = "BundleSubmitted"

// ContractEventName returns the user-defined event name.
func (SettlementHouseBundleSubmitted) ContractEventName() string {
	return SettlementHouseBundleSubmittedEventName
}

// UnpackBundleSubmittedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event BundleSubmitted(address indexed sender, uint256 indexed slot, uint256 indexed index, uint256 amountOfGas)
func (settlementHouse *SettlementHouse) UnpackBundleSubmittedEvent(log *types.Log) (*SettlementHouseBundleSubmitted, error) {
	event := "BundleSubmitted"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != settlementHouse.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SettlementHouseBundleSubmitted)
	if len(log.Data) > 0 {
		if err := settlementHouse.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range settlementHouse.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (settlementHouse *SettlementHouse) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], settlementHouse.abi.Errors["AuctionRefunded"].ID.Bytes()[:4]) {
		return settlementHouse.UnpackAuctionRefundedError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlementHouse.abi.Errors["BundleGasTooLow"].ID.Bytes()[:4]) {
		return settlementHouse.UnpackBundleGasTooLowError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlementHouse.abi.Errors["NoBundleHashes"].ID.Bytes()[:4]) {
		return settlementHouse.UnpackNoBundleHashesError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlementHouse.abi.Errors["TooManyBundleHashes"].ID.Bytes()[:4]) {
		return settlementHouse.UnpackTooManyBundleHashesError(raw[4:])
	}
	if bytes.Equal(raw[:4], settlementHouse.abi.Errors["ZeroBundleHash"].ID.Bytes()[:4]) {
		return settlementHouse.UnpackZeroBundleHashError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// SettlementHouseAuctionRefunded represents a AuctionRefunded error raised by the SettlementHouse contract.
type SettlementHouseAuctionRefunded struct {
	Slot *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AuctionRefunded(uint256 slot)
func SettlementHouseAuctionRefundedErrorID() common.Hash {
	return common.HexToHash("0x243a950fa5e3b11c9ed8689c37f04e856ef018c2f68af93a00528812533b9191")
}

// UnpackAuctionRefundedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AuctionRefunded(uint256 slot)
func (settlementHouse *SettlementHouse) UnpackAuctionRefundedError(raw []byte) (*SettlementHouseAuctionRefunded, error) {
	out := new(SettlementHouseAuctionRefunded)
	if err := settlementHouse.abi.UnpackIntoInterface(out, "AuctionRefunded", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementHouseBundleGasTooLow represents a BundleGasTooLow error raised by the SettlementHouse contract.
type SettlementHouseBundleGasTooLow struct {
	AmountOfGas *big.Int
	Min         *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error BundleGasTooLow(uint256 amountOfGas, uint256 min)
func SettlementHouseBundleGasTooLowErrorID() common.Hash {
	return common.HexToHash("0xd9d31301ee77537758dda0c5df0e918fc4a9611045d751d82cb0ea21097e55a2")
}

// UnpackBundleGasTooLowError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error BundleGasTooLow(uint256 amountOfGas, uint256 min)
func (settlementHouse *SettlementHouse) UnpackBundleGasTooLowError(raw []byte) (*SettlementHouseBundleGasTooLow, error) {
	out := new(SettlementHouseBundleGasTooLow)
	if err := settlementHouse.abi.UnpackIntoInterface(out, "BundleGasTooLow", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementHouseNoBundleHashes represents a NoBundleHashes error raised by the SettlementHouse contract.
type SettlementHouseNoBundleHashes struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NoBundleHashes()
func SettlementHouseNoBundleHashesErrorID() common.Hash {
	return common.HexToHash("0x4d0c86ec86e992eda22883de9fdda32424b9e7fe63cfdc5ebedddfbf3436cf8c")
}

// UnpackNoBundleHashesError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NoBundleHashes()
func (settlementHouse *SettlementHouse) UnpackNoBundleHashesError(raw []byte) (*SettlementHouseNoBundleHashes, error) {
	out := new(SettlementHouseNoBundleHashes)
	if err := settlementHouse.abi.UnpackIntoInterface(out, "NoBundleHashes", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementHouseTooManyBundleHashes represents a TooManyBundleHashes error raised by the SettlementHouse contract.
type SettlementHouseTooManyBundleHashes struct {
	Count *big.Int
	Max   *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TooManyBundleHashes(uint256 count, uint256 max)
func SettlementHouseTooManyBundleHashesErrorID() common.Hash {
	return common.HexToHash("0x6cfcaae48f002705bc469aa4acc29a6205a5ae329a1b243fa548b00656513be7")
}

// UnpackTooManyBundleHashesError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TooManyBundleHashes(uint256 count, uint256 max)
func (settlementHouse *SettlementHouse) UnpackTooManyBundleHashesError(raw []byte) (*SettlementHouseTooManyBundleHashes, error) {
	out := new(SettlementHouseTooManyBundleHashes)
	if err := settlementHouse.abi.UnpackIntoInterface(out, "TooManyBundleHashes", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// SettlementHouseZeroBundleHash represents a ZeroBundleHash error raised by the SettlementHouse contract.
type SettlementHouseZeroBundleHash struct {
	Index *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroBundleHash(uint256 index)
func SettlementHouseZeroBundleHashErrorID() common.Hash {
	return common.HexToHash("0x95f7f016efba9d977b2e5c1c87f178d18d20ce759b346cd5e1eba0232e3717f3")
}

// UnpackZeroBundleHashError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroBundleHash(uint256 index)
func (settlementHouse *SettlementHouse) UnpackZeroBundleHashError(raw []byte) (*SettlementHouseZeroBundleHash, error) {
	out := new(SettlementHouseZeroBundleHash)
	if err := settlementHouse.abi.UnpackIntoInterface(out, "ZeroBundleHash", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// WETHMetaData contains all meta data concerning the WETH contract.
var WETHMetaData = bind.MetaData{
	ABI: "[{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"src\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"guy\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"wad\",\"type\":\"uint256\"}],\"name\":\"Approval\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"dst\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"wad\",\"type\":\"uint256\"}],\"name\":\"Deposit\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"src\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"dst\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"wad\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"src\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"wad\",\"type\":\"uint256\"}],\"name\":\"Withdrawal\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"allowance\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"guy\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"wad\",\"type\":\"uint256\"}],\"name\":\"approve\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"deposit\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"dst\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"wad\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"src\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"dst\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"wad\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"wad\",\"type\":\"uint256\"}],\"name\":\"withdraw\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	ID:  "70b660dc3726f6ca568ffe18a0c1925e7a",
	Bin: "0x608080604052346015576105ac908161001a8239f35b5f80fdfe60806040526004361015610022575b3615610018575f80fd5b610020610566565b005b5f3560e01c806306fdde0314610351578063095ea7b3146102d857806318160ddd146102bd57806323b872dd1461028e5780632e1a7d4d146101c8578063313ce567146101ad57806370a082311461017657806395d89b4114610138578063a9059cbb14610106578063d0e30db0146100f35763dd62ed3e0361000e57346100ef5760403660031901126100ef576100b86103e4565b6100c06103fa565b6001600160a01b039182165f908152600160209081526040808320949093168252928352819020549051908152f35b5f80fd5b5f3660031901126100ef57610020610566565b346100ef5760403660031901126100ef57602061012e6101246103e4565b602435903361043e565b6040519015158152f35b346100ef575f3660031901126100ef576101726101556040610394565b60048152630ae8aa8960e31b6020820152604051918291826103ba565b0390f35b346100ef5760203660031901126100ef576001600160a01b036101976103e4565b165f525f602052602060405f2054604051908152f35b346100ef575f3660031901126100ef57602060405160128152f35b346100ef5760203660031901126100ef57600435335f525f6020528060405f2054106100ef57335f525f60205260405f20610204828254610410565b90555f80808084335af13d15610289573d67ffffffffffffffff811161027557610237601f8201601f1916602001610394565b9081525f60203d92013e5b156100ef576040519081527f7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b6560203392a2005b634e487b7160e01b5f52604160045260245ffd5b610242565b346100ef5760603660031901126100ef57602061012e6102ac6103e4565b6102b46103fa565b6044359161043e565b346100ef575f3660031901126100ef57602047604051908152f35b346100ef5760403660031901126100ef576102f16103e4565b335f8181526001602090815260408083206001600160a01b03909516808452948252918290206024359081905591519182527f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b92591a3602060405160018152f35b346100ef575f3660031901126100ef5761017261036e6040610394565b600d81526c2bb930b83832b21022ba3432b960991b6020820152604051918291826103ba565b6040519190601f01601f1916820167ffffffffffffffff81118382101761027557604052565b602060409281835280519182918282860152018484015e5f828201840152601f01601f1916010190565b600435906001600160a01b03821682036100ef57565b602435906001600160a01b03821682036100ef57565b9190820391821161041d57565b634e487b7160e01b5f52601160045260245ffd5b9190820180921161041d57565b60018060a01b031690815f525f6020528260405f2054106100ef573382141580610543575b6104cf575b60207fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef91835f525f825260405f206104a1868254610410565b905560018060a01b031693845f525f825260405f206104c1828254610431565b9055604051908152a3600190565b5f82815260016020908152604080832033845290915290205483116100ef5760207fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef91835f526001825260405f2060018060a01b0333165f52825260405f20610539868254610410565b9055915050610468565b505f8281526001602090815260408083203384529091529020545f191415610463565b335f525f60205260405f2061057c348254610431565b90556040513481527fe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c60203392a256",
}

// WETH is an auto generated Go binding around an Ethereum contract.
type WETH struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *WETH) GetABI() abi.ABI {
	return c.abi
}

// NewWETH creates a new instance of WETH.
func NewWETH() *WETH {
	parsed, err := WETHMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &WETH{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *WETH) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (wETH *WETH) PackAllowance(arg0 common.Address, arg1 common.Address) []byte {
	enc, err := wETH.abi.Pack("allowance", arg0, arg1)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (wETH *WETH) TryPackAllowance(arg0 common.Address, arg1 common.Address) ([]byte, error) {
	return wETH.abi.Pack("allowance", arg0, arg1)
}

// UnpackAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xdd62ed3e.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (wETH *WETH) UnpackAllowance(data []byte) (*big.Int, error) {
	out, err := wETH.abi.Unpack("allowance", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function approve(address guy, uint256 wad) returns(bool)
func (wETH *WETH) PackApprove(guy common.Address, wad *big.Int) []byte {
	enc, err := wETH.abi.Pack("approve", guy, wad)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function approve(address guy, uint256 wad) returns(bool)
func (wETH *WETH) TryPackApprove(guy common.Address, wad *big.Int) ([]byte, error) {
	return wETH.abi.Pack("approve", guy, wad)
}

// UnpackApprove is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x095ea7b3.
//
// Solidity: function approve(address guy, uint256 wad) returns(bool)
func (wETH *WETH) UnpackApprove(data []byte) (bool, error) {
	out, err := wETH.abi.Unpack("approve", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (wETH *WETH) PackBalanceOf(arg0 common.Address) []byte {
	enc, err := wETH.abi.Pack("balanceOf", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (wETH *WETH) TryPackBalanceOf(arg0 common.Address) ([]byte, error) {
	return wETH.abi.Pack("balanceOf", arg0)
}

// UnpackBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x70a08231.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (wETH *WETH) UnpackBalanceOf(data []byte) (*big.Int, error) {
	out, err := wETH.abi.Unpack("balanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decimals() view returns(uint8)
func (wETH *WETH) PackDecimals() []byte {
	enc, err := wETH.abi.Pack("decimals")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function decimals() view returns(uint8)
func (wETH *WETH) TryPackDecimals() ([]byte, error) {
	return wETH.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() view returns(uint8)
func (wETH *WETH) UnpackDecimals(data []byte) (uint8, error) {
	out, err := wETH.abi.Unpack("decimals", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd0e30db0.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function deposit() payable returns()
func (wETH *WETH) PackDeposit() []byte {
	enc, err := wETH.abi.Pack("deposit")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd0e30db0.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function deposit() payable returns()
func (wETH *WETH) TryPackDeposit() ([]byte, error) {
	return wETH.abi.Pack("deposit")
}

// PackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function name() view returns(string)
func (wETH *WETH) PackName() []byte {
	enc, err := wETH.abi.Pack("name")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function name() view returns(string)
func (wETH *WETH) TryPackName() ([]byte, error) {
	return wETH.abi.Pack("name")
}

// UnpackName is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (wETH *WETH) UnpackName(data []byte) (string, error) {
	out, err := wETH.abi.Unpack("name", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function symbol() view returns(string)
func (wETH *WETH) PackSymbol() []byte {
	enc, err := wETH.abi.Pack("symbol")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function symbol() view returns(string)
func (wETH *WETH) TryPackSymbol() ([]byte, error) {
	return wETH.abi.Pack("symbol")
}

// UnpackSymbol is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (wETH *WETH) UnpackSymbol(data []byte) (string, error) {
	out, err := wETH.abi.Unpack("symbol", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function totalSupply() view returns(uint256)
func (wETH *WETH) PackTotalSupply() []byte {
	enc, err := wETH.abi.Pack("totalSupply")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function totalSupply() view returns(uint256)
func (wETH *WETH) TryPackTotalSupply() ([]byte, error) {
	return wETH.abi.Pack("totalSupply")
}

// UnpackTotalSupply is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (wETH *WETH) UnpackTotalSupply(data []byte) (*big.Int, error) {
	out, err := wETH.abi.Unpack("totalSupply", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transfer(address dst, uint256 wad) returns(bool)
func (wETH *WETH) PackTransfer(dst common.Address, wad *big.Int) []byte {
	enc, err := wETH.abi.Pack("transfer", dst, wad)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transfer(address dst, uint256 wad) returns(bool)
func (wETH *WETH) TryPackTransfer(dst common.Address, wad *big.Int) ([]byte, error) {
	return wETH.abi.Pack("transfer", dst, wad)
}

// UnpackTransfer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa9059cbb.
//
// Solidity: function transfer(address dst, uint256 wad) returns(bool)
func (wETH *WETH) UnpackTransfer(data []byte) (bool, error) {
	out, err := wETH.abi.Unpack("transfer", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferFrom(address src, address dst, uint256 wad) returns(bool)
func (wETH *WETH) PackTransferFrom(src common.Address, dst common.Address, wad *big.Int) []byte {
	enc, err := wETH.abi.Pack("transferFrom", src, dst, wad)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferFrom(address src, address dst, uint256 wad) returns(bool)
func (wETH *WETH) TryPackTransferFrom(src common.Address, dst common.Address, wad *big.Int) ([]byte, error) {
	return wETH.abi.Pack("transferFrom", src, dst, wad)
}

// UnpackTransferFrom is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x23b872dd.
//
// Solidity: function transferFrom(address src, address dst, uint256 wad) returns(bool)
func (wETH *WETH) UnpackTransferFrom(data []byte) (bool, error) {
	out, err := wETH.abi.Unpack("transferFrom", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2e1a7d4d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function withdraw(uint256 wad) returns()
func (wETH *WETH) PackWithdraw(wad *big.Int) []byte {
	enc, err := wETH.abi.Pack("withdraw", wad)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2e1a7d4d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function withdraw(uint256 wad) returns()
func (wETH *WETH) TryPackWithdraw(wad *big.Int) ([]byte, error) {
	return wETH.abi.Pack("withdraw", wad)
}

// WETHApproval represents a Approval event raised by the WETH contract.
type WETHApproval struct {
	Src common.Address
	Guy common.Address
	Wad *big.Int
	Raw *types.Log // Blockchain specific contextual infos
}

const WETHApprovalEventName = "Approval"

// ContractEventName returns the user-defined event name.
func (WETHApproval) ContractEventName() string {
	return WETHApprovalEventName
}

// UnpackApprovalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Approval(address indexed src, address indexed guy, uint256 wad)
func (wETH *WETH) UnpackApprovalEvent(log *types.Log) (*WETHApproval, error) {
	event := "Approval"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != wETH.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(WETHApproval)
	if len(log.Data) > 0 {
		if err := wETH.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range wETH.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// WETHDeposit represents a Deposit event raised by the WETH contract.
type WETHDeposit struct {
	Dst common.Address
	Wad *big.Int
	Raw *types.Log // Blockchain specific contextual infos
}

const WETHDepositEventName = "Deposit"

// ContractEventName returns the user-defined event name.
func (WETHDeposit) ContractEventName() string {
	return WETHDepositEventName
}

// UnpackDepositEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Deposit(address indexed dst, uint256 wad)
func (wETH *WETH) UnpackDepositEvent(log *types.Log) (*WETHDeposit, error) {
	event := "Deposit"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != wETH.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(WETHDeposit)
	if len(log.Data) > 0 {
		if err := wETH.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range wETH.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// WETHTransfer represents a Transfer event raised by the WETH contract.
type WETHTransfer struct {
	Src common.Address
	Dst common.Address
	Wad *big.Int
	Raw *types.Log // Blockchain specific contextual infos
}

const WETHTransferEventName = "Transfer"

// ContractEventName returns the user-defined event name.
func (WETHTransfer) ContractEventName() string {
	return WETHTransferEventName
}

// UnpackTransferEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Transfer(address indexed src, address indexed dst, uint256 wad)
func (wETH *WETH) UnpackTransferEvent(log *types.Log) (*WETHTransfer, error) {
	event := "Transfer"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != wETH.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(WETHTransfer)
	if len(log.Data) > 0 {
		if err := wETH.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range wETH.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// WETHWithdrawal represents a Withdrawal event raised by the WETH contract.
type WETHWithdrawal struct {
	Src common.Address
	Wad *big.Int
	Raw *types.Log // Blockchain specific contextual infos
}

const WETHWithdrawalEventName = "Withdrawal"

// ContractEventName returns the user-defined event name.
func (WETHWithdrawal) ContractEventName() string {
	return WETHWithdrawalEventName
}

// UnpackWithdrawalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Withdrawal(address indexed src, uint256 wad)
func (wETH *WETH) UnpackWithdrawalEvent(log *types.Log) (*WETHWithdrawal, error) {
	event := "Withdrawal"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != wETH.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(WETHWithdrawal)
	if len(log.Data) > 0 {
		if err := wETH.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range wETH.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}
