import pytest

from engine.boardtext import BoardTextError, parse_board_text


def test_accepts_rows_and_ignores_blank_lines():
    assert parse_board_text("\nR.\n\n.Y  \n", 2, 2, "RY.") == ("R.", ".Y")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("R.\n..\n..", "expected 2 rows"),
        ("R..\n..", "row 1 has 3 cells"),
        ("R.\n.Z", "row 2, column 2 has 'Z'"),
    ],
)
def test_errors_say_where(text, message):
    with pytest.raises(BoardTextError, match=message):
        parse_board_text(text, 2, 2, "RY.")
