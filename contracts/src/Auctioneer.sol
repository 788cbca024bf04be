// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC6909} from "./ERC6909.sol";
import {Owned2Step} from "./Owned2Step.sol";
import {IBidder} from "./IBidder.sol";
import {WETH} from "./WETH.sol";

/// @notice The part of the Accountant the Auctioneer pays into.
interface IAccountant {
    function recordPayment(uint256 slot, uint256 amount) external;
}

/// @title Auctioneer
/// @notice Sells the beta gas of future slots in uniform-price auctions and mints the gas as
/// ERC-6909 tokens (id = slot, one token = one gas).
///
/// Registered bidders (ids 1..255) place packed bids (price << 128 | items << 8 | id) while a
/// slot's auction is open; registered contract bidders are also asked for their bids with
/// IBidder.getBid at settlement. runAndSettle fills bids by price, ties by arrival (manual bids
/// in the order placed, then contract bids by bidder id and position), the marginal bid partly;
/// every winner pays its gas times the lowest filled price, in WETH pulled with allowance.
///
/// Bounds that keep a full settlement inside one transaction of at most 2^24 gas (the
/// EIP-7825 cap since Osaka, stricter than a 30M-gas block): at most MAX_BIDS_PER_SLOT manual
/// bids per slot, maxBids (<= MAX_BIDS_PER_BIDDER) per bidder per slot, at most
/// MAX_CONTRACT_BIDDERS contract bidders, each getBid call capped at GET_BID_GAS. Bids are kept
/// in arrival order and put into a heap at settlement, so only the filled bids are sorted;
/// each bidder's seat (written with its first bid) holds its outcome, and gas tokens are
/// minted lazily, so settlement writes one already-warm word per participant.
contract Auctioneer is Owned2Step, ERC6909 {
    /// @notice Manual bids a slot accepts from all bidders together.
    uint256 public constant MAX_BIDS_PER_SLOT = 900;
    /// @notice Upper bound of maxBids.
    uint256 public constant MAX_BIDS_PER_BIDDER = 100;
    /// @notice Registered bidders with code whose getBid is called at settlement.
    uint256 public constant MAX_CONTRACT_BIDDERS = 8;
    /// @notice Gas each getBid call may use.
    uint256 public constant GET_BID_GAS = 300_000;

    error AuctionAlreadyOpen(uint256 slot);
    error AuctionAlreadySettled(uint256 slot);
    error AuctionNotOpen(uint256 slot);
    error AuctionNotSettled(uint256 slot);
    error AuctionNotClosed(uint256 slot);
    error AuctionAlreadyFinalized(uint256 slot);
    error AuctionFull(uint256 slot, uint256 maxBids);
    error BidderAlreadyExists(address bidder);
    error BidderNotRegistered(address bidder);
    error BidderNotParticipating(uint256 slot, address bidder);
    error BidderLimitReached();
    error ContractBidderLimitReached(uint256 max);
    error InvalidAddress();
    error InvalidId();
    error InvalidBidItems(uint120 items, uint120 min, uint120 max);
    error InvalidBidPrice();
    error InvalidItemsForSale();
    error InvalidMaxBids(uint256 maxBids, uint256 limit);
    error InsufficientFunds(uint256 needed, uint256 available);
    error InsufficientGas();
    error NoBids();
    error NoAccountant();
    error TooManyBids(uint256 maxBids);

    event AuctionOpened(uint256 indexed slot, uint120 itemsForSale);
    event AuctionSettled(uint256 indexed slot);
    event AuctionCleared(uint256 indexed slot, uint128 clearingPrice, uint120 itemsSold, uint256 proceeds);
    event AuctionPaidOut(uint256 indexed slot);
    event AuctionRefund(uint256 indexed slot);
    event BidderAdded(address indexed bidder, uint8 indexed bidderId);
    event BidderRemoved(address indexed bidder, uint8 indexed bidderId);
    event BidsPlaced(uint256 indexed slot, address indexed bidder, uint256 count);
    /// @notice A bid left out at settlement because its bidder could not pay its price for it.
    event BidSkipped(uint256 indexed slot, address indexed bidder, uint256 packedBid);
    /// @notice A contract bidder whose getBid reverted or returned malformed or invalid bids.
    event BidderSkipped(uint256 indexed slot, address indexed bidder);
    event OperatorUpdated(address indexed oldOperator, address indexed newOperator);
    event AccountantUpdated(address indexed oldAccountant, address indexed newAccountant);
    event MaxBidsUpdated(uint256 maxBids);
    event MinGasAmountUpdated(uint120 minGasAmount);

    /// @notice State of one slot's auction.
    struct Auction {
        uint120 itemsForSale;
        bool isOpen;
        bool isSettled;
        bool isPaidOut;
        bool isRefunded;
    }

    /// @notice Outcome of a settled auction.
    struct Clearing {
        uint128 price;
        uint120 itemsSold;
        uint256 proceeds;
    }

    /// @dev One bidder's seat in one slot: who placed the bids under the id (so bids
    /// of a removed bidder whose id went to someone else are never charged to the
    /// newcomer), how many, and the outcome. The bidder creates it with its first
    /// bid, so settlement only updates a word it has read anyway. The outcome pays
    /// itemsBought x the clearing price; its gas tokens are minted lazily: balanceOf
    /// counts them until the first debit moves them into the ERC-6909 balance.
    struct Seat {
        address bidder;
        uint8 bids;
        uint80 itemsBought;
        bool participated;
        bool claimed;
    }

    WETH public immutable WETH9;
    address public operator;
    address public accountant;
    uint256 public maxBids = 50;
    uint120 public minGasAmount = 20_000;

    mapping(address => uint8) public IdMap;
    mapping(uint8 => address) public bidderMap;
    uint8 public bidderCount;
    /// @notice Bitmap of the ids in use (bit i = id i).
    uint256 public usedIds;
    /// @notice Bitmap of the ids held by contracts, whose getBid runs at settlement.
    uint256 public contractBidders;

    mapping(uint256 => Auction) public auctions;
    mapping(uint256 => Clearing) public clearings;
    uint256[] public slotsAuctioned;
    /// @notice Bitmap of the ids that won tokens in a slot.
    mapping(uint256 => uint256) public winners;

    mapping(uint256 => uint256[]) private slotBids;
    mapping(uint256 => mapping(uint8 => Seat)) private seats;
    mapping(uint256 => mapping(address => uint8)) private seatOf;
    mapping(uint256 => mapping(uint8 => uint256)) private committed;

    constructor(address owner_, address operator_, WETH weth_, address accountant_) Owned2Step(owner_) {
        WETH9 = weth_;
        operator = operator_;
        accountant = accountant_;
        emit OperatorUpdated(address(0), operator_);
        emit AccountantUpdated(address(0), accountant_);
    }

    modifier onlyOperator() {
        if (msg.sender != operator) revert Unauthorized();
        _;
    }

    // ---------------------------------------------------------------- administration

    /// @notice Registers bidder under the lowest free id (1..255) and returns it.
    function newBidder(address bidder) external onlyOwner returns (uint8 newId) {
        if (bidder == address(0)) revert InvalidAddress();
        if (IdMap[bidder] != 0) revert BidderAlreadyExists(bidder);
        uint256 free = ~usedIds & ~uint256(1);
        if (free == 0) revert BidderLimitReached();
        uint256 id = 1;
        while ((free & (uint256(1) << id)) == 0) id++;
        if (bidder.code.length > 0) {
            if (_popcount(contractBidders) >= MAX_CONTRACT_BIDDERS) {
                revert ContractBidderLimitReached(MAX_CONTRACT_BIDDERS);
            }
            contractBidders |= uint256(1) << id;
        }
        newId = uint8(id);
        usedIds |= uint256(1) << id;
        IdMap[bidder] = newId;
        bidderMap[newId] = bidder;
        bidderCount++;
        emit BidderAdded(bidder, newId);
    }

    /// @notice Unregisters a bidder; its bids in auctions not yet settled are ignored.
    function removeBidder(uint8 bidderId) external onlyOwner {
        address bidder = bidderMap[bidderId];
        if (bidder == address(0)) revert InvalidId();
        delete IdMap[bidder];
        delete bidderMap[bidderId];
        usedIds &= ~(uint256(1) << bidderId);
        contractBidders &= ~(uint256(1) << bidderId);
        bidderCount--;
        emit BidderRemoved(bidder, bidderId);
    }

    function changeOperator(address newOperator) external onlyOwner {
        emit OperatorUpdated(operator, newOperator);
        operator = newOperator;
    }

    function updateAccountant(address newAccountant) external onlyOwner {
        emit AccountantUpdated(accountant, newAccountant);
        accountant = newAccountant;
    }

    function updateMaxBids(uint256 newMaxBids) external onlyOwner {
        if (newMaxBids == 0 || newMaxBids > MAX_BIDS_PER_BIDDER) {
            revert InvalidMaxBids(newMaxBids, MAX_BIDS_PER_BIDDER);
        }
        maxBids = newMaxBids;
        emit MaxBidsUpdated(newMaxBids);
    }

    function updateMinGasAmount(uint120 newAmount) external onlyOwner {
        if (newAmount == 0) revert InvalidBidItems(newAmount, 1, type(uint120).max);
        minGasAmount = newAmount;
        emit MinGasAmountUpdated(newAmount);
    }

    // ---------------------------------------------------------------- auction

    /// @notice Opens the auction of itemsForSale gas in slot.
    function openAuction(uint256 slot, uint120 itemsForSale) external onlyOperator {
        Auction storage a = auctions[slot];
        if (a.isSettled) revert AuctionAlreadySettled(slot);
        if (a.isOpen) revert AuctionAlreadyOpen(slot);
        if (itemsForSale == 0 || itemsForSale > type(uint80).max) revert InvalidItemsForSale();
        a.itemsForSale = itemsForSale;
        a.isOpen = true;
        slotsAuctioned.push(slot);
        emit AuctionOpened(slot, itemsForSale);
    }

    /// @notice Number of auctions ever opened (the length of slotsAuctioned).
    function slotsCount() external view returns (uint256) {
        return slotsAuctioned.length;
    }

    /// @notice Packs a bid: price per gas in wei, gas to buy, the bidder's id.
    function packBid(uint128 bidPrice, uint120 itemsToBuy, uint8 bidderId) public pure returns (uint256 packedBid) {
        return (uint256(bidPrice) << 128) | (uint256(itemsToBuy) << 8) | uint256(bidderId);
    }

    /// @notice Places the caller's packed bids in slot's open auction.
    /// @dev Reverts unless every bid is valid and the caller's WETH balance and allowance cover
    /// all its bids in the slot at their prices.
    function bid(uint256 slot, uint256[] calldata packedBids) external {
        Auction storage a = auctions[slot];
        if (a.isSettled) revert AuctionAlreadySettled(slot);
        if (!a.isOpen) revert AuctionNotOpen(slot);
        uint8 id = IdMap[msg.sender];
        if (id == 0) revert BidderNotRegistered(msg.sender);
        uint256 count = packedBids.length;
        if (count == 0) revert NoBids();

        Seat storage seat = seats[slot][id];
        if (seat.bidder != address(0) && seat.bidder != msg.sender) revert InvalidId();
        if (seat.bids + count > maxBids) revert TooManyBids(maxBids);
        uint256[] storage stored = slotBids[slot];
        if (stored.length + count > MAX_BIDS_PER_SLOT) revert AuctionFull(slot, MAX_BIDS_PER_SLOT);

        uint120 supply = a.itemsForSale;
        uint120 minItems = minGasAmount;
        uint256 value = committed[slot][id];
        for (uint256 i = 0; i < count; i++) {
            uint256 p = packedBids[i];
            if (uint8(p) != id) revert InvalidId();
            uint128 price = uint128(p >> 128);
            uint120 items = uint120(p >> 8);
            if (price == 0) revert InvalidBidPrice();
            if (items < minItems || items > supply) revert InvalidBidItems(items, minItems, supply);
            value += uint256(price) * items;
            stored.push(p);
        }
        uint256 available = _funds(msg.sender);
        if (value > available) revert InsufficientFunds(value, available);

        committed[slot][id] = value;
        if (seat.bidder == address(0)) {
            seat.bidder = msg.sender;
            seatOf[slot][msg.sender] = id;
        }
        seat.bids += uint8(count);
        emit BidsPlaced(slot, msg.sender, count);
    }

    /// @notice Number of manual bids placed in slot.
    function bidCount(uint256 slot) external view returns (uint256) {
        return slotBids[slot].length;
    }

    /// @notice The manual bids placed in slot, in arrival order.
    function getBids(uint256 slot) external view returns (uint256[] memory) {
        return slotBids[slot];
    }

    /// @notice Gas bought and WETH paid by bidder in slot.
    /// @dev Reverts unless the auction is settled and the bidder took part in it.
    function getBidderInfo(uint256 slot, address bidder) external view returns (uint120 itemsBought, uint128 amountOwed) {
        if (!auctions[slot].isSettled) revert AuctionNotSettled(slot);
        Seat storage seat = _seat(slot, bidder);
        if (!seat.participated) revert BidderNotParticipating(slot, bidder);
        return (seat.itemsBought, uint128(uint256(seat.itemsBought) * clearings[slot].price));
    }

    /// @notice owner's gas tokens of slot id, counting tokens won but not yet moved.
    function balanceOf(address owner, uint256 id) public view override returns (uint256) {
        Seat storage seat = _seat(id, owner);
        return _balances[owner][id] + (seat.claimed ? 0 : seat.itemsBought);
    }

    function _beforeDebit(address from, uint256 id) internal override {
        Seat storage seat = _seat(id, from);
        uint256 items = seat.itemsBought;
        if (items > 0 && !seat.claimed) {
            seat.claimed = true;
            _balances[from][id] += items;
            emit Transfer(msg.sender, address(0), from, id, items); // the lazy mint
        }
    }

    /// @dev who's seat in slot, or an empty seat when who has none there.
    function _seat(uint256 slot, address who) private view returns (Seat storage seat) {
        seat = seats[slot][seatOf[slot][who]];
        if (seat.bidder != who) seat = seats[slot][0]; // id 0 is never used: empty
    }

    // ---------------------------------------------------------------- settlement

    /// @dev Working state of one settlement, kept in memory.
    struct Book {
        uint256 slot;
        uint256[] bids; // packed bids, manual then contract
        uint256[] heap; // keys: price << 128 | (2^32 - 1 - index)
        uint256 size;
        address[] addrOf; // by id
        uint256[] funds; // by id: min(WETH balance, allowance)
        uint256[] spent; // by id: value of filled bids at their own prices
        uint256[] bought; // by id
        uint256 participants; // bitmap of ids
        uint256 loaded; // bitmap of ids whose funds were read
    }

    /// @notice Closes slot's auction, fills bids, collects WETH and mints the gas tokens.
    function runAndSettle(uint256 slot) external onlyOperator {
        Auction storage a = auctions[slot];
        if (a.isSettled) revert AuctionAlreadySettled(slot);
        if (!a.isOpen) revert AuctionNotOpen(slot);
        a.isOpen = false;
        a.isSettled = true;
        uint120 supply = a.itemsForSale;

        Book memory book;
        book.slot = slot;
        book.addrOf = new address[](256);
        book.funds = new uint256[](256);
        book.spent = new uint256[](256);
        book.bought = new uint256[](256);

        uint256[][] memory fromContracts = _collectContractBids(book, supply);
        _loadBids(book, fromContracts);
        (uint128 price, uint256 sold) = _fill(book, supply);
        (uint256 proceeds, uint256 unpaid) = _charge(book, price);
        sold -= unpaid;

        clearings[slot] = Clearing(price, uint120(sold), proceeds);
        emit AuctionSettled(slot);
        emit AuctionCleared(slot, price, uint120(sold), proceeds);
    }

    /// @dev Calls getBid on every contract bidder; invalid answers are skipped whole.
    function _collectContractBids(Book memory book, uint120 supply) private returns (uint256[][] memory out) {
        uint256 bitmap = contractBidders;
        out = new uint256[][](256);
        if (bitmap == 0) return out;
        uint256 limit = maxBids;
        uint120 minItems = minGasAmount;
        for (uint256 id = 1; id < 256 && (bitmap >> id) != 0; id++) {
            if ((bitmap & (uint256(1) << id)) == 0) continue;
            address bidder = bidderMap[uint8(id)];
            if (gasleft() < GET_BID_GAS + GET_BID_GAS / 63 + 100_000) revert InsufficientGas();
            (bool ok, uint256[] memory got) = _fetchBids(bidder, book.slot, limit);
            if (ok) ok = _validContractBids(got, uint8(id), minItems, supply);
            if (!ok) {
                emit BidderSkipped(book.slot, bidder);
                continue;
            }
            if (got.length == 0) continue;
            out[id] = got;
            book.addrOf[id] = bidder;
            book.participants |= uint256(1) << id;
        }
    }

    /// @dev Reads getBid(slot) with a gas cap, copying at most 64 + 32 * limit bytes back.
    function _fetchBids(address bidder, uint256 slot, uint256 limit) private view returns (bool ok, uint256[] memory got) {
        bytes memory data = abi.encodeWithSelector(IBidder.getBid.selector, slot);
        uint256 gasCap = GET_BID_GAS;
        uint256 size;
        assembly ("memory-safe") {
            ok := staticcall(gasCap, bidder, add(data, 32), mload(data), 0, 0)
            size := returndatasize()
        }
        if (!ok || size < 64 || size > 64 + 32 * limit) return (false, got);
        uint256 offset;
        uint256 length;
        assembly ("memory-safe") {
            returndatacopy(0, 0, 64)
            offset := mload(0)
            length := mload(32)
        }
        if (offset != 32 || length > limit || size != 64 + 32 * length) return (false, got);
        got = new uint256[](length);
        assembly ("memory-safe") {
            returndatacopy(add(got, 32), 64, mul(length, 32))
        }
        return (true, got);
    }

    function _validContractBids(uint256[] memory got, uint8 id, uint120 minItems, uint120 supply) private pure returns (bool) {
        for (uint256 i = 0; i < got.length; i++) {
            uint256 p = got[i];
            uint120 items = uint120(p >> 8);
            if (uint8(p) != id || uint128(p >> 128) == 0 || items < minItems || items > supply) return false;
        }
        return true;
    }

    /// @dev Puts the manual bids of still-registered bidders and the contract bids into a heap.
    function _loadBids(Book memory book, uint256[][] memory fromContracts) private view {
        uint256[] storage stored = slotBids[book.slot];
        uint256 manual = stored.length;
        uint256 total = manual;
        uint256 contracts = contractBidders; // only their entries of fromContracts can be set
        unchecked {
            for (uint256 id = 1; id < 256 && (contracts >> id) != 0; id++) {
                total += fromContracts[id].length;
            }
        }
        uint256[] memory bids = new uint256[](total);
        uint256[] memory heap = new uint256[](total);
        address[] memory addrOf = book.addrOf;
        uint256 participants = book.participants;

        uint256 checked; // ids whose registration was looked up
        uint256 valid; // ids whose manual bids count
        uint256 n;
        unchecked {
            for (uint256 i = 0; i < manual; i++) {
                uint256 p = stored[i];
                uint256 id = uint8(p);
                uint256 bit = uint256(1) << id;
                if ((checked & bit) == 0) {
                    checked |= bit;
                    address current = bidderMap[uint8(id)];
                    if (current != address(0) && current == seats[book.slot][uint8(id)].bidder) {
                        valid |= bit;
                        addrOf[id] = current;
                        participants |= bit;
                    }
                }
                if ((valid & bit) == 0) continue;
                bids[n] = p;
                heap[n] = (p >> 128 << 128) | (type(uint32).max - n);
                n++;
            }
            for (uint256 id = 1; id < 256 && (contracts >> id) != 0; id++) {
                uint256[] memory got = fromContracts[id];
                for (uint256 j = 0; j < got.length; j++) {
                    bids[n] = got[j];
                    heap[n] = (got[j] >> 128 << 128) | (type(uint32).max - n);
                    n++;
                }
            }
            for (uint256 i = n / 2; i > 0; i--) {
                _siftDown(heap, i - 1, n);
            }
        }
        book.bids = bids;
        book.heap = heap;
        book.size = n;
        book.participants = participants;
    }

    /// @dev Pops bids by price (then arrival) until supply runs out. A bid whose bidder cannot
    /// pay its own price for the filled part is skipped; since the clearing price is at most
    /// every filled price, the bidder can then pay at the clearing price.
    function _fill(Book memory book, uint120 supply) private returns (uint128 price, uint256 sold) {
        uint256[] memory heap = book.heap;
        uint256[] memory bids = book.bids;
        uint256[] memory funds = book.funds;
        uint256[] memory spent = book.spent;
        uint256[] memory bought = book.bought;
        uint256 size = book.size;
        uint256 loaded;
        uint256 remaining = supply;
        while (remaining > 0 && size > 0) {
            uint256 p;
            unchecked {
                uint256 key = heap[0];
                size--;
                if (size > 0) {
                    heap[0] = heap[size];
                    _siftDown(heap, 0, size);
                }
                p = bids[type(uint32).max - uint32(key)];
            }
            uint256 id = uint8(p);
            uint256 bidPrice = p >> 128;
            uint256 items = uint120(p >> 8);
            uint256 q = items < remaining ? items : remaining;
            if ((loaded & (uint256(1) << id)) == 0) {
                loaded |= uint256(1) << id;
                funds[id] = _funds(book.addrOf[id]);
            }
            uint256 cost = q * bidPrice;
            uint256 after_ = spent[id] + cost;
            if (after_ > funds[id]) {
                emit BidSkipped(book.slot, book.addrOf[id], p);
                continue;
            }
            unchecked {
                spent[id] = after_;
                bought[id] += q;
                remaining -= q;
            }
            price = uint128(bidPrice);
        }
        sold = supply - remaining;
    }

    /// @dev Charges every winner bought × price, mints its tokens and records every
    /// participant's result. Returns the WETH collected and the items of failed payments.
    function _charge(Book memory book, uint128 price) private returns (uint256 proceeds, uint256 unpaid) {
        uint256 participants = book.participants;
        uint256 won;
        for (uint256 id = 1; id < 256 && (participants >> id) != 0; id++) {
            if ((participants & (uint256(1) << id)) == 0) continue;
            address bidder = book.addrOf[id];
            uint256 items = book.bought[id];
            uint256 owed = items * price;
            if (items > 0 && !_pull(bidder, owed)) {
                emit BidderSkipped(book.slot, bidder);
                unpaid += items;
                items = 0;
                owed = 0;
            }
            Seat storage seat = seats[book.slot][uint8(id)];
            if (seat.bidder != bidder) {
                // A contract bidder without manual bids here: give it its seat now.
                seat.bidder = bidder;
                seat.bids = 0;
                seatOf[book.slot][bidder] = uint8(id);
            }
            seat.itemsBought = uint80(items);
            seat.participated = true;
            if (items == 0) continue;
            proceeds += owed;
            won |= uint256(1) << id;
        }
        winners[book.slot] = won;
    }

    function _pull(address from, uint256 amount) private returns (bool) {
        (bool ok, bytes memory ret) =
            address(WETH9).call(abi.encodeWithSelector(WETH.transferFrom.selector, from, address(this), amount));
        return ok && (ret.length == 0 || (ret.length == 32 && abi.decode(ret, (bool))));
    }

    function _funds(address bidder) private view returns (uint256) {
        uint256 balance = WETH9.balanceOf(bidder);
        uint256 allowed = WETH9.allowance(bidder, address(this));
        return balance < allowed ? balance : allowed;
    }

    /// @dev Max-heap sift-down over heap[0:n] (memory, no bounds checks: i, n <= length).
    function _siftDown(uint256[] memory heap, uint256 i, uint256 n) private pure {
        assembly ("memory-safe") {
            let base := add(heap, 32)
            let v := mload(add(base, shl(5, i)))
            for {} 1 {} {
                let c := add(shl(1, i), 1)
                if iszero(lt(c, n)) { break }
                let cv := mload(add(base, shl(5, c)))
                let r := add(c, 1)
                if lt(r, n) {
                    let rv := mload(add(base, shl(5, r)))
                    if gt(rv, cv) {
                        c := r
                        cv := rv
                    }
                }
                if iszero(gt(cv, v)) { break }
                mstore(add(base, shl(5, i)), cv)
                i := c
            }
            mstore(add(base, shl(5, i)), v)
        }
    }

    function _popcount(uint256 x) private pure returns (uint256 n) {
        while (x != 0) {
            x &= x - 1;
            n++;
        }
    }

    // ---------------------------------------------------------------- after the slot

    /// @notice Sends slot's proceeds to the Accountant (the beta block landed).
    function payout(uint256 slot) external onlyOperator {
        Auction storage a = _finalize(slot);
        a.isPaidOut = true;
        address acct = accountant;
        if (acct == address(0)) revert NoAccountant();
        uint256 proceeds = clearings[slot].proceeds;
        if (proceeds > 0) {
            require(WETH9.transfer(acct, proceeds));
            IAccountant(acct).recordPayment(slot, proceeds);
        }
        emit AuctionPaidOut(slot);
    }

    /// @notice Returns every winner's WETH (the slot was missed).
    function refund(uint256 slot) external onlyOperator {
        Auction storage a = _finalize(slot);
        a.isRefunded = true;
        uint256 won = winners[slot];
        for (uint256 id = 1; id < 256 && won != 0; id++) {
            if ((won & (uint256(1) << id)) == 0) continue;
            won &= ~(uint256(1) << id);
            Seat storage seat = seats[slot][uint8(id)];
            address bidder = seat.bidder;
            uint256 owed = uint256(seat.itemsBought) * clearings[slot].price;
            if (owed > 0) require(WETH9.transfer(bidder, owed));
        }
        emit AuctionRefund(slot);
    }

    function _finalize(uint256 slot) private view returns (Auction storage a) {
        a = auctions[slot];
        if (!a.isSettled) revert AuctionNotClosed(slot);
        if (a.isPaidOut || a.isRefunded) revert AuctionAlreadyFinalized(slot);
    }
}
