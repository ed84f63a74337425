"""Palettes are data: bundled TOML files load, broken ones say what is wrong."""

from __future__ import annotations

import pytest

from calibration.palette import PaletteError, bundled_palettes, load_palette


def test_bundled_palettes_load_with_the_contract_codes():
    assert {"bits", "lits", "cube6"} <= set(bundled_palettes())
    bits = load_palette("bits")
    assert set(bits.codes) == set(".RYBPKN")  # CONTRACTS.md: BITS codes
    assert bits.neutral[bits.index(".")] and bits.neutral[bits.index("N")]
    assert bits.board[bits.index(".")] and bits.plain[bits.index(".")]
    lits = load_palette("lits")
    assert set(lits.codes) == set(".LITS")
    assert lits.symbols[lits.index(".")] == ("X", "O", ".")
    assert set(lits.cell_codes) == set("XO.LITS?")
    assert load_palette("cube6").codes == ("W", "Y", "R", "O", "B", "G")


def test_values_are_true_cielab():
    # Red must be red: positive a*, and L* on the 0..100 scale.
    red = load_palette("bits").lab[load_palette("bits").index("R")]
    assert 30 < red[0] < 60 and red[1] > 40


def write(tmp_path, text: str):
    path = tmp_path / "p.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("name = 'x'\n", "at least one [[colour]]"),
        ("[[colour]]\ncode = 'R'\n", "needs 'code' and 'lab'"),
        ("[[colour]]\ncode = 'R'\nlab = [1, 2]\n", "lab must be [L, a, b]"),
        ("[[colour]]\ncode = 'R'\nlab = [136, 200, 180]\n", "OpenCV's 8-bit Lab"),
        ("[[colour]]\ncode = 'RR'\nlab = [50, 0, 0]\n", "one character"),
        ("[[colour]]\ncode = '?'\nlab = [50, 0, 0]\n", "one character, not ?"),
        ("[[colour]]\ncode = '.'\nlab = [50, 0, 0]\nsymbols = ['Z']\n", "unknown symbols"),
        ("[classify]\nbogus = 1\n[[colour]]\ncode = 'R'\nlab = [50, 0, 0]\n", "unknown keys"),
        ("[[colour]]\ncode = 'N'\nlab = [50, 0, 0]\nmost = 0\n", "most must be a whole"),
        ("[[colour]]\ncode = 'N'\nlab = [50, 0, 0]\nmost = 2.5\n", "most must be a whole"),
        ("[[colour]\n", "not valid TOML"),
    ],
)
def test_broken_files_are_refused_with_a_reason(tmp_path, text, says):
    with pytest.raises(PaletteError, match=None) as err:
        load_palette(write(tmp_path, text))
    assert says in str(err.value) and "p.toml" in str(err.value)


def test_unknown_name_and_missing_file():
    with pytest.raises(PaletteError, match="no palette named 'nope'"):
        load_palette("nope")
    with pytest.raises(PaletteError, match="not found"):
        load_palette("/nonexistent/p.toml")


def test_a_user_palette(tmp_path):
    p = load_palette(
        write(
            tmp_path,
            "name = 'mine'\n[classify]\nmin_margin = 3\n"
            "[[colour]]\ncode = 'W'\nlab = [95, 0, 0]\nneutral = true\n"
            "[[colour]]\ncode = 'G'\nname = 'green'\nlab = [55, -50, 30]\n",
        )
    )
    assert p.name == "mine" and p.codes == ("W", "G") and p.thresholds.min_margin == 3
    assert p.names == ("W", "green")
