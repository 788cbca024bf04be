// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title IBidder
/// @notice A contract bidder: the Auctioneer reads its bids for a slot when it settles that slot.
interface IBidder {
    /// @notice The bidder's bids for slot, each packed as price << 128 | items << 8 | bidderId.
    /// @dev Called with a fixed gas budget; a call that reverts, runs out of gas or returns
    /// anything but a well-formed uint256[] of valid bids is skipped.
    function getBid(uint256 slot) external view returns (uint256[] memory packedBids);
}
