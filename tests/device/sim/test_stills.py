from __future__ import annotations

import numpy as np

from device.sim.stills import random_position, still


def test_random_bits_positions_obey_gravity() -> None:
    for seed in range(20):
        _, pieces = random_position("bits", seed)
        filled = {cell for piece in pieces for cell in piece.cells}
        assert len(filled) == 2 * len(pieces)  # no overlaps
        for r, c in filled:
            # every cell stands on the bottom edge, on a tile, or on its own tile's
            # other half; holes exist only under a horizontal tile's other half
            if r < 5 and (r + 1, c) not in filled:
                piece = next(p for p in pieces if (r, c) in p.cells)
                assert len({row for row, _ in piece.cells}) == 1, (seed, r, c)


def test_random_lits_positions_keep_equal_shapes_apart() -> None:
    for seed in range(10):
        _, pieces = random_position("lits", seed)
        owner = {cell: i for i, p in enumerate(pieces) for cell in p.cells}
        for i, piece in enumerate(pieces):
            for r, c in piece.cells:
                for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    j = owner.get(n)
                    if j is not None and j != i:
                        assert pieces[j].codes[0] != piece.codes[0]


def test_still_frames_are_seeded_and_carry_their_truth() -> None:
    a = still("lits", 5, size=(200, 150), hand=True)
    b = still("lits", 5, size=(200, 150), hand=True)
    assert np.array_equal(a.image, b.image) and a.truth == b.truth
    assert a.truth["hand"]
    assert a.truth["conditions"]["seed"] == 5
    covered = sum(ch in "LITS" for row in a.truth["board"] for ch in row)
    assert covered % 4 == 0
