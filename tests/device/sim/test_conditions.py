from __future__ import annotations

import pytest

from device.sim.board import BoardSpec
from device.sim.conditions import Conditions
from device.sim.renderer import Renderer


def test_random_conditions_are_seeded_and_varied() -> None:
    assert Conditions.random(5) == Conditions.random(5)
    draws = [Conditions.random(seed) for seed in range(40)]
    assert len({d.kelvin for d in draws}) == 40
    assert min(d.tilt_deg for d in draws) < 5 and max(d.tilt_deg for d in draws) > 30
    assert {d.art for d in draws} == {"classic", "ivory", "slate"}
    assert all(2500 <= d.kelvin <= 6700 for d in draws)


def test_overrides_parse_text_and_refuse_nonsense() -> None:
    c = Conditions().with_overrides({"kelvin": "2700", "tile_symbols": "no", "seed": "4"})
    assert (c.kelvin, c.tile_symbols, c.seed) == (2700.0, False, 4)
    with pytest.raises(ValueError, match="unknown condition 'kelvinn'"):
        Conditions().with_overrides({"kelvinn": "2700"})
    with pytest.raises(ValueError, match=r"tilt_deg=80\.0 is outside"):
        Conditions().with_overrides({"tilt_deg": "80"})
    with pytest.raises(ValueError, match="not a float"):
        Conditions().with_overrides({"noise": "lots"})
    with pytest.raises(ValueError, match="table='marble'"):
        Conditions(table="marble")


def test_art_must_exist_for_the_game() -> None:
    with pytest.raises(ValueError, match="lits boards are"):
        Renderer(BoardSpec.lits(), Conditions(art="classic"), (64, 48))
