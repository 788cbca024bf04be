// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title Owned2Step
/// @notice An owner that hands over in two steps: the owner proposes, the new owner accepts.
abstract contract Owned2Step {
    /// @notice The caller lacks the role the function needs (owner, operator, auctioneer).
    error Unauthorized();

    event OwnershipTransferStarted(address indexed previousOwner, address indexed newOwner);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    address public owner;
    address public pendingOwner;

    constructor(address initialOwner) {
        owner = initialOwner;
        emit OwnershipTransferred(address(0), initialOwner);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert Unauthorized();
        _;
    }

    /// @notice Proposes newOwner; ownership moves when newOwner calls acceptOwnership.
    function transferOwnership(address newOwner) external onlyOwner {
        pendingOwner = newOwner;
        emit OwnershipTransferStarted(owner, newOwner);
    }

    /// @notice Completes a transfer started by transferOwnership.
    function acceptOwnership() external {
        if (msg.sender != pendingOwner) revert Unauthorized();
        emit OwnershipTransferred(owner, msg.sender);
        owner = msg.sender;
        pendingOwner = address(0);
    }
}
