"""Voting still frames: the vote says what every frame's reading said."""

from dataclasses import replace

import numpy as np

from calibration.palette import load_palette
from device.evals.read import still_frames
from device.track.vote import vote
from vision.photo import read_photo


def test_a_cell_whose_colour_and_reader_disagree_is_asked_not_sure():
    # Simulated table 5 (a read tuning seed), bottom-right cell: its colour
    # alone is surely the dark print, while the reader (printed lines and
    # symbols weighed in) says black tile. Frames that all say so do not
    # make either sure: the cell is a question with both candidates.
    frame = next(still_frames("bits", 5, 1))
    reading = read_photo(frame.image, 6, 6, load_palette("bits"), corners=frame.corners).reading
    cell = (5, 5)
    assert reading.palette.codes[reading.entry[cell]] == "K"
    obs = vote([reading, reading, reading], t=1.0)
    assert not obs.sure[cell]
    assert {".", "K"} <= set(obs.candidates[5][5])
    # Everywhere else the three frames' sure readings stand.
    sure = obs.sure & (reading.codes != "?")
    assert (obs.codes[sure] == reading.codes[sure]).all()


def test_frames_that_disagree_leave_the_cell_unsure_with_both_candidates():
    # One frame of three reads a yellow cell as the board (its distances
    # to the two swapped): the cell is not sure, and both stay candidates.
    frame = next(still_frames("bits", 11, 1))
    reading = read_photo(frame.image, 6, 6, load_palette("bits"), corners=frame.corners).reading
    cell = tuple(int(v) for v in np.argwhere(reading.codes == "Y")[0])
    k_y = reading.palette.codes.index("Y")
    k_board = reading.palette.codes.index(".")
    other = reading.scores.copy()
    other[cell][k_y], other[cell][k_board] = other[cell][k_board], other[cell][k_y]
    swapped = replace(reading, scores=other)
    obs = vote([reading, swapped, reading], t=1.0)
    assert not obs.sure[cell]
    assert set(obs.candidates[cell[0]][cell[1]][:2]) == {"Y", "."}
