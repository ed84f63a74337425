"""A whole reading settled by the game's rules, the right way up."""

from __future__ import annotations

import numpy as np

from calibration.palette import load_palette
from vision.reader import Reading
from vision.rules import RULED_CONFIDENCE, ruled_reading


def reading_of(rows: list[str], printed: float) -> Reading:
    """A BITS reading of ``rows`` as the picture shows them: every cell 1 ΔE
    from its own colour and 30 from the others, but a black cell only 5
    from the board; every cell's middle showing ``printed`` of print."""
    palette = load_palette("bits")
    codes = np.array([list(r) for r in rows])
    scores = np.stack([np.where(codes == c, 1.0, 30.0) for c in palette.codes], axis=-1)
    scores[..., 0] = np.where(codes == "K", 5.0, scores[..., 0])
    shape = codes.shape
    return Reading(
        codes=codes,
        confidence=np.full(shape, 0.9),
        lab=np.zeros((*shape, 3)),
        entry=scores.argmin(axis=-1),
        distance=scores.min(axis=-1),
        margin=np.full(shape, 4.0),
        gains=np.ones(3),
        palette=palette,
        scores=scores,
        field=np.ones(shape),
        printed=np.full(shape, printed),
    )


def test_a_reading_of_a_board_seen_upside_down_is_settled_the_right_way_up():
    # The camera sees the ramp from its far side: the picture's bottom row is
    # the board's top. A black double there, near the board's colour,
    # floats over the board's empty rows: the print read dark, not a tile.
    reading = reading_of(["RR..", "....", "....", "..KK"], printed=0.3)
    codes, confidence = ruled_reading("bits", reading, 2)
    assert ["".join(r) for r in codes] == ["....", "....", "....", "..RR"]
    assert confidence[0, 0] == confidence[0, 1] == RULED_CONFIDENCE  # the cells changed
    assert confidence[3, 3] == 0.9
    # Read the picture's way up, the same black double rests on the floor
    # (and the red one, far from the board's colour, is left where it is seen).
    codes, _ = ruled_reading("bits", reading, 0)
    assert ["".join(r) for r in codes] == ["RR..", "....", "....", "..KK"]


def test_other_boards_are_only_turned():
    reading = reading_of(["RK", ".."], printed=0.3)
    codes, confidence = ruled_reading("", reading, 1)
    assert ["".join(r) for r in codes] == [".R", ".K"]
    assert (confidence == 0.9).all()
