"""Voting still frames: the vote says what every frame's reading said."""

from dataclasses import replace

import numpy as np

from calibration.palette import load_palette
from device.evals.read import still_frames
from device.track.vote import code_distances, vote
from vision.photo import read_photo


def test_a_cell_whose_colour_and_reader_disagree_is_asked_not_sure():
    # Simulated table 6 (a read tuning seed), under a warm lamp: some empty
    # cells' colour alone lies nearer the grey tile, while the reader (their
    # printed lines weighed in) says board. Frames that all say so do not
    # make either sure: each such cell is a question with both candidates.
    # (Read as frames of play are: see vision.cells.cell_features, steps.)
    frame = next(still_frames("bits", 6, 1))
    photo = read_photo(frame.image, 6, 6, load_palette("bits"), corners=frame.corners, steps=False)
    assert photo is not None
    reading = photo.reading
    alphabet, distance = code_distances(reading)
    by_colour = np.array(alphabet)[distance.argmin(axis=-1)]
    said = np.array(reading.palette.codes)[reading.entry]
    split = by_colour != said
    assert split.sum() >= 2
    assert set(by_colour[split]) == {"N"} and set(said[split]) == {"."}
    obs = vote([reading, reading, reading], t=1.0)
    for r, c in zip(*np.nonzero(split), strict=True):
        assert not obs.sure[r, c]
        assert {".", "N"} <= set(obs.candidates[r][c])
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


def test_a_cell_one_frame_left_unsure_is_not_sure_whatever_its_colour():
    # Simulated BITS game 2478: the bare print under a lamp's core read '?'
    # in every frame (lines, print and highlight weighed), while its colour
    # alone lay 5.8 nearer the grey tile than yellow, past the margin: the
    # vote called it grey, surely, and a grey tile was refused as resting
    # in mid-air. A cell any frame's reader left '?' is a question, what
    # the other frames read it as among its candidates.
    frame = next(still_frames("bits", 11, 1))
    reading = read_photo(frame.image, 6, 6, load_palette("bits"), corners=frame.corners).reading
    plain = vote([reading, reading, reading], t=1.0)
    tile = (reading.codes != ".") & (reading.codes != "?")
    cell = tuple(int(v) for v in np.argwhere(tile & plain.sure)[0])
    codes = reading.codes.copy()
    code, codes[cell] = codes[cell], "?"
    doubted = replace(reading, codes=codes)
    obs = vote([reading, doubted, reading], t=1.0)
    assert not obs.sure[cell]
    assert code in obs.candidates[cell[0]][cell[1]]


def test_a_board_cell_whose_symbol_is_unsure_is_still_surely_the_board():
    # LITS: an uncovered cell whose printed X or O could not be read shows
    # '?', but its colour is surely the board's: that is the symbol's
    # doubt, not the colour's, and the cell stays surely uncovered.
    frame = next(still_frames("lits", 3, 1))
    reading = read_photo(frame.image, 10, 10, load_palette("lits"), corners=frame.corners).reading
    board = [k for k, allowed in enumerate(reading.palette.symbols) if allowed]
    bare = np.isin(reading.entry, board) & (reading.codes != "?")
    cell = tuple(int(v) for v in np.argwhere(bare)[0])
    assert vote([reading] * 3, t=1.0).sure[cell]
    codes = reading.codes.copy()
    codes[cell] = "?"
    obs = vote([reading, replace(reading, codes=codes), reading], t=1.0)
    assert obs.sure[cell]
