"""The stillness gate: nothing is judged while anything moves over a board.

Fed one small patch of the board (and its ring) per frame, the gate says
whether something moved since the previous frame, and how long the board
has been still. It learns the sensor's noise from still frames, so a noisy
webcam and a clean render are judged by the same rule: a block moved when
its colour changed by many noise sigmas.

>>> import numpy as np
>>> gate = StillnessGate()
>>> still = np.full((16, 16, 3), 100.0, np.float32)
>>> [gate.update(still, t) for t in (0.0, 0.1, 0.2)]
[True, False, False]
>>> gate.settled(0.2)
True
>>> hand = still.copy(); hand[4:10, 4:10] = 200.0
>>> gate.update(hand, 0.3), gate.settled(0.3), gate.still_for(0.5)
(True, False, 0.2)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.motion import block_changes, block_noise, exposure_gain, side_by_side


@dataclass(frozen=True)
class GateSettings:
    """``settle_s``: still this long (stream seconds) before a look counts;
    ``still_frames``: and at least this many frames; ``k`` and ``floor``:
    a block moved when it changed by ``k`` noise sigmas and ``floor`` levels;
    ``min_blocks``: this many blocks must move for the frame to count as moving."""

    settle_s: float = 0.2
    still_frames: int = 2
    k: float = 6.0
    floor: float = 4.0
    min_blocks: int = 2


class StillnessGate:
    """Motion and stillness of one board, frame by frame (see the module doc)."""

    # The noise estimate follows still frames with this weight per frame.
    NOISE_WEIGHT = 0.05
    # A block moved only when it changed this many times the largest changes
    # (TAIL_SHARE of the blocks change less) of a still frame, too. A
    # webcam's strong JPEG compression flickers this way: most blocks keep
    # their mean, a few by symbol edges jump by several levels, neighbours
    # together (an 8x8 JPEG block spans two), frame after frame. For sensor
    # noise alone this stays below ``k`` sigmas.
    TAIL_SHARE = 0.98
    TAIL_TIMES = 2.0

    def __init__(self, settings: GateSettings | None = None) -> None:
        self.settings = settings or GateSettings()
        self.sigma = 1.0
        self.tail = 0.0  # the still frames' largest block changes (TAIL_SHARE)
        self._previous: np.ndarray | None = None
        self._last_motion: float | None = None
        self._still_frames = 0
        self.moved_blocks = 0
        self.changed: np.ndarray | None = None  # the blocks that moved in the last frame

    def reset(self) -> None:
        """Forget the previous frame (the view moved; start afresh)."""
        self._previous = None
        self._last_motion = None
        self._still_frames = 0

    def update(self, blocks: np.ndarray, t: float) -> bool:
        """Take this frame's block means (h, w, 3) at stream time ``t``;
        True when something moved since the previous frame."""
        previous, self._previous = self._previous, blocks
        if previous is None or previous.shape != blocks.shape:
            self._last_motion = t
            self._still_frames = 0
            return True
        s = self.settings
        gain = exposure_gain(previous, blocks)
        # Whatever really moves (a hand, a sliding tile) changes blocks side
        # by side, or one block clearly; a lone block changing a little is
        # the camera's compression, whose errors hop from block to block
        # between frames of a still scene.
        change = block_changes(previous, blocks, gain)
        limit = max(s.k * self.sigma, s.floor, self.TAIL_TIMES * self.tail)
        changed = side_by_side(change > limit) | (change > 2 * limit)
        self.changed = changed
        self.moved_blocks = int(np.count_nonzero(changed))
        if self.moved_blocks >= s.min_blocks:
            self._last_motion = t
            self._still_frames = 0
            return True
        self._still_frames += 1
        noise = block_noise(previous, blocks, gain)
        self.sigma += (noise - self.sigma) * self.NOISE_WEIGHT
        flat = change.ravel()
        k = min(len(flat) - 1, int(self.TAIL_SHARE * len(flat)))
        self.tail += (float(np.partition(flat, k)[k]) - self.tail) * self.NOISE_WEIGHT
        return False

    def still_for(self, t: float) -> float:
        """Seconds since the last motion (0 while moving)."""
        return 0.0 if self._last_motion is None else max(0.0, t - self._last_motion)

    def settled(self, t: float) -> bool:
        """Still long enough (time and frames) for a look to count."""
        s = self.settings
        if self._previous is None or self._still_frames < s.still_frames:
            return False
        return self._last_motion is None or t - self._last_motion >= s.settle_s - 1e-9
