// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IBidder} from "../IBidder.sol";
import {WETH} from "../WETH.sol";

/// @title ScriptedBidder
/// @notice Test-only contract bidder whose getBid answers as scripted: the stored bids, a
/// revert, a gas-burning loop, a malformed encoding or oversized return data.
contract ScriptedBidder is IBidder {
    uint256 public constant MODE_BIDS = 0;
    uint256 public constant MODE_REVERT = 1;
    uint256 public constant MODE_BURN_GAS = 2;
    uint256 public constant MODE_BAD_OFFSET = 3;
    uint256 public constant MODE_OVERSIZED = 4;
    uint256 public constant MODE_SHORT = 5;
    uint256 public constant MODE_RAW = 6;

    mapping(uint256 => uint256[]) private scripted;
    uint256 public mode;
    bytes private raw;

    /// @notice Sets the exact bytes getBid returns in MODE_RAW.
    function setRaw(bytes calldata answer) external {
        raw = answer;
    }

    function setBids(uint256 slot, uint256[] calldata packedBids) external {
        scripted[slot] = packedBids;
    }

    function setMode(uint256 newMode) external {
        mode = newMode;
    }

    /// @notice Wraps the value sent and lets spender take it.
    function fund(WETH weth, address spender) external payable {
        weth.deposit{value: msg.value}();
        weth.approve(spender, type(uint256).max);
    }

    function getBid(uint256 slot) external view returns (uint256[] memory) {
        uint256 m = mode;
        if (m == MODE_REVERT) revert("scripted revert");
        if (m == MODE_BURN_GAS) {
            uint256 x;
            while (gasleft() > 1000) {
                x++;
            }
            return new uint256[](x);
        }
        if (m == MODE_BAD_OFFSET) {
            assembly {
                mstore(0, 0x40)
                mstore(32, 1)
                mstore(64, 0)
                return(0, 96)
            }
        }
        if (m == MODE_OVERSIZED) {
            assembly {
                mstore(0, 0x20)
                mstore(32, 5000)
                return(0, 160064)
            }
        }
        if (m == MODE_SHORT) {
            assembly {
                mstore(0, 0x20)
                mstore(32, 3)
                return(0, 96)
            }
        }
        if (m == MODE_RAW) {
            bytes memory r = raw;
            assembly {
                return(add(r, 32), mload(r))
            }
        }
        return scripted[slot];
    }
}
