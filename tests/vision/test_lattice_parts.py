"""The locator's parts on hand-made inputs: blob lattices, block sizes, board segments."""

import cv2
import numpy as np

from tests.vision.boards import flat_board
from vision import lattice
from vision.blobs import Blob, groups, lattice_of
from vision.extend import divisions
from vision.rectify import apply_homography
from vision.tiles import board_segments


def perspective():
    src = np.float32([[0, 0], [5, 0], [5, 4], [0, 4]])
    dst = np.float32([[100, 80], [420, 110], [390, 380], [90, 330]])
    return cv2.getPerspectiveTransform(src, dst)  # cells -> image


def test_a_lattice_grows_from_sticker_centres_despite_gaps_and_strays():
    to_image = perspective()
    cells = [(i, j) for i in range(5) for j in range(4) if (i, j) not in {(2, 1), (4, 3)}]
    centres = apply_homography(to_image, np.array(cells) + 0.5)
    blobs = [Blob(c, 1200.0) for c in centres]  # stickers a little smaller than cells
    blobs += [Blob(np.array([30.0, 30.0]), 1200.0), Blob(np.array([600.0, 400.0]), 1250.0)]
    group = groups(blobs)[0]
    H, a, b = lattice_of(group, 6, 6)
    assert (a, b) == (5, 4)
    # The block's corners land on the true lattice's corners (up to a turn of names).
    found = apply_homography(np.linalg.inv(H), [[0, 0], [5, 0], [5, 4], [0, 4]])
    truth = apply_homography(to_image, [[0, 0], [5, 0], [5, 4], [0, 4]])
    assert np.max(np.linalg.norm(found - truth, axis=1)) < 3.0


def test_elongated_blobs_do_not_name_cells():
    to_image = perspective()
    dominoes = [
        Blob(apply_homography(to_image, [[i + 1.0, j + 0.5]])[0], 2400.0, 2.0)
        for i in (0, 2)
        for j in range(4)
    ]
    assert lattice_of(dominoes) is None


def test_divisions_count_the_cells_inside_an_outline():
    board, corners = flat_board(9, 9, cell_px=40, line_px=1)
    x0, y0 = corners[0].astype(int)
    for k in range(0, 10, 3):  # heavier 3x3 boxes, as a sudoku prints them
        cv2.line(board, (x0 + 40 * k, y0), (x0 + 40 * k, y0 + 360), (40, 40, 40), 4)
        cv2.line(board, (x0, y0 + 40 * k), (x0 + 360, y0 + 40 * k), (40, 40, 40), 4)
    pyramid = lattice.Pyramid(board)
    box = corners[0] + np.array([[0, 0], [120, 0], [120, 120], [0, 120]])
    assert divisions(pyramid, box, 9, 9) == (3, 3)
    assert divisions(pyramid, corners, 9, 9) == (9, 9)


def test_board_segments_keep_lines_between_empty_cells():
    empty = np.array([[1, 1, 1], [1, 0, 1], [0, 0, 1]], bool)
    vertical, horizontal = board_segments(empty)
    assert vertical.shape == (4, 3) and horizontal.shape == (4, 3)
    # Vertical line 1 runs between columns 0 and 1: empty on both sides in row 0 only.
    assert vertical[1].tolist() == [1.0, 0.0, 0.0]
    # The left border beside the filled cell (2, 0) is left out; the top border is all board.
    assert vertical[0].tolist() == [1.0, 1.0, 0.0] and horizontal[0].tolist() == [1.0, 1.0, 1.0]
    assert board_segments(np.zeros((6, 6), bool)) is None  # a full board: nothing printed to see


def test_the_locator_modules_examples_hold():
    import doctest

    from vision import comb, families, locate, quads

    for module in (comb, families, quads, locate):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_repeated_blocks_are_started_from_twice_nested_outlines_always():
    from vision.quads import without_repeats

    box = np.array([[0, 0], [30, 0], [30, 30], [0, 30]], float)
    boxes = [box + np.array([35.0 * i, 35.0 * j]) for j in range(3) for i in range(3)]
    assert len(without_repeats(boxes)) == 2
    frame = [box * 3.3 - 3, box * 3.2 - 1.5, box * 3.1]  # rim, frame, grid: nested
    assert len(without_repeats(frame)) == 3


def test_a_homography_that_sends_a_corner_to_infinity_is_no_grid():
    # Seen once in a tracking run (simulated BITS 2620-2649): a lattice
    # fitted to a few stray blobs whose inverse puts a grid corner at
    # infinity. It is no grid, and says so without arithmetic on the
    # infinite corner (a RuntimeWarning in the log).
    import warnings

    # w = 0 at the grid's corner (0, 0): both its coordinates infinite
    to_image = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0]])
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert lattice.same_hand(np.linalg.inv(to_image), perspective(), 4, 5) is False
    assert not [w for w in seen if w.filename.endswith("lattice.py")]
