import pytest

from engine.boardtext import BoardTextError
from engine.lits.layout import Layout, LayoutError, builtin_names

BLANK = ["." * 10] * 10


def opposite(cell):
    return (9 - cell[0], 9 - cell[1])


def symbols(layout, symbol):
    rows = layout.rows()
    return {(r, c) for r in range(10) for c in range(10) if rows[r][c] == symbol}


def test_builtins_are_named_data_files():
    names = builtin_names()
    assert {"crossfire", "frame", "diagonal", "scatter"} <= set(names)
    for name in names:
        layout = Layout.builtin(name)
        assert layout.name == name
        assert layout.count("X") == layout.count("O") > 0
        # Each X faces an O through the centre, so the swap's half turn
        # simply exchanges the symbols.
        assert {opposite(cell) for cell in symbols(layout, "X")} == symbols(layout, "O")
        assert layout.notes() == []


def test_unknown_builtin_lists_the_choices():
    with pytest.raises(LayoutError, match=r"no built-in layout 'nope'; choose from .*crossfire"):
        Layout.builtin("nope")


@pytest.mark.parametrize("seed", [0, 1, 2013, 987654321])
def test_random_layout_has_30_x_each_facing_an_o(seed):
    layout = Layout.random(seed)
    xs, os_ = symbols(layout, "X"), symbols(layout, "O")
    assert len(xs) == 30 and len(os_) == 30
    assert {opposite(cell) for cell in xs} == os_
    assert len(symbols(layout, ".")) == 40


def test_random_layout_is_reproducible_by_seed():
    assert Layout.random(42).rows() == Layout.random(42).rows()
    assert Layout.random(42).rows() != Layout.random(43).rows()
    assert Layout.random(5, pairs=10).count("X") == 10
    with pytest.raises(LayoutError, match="0 to 50"):
        Layout.random(5, pairs=51)


def test_parse_round_trips_and_accepts_a_list_of_rows():
    rows = list(Layout.builtin("frame").rows())
    assert Layout.parse("\n".join(rows)).rows() == tuple(rows)
    assert Layout.parse(rows).rows() == tuple(rows)
    assert str(Layout.parse(rows)) == "\n".join(rows)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("\n".join(BLANK[:9]), "expected 10 rows of 10 cells, got 9 rows"),
        ("\n".join([*BLANK[:3], "........", *BLANK[4:]]), "row 4 has 8 cells, expected 10"),
        ("\n".join([*BLANK[:2], "...L......", *BLANK[3:]]), r"row 3, column 4 has 'L'"),
        ("\n".join([*BLANK[:2], "...x......", *BLANK[3:]]), r"allowed: X O \."),
    ],
)
def test_parse_errors_say_where(text, message):
    with pytest.raises(BoardTextError, match=message):
        Layout.parse(text)


def test_notes_flag_unfair_or_asymmetric_layouts():
    one_x = Layout.parse(["X.........", *BLANK[1:]])
    assert any("1 X but 0 O" in note for note in one_x.notes())
    mirrored = Layout.parse(["X........X", *BLANK[1:9], "O........O"])
    # X at (0,0) faces (9,9), which prints O: fine; but X at (0,9) faces (9,0),
    # an O too, so the layout is symmetric; break it with an X at (9,9).
    assert mirrored.notes() == []
    broken = mirrored.with_symbol((9, 9), "X")
    assert any("not symmetric" in note for note in broken.notes())


def test_turned_rotates_the_board_half_round():
    layout = Layout.parse(["XO........", *BLANK[1:]])
    assert layout.turned().rows()[9] == "........OX"
    assert layout.turned().turned() == layout


def test_with_symbol_corrects_one_cell():
    layout = Layout.parse(BLANK).with_symbol((3, 4), "O")
    assert layout.symbol((3, 4)) == "O"
    assert layout.with_symbol((3, 4), ".").rows() == tuple(BLANK)
    with pytest.raises(LayoutError, match="X, O or"):
        layout.with_symbol((3, 4), "L")
    with pytest.raises(LayoutError, match="not on the 10x10 board"):
        layout.with_symbol((10, 0), "X")
