// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Owned2Step} from "./Owned2Step.sol";
import {WETH} from "./WETH.sol";

/// @title Accountant
/// @notice Receives the Auctioneer's proceeds per slot, keeps an admin fee (basis points) for
/// the fee recipient and credits the rest to the validator reward address the operator set for
/// the slot. Shares of a slot whose reward address is not set yet wait until it is. Everyone
/// withdraws their own balance (pull payments), in WETH.
contract Accountant is Owned2Step {
    uint256 public constant MAX_FEE_BPS = 10_000;

    error InvalidAddress();
    error InvalidFee(uint256 bps, uint256 max);
    error RewardAddressAlreadySet(uint256 slot, address current);
    error PaymentNotReceived(uint256 amount, uint256 unaccounted);
    error NothingToWithdraw();

    event PaymentReceived(uint256 indexed slot, uint256 amount);
    event PaymentSplit(uint256 indexed slot, uint256 adminFee, uint256 validatorsShare);
    event ValidatorRewardAddressSet(uint256 indexed slot, address indexed rewardAddress);
    event Withdrawal(address indexed account, uint256 amount);
    event OperatorUpdated(address indexed oldOperator, address indexed newOperator);
    event AuctioneerUpdated(address indexed oldAuctioneer, address indexed newAuctioneer);
    event AdminFeeUpdated(uint256 bps);
    event FeeRecipientUpdated(address indexed feeRecipient);

    WETH public immutable weth;
    address public auctioneer;
    address public operator;
    address public feeRecipient;
    uint256 public adminFeeBps;

    mapping(uint256 => address) public validatorRewardAddress;
    /// @notice Validator shares of slots whose reward address is not set yet.
    mapping(uint256 => uint256) public unassigned;
    mapping(address => uint256) public balances;
    /// @notice WETH this contract owes (sum of balances and unassigned shares).
    uint256 public totalOwed;

    constructor(address owner_, address operator_, WETH weth_, uint256 adminFeeBps_) Owned2Step(owner_) {
        if (adminFeeBps_ > MAX_FEE_BPS) revert InvalidFee(adminFeeBps_, MAX_FEE_BPS);
        weth = weth_;
        operator = operator_;
        feeRecipient = owner_;
        adminFeeBps = adminFeeBps_;
    }

    function setAuctioneer(address newAuctioneer) external onlyOwner {
        emit AuctioneerUpdated(auctioneer, newAuctioneer);
        auctioneer = newAuctioneer;
    }

    function changeOperator(address newOperator) external onlyOwner {
        emit OperatorUpdated(operator, newOperator);
        operator = newOperator;
    }

    function setFeeRecipient(address newRecipient) external onlyOwner {
        if (newRecipient == address(0)) revert InvalidAddress();
        feeRecipient = newRecipient;
        emit FeeRecipientUpdated(newRecipient);
    }

    function updateAdminFee(uint256 bps) external onlyOwner {
        if (bps > MAX_FEE_BPS) revert InvalidFee(bps, MAX_FEE_BPS);
        adminFeeBps = bps;
        emit AdminFeeUpdated(bps);
    }

    /// @notice Sets who receives the validator share of slot (once); credits any share waiting.
    function setValidatorRewardAddress(uint256 slot, address rewardAddress) external {
        if (msg.sender != operator) revert Unauthorized();
        if (rewardAddress == address(0)) revert InvalidAddress();
        address current = validatorRewardAddress[slot];
        if (current != address(0)) revert RewardAddressAlreadySet(slot, current);
        validatorRewardAddress[slot] = rewardAddress;
        emit ValidatorRewardAddressSet(slot, rewardAddress);
        uint256 waiting = unassigned[slot];
        if (waiting > 0) {
            unassigned[slot] = 0;
            balances[rewardAddress] += waiting;
        }
    }

    /// @notice Splits amount of WETH already transferred here for slot. Only the Auctioneer.
    function recordPayment(uint256 slot, uint256 amount) external {
        if (msg.sender != auctioneer) revert Unauthorized();
        uint256 unaccounted = weth.balanceOf(address(this)) - totalOwed;
        if (amount > unaccounted) revert PaymentNotReceived(amount, unaccounted);
        totalOwed += amount;
        uint256 fee = amount * adminFeeBps / MAX_FEE_BPS;
        uint256 share = amount - fee;
        balances[feeRecipient] += fee;
        address validator = validatorRewardAddress[slot];
        if (validator == address(0)) {
            unassigned[slot] += share;
        } else {
            balances[validator] += share;
        }
        emit PaymentReceived(slot, amount);
        emit PaymentSplit(slot, fee, share);
    }

    /// @notice Sends the caller's whole balance in WETH.
    function withdraw() external {
        uint256 amount = balances[msg.sender];
        if (amount == 0) revert NothingToWithdraw();
        balances[msg.sender] = 0;
        totalOwed -= amount;
        require(weth.transfer(msg.sender, amount));
        emit Withdrawal(msg.sender, amount);
    }
}
