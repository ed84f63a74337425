"""Game scripts: what the truth shows obeys (or, on purpose, breaks) the
rules, checked cell by cell from the frames' board truth."""

from __future__ import annotations

import pytest

from device.sim.games import ILLEGAL_KINDS, bits_game, lits_game
from device.sim.script import Script


def _board_at(script: Script, t: float) -> list[str]:
    return script.scene_at(t).board_text(script.board).splitlines()


def _supported(board: list[str], cells: list[list[int]]) -> bool:
    """Does the tile rest on the bottom edge or on a tile (BITS gravity)?"""
    own = {tuple(c) for c in cells}
    below = [(r + 1, c) for r, c in own if (r + 1, c) not in own]
    return any(r == 6 or board[r][c] != "." for r, c in below)


@pytest.fixture(scope="module")
def bits_scripts() -> list[Script]:
    """Games until every broken rule has happened at least once."""
    scripts: list[Script] = []
    seen: set[str] = set()
    for seed in range(40):
        script = bits_game(seed)
        scripts.append(script)
        seen |= set(script.info["illegal"])
        if seen == set(ILLEGAL_KINDS) and len(scripts) >= 2:
            break
    return scripts


def test_bits_placements_obey_gravity_unless_refused(bits_scripts) -> None:
    kinds_seen = set()
    for script in bits_scripts:
        card = None
        neutrals_this_round = 0
        for event in script.events:
            if event["kind"] == "card_revealed":
                card = event["tile"]
            if event["kind"] == "round_started":
                neutrals_this_round = 0
            if event["kind"] != "placed":
                continue
            after = _board_at(script, event["t"])
            before = _board_at(script, event["t"] - 1e-3)
            cells = event["cells"]
            assert all(before[r][c] == "." and after[r][c] != "." for r, c in cells)
            codes = event["codes"]
            if event["legal"]:
                assert _supported(after, cells), event
                if codes == "NN":
                    neutrals_this_round += 1
                continue
            kind = event["intended"]
            kinds_seen.add(kind)
            assert event["reason"] == kind
            column_above = {(r2, c) for r, c in cells for r2 in range(r)}
            if kind == "mid_air":
                assert not _supported(after, cells)
            elif kind == "under_overhang":
                assert any(after[r][c] != "." for r, c in column_above - {tuple(x) for x in cells})
            elif kind == "wrong_tile":
                assert sorted(codes) != sorted(card)
            elif kind == "second_neutral":
                assert codes == "NN" and neutrals_this_round >= 1
            # the refused tile is taken back out
            removal = next(
                e for e in script.events if e["kind"] == "removed" and e["t"] > event["t"]
            )
            assert removal["cells"] == cells
            assert all(_board_at(script, removal["t"])[r][c] == "." for r, c in cells)
    assert kinds_seen == set(ILLEGAL_KINDS)


def test_bits_game_ends_with_the_engines_board_and_rounds_are_cleared(bits_scripts) -> None:
    for script in bits_scripts:
        assert _board_at(script, script.duration) == script.info["final"]
        kinds = [e["kind"] for e in script.events]
        assert kinds.count("round_started") == 3 and kinds[-1] == "game_over"
        for event in (e for e in script.events if e["kind"] == "cleared"):
            assert _board_at(script, event["t"]) == ["......"] * 6


def test_lits_final_board_scores_what_the_engine_says() -> None:
    script = lits_game(6)
    final = _board_at(script, script.duration)
    counted = {s: sum(row.count(s) for row in final) for s in "XO"}
    assert counted == script.info["score"]
    assert script.info["over"]
    # symbols under pieces are hidden, the rest is the printed layout
    for r, row in enumerate(final):
        for c, code in enumerate(row):
            printed = script.board.layout[r][c]
            assert code == printed or (code in "LITS")
    placed = [e for e in script.events if e["kind"] == "placed" and e["legal"]]
    assert len(placed) == sum(1 for row in final for code in row if code in "LITS") // 4


def test_same_seed_same_script() -> None:
    a, b = lits_game(3, moves=4), lits_game(3, moves=4)
    assert a.events == b.events
    assert [a.scene_at(t) for t in (0.5, 3.0, 7.5)] == [b.scene_at(t) for t in (0.5, 3.0, 7.5)]
