"""Load palettes from TOML files.

A palette file (see ``calibration/palettes/bits.toml``) has a ``name``, an
optional ``game``, an optional ``[classify]`` table (thresholds, in ΔE) and
one ``[[colour]]`` table per cell code::

    [[colour]]
    code = "R"              # one character, the cell code it reads as
    name = "red"
    lab = [43.7, 62.2, 40.4]  # CIELAB, L* 0..100 (NOT OpenCV's 8-bit scaling)
    neutral = false         # grey: used to measure the light's colour
    symbols = []            # printed symbols read by shape: "X", "O", "."
    plain = false           # never carries print (a cell with a symbol is not this)
    board = false           # the board's own print: its colour differs between copies
    most = 2                # at most this many cells on one board (left out: any number)

``load_palette("bits")`` finds a bundled palette by name; anything with a
``/`` or a ``.toml`` ending is a path to a user's own file.

>>> p = load_palette("bits")
>>> p.codes
('.', 'R', 'Y', 'B', 'P', 'K', 'N')
>>> p.cell_codes
'.RYBPKN?'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from calibration.tomlfile import read_toml
from vision.palette import Entry, Palette, Thresholds

PALETTE_DIR = Path(__file__).resolve().parent / "palettes"


class PaletteError(ValueError):
    """A palette file that cannot be used; the message names the file and the problem."""


def bundled_palettes() -> list[str]:
    """Names of the palettes shipped with tilewatch (``bits``, ``lits``, ...)."""
    return sorted(p.stem for p in PALETTE_DIR.glob("*.toml"))


def palette_path(name_or_path: str | Path) -> Path:
    text = str(name_or_path)
    if "/" in text or text.endswith(".toml"):
        return Path(text)
    path = PALETTE_DIR / f"{text}.toml"
    if not path.is_file():
        raise PaletteError(
            f"no palette named {text!r}; bundled: {', '.join(bundled_palettes())} "
            "(or give a path to a .toml file)"
        )
    return path


def load_palette(name_or_path: str | Path) -> Palette:
    """The palette with this bundled name, or from this TOML file."""
    path = palette_path(name_or_path)
    data = read_toml(path, "palette", PaletteError)
    try:
        return palette_from_dict(data, default_name=path.stem)
    except (KeyError, TypeError, ValueError) as err:
        raise PaletteError(f"palette {path}: {err}") from None


def palette_from_dict(data: dict[str, Any], default_name: str = "palette") -> Palette:
    """Build a palette from parsed TOML (also used for the copy inside a profile)."""
    name = str(data.get("name", default_name))
    colours = data.get("colour")
    if not isinstance(colours, list) or not colours:
        raise ValueError("needs at least one [[colour]] table")
    entries = [_entry(c, i) for i, c in enumerate(colours, start=1)]
    return Palette.from_entries(
        name,
        entries,
        thresholds=thresholds_from_dict(data.get("classify", {})),
        game=data.get("game"),
    )


def thresholds_from_dict(table: dict[str, Any]) -> Thresholds:
    if not isinstance(table, dict):
        raise ValueError("[classify] must be a table")
    known = set(Thresholds.__dataclass_fields__)
    unknown = set(table) - known
    if unknown:
        raise ValueError(f"[classify] has unknown keys {sorted(unknown)}; known: {sorted(known)}")
    values = {k: float(v) for k, v in table.items()}
    for k, v in values.items():
        if not v >= 0:
            raise ValueError(f"[classify] {k} must be >= 0, got {v}")
    return Thresholds(**values)


def _entry(table: Any, number: int) -> Entry:
    where = f"colour #{number}"
    if not isinstance(table, dict):
        raise ValueError(f"{where} must be a table")
    if "code" not in table or "lab" not in table:
        raise ValueError(f"{where} needs 'code' and 'lab'")
    code = table["code"]
    if not isinstance(code, str):
        raise ValueError(f"{where}: code must be a string")
    lab = table["lab"]
    if not (isinstance(lab, list) and len(lab) == 3):
        raise ValueError(f"{where} ({code!r}): lab must be [L, a, b]")
    lab_f = tuple(float(v) for v in lab)
    # A measured colour may pass L* 100 a little (a clipped white after white
    # balance); OpenCV's 8-bit Lab (L*255/100, a+128) lands far outside.
    if not 0.0 <= lab_f[0] <= 110.0 or max(abs(lab_f[1]), abs(lab_f[2])) > 128.0:
        raise ValueError(
            f"{where} ({code!r}): lab {list(lab_f)} is outside CIELAB "
            "(L* 0..100, a*/b* within ±128; OpenCV's 8-bit Lab is scaled differently)"
        )
    spread = table.get("spread")
    symbols = table.get("symbols", [])
    if not isinstance(symbols, list):
        raise ValueError(f"{where} ({code!r}): symbols must be a list")
    return Entry(
        code=code,
        name=str(table.get("name", code)),
        lab=(lab_f[0], lab_f[1], lab_f[2]),
        neutral=bool(table.get("neutral", False)),
        spread=None if spread is None else float(spread),
        symbols=tuple(str(s) for s in symbols),
        plain=bool(table.get("plain", False)),
        board=bool(table.get("board", False)),
        most=_most(table.get("most"), where, code),
    )


def _most(value: Any, where: str, code: str) -> int | None:
    """A colour's bound on cells per board: a whole number, at least 1."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{where} ({code!r}): most must be a whole number of cells, at least 1")
    return value
