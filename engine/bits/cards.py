"""Task cards: a shape to build, maybe a colour, points, and the pile it
comes from. The known cards are data (``data/cards.toml``); any other card
can be written inline.

Inline syntax (comma-separated ``key=value``; only ``shape`` is required)::

    shape=##/##,points=2,pile=1          the rulebook's pile-1 square
    shape=#./##,colour=B,points=2,pile=2 a blue corner
    shape=##,points=-2,pile=3            any 2-cell block takes 2 away

``shape`` rows of ``#`` (or ``X``) and ``.`` split by ``/``; ``colour`` one of
R Y B P K or a colour name; ``points`` signed (default 2 on piles 1, 2, 4 and
-2 on pile 3); ``pile`` 1..4 (default 1); ``fours`` points for every *other*
block of exactly 4 cells (default 1 on pile 1, else 0); ``name`` optional.

>>> card = parse_card("shape=##/##,points=2,pile=1")
>>> card.size, card.points, card.fours, card.colour
(4, 2, 1, None)
>>> parse_card("blue-corner").colour
'B'
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from engine.bits.bitboard import SIZE, mask_of
from engine.bits.data import load_tileset, read_toml
from engine.bits.tiles import COLOURS
from engine.shapes import Shape

PILES = (1, 2, 3, 4)
_KEYS = ("name", "shape", "colour", "points", "pile", "fours", "status")


class CardError(ValueError):
    """A card description or catalogue entry that cannot be used."""


@dataclass(frozen=True)
class TaskCard:
    """One task card. ``points`` are signed (pile 3 takes points away);
    ``fours`` is the pile-1 rule: points for every other 4-cell block."""

    name: str
    shape: Shape
    points: int
    pile: int
    colour: str | None = None
    fours: int = 0
    status: str = "custom"
    _keys: dict[bool, frozenset[int]] = field(
        default_factory=dict, compare=False, repr=False, hash=False
    )

    def __post_init__(self) -> None:
        if not 1 <= len(self.shape) <= SIZE:
            raise CardError(f"card {self.name!r}: a task shape has 1 to {SIZE} cells")
        if self.shape.height > SIZE or self.shape.width > SIZE:
            raise CardError(f"card {self.name!r}: the shape does not fit a 6x6 board")
        if self.pile not in PILES:
            raise CardError(f"card {self.name!r}: pile is 1, 2, 3 or 4, not {self.pile}")
        if self.colour is not None and self.colour not in COLOURS:
            raise CardError(f"card {self.name!r}: colour is one of {' '.join(COLOURS)}")
        if (self.pile == 3) != (self.points < 0) and self.points != 0:
            raise CardError(
                f"card {self.name!r}: pile-3 cards take points away (points=-2), the other"
                f" piles give points (points=2); got points={self.points} on pile {self.pile}"
            )

    @property
    def size(self) -> int:
        return len(self.shape)

    def __deepcopy__(self, memo: dict[int, object]) -> TaskCard:
        return self  # immutable (the orientation cache only grows)

    def keys(self, mirror: bool) -> frozenset[int]:
        """Every orientation of the shape as a normalised bitboard (see
        :func:`engine.bits.bitboard.normalised`): a block matches the shape when
        its normalised mask is in this set."""
        found = self._keys.get(mirror)
        if found is None:
            found = frozenset(mask_of(s.cells) for s in self.shape.orientations(mirror))
            self._keys[mirror] = found
        return found

    def describe(self) -> str:
        """``"square: 2x2 ##/##, any colour, +2 each, other 4-blocks +1 (pile 1)"``."""
        colour = load_tileset().name(self.colour) if self.colour else "any colour"
        text = f"{self.name}: {self.shape.text()}, {colour}, {self.points:+d} each"
        if self.fours:
            text += f", other 4-blocks {self.fours:+d}"
        return f"{text} (pile {self.pile})"

    def spec(self) -> str:
        """The inline description that :func:`parse_card` reads back."""
        parts = [f"name={self.name}", f"shape={self.shape.text()}"]
        if self.colour:
            parts.append(f"colour={self.colour}")
        parts += [f"points={self.points}", f"pile={self.pile}", f"fours={self.fours}"]
        return ",".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "shape": self.shape.text(),
            "colour": self.colour,
            "points": self.points,
            "pile": self.pile,
            "fours": self.fours,
            "status": self.status,
        }


def _colour(value: Any, where: str) -> str | None:
    if value is None or value == "":
        return None
    text = str(value).strip()
    if text.upper() in COLOURS and len(text) == 1:
        return text.upper()
    names = {name.lower(): code for code, name in load_tileset().colour_names.items()}
    if text.lower() in names and names[text.lower()] in COLOURS:
        return names[text.lower()]
    raise CardError(f"{where}: colour {text!r} is not one of {' '.join(COLOURS)}")


def _int(value: Any, key: str, where: str) -> int:
    if isinstance(value, bool):
        raise CardError(f"{where}: {key} must be a whole number, not {value!r}")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise CardError(f"{where}: {key} must be a whole number, not {value!r}") from None


def card_from_dict(raw: Mapping[str, Any], where: str = "card") -> TaskCard:
    """A card from a dict with the keys of ``cards.toml`` (JSON setups use it)."""
    unknown = set(raw) - set(_KEYS)
    if unknown:
        raise CardError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}; known: {_KEYS}")
    if "shape" not in raw:
        raise CardError(f"{where}: a card needs a shape, e.g. shape=##/##")
    try:
        shape = Shape.parse(str(raw["shape"]))
    except ValueError as err:
        raise CardError(f"{where}: {err}") from None
    pile = _int(raw.get("pile", 1), "pile", where)
    default_points = -2 if pile == 3 else 2
    points = _int(raw.get("points", default_points), "points", where)
    fours = _int(raw.get("fours", 1 if pile == 1 else 0), "fours", where)
    name = str(raw.get("name") or f"{shape.text()}{points:+d}")
    return TaskCard(
        name=name,
        shape=shape,
        points=points,
        pile=pile,
        colour=_colour(raw.get("colour"), where),
        fours=fours,
        status=str(raw.get("status", "custom")),
    )


class Catalogue:
    """The known task cards by name, in file order."""

    def __init__(self, cards: Iterable[TaskCard]) -> None:
        self.cards: dict[str, TaskCard] = {}
        for card in cards:
            if card.name in self.cards:
                raise CardError(f"two cards are named {card.name!r}")
            self.cards[card.name] = card

    @classmethod
    def from_toml(cls, raw: Mapping[str, Any], where: str = "cards.toml") -> Catalogue:
        entries = raw.get("card", [])
        if not isinstance(entries, list):
            raise CardError(f"{where}: cards are [[card]] tables")
        return cls(
            card_from_dict(entry, f"{where}, card {i + 1}") for i, entry in enumerate(entries)
        )

    @classmethod
    def from_file(cls, path: Path) -> Catalogue:
        """A user's own catalogue (same format as ``data/cards.toml``)."""
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
            raise CardError(f"{path}: {err}") from None
        return cls.from_toml(raw, str(path))

    def __getitem__(self, name: str) -> TaskCard:
        try:
            return self.cards[name]
        except KeyError:
            raise CardError(
                f"no task card named {name!r}; known: {', '.join(self.cards)}"
                " (or write one inline: shape=##/##,points=2,pile=1)"
            ) from None

    def __iter__(self) -> Iterator[TaskCard]:
        return iter(self.cards.values())

    def __len__(self) -> int:
        return len(self.cards)

    def pile(self, number: int) -> tuple[TaskCard, ...]:
        return tuple(card for card in self.cards.values() if card.pile == number)

    def plus(self, cards: Iterable[TaskCard]) -> Catalogue:
        """This catalogue with more cards (a name may not be reused)."""
        return Catalogue([*self.cards.values(), *cards])


@cache
def load_catalogue() -> Catalogue:
    """The catalogue shipped in ``data/cards.toml``."""
    return Catalogue.from_toml(read_toml("cards.toml"))


def parse_card(text: str, catalogue: Catalogue | None = None) -> TaskCard:
    """A card by catalogue name, or written inline (see the module docs)."""
    text = text.strip()
    if "=" not in text:
        return (catalogue or load_catalogue())[text]
    raw: dict[str, str] = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        key = key.strip().lower()
        if key == "color":
            key = "colour"
        if not sep or not key:
            raise CardError(f"card {text!r}: {part!r} is not key=value")
        if key in raw:
            raise CardError(f"card {text!r}: {key} given twice")
        raw[key] = value.strip()
    if "status" in raw:
        raise CardError(f"card {text!r}: status is only for the catalogue file")
    return card_from_dict(raw, f"card {text!r}")


def card_from_json(value: Any, catalogue: Catalogue | None = None) -> TaskCard:
    """A card from JSON: a catalogue name, an inline description, or a dict."""
    if isinstance(value, str):
        return parse_card(value, catalogue)
    if isinstance(value, Mapping):
        return card_from_dict(value)
    raise CardError(f"a card is a name, an inline description or an object, not {value!r}")
