// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Auctioneer} from "./Auctioneer.sol";

/// @title SettlementHouse
/// @notice Where gas-token holders pay for bundle hashes: submitBundle takes and burns the
/// caller's tokens of a slot and records the hashes; the beta-block builder reads
/// queryBundles(slot) and includes the pooled bundles found there, each entry's amountOfGas
/// being the gas budget its hashes share in listed order.
contract SettlementHouse {
    /// @notice Smallest gas an entry can pay for: one plain transaction.
    uint256 public constant MIN_BUNDLE_GAS = 21_000;
    /// @notice Most hashes one entry may list.
    uint256 public constant MAX_BUNDLE_HASHES = 64;

    error NoBundleHashes();
    error TooManyBundleHashes(uint256 count, uint256 max);
    error ZeroBundleHash(uint256 index);
    error BundleGasTooLow(uint256 amountOfGas, uint256 min);
    error AuctionRefunded(uint256 slot);

    event BundleSubmitted(address indexed sender, uint256 indexed slot, uint256 indexed index, uint256 amountOfGas);

    /// @notice One payment: who paid, the gas paid for, the bundle hashes it covers.
    struct Bundle {
        address submitter;
        uint256 amountOfGas;
        bytes32[] bundleHashes;
    }

    Auctioneer public immutable auctioneer;
    mapping(uint256 => Bundle[]) private bundles;

    constructor(Auctioneer auctioneer_) {
        auctioneer = auctioneer_;
    }

    /// @notice Burns amountOfGas of the caller's slot tokens and records bundleHashes for slot.
    /// @dev The caller first approves this contract for the tokens (ERC-6909 approve or
    /// setOperator); the token's own errors (InsufficientBalance, InsufficientPermission) pass through.
    function submitBundle(uint256 slot, uint256 amountOfGas, bytes32[] calldata bundleHashes) external {
        uint256 n = bundleHashes.length;
        if (n == 0) revert NoBundleHashes();
        if (n > MAX_BUNDLE_HASHES) revert TooManyBundleHashes(n, MAX_BUNDLE_HASHES);
        for (uint256 i = 0; i < n; i++) {
            if (bundleHashes[i] == bytes32(0)) revert ZeroBundleHash(i);
        }
        if (amountOfGas < MIN_BUNDLE_GAS) revert BundleGasTooLow(amountOfGas, MIN_BUNDLE_GAS);
        (,,,, bool isRefunded) = auctioneer.auctions(slot);
        if (isRefunded) revert AuctionRefunded(slot);

        auctioneer.transferFrom(msg.sender, address(this), slot, amountOfGas);
        auctioneer.burn(slot, amountOfGas);

        Bundle[] storage list = bundles[slot];
        uint256 index = list.length;
        list.push(Bundle(msg.sender, amountOfGas, bundleHashes));
        emit BundleSubmitted(msg.sender, slot, index, amountOfGas);
    }

    /// @notice Every payment recorded for slot, in submission order.
    function queryBundles(uint256 slot) external view returns (Bundle[] memory) {
        return bundles[slot];
    }

    /// @notice Number of payments recorded for slot.
    function bundleCount(uint256 slot) external view returns (uint256) {
        return bundles[slot].length;
    }
}
