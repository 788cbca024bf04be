// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Auctioneer} from "./Auctioneer.sol";
import {IBidder} from "./IBidder.sol";
import {SettlementHouse} from "./SettlementHouse.sol";
import {WETH} from "./WETH.sol";

/// @title OpenBidder
/// @notice A contract bidder anyone can use without a bidder seat of their own. A user bids for
/// one slot with the ether to pay for it (price per gas × gas, wrapped to WETH here) and the
/// hash of the bundle to pay for. The Auctioneer reads the open bids with getBid when it
/// settles the slot; afterwards anyone calls submitBundles(slot), which works out what each
/// bid won, pays each filled bid's bundle hash in the SettlementHouse with the gas it won, and
/// credits every user the ether not spent (its deposit minus gas won × clearing price).
/// Users take their credit with withdraw().
contract OpenBidder is IBidder {
    /// @notice Smallest gas a bid may ask for (one plain transaction), raised to the
    /// Auctioneer's minGasAmount when that is higher.
    uint256 public constant MIN_BID_GAS = 21_000;
    /// @notice Most open bids per slot (fewer when the Auctioneer's maxBids is lower): keeps
    /// getBid within the Auctioneer's GET_BID_GAS budget.
    uint256 public constant MAX_OPEN_BIDS = 50;

    enum State {
        None,
        Open,
        Cancelled,
        Settled
    }

    /// @notice One user's bid.
    struct Bid {
        address bidder;
        State state;
        uint128 weiPerGas;
        uint120 amountOfGas;
        uint120 gasFilled;
        uint256 slot;
        bytes32 bundleHash;
    }

    error InvalidBid();
    error WrongValue(uint256 sent, uint256 expected);
    error SlotFull(uint256 slot, uint256 max);
    error AuctionSettled(uint256 slot);
    error AuctionNotSettled(uint256 slot);
    error NotBidOwner(uint256 bidId);
    error BidNotOpen(uint256 bidId);
    error AlreadyProcessed(uint256 slot);
    error NotRefundable(uint256 slot);
    error NothingToWithdraw();

    event BidOpened(uint256 indexed bidId, uint256 indexed slot, address indexed bidder, uint128 weiPerGas, uint120 amountOfGas, bytes32 bundleHash);
    event BidCancelled(uint256 indexed bidId);
    event BidSettled(uint256 indexed bidId, uint120 gasFilled, uint256 cost);
    event SlotRefunded(uint256 indexed slot);
    event Withdrawal(address indexed account, uint256 amount);

    Auctioneer public immutable auctioneer;
    SettlementHouse public immutable house;
    WETH public immutable weth;

    Bid[] public bids;
    /// @dev Open bids of a slot in arrival order: price << 128 | gas << 8, and their ids.
    mapping(uint256 => uint256[]) private openPacked;
    mapping(uint256 => uint256[]) private openIds;
    /// @dev Bids of a slot taken by submitBundles, for claimRefund.
    mapping(uint256 => uint256[]) private processedIds;
    /// @notice 0: not processed, 1: bundles submitted, 2: refunded to users.
    mapping(uint256 => uint8) public slotStatus;
    /// @notice Wei each user can withdraw.
    mapping(address => uint256) public owed;

    constructor(Auctioneer auctioneer_, SettlementHouse house_) {
        auctioneer = auctioneer_;
        house = house_;
        weth = auctioneer_.WETH9();
        weth.approve(address(auctioneer_), type(uint256).max);
        auctioneer_.setOperator(address(house_), true);
    }

    receive() external payable {
        if (msg.sender != address(weth)) revert InvalidBid();
    }

    /// @notice Smallest amountOfGas openBid accepts now.
    function minBidGas() public view returns (uint256) {
        uint256 min = auctioneer.minGasAmount();
        return min > MIN_BID_GAS ? min : MIN_BID_GAS;
    }

    /// @notice Bids weiPerGas for amountOfGas in slot to pay for bundleHash; send exactly
    /// weiPerGas × amountOfGas wei.
    function openBid(uint256 slot, uint128 weiPerGas, uint120 amountOfGas, bytes32 bundleHash) external payable returns (uint256 bidId) {
        (uint120 itemsForSale, bool isOpen, bool isSettled,,) = auctioneer.auctions(slot);
        if (isSettled) revert AuctionSettled(slot);
        if (weiPerGas == 0 || amountOfGas < minBidGas() || bundleHash == bytes32(0)) revert InvalidBid();
        if (isOpen && amountOfGas > itemsForSale) revert InvalidBid();
        uint256 expected = uint256(weiPerGas) * amountOfGas;
        if (msg.value != expected) revert WrongValue(msg.value, expected);
        uint256 max = _maxBids();
        if (openIds[slot].length >= max) revert SlotFull(slot, max);

        weth.deposit{value: msg.value}();
        bidId = bids.length;
        bids.push(Bid(msg.sender, State.Open, weiPerGas, amountOfGas, 0, slot, bundleHash));
        openPacked[slot].push((uint256(weiPerGas) << 128) | (uint256(amountOfGas) << 8));
        openIds[slot].push(bidId);
        emit BidOpened(bidId, slot, msg.sender, weiPerGas, amountOfGas, bundleHash);
    }

    /// @notice Withdraws an open bid before its auction settles; its deposit becomes claimable.
    function cancelBid(uint256 bidId) external {
        Bid storage b = bids[bidId];
        if (b.bidder != msg.sender) revert NotBidOwner(bidId);
        if (b.state != State.Open) revert BidNotOpen(bidId);
        (,, bool isSettled,,) = auctioneer.auctions(b.slot);
        if (isSettled) revert AuctionSettled(b.slot);
        b.state = State.Cancelled;
        owed[msg.sender] += uint256(b.weiPerGas) * b.amountOfGas;

        // Remove from the open list, keeping arrival order (ties are broken by it).
        uint256[] storage ids = openIds[b.slot];
        uint256[] storage packed = openPacked[b.slot];
        uint256 n = ids.length;
        uint256 i = 0;
        while (ids[i] != bidId) i++;
        for (; i + 1 < n; i++) {
            ids[i] = ids[i + 1];
            packed[i] = packed[i + 1];
        }
        ids.pop();
        packed.pop();
        emit BidCancelled(bidId);
    }

    /// @inheritdoc IBidder
    /// @dev Returns the open bids the auction accepts (gas within its limits), at most
    /// maxBids, in arrival order, packed with this contract's bidder id.
    function getBid(uint256 slot) external view returns (uint256[] memory packedBids) {
        (uint256[] memory idx, uint256 n) = _eligible(slot);
        uint256 id = auctioneer.IdMap(address(this));
        packedBids = new uint256[](n);
        if (id == 0) return new uint256[](0);
        uint256[] storage packed = openPacked[slot];
        for (uint256 i = 0; i < n; i++) {
            packedBids[i] = packed[idx[i]] | id;
        }
    }

    function _maxBids() private view returns (uint256) {
        uint256 max = auctioneer.maxBids();
        return max < MAX_OPEN_BIDS ? max : MAX_OPEN_BIDS;
    }

    /// @dev Positions in the open list of the bids getBid offers for slot.
    function _eligible(uint256 slot) private view returns (uint256[] memory idx, uint256 n) {
        (uint120 itemsForSale,,,,) = auctioneer.auctions(slot);
        uint256 minGas = auctioneer.minGasAmount();
        uint256 max = _maxBids();
        uint256[] storage packed = openPacked[slot];
        uint256 len = packed.length;
        idx = new uint256[](len);
        for (uint256 i = 0; i < len && n < max; i++) {
            uint256 gas = uint120(packed[i] >> 8);
            if (gas < minGas || gas > itemsForSale) continue;
            idx[n++] = i;
        }
    }

    /// @notice After slot settles: splits what this contract won among its bids (by price,
    /// ties by arrival, as the Auctioneer filled them), pays each filled bid's bundle hash in
    /// the SettlementHouse (bids filled below MIN_BID_GAS get their tokens instead) and credits
    /// every bid's unspent ether to its user.
    function submitBundles(uint256 slot) external {
        (,, bool isSettled,, bool isRefunded) = auctioneer.auctions(slot);
        if (!isSettled) revert AuctionNotSettled(slot);
        if (slotStatus[slot] != 0) revert AlreadyProcessed(slot);
        slotStatus[slot] = isRefunded ? 2 : 1;

        uint256 itemsBought;
        try auctioneer.getBidderInfo(slot, address(this)) returns (uint120 bought, uint128) {
            itemsBought = bought;
        } catch {}
        if (isRefunded) itemsBought = 0; // the Auctioneer sent the WETH back
        (uint128 price,,) = auctioneer.clearings(slot);

        (uint256[] memory idx, uint256 n) = _eligible(slot);
        uint256[] storage ids = openIds[slot];
        uint256[] memory order = _byPrice(slot, idx, n);
        uint256 remaining = itemsBought;
        for (uint256 k = 0; k < n; k++) {
            uint256 bidId = ids[order[k]];
            Bid storage b = bids[bidId];
            uint256 q = b.amountOfGas < remaining ? b.amountOfGas : remaining;
            remaining -= q;
            _settleBid(b, bidId, slot, q, price);
            processedIds[slot].push(bidId);
        }
        // Bids the auction did not accept (outside its limits) get their deposits back.
        for (uint256 i = 0; i < ids.length; i++) {
            Bid storage b = bids[ids[i]];
            if (b.state == State.Open) _settleBid(b, ids[i], slot, 0, price);
        }
        delete openIds[slot];
        delete openPacked[slot];
    }

    function _settleBid(Bid storage b, uint256 bidId, uint256 slot, uint256 q, uint128 price) private {
        uint256 cost = q * price;
        b.state = State.Settled;
        b.gasFilled = uint120(q);
        owed[b.bidder] += uint256(b.weiPerGas) * b.amountOfGas - cost;
        if (q >= MIN_BID_GAS) {
            bytes32[] memory hashes = new bytes32[](1);
            hashes[0] = b.bundleHash;
            house.submitBundle(slot, q, hashes);
        } else if (q > 0) {
            auctioneer.transfer(b.bidder, slot, q);
        }
        emit BidSettled(bidId, uint120(q), cost);
    }

    /// @dev Positions (into the open list) of the eligible bids by price, ties by arrival.
    function _byPrice(uint256 slot, uint256[] memory idx, uint256 n) private view returns (uint256[] memory order) {
        uint256[] storage packed = openPacked[slot];
        order = new uint256[](n);
        uint256[] memory prices = new uint256[](n);
        for (uint256 i = 0; i < n; i++) {
            uint256 p = packed[idx[i]] >> 128;
            uint256 j = i;
            while (j > 0 && prices[j - 1] < p) {
                prices[j] = prices[j - 1];
                order[j] = order[j - 1];
                j--;
            }
            prices[j] = p;
            order[j] = idx[i];
        }
    }

    /// @notice After the Auctioneer refunded slot (the block was missed): credits every bid
    /// that won gas the ether it paid for it.
    function claimRefund(uint256 slot) external {
        (,,,, bool isRefunded) = auctioneer.auctions(slot);
        if (!isRefunded || slotStatus[slot] != 1) revert NotRefundable(slot);
        slotStatus[slot] = 2;
        (uint128 price,,) = auctioneer.clearings(slot);
        uint256[] storage done = processedIds[slot];
        for (uint256 i = 0; i < done.length; i++) {
            Bid storage b = bids[done[i]];
            if (b.gasFilled > 0) owed[b.bidder] += uint256(b.gasFilled) * price;
        }
        emit SlotRefunded(slot);
    }

    /// @notice Number of bids ever placed (bid ids are 0..bidsCount-1).
    function bidsCount() external view returns (uint256) {
        return bids.length;
    }

    /// @notice Ids of slot's open bids in arrival order.
    function openBids(uint256 slot) external view returns (uint256[] memory) {
        return openIds[slot];
    }

    /// @notice Sends the caller's credit in ether.
    function withdraw() external {
        uint256 amount = owed[msg.sender];
        if (amount == 0) revert NothingToWithdraw();
        owed[msg.sender] = 0;
        weth.withdraw(amount);
        (bool ok,) = payable(msg.sender).call{value: amount}("");
        require(ok);
        emit Withdrawal(msg.sender, amount);
    }
}
