"""Choreography: the movements of play, appended to a :class:`Script`.

A hand comes in from a player's side with the arm behind it, puts a BITS
tile on the top of the ramp and lets it slide down to rest (or lowers a LITS
piece onto its cells), and goes away; a hand rests over the board; the
camera gets knocked and stays knocked. Every movement is a pure function of
time, seeded, so the same seed plays the same game frame for frame.

>>> from device.sim.board import BoardSpec
>>> from device.sim.scene import Piece
>>> board = BoardSpec.bits()
>>> table = Choreographer(Script(board), seed=1)
>>> table.wait(0.5)
>>> t = table.drop(Piece(((5, 0), (5, 1)), ("R", "Y")))
>>> [e["kind"] for e in table.script.events]
['hand_in', 'placed', 'hand_out']
>>> table.script.scene_at(table.script.duration).board_text(board).splitlines()[-1]
'RY....'
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from device.sim.board import BoardSpec
from device.sim.paint import load_paint
from device.sim.scene import Bump, HandPose, Piece, Placed
from device.sim.script import Moment, Script

_CARRY_MM = 28.0  # a piece carried in is this high above the board
_PALM_ABOVE_PIECE = 36.0  # palm height over the piece it grips
_PALM_BEHIND_MM = 62.0  # palm centre behind the gripped piece's centre
_SLIDE_MM_S2 = 900.0  # a tile's acceleration down the ramp
_REACH_OUT_MM = 520.0  # how far off the board a hand comes from / goes to


def _ease(x: float) -> float:
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


def _lerp(a: np.ndarray, b: np.ndarray, x: float) -> np.ndarray:
    between: np.ndarray = a + (b - a) * x
    return between


class Choreographer:
    """Appends movements to ``script``; remembers what is on the board."""

    def __init__(self, script: Script, seed: int, resting: Sequence[Piece] = ()) -> None:
        self.script = script
        self.board: BoardSpec = script.board
        self.rng = random.Random(f"motion:{seed}")
        paint = load_paint()
        self.skin = self.rng.choice(paint.skin_tones())
        self.sleeve = self.rng.choice(paint.sleeves())
        self.left_handed = self.rng.random() < 0.12
        self.resting: tuple[Piece, ...] = tuple(resting)
        self.bump: Bump = script.bump

    # --- helpers -----------------------------------------------------------
    def _centre_mm(self, piece: Piece, shift: tuple[float, float]) -> np.ndarray:
        s = self.board.cell_mm
        rows = [r for r, _ in piece.cells]
        cols = [c for _, c in piece.cells]
        return np.array(
            [(np.mean(cols) + 0.5 + shift[1]) * s, (np.mean(rows) + 0.5 + shift[0]) * s]
        )

    def _shoulder(self, target: np.ndarray) -> np.ndarray:
        """Where the arm comes from: the player's seat at the bottom edge,
        sometimes reaching in from a side."""
        x0, _, x1, y1 = self.board.outer_rect_mm()
        side = self.rng.random()
        handed = -1.0 if self.left_handed else 1.0
        if side < 0.7:
            return np.array(
                [target[0] + handed * self.rng.uniform(60, 180), y1 + self.rng.uniform(300, 420)]
            )
        x = x1 + self.rng.uniform(280, 380) if side < 0.85 else x0 - self.rng.uniform(280, 380)
        return np.array([x, target[1] + self.rng.uniform(80, 260)])

    def _hand(self, palm: np.ndarray, height: float, shoulder: np.ndarray, curl: float) -> HandPose:
        return HandPose(
            float(palm[0]),
            float(palm[1]),
            float(height),
            (float(shoulder[0]), float(shoulder[1])),
            self.skin,
            self.sleeve,
            curl,
            self.left_handed,
        )

    def _grip(
        self, piece_centre: np.ndarray, lift: float, shoulder: np.ndarray
    ) -> tuple[np.ndarray, float]:
        """Palm position and height of a hand holding a piece from behind."""
        toward = piece_centre - shoulder
        toward /= max(float(np.linalg.norm(toward)), 1e-6)
        return (
            piece_centre - toward * _PALM_BEHIND_MM,
            lift + self.board.piece_height_mm + _PALM_ABOVE_PIECE,
        )

    def _away(self, palm: np.ndarray, shoulder: np.ndarray) -> np.ndarray:
        """A point off the board, back towards the shoulder."""
        back = shoulder - palm
        back /= max(float(np.linalg.norm(back)), 1e-6)
        away: np.ndarray = palm + back * _REACH_OUT_MM
        return away

    # --- movements ---------------------------------------------------------
    def wait(self, seconds: float) -> None:
        """Nothing moves."""
        bump = self.bump
        self.script.add_clip(seconds, self.resting, lambda t: Moment(bump=bump))

    def drop(
        self,
        piece: Piece,
        via: Sequence[tuple[float, float]] = (),
        push: bool | None = None,
        **event: Any,
    ) -> float:
        """BITS: carry ``piece`` to the top of the ramp, let it slide down to
        its cells (through the ``via`` shifts, e.g. sideways under an
        overhang), hand away. Returns the time the tile came to rest."""
        rows = [r for r, _ in piece.cells]
        start = (-(max(rows) + 1) - 0.25, 0.0)
        path = [start, *via, (0.0, 0.0)]
        return self._deliver(piece, path, lowered=False, push=push, event=event)

    def lay(self, piece: Piece, **event: Any) -> float:
        """LITS: carry ``piece`` over its cells and lower it into place."""
        return self._deliver(piece, [(0.0, 0.0)], lowered=True, push=False, event=event)

    def _deliver(
        self,
        piece: Piece,
        path: list[tuple[float, float]],
        lowered: bool,
        push: bool | None,
        event: dict[str, Any],
    ) -> float:
        bump = self.bump
        first = self._centre_mm(piece, path[0])
        shoulder = self._shoulder(first)
        palm_at, palm_h = self._grip(first, _CARRY_MM, shoulder)
        palm_from = self._away(palm_at, shoulder)
        if push is None:
            push = self.rng.random() < 0.5
        enter = self.rng.uniform(0.7, 1.1)
        set_down = self.rng.uniform(0.2, 0.35) if not lowered else self.rng.uniform(0.35, 0.55)
        # the slide: piecewise straight, constant acceleration from rest
        s = self.board.cell_mm
        legs = [float(np.hypot(b[0] - a[0], b[1] - a[1]) * s) for a, b in itertools.pairwise(path)]
        slide = math.sqrt(2 * sum(legs) / _SLIDE_MM_S2) if legs else 0.0
        if len(path) > 2:
            slide *= 1.6  # pushed around a corner by hand, slower
        before = self.resting

        def tile_at(t: float) -> tuple[tuple[float, float], float]:
            if t < enter:
                return path[0], _CARRY_MM
            if t < enter + set_down:
                return path[0], _CARRY_MM * (1 - _ease((t - enter) / set_down))
            if not legs:
                return path[-1], 0.0
            x = min((t - enter - set_down) / slide, 1.0) if slide else 1.0
            travelled = x * x * sum(legs)
            for (a, b), leg in zip(itertools.pairwise(path), legs, strict=True):
                if travelled <= leg:
                    f = travelled / leg if leg else 1.0
                    return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f), 0.0
                travelled -= leg
            return path[-1], 0.0

        release = enter + set_down
        hold_until = release + slide if push else release
        # a hand that lets go stays near the top of the ramp, backing off
        let_go, let_go_h = self._grip(self._centre_mm(piece, path[0]), 0.0, shoulder)
        backward = (shoulder - let_go) / np.linalg.norm(shoulder - let_go)

        def backing_off(x: float) -> HandPose:
            return self._hand(
                let_go + backward * 40 * x, let_go_h + 25 * x, shoulder, 1.0 - 0.7 * x
            )

        def moment(t: float) -> Moment:
            shift, lift = tile_at(t)
            centre = self._centre_mm(piece, shift)
            if t < enter:
                # the piece travels in the hand
                palm = _lerp(palm_from, palm_at, _ease(t / enter))
                extra = 20 * (1 - t / enter)
                hand = self._hand(palm, palm_h + extra, shoulder, 1.0)
                moved = (palm - palm_at) / s
                shift = (shift[0] + float(moved[1]), shift[1] + float(moved[0]))
                lift += extra
            elif t <= hold_until:
                palm, h = self._grip(centre, lift, shoulder)
                hand = self._hand(palm, h, shoulder, 1.0)
            else:
                hand = backing_off(min((t - hold_until) / 0.35, 1.0))
            return Moment((Placed(piece, shift, lift),), (hand,), bump, True)

        t0 = self.script.add_clip(release + slide, before, moment)
        self.resting = (*before, piece)
        # the hand leaves after the piece is down, from where it is
        if push:
            start_palm, start_h = self._grip(self._centre_mm(piece, path[-1]), 0.0, shoulder)
            start_curl = 1.0
        else:
            pose = backing_off(min(slide / 0.35, 1.0))
            start_palm, start_h, start_curl = (
                np.array([pose.x_mm, pose.y_mm]),
                pose.height_mm,
                pose.curl,
            )
        leave = self.rng.uniform(0.6, 0.9)
        end_palm = self._away(start_palm, shoulder)

        def going(t: float) -> Moment:
            x = _ease(t / leave)
            palm = _lerp(start_palm, end_palm, x)
            hand = self._hand(palm, start_h + 40 * x, shoulder, start_curl * (1 - x))
            return Moment((), (hand,), bump, True)

        self.script.add_event(t0, "hand_in")
        rest_t = self.script.add_clip(leave, self.resting, going)  # the piece rests from here
        self.script.add_event(
            rest_t,
            "placed",
            cells=[list(c) for c in piece.cells],
            codes="".join(piece.codes),
            **event,
        )
        self.script.add_event(rest_t + leave, "hand_out")
        return rest_t

    def take_back(self, piece: Piece, **event: Any) -> float:
        """A hand comes for a piece on the board, lifts it and carries it
        off (a refused placement taken back). Returns when it left the board."""
        bump = self.bump
        rest = self._centre_mm(piece, (0.0, 0.0))
        shoulder = self._shoulder(rest)
        palm_at, palm_h = self._grip(rest, 0.0, shoulder)
        palm_from = self._away(palm_at, shoulder)
        come = self.rng.uniform(0.6, 0.9)
        lift = 0.3
        go = self.rng.uniform(0.6, 0.9)
        s = self.board.cell_mm

        def coming(t: float) -> Moment:
            x = _ease(t / come)
            palm = _lerp(palm_from, palm_at, x)
            return Moment((), (self._hand(palm, palm_h + 30 * (1 - x), shoulder, x),), bump, True)

        def leaving(t: float) -> Moment:
            up = _ease(t / lift) * _CARRY_MM
            x = _ease((t - lift) / go) if t > lift else 0.0
            palm = _lerp(palm_at, palm_from, x)
            moved = (palm - palm_at) / s
            placed = Placed(piece, (float(moved[1]), float(moved[0])), up)
            hand = self._hand(palm, palm_h + up, shoulder, 1.0)
            return Moment((placed,), (hand,), bump, True)

        t0 = self.script.add_clip(come, self.resting, coming)
        self.script.add_event(t0, "hand_in")
        self.resting = tuple(p for p in self.resting if p != piece)
        t1 = self.script.add_clip(lift + go, self.resting, leaving)
        self.script.add_event(
            t1, "removed", cells=[list(c) for c in piece.cells], codes="".join(piece.codes), **event
        )
        self.script.add_event(t1 + lift + go, "hand_out")
        return t1 + lift + go

    def clear(self, **event: Any) -> None:
        """Everything comes off the board (between rounds): two hands sweep
        over it and the board is empty when they leave."""
        bump = self.bump
        x1 = self.board.outer_rect_mm()[2]
        w, h = self.board.grid_size_mm
        targets = [np.array([w * 0.3, h * 0.5]), np.array([w * 0.7, h * 0.45])]
        # one hand from the player's seat, the other from the side
        shoulders = [self._shoulder(targets[0]), np.array([x1 + 300.0, h * 0.7])]
        outside = [self._away(t, sh) for t, sh in zip(targets, shoulders, strict=True)]
        come, stay = 0.8, 1.2
        before = self.resting

        def hands(x: float, curl: float) -> tuple[HandPose, ...]:
            return tuple(
                self._hand(_lerp(o, t, x), 45 + 30 * (1 - x), sh, curl)
                for o, t, sh in zip(outside, targets, shoulders, strict=True)
            )

        t0 = self.script.add_clip(
            come, before, lambda t: Moment((), hands(_ease(t / come), 0.3), bump, True)
        )
        self.script.add_event(t0, "hand_in")
        self.resting = ()
        t1 = self.script.add_clip(stay, (), lambda t: Moment((), hands(1.0, 0.6), bump, True))
        self.script.add_event(t1, "cleared", **event)
        t2 = self.script.add_clip(
            come, (), lambda t: Moment((), hands(1 - _ease(t / come), 0.3), bump, True)
        )
        self.script.add_event(t2 + come, "hand_out")

    def rest_hand(self, seconds: float, cell: tuple[int, int] | None = None) -> None:
        """A hand comes in, lies still over the board for ``seconds``, leaves."""
        bump = self.bump
        s = self.board.cell_mm
        if cell is None:
            cell = (self.rng.randrange(self.board.rows), self.rng.randrange(self.board.cols))
        target = np.array([(cell[1] + 0.5) * s, (cell[0] + 0.5) * s])
        shoulder = self._shoulder(target)
        height = self.rng.uniform(25, 60)
        outside = self._away(target, shoulder)
        come = self.rng.uniform(0.6, 0.9)

        def coming(t: float) -> Moment:
            x = _ease(t / come)
            return Moment(
                (),
                (self._hand(_lerp(outside, target, x), height + 30 * (1 - x), shoulder, 0.25),),
                bump,
                True,
            )

        def staying(t: float) -> Moment:
            # a resting hand is not perfectly still: a millimetre of tremor
            wobble = np.array([math.sin(t * 5.1), math.cos(t * 3.7)]) * 0.6
            return Moment((), (self._hand(target + wobble, height, shoulder, 0.25),), bump, False)

        def going(t: float) -> Moment:
            x = _ease(t / come)
            return Moment(
                (),
                (self._hand(_lerp(target, outside, x), height + 30 * x, shoulder, 0.25),),
                bump,
                True,
            )

        t0 = self.script.add_clip(come, self.resting, coming)
        self.script.add_event(t0, "hand_in")
        self.script.add_clip(seconds, self.resting, staying)
        t1 = self.script.add_clip(come, self.resting, going)
        self.script.add_event(t1 + come, "hand_out")

    def knock(
        self,
        shift_mm: tuple[float, float, float] | None = None,
        turn_deg: tuple[float, float, float] | None = None,
        seconds: float = 0.4,
    ) -> None:
        """Someone bumps the camera: it shakes and settles somewhere else."""
        before = np.array(self.bump, dtype=np.float64)
        # a camera on an arm springs back part of the way, so knocks do not
        # wander off for ever and a long game keeps the board in view
        back = -0.6 * before
        if shift_mm is None:
            sx, sy, sz = (
                float(back[i] + self.rng.uniform(-m, m)) for i, m in enumerate((12, 12, 6))
            )
            shift_mm = (sx, sy, sz)
        if turn_deg is None:
            tx, ty, tz = (
                float(back[3 + i] + self.rng.uniform(-m, m)) for i, m in enumerate((3, 3, 4))
            )
            turn_deg = (tx, ty, tz)
        after = before + np.array([*shift_mm, *turn_deg])

        def shaking(t: float) -> Moment:
            x = t / seconds
            # a damped swing towards the new rest
            settle = 1 - math.exp(-5 * x) * math.cos(3 * math.pi * x)
            if x >= 1:
                settle = 1.0
            now = before + (after - before) * settle
            return Moment((), (), tuple(float(v) for v in now), True)  # type: ignore[arg-type]

        t0 = self.script.add_clip(seconds, self.resting, shaking)
        self.bump = tuple(float(v) for v in after)  # type: ignore[assignment]
        self.script.bump = self.bump
        self.script.add_event(t0, "bump", shift_mm=list(shift_mm), turn_deg=list(turn_deg))
