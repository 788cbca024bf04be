// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title ERC6909
/// @notice Minimal multi-token (ERC-6909) with holder burns. The Auctioneer's gas tokens use it:
/// token id = slot, one token = one unit of gas.
abstract contract ERC6909 {
    /// @notice owner holds fewer than the amount of token id.
    error InsufficientBalance(address owner, uint256 id, uint256 balance, uint256 needed);
    /// @notice spender is neither an operator of the owner nor allowed enough of token id.
    error InsufficientPermission(address spender, uint256 id);

    event Transfer(address caller, address indexed from, address indexed to, uint256 indexed id, uint256 amount);
    event OperatorSet(address indexed owner, address indexed spender, bool approved);
    event Approval(address indexed owner, address indexed spender, uint256 indexed id, uint256 amount);

    mapping(address => mapping(uint256 => uint256)) internal _balances;
    mapping(address => mapping(address => mapping(uint256 => uint256))) public allowance;
    mapping(address => mapping(address => bool)) public isOperator;

    /// @notice owner's balance of token id.
    function balanceOf(address owner, uint256 id) public view virtual returns (uint256) {
        return _balances[owner][id];
    }

    /// @notice Moves amount of the caller's token id to receiver.
    function transfer(address receiver, uint256 id, uint256 amount) public returns (bool) {
        _move(msg.sender, receiver, id, amount);
        return true;
    }

    /// @notice Moves amount of sender's token id to receiver; the caller is sender, one of its
    /// operators, or allowed the amount (an allowance of type(uint256).max is never decreased).
    function transferFrom(address sender, address receiver, uint256 id, uint256 amount) public returns (bool) {
        if (msg.sender != sender && !isOperator[sender][msg.sender]) {
            uint256 allowed = allowance[sender][msg.sender][id];
            if (allowed < amount) revert InsufficientPermission(msg.sender, id);
            if (allowed != type(uint256).max) allowance[sender][msg.sender][id] = allowed - amount;
        }
        _move(sender, receiver, id, amount);
        return true;
    }

    /// @notice Lets spender move amount of the caller's token id.
    function approve(address spender, uint256 id, uint256 amount) public returns (bool) {
        allowance[msg.sender][spender][id] = amount;
        emit Approval(msg.sender, spender, id, amount);
        return true;
    }

    /// @notice Lets spender move any of the caller's tokens (or stops it).
    function setOperator(address spender, bool approved) public returns (bool) {
        isOperator[msg.sender][spender] = approved;
        emit OperatorSet(msg.sender, spender, approved);
        return true;
    }

    /// @notice Destroys amount of the caller's token id.
    function burn(uint256 id, uint256 amount) public {
        _take(msg.sender, id, amount);
        emit Transfer(msg.sender, msg.sender, address(0), id, amount);
    }

    /// @notice ERC-165: true for ERC-165 and ERC-6909.
    function supportsInterface(bytes4 interfaceId) public pure returns (bool) {
        return interfaceId == 0x01ffc9a7 || interfaceId == 0x0f632fb3;
    }

    function _move(address from, address to, uint256 id, uint256 amount) internal {
        _take(from, id, amount);
        _balances[to][id] += amount;
        emit Transfer(msg.sender, from, to, id, amount);
    }

    function _take(address from, uint256 id, uint256 amount) private {
        _beforeDebit(from, id);
        uint256 bal = _balances[from][id];
        if (bal < amount) revert InsufficientBalance(from, id, bal, amount);
        unchecked {
            _balances[from][id] = bal - amount;
        }
    }

    /// @dev Runs before tokens of id leave from; lets a derived contract credit
    /// tokens it accounts for elsewhere (lazy minting).
    function _beforeDebit(address from, uint256 id) internal virtual {}
}
