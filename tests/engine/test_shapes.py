import pytest

from engine.shapes import Shape

# The five tetrominoes as drawn in the LITS rulebook; counts of distinct
# orientations are textbook facts (free vs. one-sided tetrominoes).
TETROMINOES = {
    "I": ("####", 2, 2),
    "O": ("##/##", 1, 1),
    "T": ("###/.#.", 4, 4),
    "S": (".##/##.", 4, 2),
    "L": ("#./#./##", 8, 4),
}


@pytest.mark.parametrize("name", TETROMINOES)
def test_orientation_counts(name):
    drawing, with_mirror, without_mirror = TETROMINOES[name]
    shape = Shape.parse(drawing)
    assert len(shape.orientations(mirror=True)) == with_mirror
    assert len(shape.orientations(mirror=False)) == without_mirror


def test_l_and_j_are_the_same_only_with_mirror():
    l_shape = Shape.parse("#./#./##")
    j_shape = Shape.parse(".#/.#/##")
    assert l_shape.same_as(j_shape, mirror=True)
    assert not l_shape.same_as(j_shape, mirror=False)


def test_rotation_is_a_quarter_turn_clockwise():
    assert str(Shape.parse("##/#.").rotated()) == "##\n.#"


def test_parse_and_text_round_trip():
    shape = Shape.parse(".#./###")
    assert Shape.parse(shape.text()) == shape
    assert shape.height == 2 and shape.width == 3 and len(shape) == 4


def test_disconnected_cells_are_refused():
    with pytest.raises(ValueError, match="joined by edges"):
        Shape.of([(0, 0), (1, 1)])


def test_bad_drawing_is_refused():
    with pytest.raises(ValueError, match="use '#'"):
        Shape.parse("#?")
