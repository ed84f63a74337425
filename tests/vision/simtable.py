"""A still frame of a simulated table, read as `tilewatch read` reads a photo.

The simulator renders the whole scene (ramp, tray, table, lamp); the
locator finds the grid, the reader fits the palette to the photo. What
comes back is in the truth's orientation, so a test compares cell by cell.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.orientation import turn
from device.evals.read import still_frames, truth_turns
from vision.palette import Palette
from vision.photo import read_photo


@dataclass(frozen=True)
class SimRead:
    codes: np.ndarray  # (rows, cols) as read, the truth's way up
    truth: np.ndarray  # (rows, cols) what lies there
    gains: np.ndarray  # the white balance the photo was read with


def read_sim_table(game: str, seed: int, palette: Palette) -> SimRead:
    """The first still moment of simulated table ``seed``, read uncalibrated."""
    frame = next(still_frames(game, seed, 1))
    rows, cols = len(frame.board), len(frame.board[0])
    photo = read_photo(frame.image, rows, cols, palette, fit_palette=True)
    assert photo is not None, "the grid was not found"
    k = truth_turns(photo.fit.corners, frame.corners)
    truth = np.array([list(row) for row in frame.board])
    return SimRead(turn(photo.reading.codes, k), truth, photo.reading.gains)
