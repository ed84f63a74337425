"""Pictures of the simulator for the README: ``python -m device.sim.gallery``.

Writes ``docs/img/sim-conditions.png`` (one board state under many named
conditions) and ``docs/img/sim-placement.png`` (a BITS placement with a
hand, frame by frame). Deterministic: rerunning gives the same pictures.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from device.sim.board import BoardSpec
from device.sim.conditions import Conditions
from device.sim.games import lits_game
from device.sim.motion import Choreographer
from device.sim.renderer import Renderer
from device.sim.scene import Piece, Scene
from device.sim.script import Script

TILE = (320, 240)

BITS_BOARD = "......\n......\n...Y..\nB..YPP\nRRKBNN\nPYKBYR"

# name, game, conditions
CASES: list[tuple[str, str, Conditions]] = [
    ("plain daylight", "bits", Conditions()),
    (
        "2700 K lamp, falloff",
        "bits",
        Conditions(
            kelvin=2700,
            white_balance=0.25,
            gradient=0.4,
            gradient_deg=20,
            art="ivory",
            table="walnut",
        ),
    ),
    (
        "tilted 40 deg, rolled",
        "bits",
        Conditions(tilt_deg=40, roll_deg=-14, light_azimuth_deg=60, art="slate", table="grey"),
    ),
    (
        "wide lens, barrel",
        "bits",
        Conditions(
            hfov_deg=100, barrel=0.9, fill=0.7, tilt_deg=15, tilt_azimuth_deg=90, table="cloth"
        ),
    ),
    (
        "hard shadow",
        "bits",
        Conditions(shadow=0.55, shadow_angle_deg=65, shadow_offset=0.05, tilt_deg=12),
    ),
    (
        "glare on the ramp",
        "bits",
        Conditions(glare=0.9, glare_x=0.55, glare_y=0.5, glare_size=0.18, tilt_deg=20, art="ivory"),
    ),
    (
        "dim, noisy, blurred, JPEG 45",
        "bits",
        Conditions(brightness=0.55, noise=9, blur=1.2, jpeg_quality=45, kelvin=4000),
    ),
    ("random:7", "bits", Conditions.random(7)),
    ("LITS print, daylight", "lits", Conditions(art="print", table="oak")),
    (
        "LITS cream, 3000 K, 30 deg",
        "lits",
        Conditions(
            art="cream", kelvin=3000, white_balance=0.3, tilt_deg=30, roll_deg=6, table="white"
        ),
    ),
    (
        "LITS night, soft shadow",
        "lits",
        Conditions(art="night", shadow=0.5, shadow_softness_mm=40, shadow_width=0.3, table="cloth"),
    ),
    ("LITS random:12", "lits", Conditions.random(12, "lits")),
]


def _caption(image: np.ndarray, text: str) -> np.ndarray:
    out = image.copy()
    h = out.shape[0]
    out[h - 22 :] = (out[h - 22 :] * 0.35).astype(np.uint8)
    cv2.putText(
        out, text, (8, h - 7), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 255, 255), 1, cv2.LINE_AA
    )
    return out


def _lits_position() -> tuple[BoardSpec, Scene]:
    script = lits_game(8, moves=9, illegal=0.0)
    return script.board, script.scene_at(script.duration)


def conditions_grid(columns: int = 4) -> np.ndarray:
    """The same boards under every named case, captioned."""
    bits = BoardSpec.bits()
    bits_scene = Scene.from_text(bits, BITS_BOARD, symbol="star")
    lits, lits_scene = _lits_position()
    tiles = []
    for name, game, conditions in CASES:
        board, scene = (bits, bits_scene) if game == "bits" else (lits, lits_scene)
        shot = Renderer(board, conditions, TILE, seed=1).render(scene)
        tiles.append(_caption(shot.image, name))
    rows = [np.hstack(tiles[i : i + columns]) for i in range(0, len(tiles), columns)]
    return np.vstack(rows)


def _key_times(script: Script) -> list[float]:
    """Telling moments of one drop: carried in, set on the ramp, sliding,
    just landed, hand leaving, all clear."""
    placed = next(e["t"] for e in script.events if e["kind"] == "placed")
    gone = next(e["t"] for e in script.events if e["kind"] == "hand_out")
    top = placed
    for t in np.arange(0.0, placed, 0.02):
        moving = script.scene_at(float(t)).moving
        if moving and moving[0].lift_mm == 0:
            top = float(t)  # set down on the ramp; the slide starts
            break
    return [
        top - 0.35,
        top + 0.02,
        (top + placed) / 2 + 0.05,
        placed + 0.05,
        (placed + gone) / 2,
        gone + 0.3,
    ]


def placement_strip() -> np.ndarray:
    """A hand brings a tile to the top of the ramp, lets it slide down to
    rest, and leaves; each frame captioned with its ground truth."""
    board = BoardSpec.bits()
    start = Scene.from_text(
        board, "......\n......\n......\n......\nB...P.\nRK.BPY", symbol="circle"
    )
    script = Script(board)
    table = Choreographer(script, seed=11, resting=start.resting)  # reaches in from the side
    table.skin, table.sleeve = (110, 150, 205), (90, 60, 45)
    table.wait(0.2)
    table.drop(Piece(((4, 2), (5, 2)), ("Y", "B"), "circle"), push=False)
    table.wait(0.6)
    renderer = Renderer(
        board, Conditions(tilt_deg=22, roll_deg=-4, kelvin=4200, noise=1.5), TILE, seed=1
    )
    tiles = []
    for i, t in enumerate(_key_times(script)):
        shot = renderer.render(script.scene_at(t), t, i)
        label = f"t={t:.2f}s hidden: {len(shot.truth['occluded'])}"
        if shot.truth["board"][4][2] != ".":
            label += "  placed"
        tiles.append(_caption(shot.image, label))
    return np.vstack([np.hstack(tiles[:3]), np.hstack(tiles[3:])])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=Path("docs/img"))
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, image in (
        ("sim-conditions.png", conditions_grid()),
        ("sim-placement.png", placement_strip()),
    ):
        path = args.out / name
        cv2.imwrite(str(path), image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        written.append(path)
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
