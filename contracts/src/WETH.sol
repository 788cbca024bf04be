// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title WETH
/// @notice Wrapped ether with WETH9 semantics: deposit wraps, withdraw unwraps, an allowance of
/// type(uint256).max is never decreased, and failures revert without data as WETH9 does.
contract WETH {
    string public constant name = "Wrapped Ether";
    string public constant symbol = "WETH";
    uint8 public constant decimals = 18;

    event Approval(address indexed src, address indexed guy, uint256 wad);
    event Transfer(address indexed src, address indexed dst, uint256 wad);
    event Deposit(address indexed dst, uint256 wad);
    event Withdrawal(address indexed src, uint256 wad);

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    receive() external payable {
        deposit();
    }

    /// @notice Wraps the value sent.
    function deposit() public payable {
        balanceOf[msg.sender] += msg.value;
        emit Deposit(msg.sender, msg.value);
    }

    /// @notice Unwraps wad and sends the ether to the caller.
    function withdraw(uint256 wad) public {
        require(balanceOf[msg.sender] >= wad);
        balanceOf[msg.sender] -= wad;
        (bool ok,) = payable(msg.sender).call{value: wad}("");
        require(ok);
        emit Withdrawal(msg.sender, wad);
    }

    /// @notice The wrapped supply: the ether this contract holds.
    function totalSupply() public view returns (uint256) {
        return address(this).balance;
    }

    /// @notice Lets guy move wad of the caller's WETH (type(uint256).max: unlimited).
    function approve(address guy, uint256 wad) public returns (bool) {
        allowance[msg.sender][guy] = wad;
        emit Approval(msg.sender, guy, wad);
        return true;
    }

    /// @notice Moves wad of the caller's WETH to dst.
    function transfer(address dst, uint256 wad) public returns (bool) {
        return transferFrom(msg.sender, dst, wad);
    }

    /// @notice Moves wad of src's WETH to dst, using the caller's allowance unless it is src.
    function transferFrom(address src, address dst, uint256 wad) public returns (bool) {
        require(balanceOf[src] >= wad);
        if (src != msg.sender && allowance[src][msg.sender] != type(uint256).max) {
            require(allowance[src][msg.sender] >= wad);
            allowance[src][msg.sender] -= wad;
        }
        balanceOf[src] -= wad;
        balanceOf[dst] += wad;
        emit Transfer(src, dst, wad);
        return true;
    }
}
