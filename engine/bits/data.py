"""The BITS data files (``engine/bits/data/*.toml``) and the settings they hold.

Everything RULES.md calls *configurable* is read from here, never written as a
constant in code: the tile set, starting tiles, colour names, task cards and
rule settings (mirror matching, rounds, pile-3 colour, solo ranks).

>>> settings = load_settings()
>>> settings.mirror, settings.rounds, settings.advanced_rounds
(True, 3, 4)
>>> len(load_tileset().game_tiles), len(load_tileset().starting_tiles)
(20, 5)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields, replace
from functools import cache
from importlib import resources
from typing import Any

from engine.bits.tiles import COLOURS, NEUTRAL, Tile


def read_toml(name: str) -> dict[str, Any]:
    """One data file of this package, parsed."""
    text = resources.files("engine.bits").joinpath("data", name).read_text(encoding="utf-8")
    return tomllib.loads(text)


@dataclass(frozen=True)
class Settings:
    """Rule settings; defaults come from ``settings.toml``."""

    mirror: bool
    rounds: int
    advanced_rounds: int
    pile3_ignores_colour: bool
    redraw_same_shape: bool
    solo_ranks: tuple[tuple[int, str], ...]

    def with_changes(self, changes: dict[str, Any]) -> Settings:
        """A copy with some settings changed; unknown names and wrong types are
        refused with a message naming the setting."""
        kinds = {f.name: f.type for f in fields(self)}
        clean: dict[str, Any] = {}
        for key, value in changes.items():
            if key not in kinds:
                raise ValueError(f"unknown BITS setting {key!r}; known: {', '.join(sorted(kinds))}")
            if key == "solo_ranks":
                clean[key] = _solo_ranks(value)
                continue
            wanted = bool if kinds[key] == "bool" else int
            if type(value) is not wanted:
                raise ValueError(f"setting {key!r} must be {wanted.__name__}, not {value!r}")
            clean[key] = value
        updated = replace(self, **clean)
        if not 1 <= updated.rounds <= updated.advanced_rounds <= 4:
            raise ValueError("rounds must satisfy 1 <= rounds <= advanced_rounds <= 4")
        return updated

    def to_json(self) -> dict[str, Any]:
        return {
            "mirror": self.mirror,
            "rounds": self.rounds,
            "advanced_rounds": self.advanced_rounds,
            "pile3_ignores_colour": self.pile3_ignores_colour,
            "redraw_same_shape": self.redraw_same_shape,
            "solo_ranks": [{"min": low, "name": name} for low, name in self.solo_ranks],
        }


def _solo_ranks(value: Any) -> tuple[tuple[int, str], ...]:
    try:
        ranks = tuple((int(item["min"]), str(item["name"])) for item in value)
    except (TypeError, KeyError, ValueError) as err:
        raise ValueError("solo_ranks is a list of {min: int, name: str}") from err
    if not ranks:
        raise ValueError("solo_ranks needs at least one rank")
    return tuple(sorted(ranks, reverse=True))


@cache
def load_settings() -> Settings:
    raw = read_toml("settings.toml")
    return Settings(
        mirror=bool(raw["mirror"]),
        rounds=int(raw["rounds"]),
        advanced_rounds=int(raw["advanced_rounds"]),
        pile3_ignores_colour=bool(raw["pile3_ignores_colour"]),
        redraw_same_shape=bool(raw["redraw_same_shape"]),
        solo_ranks=_solo_ranks(raw["solo_ranks"]),
    )


@dataclass(frozen=True)
class TileSet:
    """One player's tiles and the shared starting tiles, from ``tiles.toml``."""

    game_tiles: tuple[Tile, ...]
    starting_tiles: tuple[Tile, ...]
    neutrals_per_round: int
    colour_names: dict[str, str]

    def name(self, code: str) -> str:
        """The colour name players read: ``name("R") == "red"``."""
        return self.colour_names.get(code, code)

    def describe(self, tile: Tile) -> str:
        """``"red-yellow"``, ``"blue double"``, ``"neutral"``."""
        if tile.is_neutral:
            return self.colour_names[NEUTRAL]
        a, b = tile.codes[0], tile.codes[1]
        return f"{self.name(a)} double" if a == b else f"{self.name(a)}-{self.name(b)}"

    def with_tiles(self, game_tiles: Any = None, starting_tiles: Any = None) -> TileSet:
        """A copy with another tile list (strings like ``"RY"``), checked."""
        game = self.game_tiles if game_tiles is None else _tiles(game_tiles, "game_tiles")
        start = (
            self.starting_tiles
            if starting_tiles is None
            else _tiles(starting_tiles, "starting_tiles")
        )
        return replace(self, game_tiles=game, starting_tiles=start)


def _tiles(value: Any, what: str) -> tuple[Tile, ...]:
    if not isinstance(value, list | tuple) or not value:
        raise ValueError(f"{what} is a non-empty list of tiles like 'RY'")
    tiles = tuple(Tile.parse(str(item)) for item in value)
    if any(tile.is_neutral for tile in tiles):
        raise ValueError(f"{what} may not hold the neutral tile")
    return tiles


@cache
def load_tileset() -> TileSet:
    raw = read_toml("tiles.toml")
    names = {code: str(raw["colours"][code]) for code in COLOURS}
    names[NEUTRAL] = str(raw["neutral"]["name"])
    return TileSet(
        game_tiles=_tiles(raw["game_tiles"], "game_tiles"),
        starting_tiles=_tiles(raw["starting_tiles"], "starting_tiles"),
        neutrals_per_round=int(raw["neutral"]["per_round"]),
        colour_names=names,
    )
