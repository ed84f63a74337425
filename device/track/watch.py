"""One board in one camera's view, frame by frame.

A :class:`BoardWatch` owns the board's place in the picture and decides, for
every frame, how much work it deserves. Almost every frame costs one tiny
warp (:func:`vision.motion.board_patch`) and a comparison with the previous
one; the colour reader runs only on the few still frames right after
something changed:

1. no grid yet: search for it now and then (the locator is slow);
2. anything moving over the board or its ring: nothing is judged
   (:class:`~device.track.gate.StillnessGate`);
3. still for long enough: compare with the board as last accepted (the
   *reference* patch): are the grid's edges where they were (else the camera
   moved: search again, read afresh); does something still cross the board's
   edge (a hand resting: wait); how did the light change (a lamp: report it);
   which cells changed;
4. cells changed: read them on a few still frames, vote, and hand the
   observation to the board's :class:`~device.track.tracker.BoardTracker`.

Events are plain dicts with ``type`` ("view_moved", "view_found",
"light_changed", and whatever the tracker emits), ``t`` and ``board``.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from calibration.palette import load_palette
from calibration.profile import Profile
from calibration.wizard import build_profile
from device.track.exposure import ExposureCheck, re_expose, scale_lab
from device.track.gate import GateSettings, StillnessGate
from device.track.observe import (
    FRAME_WEIGHT,
    GRAVITY_WEIGHT,
    choose_turn,
    orient_like,
    read_board,
    slide_turn,
    tiles_seen,
    turned,
    with_corners,
    wrong_way,
)
from device.track.tracker import BoardTracker
from device.track.vote import Observation, code_distances, vote
from vision.follow import carried, view_shift
from vision.glare import Highlight
from vision.gridfit import GridFit
from vision.lines import lines_changed
from vision.locate import locate_grid
from vision.motion import (
    beside,
    block_means,
    board_patch,
    cell_looks,
    cell_texture,
    faint_beside,
    fit_light,
    log_ratio,
    structure,
    structure_similarity,
    texture_changes,
)
from vision.orientation import frame_widths, top_edge
from vision.palette import Palette
from vision.reader import Reading

log = logging.getLogger(__name__)

Event = dict[str, Any]
# The count of hands' visits when nobody counted them (the view was just
# found): as many as a missed drop could need.
UNCOUNTED = 1_000
# A corrected board that matches the ramp only turned, by this many more cells
# than as it is: the way up was wrong. More than a look may differ from the
# game as it is for no fault of the way up: the tile just put down and a
# misread cell (three; simulated BITS 1902, a ramp nearly the same half
# turned, won by three and was turned mid-game).
TURN_CELLS = 4
# ... while the look differs from it, so turned, in at most this many cells:
# the tile just put down (two) and two misread ones (simulated BITS 1738:
# a cell of the ramp's edge read grey; with the new tile, three cells off,
# and the way up, wrong from the first tile, stayed wrong all game).
TURN_SLACK = 4
# Moving frames kept while which way up is open (the first tile's way in).
MOTION_FRAMES = 60
# The locator's quality (share of grid lines seen) a grid found elsewhere
# needs before the tracker moves to it ...
MOVE_QUALITY = 0.8
# ... or, on a table whose grid was never seen that well (a slanted view of
# a light print: the first find scored 0.71, simulated BITS 1815), nearly
# as well as the grid it holds; then only if the ring around it looks as
# it did (the same place found again, SAME_PLACE_S, is not enough).
QUALITY_SLACK = 0.05
# Places a grid was found elsewhere, remembered at once: the search and the
# picture's own shift may each point somewhere (1815, after a knock: 77 and
# 42 px off); one must not make the watch forget the other.
PLACES_KEPT = 4
# A board found elsewhere is the same board if at most this share of its
# ring looks different (the rest matching closely), or if it is found in the
# same new place again at least this many seconds later (a knocked camera
# sees the table around the board from a new angle and under another part
# of the lamp's light; a hand does not lie still in one place that long).
RING_OUTLIERS = 0.25
SAME_PLACE_S = 1.5
# A tile standing in the row by the ramp's edge shows its side, or its
# shadow, on the ring cell next to it (seen at a slant). At most this many
# ring cells, each touching a changed cell of the board, under the light as
# it was (a lamp switched on changes the ring by itself), are such a piece:
# the locator is asked at once, not after ``knocked_s`` of stillness, which
# quick players never leave (simulated BITS game 408: every tile after
# one in the bottom row missed for half a minute).
RING_BESIDE = 2
# ... and the board's changed cells they touch (8-connected blobs) number at
# most this many: a piece (a LITS tetromino, a BITS tile or two put down
# quickly) and the odd cell its shade darkens. An arm resting across the
# ring and the board leaves a few ring cells changed too, when the smooth
# light fit takes up its bulk (simulated BITS 2334: two ring cells beside
# a blob of 15 board cells: the arm read as grey tiles, then refused).
PIECE_BESIDE = 6
# A gain g on sRGB levels is about g ** 2.2 on linear light.
SRGB_EXPONENT = 2.2
# How well the ring fits one smooth light change is judged against this
# table's own floor: a noisy sensor, JPEG and a dark ring keep the fit's
# scale above ``unclear`` with nothing over the board (a night LITS print on
# a dark cloth: every still frame taken for an arm). The floor is this low
# percentile of the last looks' scales, and the limit this many times it
# (an arm across the ring is several times the floor).
FLOOR_LOOKS = 100
FLOOR_PERCENTILE = 25
FLOOR_MIN_LOOKS = 20
FLOOR_TIMES = 2.0
# One look's scale counts at most once per this many seconds. A still board
# is looked at once per ``recheck_s``, a board with something across it on
# every still frame: a hand resting over the ramp's edge early in the game
# gave 15 of the first 20 scales (simulated BITS 3304: its 0.25 became the
# floor, the limit 0.41, and the hand was read as a grey double).
FLOOR_EVERY_S = 1.0
# Ring cells an arm across the ring covers at least, each standing out of
# the table's noise (change_sigmas times its floor).
ARM_CELLS = 2
# When more than this share of the board's cells changed in one look (a
# round swept off) and the reading then leaves more than UNEXPLAINED_SHARE
# of them unsure, the lamp's highlight is looked for again, and the reading
# that leaves fewer cells unsure kept: it was measured on the surfaces that
# lay there (glossy tiles may shine more than the print). A cell or two
# unsure is no reason: a highlight found afresh on a bare print may read
# its sheen as grey tiles, surely.
SURFACES_SHARE = 0.5
UNEXPLAINED_SHARE = 0.25
# A cell that changed with its centre this near the highlight's (cells) is a
# new surface under the lamp's core: a glossy tile may shine there far more
# than the print the highlight was measured on (simulated BITS 1107: a blue
# tile under the spot, the print's sheen taken off, read as a grey tile).
# The highlight is looked for again on that frame and kept when it leaves
# the changed cells nearer their colours.
UNDER_SPOT = 1.0
# The tracker doubts a colour refusal hanging on a cell under the lamp's
# core: within UNDER_SPOT cells of its centre, or lit by it to at least this
# share of its peak (a broad spot reaches further). A black tile under a
# glare looks grey (simulated BITS 2782: a spot measured on the bright
# ivory print, clipped there and 1.4 cells wide; a black double put down
# 1.0 and 1.25 cells from its centre, its upper half read a sure grey with
# that spot taken off, and the legal tile was refused as "half neutral,
# half coloured").
UNDER_SPOT_LIGHT = 0.5
# A look that changed no cell enough to count follows slow drift (it becomes
# the reference), unless some cell changed more than this share of the
# limit: a tile seen through a noisy look (the hand just gone, its shadow
# still fading), a purple tile under the highlight, a black one on the dark
# print (simulated BITS 1108: taken into the reference, a wrong tile never
# judged). The next look compares with the old reference again.
DRIFT_SHARE = 0.5
# Such a nearly-change of more than this share of the limit, on a cell the
# game holds no tile on, seen in two looks running after a hand was over
# the board, is a doubt for the rules to weigh (a faint cell, as the weak
# half of a tile beside a changed one): a black double dropped on the dark
# print changes its cells' colour by a tenth at most (simulated BITS 2126:
# missed, then recorded together with the next tile). The rules weigh the
# card's tile there against nothing on the reader's distances alone.
NEARLY_SHARE = 0.75


@dataclass(frozen=True)
class WatchSettings:
    """How a board is watched. ``px``: patch pixels per cell (even);
    ``margin``: ring cells around the grid; ``votes``: readings voted per
    observation; ``recheck_s``: while still, look again this often (slow
    light drift, a hand that never moves); ``search_s``: search for a lost
    grid this often; ``change``: a cell changed when the light does not
    explain this much of it (log ratio) nor ``change_sigmas`` of the noise;
    ``light``: a light change worth reporting (log gain, ~15 %);
    ``unclear``: the ring around the board must agree with one smooth light
    change this closely (log ratio) or something lies across it (an arm);
    ``doubt_s``: after a light change, for this long a refusal that hangs
    on colours becomes a question (the players' answers teach the new light);
    ``knocked_s``: still this long with the ring unlike before, and the
    camera may have been knocked: search; ``shaken_s``: still this long,
    the ring unlike before and the whole picture moved: search at once;
    ``table_changed_s``: still this long with the grid where it was and
    the ring unlike it was when last clear, and it is not an arm resting
    across it (no hand rests that long) but the table around the board
    that changed: look afresh;
    ``moved``: below this edge-map correlation, the view may have moved;
    ``shift``: corners this share of the grid's side away mean it did."""

    px: int = 8
    margin: int = 1
    votes: int = 3
    recheck_s: float = 1.0
    search_s: float = 0.5
    change: float = 0.12
    change_sigmas: float = 5.0
    light: float = 0.15
    moved: float = 0.6
    shift: float = 0.02
    unclear: float = 0.06
    knocked_s: float = 1.0
    shaken_s: float = 0.3
    table_changed_s: float = 6.0
    doubt_s: float = 30.0
    gate: GateSettings = field(default_factory=GateSettings)


@dataclass
class _Reference:
    """The board as it looked when last judged."""

    cells: np.ndarray
    edges: np.ndarray
    texture: np.ndarray


class BoardWatch:
    """See the module docstring. ``tracker``: the board's referee;
    ``corners``: where the board is in the picture, in board order, if
    known (a profile, a previous run); ``profile``: colours to read with
    (learnt from the first look at the board when None); ``turn``: quarter
    turns of the located grid when known (a profile's)."""

    def __init__(
        self,
        tracker: BoardTracker,
        rows: int,
        cols: int,
        game: str,
        profile: Profile | None = None,
        corners: np.ndarray | None = None,
        settings: WatchSettings | None = None,
        turn: int | None = None,
    ) -> None:
        self.tracker = tracker
        self.rows = rows
        self.cols = cols
        self.game = game
        self.profile = profile
        self.settings = settings or WatchSettings()
        self.gate = StillnessGate(self.settings.gate)
        self.fit: GridFit | None = None
        self.turn = turn
        if corners is not None:
            self.fit = GridFit.from_corners(corners, rows, cols)
            self.turn = 0 if turn is None else turn
        self.gains: np.ndarray | None = None if profile is None else profile.gains.copy()
        self.lost = False
        self.reads = 0
        self.locates = 0
        self._reference: _Reference | None = None
        self._readings: list[Reading] = []
        self._reading = False  # collecting readings for an observation
        self._dt = 0.1  # seconds between frames (followed as they come)
        self._last_t: float | None = None
        self._changed: np.ndarray | None = None
        # Under new light: the cells that changed in look all the same (a
        # hint for the careful read, not a mask: see BoardTracker.observe).
        self._lit_changed: np.ndarray | None = None
        # cells beside a changed one with a weak sign of change (faint_beside)
        self._faint = np.zeros((rows, cols), bool)
        self._view: np.ndarray | None = None  # grey picture of the last reference
        self._next_search = float("-inf")
        self._looked_at: float | None = None  # when the still board was last examined
        self._misses = 0  # searches in this still spell that found no grid
        # New places the grid was found in whose ring did not match, the
        # last PLACES_KEPT: (corners, when first seen there).
        self._elsewhere: list[tuple[np.ndarray, float]] = []
        self._new_light = False  # adopt the white balance of the next observation
        self._verified = False  # the locator confirmed the grid in this still spell
        # Spells of movement over the board since the tracker's last
        # observation (UNCOUNTED after a first look: anything may have
        # happened); see BoardTracker.observe's ``visits``.
        self._visits = UNCOUNTED
        self._moving = False
        self._searched: float | None = None  # when the locator last looked for a knocked view
        self._shaken_at: float | None = None  # when the whole picture was last compared
        # The ring as last seen clear of arms (it matched the reference), and
        # the grid it was seen around: after a long still spell that does not
        # match the reference, it tells an arm resting across the ring now
        # from a reference taken with one.
        self._clear_ring: tuple[GridFit, np.ndarray] | None = None
        self._open_turn = False  # BITS: which way up is still open (an empty ramp)
        self._alt_turn: int | None = None  # the other way up the first tile allowed
        # How much better the tiles must rest the other way up to turn the
        # board (support score): 1, plus what the ramp's frame said for the
        # way chosen.
        self._alt_doubt = 1.0
        m = self.settings.margin
        self._motion: list[np.ndarray] = []  # cell means of the last moving frames (open turn)
        # The ring of cells around the grid: no placement changes it, so it
        # tells the light's changes apart from the board's.
        self._ring = np.ones((rows + 2 * m, cols + 2 * m), bool)
        self._ring[m : m + rows, m : m + cols] = False
        self._exposure: ExposureCheck | None = None  # open while the profile is a guess
        # The lamp's highlight on the board (vision.glare), looked for at the
        # first look and under a new light, then taken off every read.
        self.highlight: Highlight | None = None
        self._look_for_highlight = True
        self._doubt_highlight = False  # look for it again, keep the surer (SURFACES_SHARE)
        self._under_spot: np.ndarray | None = None  # changed cells under it (UNDER_SPOT)
        self._nearly: np.ndarray | None = None  # free cells nearly changed at the last look
        self._scales: deque[float] = deque(maxlen=FLOOR_LOOKS)  # the ring fit's recent scales
        self._scaled_at: float | None = None  # when the last one was kept
        # The printed lines at the last observation, and the way up they were
        # read in (see _lines_moved).
        self._lines: tuple[np.ndarray, int | None] | None = None

    def learn_reading(
        self, lab: np.ndarray, known: dict[tuple[int, int], str], trusted: bool = False
    ) -> int:
        """The tracker's learner when this watch made the profile from the
        board alone: the first recorded tiles check the exposure first
        (:mod:`device.track.exposure`), then the profile learns their colours."""
        assert self.profile is not None
        if self._exposure is not None and not trusted:
            shining: set[tuple[int, int]] = set()
            if self.highlight is not None:
                spot = _near_spot(self.highlight, self.rows, self.cols, UNDER_SPOT)
                shining = {(int(r), int(c)) for r, c in np.argwhere(spot)}
            factor = self._exposure.add(
                {cell: (code, lab[cell]) for cell, code in known.items()}, shining
            )
            if factor is not None:
                log.info("board %s: exposure off, gains times %.2f", self.board, factor)
                re_expose(self.profile, factor)
                if self.gains is not None:
                    self.gains = self.gains * factor
                lab = scale_lab(lab, factor)
            if self._exposure.closed:
                self._exposure = None
        return self.profile.learn_reading(lab, known, trusted)

    @property
    def board(self) -> str:
        return self.tracker.board

    # --- frame by frame --------------------------------------------------------
    def step(self, image: np.ndarray, t: float) -> list[Event]:
        """Take one camera frame (BGR uint8) at stream time ``t``."""
        if self.fit is None:
            return self._search(image, t)
        s = self.settings
        patch = board_patch(image, self.fit.homography, self.rows, self.cols, s.px, s.margin)
        moving = self.gate.update(block_means(patch, s.px // 2), t)
        if moving and not self._moving:
            self._visits += 1
        self._moving = moving
        if moving:
            if self._open_turn and self._reference is not None:
                # the first tile's way in: where its colour shows while it moves
                self._motion.append(
                    cell_looks(patch, self.rows + 2 * s.margin, self.cols + 2 * s.margin)
                )
                del self._motion[:-MOTION_FRAMES]
            self._readings.clear()
            self._reading = False
            self._looked_at = None
            self._misses = 0
            self._verified = False
            return []
        if self._last_t is not None and t > self._last_t:
            self._dt += (t - self._last_t - self._dt) * 0.1
        self._last_t = t
        if self._reading:
            return self._read_more(image, patch, t)
        if self._looked_at is not None and t - self._looked_at < s.recheck_s:
            return []
        if self._reference is None:
            return self._first_look(image, patch, t)
        return self._look(image, patch, t)

    def _search(self, image: np.ndarray, t: float) -> list[Event]:
        if t < self._next_search:
            return []
        self._next_search = t + self.settings.search_s
        self.locates += 1
        fit = locate_grid(image, self.rows, self.cols)
        if fit is None:
            return []
        self.fit = fit
        self.gate.reset()
        self._reference = None
        return []

    def _cells_and_edges(self, patch: np.ndarray) -> _Reference:
        m = self.settings.margin
        rows, cols = self.rows + 2 * m, self.cols + 2 * m
        return _Reference(
            cell_looks(patch, rows, cols), structure(patch), cell_texture(patch, rows, cols)
        )

    def _look(self, image: np.ndarray, patch: np.ndarray, t: float) -> list[Event]:
        """Nothing moved since the last frame: compare the board with the
        reference. Cheap, unless the picture no longer matches it (then the
        locator looks for the grid)."""
        assert self.fit is not None and self._reference is not None
        s = self.settings
        now = self._cells_and_edges(patch)
        light = fit_light(self._reference.cells, now.cells, use=self._ring)
        self._note_scale(light.scale, t)
        limit = max(s.change, s.change_sigmas * light.scale)
        changed = light.residual > limit
        m = s.margin
        inner = changed[m : m + self.rows, m : m + self.cols].copy()
        events: list[Event] = []
        if light.scale > self._unclear(lit=light.change > s.light):
            # Something lies across the board (an arm), or the camera was
            # knocked. An arm moves again soon; a knocked camera stays, and
            # the whole picture moved with it (quick players may never
            # leave the board still for knocked_s).
            still = self.gate.still_for(t)
            knocked = still >= s.knocked_s or (
                still >= s.shaken_s and self._picture_moved(image, t)
            )
            if not knocked or (self._searched is not None and t - self._searched < s.recheck_s):
                return []
            self._searched = t
            events, where = self._maybe_moved(image, t)
            if where == "here" and not self._arm_across(now.cells, t):
                # The grid is where it was, still the picture does not match
                # the reference for a second: the reference is what is wrong
                # (taken with a hand in view). Look afresh, carefully.
                self._reference = None
            return events
        self._clear_ring = (self.fit, now.cells)
        if (changed & self._ring).any() and not self._verified:
            # A few cells of the ring look different: a hand's edge, a knock,
            # or a piece by the edge that shades it. The locator decides.
            beside = light.change <= s.light and self._beside_a_piece(changed)
            if self.gate.still_for(t) < s.knocked_s and not beside:
                return []
            # Under a new light (a lamp switched on) the ring changes with the
            # board, unevenly where the lamp's spot falls: a grid the locator
            # sees in a picture that stayed put is here (simulated BITS 2068:
            # a grid found a little off under the new lamp was "not the board
            # we knew", and the black double dropped meanwhile went unjudged
            # until the players entered it).
            lit = light.change > s.light
            events, where = self._maybe_moved(image, t, ring_clear=beside or lit)
            if where != "here":
                self._looked_at = t
                return events
            self._verified = True
        if not self._verified and structure_similarity(self._reference.edges, now.edges) < s.moved:
            # The ring is as it was but the board's edges are not: tiles
            # swept off, or a small knock. The locator decides.
            events, where = self._maybe_moved(image, t, ring_clear=True)
            if where == "lost":
                self._looked_at = t  # searching is slow: not again before recheck_s
                return events
            if where == "moved":
                return events  # read afresh from the next still frame
            self._verified = True  # the grid is where it was; its content changed
        self._looked_at = t
        if self._verified:
            self._reference.edges = now.edges
        if light.change > s.light:
            self._new_light = True
            self._forget_highlight()
            self.tracker.doubt_colours_until = t + s.doubt_s
            self._follow_light(light.field[m : m + self.rows, m : m + self.cols])
            events.append(
                {
                    "type": "light_changed",
                    "t": t,
                    "board": self.board,
                    "gain": [round(float(v), 3) for v in np.exp(light.level[:3])],
                }
            )
        # A black tile on the dark print may match it in colour, mean and
        # median alike; its symbol still changes the cell's texture.
        ref_tex, now_tex = self._reference.texture, now.texture
        gain = np.exp(light.field[..., :3].mean(axis=-1))  # of the means
        inner |= texture_changes(ref_tex, now_tex, light.residual, limit, gain)[
            m : m + self.rows, m : m + self.cols
        ]
        board = (slice(m, m + self.rows), slice(m, m + self.cols))
        if not inner.any():
            nearly = light.residual[board] > DRIFT_SHARE * limit
            if nearly.any() and light.change <= s.light:
                # Nearly a change: kept out of the reference, so the next
                # look, less noisy, still sees it against the old one. (A
                # new light is taken in: it is told once.)
                faint = self._faint_drop(
                    light.residual[board], limit, ref_tex[board], now_tex[board]
                )
                if faint is None:
                    return events
                self._changed, self._lit_changed, self._faint = inner, None, faint
                return events + self._read_more(image, patch, t)
            self._nearly = None
            self._reference = now  # follow slow drift; nothing to judge
            self._keep_view(image)
            return events
        self._nearly = None
        if inner.sum() > SURFACES_SHARE * inner.size and self.highlight is not None:
            # Simulated BITS 954: the sheen fitted over a full ramp of tiles,
            # taken off the bare print, left it black. (Under another lamp
            # the print shines as the tiles did, 961: the old one is kept.)
            self._doubt_highlight = True
        elif self.highlight is not None and not self._new_light:
            under = inner & _near_spot(self.highlight, self.rows, self.cols, UNDER_SPOT)
            self._under_spot = under if under.any() else None
        # Under new light the per-cell change is a guess: read the whole board
        # the careful way (a cell keeps its code unless clearly something else).
        self._changed = None if self._new_light else inner
        self._lit_changed = inner if self._new_light else None
        self._faint = faint_beside(
            inner, ref_tex[board], now_tex[board], light.residual[board], limit
        )
        return events + self._read_more(image, patch, t)

    def _faint_drop(
        self, residual: np.ndarray, limit: float, before_tex: np.ndarray, now_tex: np.ndarray
    ) -> np.ndarray | None:
        """The cells (rows, cols) bool to weigh as faint after a look that
        changed nothing enough to count (:data:`NEARLY_SHARE`), with their
        weak neighbours; None while there is no such doubt yet."""
        known = self.tracker.known
        if not 0 < self._visits < UNCOUNTED or known is None or len(known) != self.rows:
            self._nearly = None
            return None
        empty = self.tracker.referee.empty
        free = np.array([[ch == empty for ch in row] for row in known], bool)
        nearly = (residual > NEARLY_SHARE * limit) & free
        before, self._nearly = self._nearly, (nearly if nearly.any() else None)
        if before is None or not (nearly & before).any():
            return None
        self._nearly = None
        again = nearly & before
        return np.asarray(
            again | (faint_beside(again, before_tex, now_tex, residual, limit) & free)
        )

    def _note_scale(self, scale: float, t: float) -> None:
        """Keep a look's ring-fit scale for the floor, at most one per
        :data:`FLOOR_EVERY_S` of stream time (time, not looks, is fair)."""
        if self._scaled_at is not None and 0 <= t - self._scaled_at < FLOOR_EVERY_S:
            return
        self._scales.append(scale)
        self._scaled_at = t

    def _unclear(self, lit: bool = False) -> float:
        """The ring fit's scale above which something lies across the board:
        ``unclear``, or :data:`FLOOR_TIMES` this table's own floor when that
        is higher (see :data:`FLOOR_LOOKS`). ``lit``: the fit says the light
        changed; then :data:`FLOOR_TIMES` the floor, however low.

        A lamp switched on changes the board smoothly: its fit leaves the
        cells nearly as close as the table's noise does (at most 1.7 times
        the floor over the 30 lamps of simulated BITS 2740-2769, 2830-2859
        and 2890-2919). A hand resting over one side of the board, the arm
        across its edge, bends the smooth fit into a "change of light" (15
        to 23 % end to end) and leaves the cells scattered about it (2.3 to
        3.4 times the floor on 2765, 2853 and 2895): something lies across
        the board, as when the fit cannot bend to it at all."""
        if len(self._scales) < FLOOR_MIN_LOOKS:
            return self.settings.unclear
        floor = float(np.percentile(np.fromiter(self._scales, float), FLOOR_PERCENTILE))
        if lit:
            return FLOOR_TIMES * floor
        return max(self.settings.unclear, FLOOR_TIMES * floor)

    def _follow_light(self, field: np.ndarray) -> None:
        """Start the reader's white balance where the light went: the board's
        mean log gain (camera BGR levels, ``field`` (rows, cols, 3)) turned
        into linear RGB with the sRGB curve's exponent. The reader refines it;
        started from the old light it may settle on a wrong balance."""
        if self.gains is None:
            return
        level = field[..., :3].reshape(-1, 3).mean(axis=0)[::-1]  # BGR -> RGB
        self.gains = self.gains / np.exp(level * SRGB_EXPONENT)

    def _read_more(self, image: np.ndarray, patch: np.ndarray, t: float) -> list[Event]:
        """Read this still frame; judge once the board has been still long
        enough and enough readings agree (the last ``votes`` count)."""
        assert self.fit is not None and self.profile is not None
        s = self.settings
        self._reading = True
        # Read only the last few frames before the board counts as settled
        # (a fast camera need not read every still frame).
        still = self.gate.still_for(t)
        needed = s.votes - len(self._readings)
        if still + (needed - 1) * self._dt < s.gate.settle_s - 1e-6:
            return []
        expected = self._expected()
        reading = read_board(
            image,
            self.fit,
            self.profile.palette,
            self.gains,
            highlight=self.highlight,
            look_for_highlight=self._look_for_highlight,
            expected=expected,
        )
        if not self._look_for_highlight and (
            self._under_spot is not None
            or (
                self._doubt_highlight
                and len(reading.unsure()) > UNEXPLAINED_SHARE * reading.codes.size
            )
        ):
            # the highlight looked for afresh on the surfaces that lie there
            again = read_board(
                image,
                self.fit,
                self.profile.palette,
                self.gains,
                look_for_highlight=True,
                expected=expected,
            )
            if _surer(again, reading, None if self._doubt_highlight else self._under_spot):
                reading, self.highlight = again, again.highlight
        self._doubt_highlight = False
        self._under_spot = None
        if self._look_for_highlight:
            self.highlight, self._look_for_highlight = reading.highlight, False
        self.reads += 1
        self._readings.append(reading)
        del self._readings[: -s.votes]
        if len(self._readings) < s.votes or not self.gate.settled(t):
            return []
        self._reading = False
        obs = vote(self._readings, t)
        ridges = [r.ridges for r in self._readings if r.ridges is not None]
        lines = np.median(ridges, axis=0) if ridges else None
        if self._new_light:
            # Every read starts from the white balance of the light as last
            # known, not the previous frame's: one frame's slip (a dark board
            # taken for black tiles) must not carry over to the next.
            self.gains = np.median([r.gains for r in self._readings], axis=0)
            self._new_light = False
        self._readings.clear()
        opened, way_up = self._open_turn, self.turn
        # (a turn forgets the highlight, found the old way up: its cells turn along)
        shining = self._shining()
        if self._open_turn:
            # The lines a tile hides count before the first tile decides
            # which way is up: they were kept the way the last look was read
            # (simulated BITS 3331: the first tile, a black double on the
            # empty ramp's dark print, changed one half's look; missed, the
            # next tile was recorded with it as two).
            self._changed, self._lit_changed = self._with_lines(
                self._changed, self._lit_changed, self._lines_moved(lines)
            )
            obs, patch = self._settle_turn(obs, image, patch)
        elif self._alt_turn is not None:
            held = self.tracker.referee.accepted() or ()
            doubt = wrong_way(tiles_seen(obs, held), self._alt_turn, held)
            if doubt >= self._alt_doubt:
                return self._turn_around(t)
            if doubt <= -1.0:
                self._alt_turn = None  # the way up chosen is clearly right
        turned: list[Event] = []
        if self.game == "bits" and not self._open_turn:
            turn = self._game_turn(obs)
            if turn:
                obs = obs.rotated(turn)
                self._turn_to(turn)
                self._changed = None  # read afresh, carefully, the right way up
                self._lit_changed = None
                self._alt_turn = None
                patch = board_patch(
                    image, self.fit.homography, self.rows, self.cols, s.px, s.margin
                )
                turned = [{"type": "turned", "t": t, "board": self.board, "quarter_turns": turn}]
        faint = None if self._changed is None else self._faint
        visits = None if self._visits >= UNCOUNTED else self._visits
        quarters = (self.turn or 0) - (way_up or 0)
        if quarters % 4 and self.highlight is None:
            self.tracker.shining = _cells(np.rot90(_mask(shining, self.rows, self.cols), quarters))
        else:
            self.tracker.shining = self._shining()
        changed, hint = self._changed, self._lit_changed
        if not (opened or turned):
            changed, hint = self._with_lines(changed, hint, self._lines_moved(lines))
        events = turned + self.tracker.observe(
            obs, changed, t, faint=faint, hint=hint, visits=visits
        )
        self._visits = 0  # the tracker keeps the count from here
        if not self.tracker.deferred:
            self._reference = self._cells_and_edges(patch)
            if lines is None or turned or self.turn != way_up:
                self._lines = None  # (read before a turn made now: the old way up)
            else:
                self._lines = (lines, self.turn)
            self._keep_view(image)
            if self.lost:
                self.lost = False
                events.insert(0, {"type": "view_found", "t": t, "board": self.board})
        return events

    @staticmethod
    def _with_lines(
        changed: np.ndarray | None, hint: np.ndarray | None, moved: np.ndarray | None
    ) -> tuple[np.ndarray | None, np.ndarray | None]:
        """The changed cells (or, under a new light, the hint) with the cells
        whose lines went (``moved``, see :meth:`_lines_moved`) added."""
        if moved is None:
            return changed, hint
        if changed is not None:
            return changed | moved, hint
        if hint is not None:
            # Under a new light, only beside or on a cell whose look changed:
            # a lamp's glare washes lines out on its own (simulated BITS
            # 3130: a cell under the spot of a lamp just switched on "lost"
            # its lines as the card's black double went down elsewhere),
            # while a tile put down changes the look of one half at least.
            return changed, hint | (moved & (hint | beside(hint)))
        return changed, hint

    def _lines_moved(self, lines: np.ndarray | None) -> np.ndarray | None:
        """The cells whose printed lines all went since the last observation
        (:func:`vision.lines.lines_changed`): a tile put down, whatever its
        colour (a black double on a dark print changes a cell's colour by a
        few units, its lines to none: simulated BITS 3195, put down as a
        lamp came on, only one half's look changed, and the drop was
        missed). None when there is nothing to compare (the first look, a
        new way up)."""
        if lines is None or self._lines is None:
            return None
        before, turn = self._lines
        if turn != self.turn or before.shape != lines.shape:
            return None
        return lines_changed(before, lines)

    def _expected(self) -> list[str] | None:
        """The board as the game knows it, for the reader's choice of light
        (an empty ramp under a wrong exposure reads as grey tiles just as
        well): the game's board, the way up settled, with ``?`` where the
        tracker doubts it (an old round's tiles that may still lie there,
        cells it asked about)."""
        known = self.tracker.known
        if known is None or self.turn is None or self._open_turn:
            return None
        doubted = self.tracker.stale | set(self.tracker.unsure_cells)
        return [
            "".join("?" if (r, c) in doubted else code for c, code in enumerate(row))
            for r, row in enumerate(known)
        ]

    def _first_look(self, image: np.ndarray, patch: np.ndarray, t: float) -> list[Event]:
        """No reference yet (just found, or the camera moved): orient the
        board, learn its colours if nobody has, read it without any
        "what changed" hint."""
        assert self.fit is not None
        self._forget_highlight()
        self._visits = UNCOUNTED
        if self.turn is None or self.profile is None:
            self._orient_and_calibrate(image)
        self._changed = self._lit_changed = None
        self._looked_at = t
        return self._read_more(image, patch, t)

    def _orient_and_calibrate(self, image: np.ndarray) -> None:
        """Turn the located grid the way the game has it, and learn the
        board's colours if no profile was given (the game knows what lies
        on the board now, e.g. an empty ramp: those cells teach the palette)."""
        assert self.fit is not None
        referee = self.tracker.referee
        accepted = referee.accepted()
        layout = getattr(referee, "layout", lambda: None)()
        nominal = load_palette(self.game)
        decided = self.turn is not None
        if self.profile is not None:
            first = read_board(
                image, self.fit, self.profile.palette, self.gains, look_for_highlight=True
            )
        else:
            first = _first_reading(image, self.fit, nominal, accepted)
        if self.turn is None:
            turn, decided = choose_turn(_codes(first), accepted, self.game, first.codes, layout)
            self._turn_to(turn)
            if self.turn and self.profile is None:
                first = _first_reading(image, self.fit, nominal, accepted)
        if self.profile is None:
            self.profile = _learnt_profile(first, accepted, nominal, self.fit.corners)
            self.gains = self.profile.gains.copy()
            # learnt from the board alone: the first tiles check the exposure
            self.tracker.learner = self
            self._exposure = ExposureCheck(nominal)
            # With colours learnt, look at the orientation once more.
            again = read_board(
                image, self.fit, self.profile.palette, self.gains, look_for_highlight=True
            )
            turn, decided = choose_turn(_codes(again), accepted, self.game, again.codes, layout)
            self._turn_to(turn)
        # An empty ramp looks the same every way round (whatever a misread
        # cell suggests): the first tile decides.
        empty = accepted is not None and all(set(row) <= {"."} for row in accepted)
        self._open_turn = self.game == "bits" and (empty or not decided)
        if self._open_turn and self.turn:
            self._turn_to(-self.turn)  # back to the picture's upright until then

    def _settle_turn(
        self, obs: Observation, image: np.ndarray, patch: np.ndarray
    ) -> tuple[Observation, np.ndarray]:
        """The first tiles on an empty ramp decide which way is up (their
        rest, the track they slid down, the ramp's wide top; a tie keeps
        the picture's upright); the observation, the changed cells and the
        patch turn with the grid."""
        # Under a new light the cells that changed are a guess, still the
        # way the tiles came in (simulated BITS 2205: the camera's exposure
        # slipped as the first tile, a black double, went down; the way up
        # was left to the second tile, dropped illegally in mid-air, which
        # rests on the bottom only turned the wrong way: every tile after
        # was judged a quarter turn off).
        changed = self._changed if self._changed is not None else self._lit_changed
        if changed is None:
            return obs, patch  # a first look says nothing about how tiles came in
        new = ((obs.codes != ".") | ~obs.sure) & changed
        if not new.any():
            self._motion.clear()
            return obs, patch
        track = self._tile_track(new, patch)
        held = self.tracker.known
        if held is not None and all(set(row) <= {"."} for row in held):
            filled = np.zeros_like(new)  # an empty ramp: whatever else reads as a tile is not
        else:
            filled = (obs.codes != ".") & ~changed
        assert self.fit is not None
        top = top_edge(*frame_widths(image, self.fit.homography, self.rows, self.cols))
        turn, others = slide_turn(filled, new, track, self.settings.margin, top)
        self._motion.clear()
        self._open_turn = False
        # Keep the runner-up in mind: the next tiles may show it was right.
        self._alt_turn = (others[0] - turn) % 4 if others else None
        # The ramp's frame weighed in the choice; a later tile's rest must
        # outweigh it too (simulated BITS 2268: the frame named the top half
        # sure, the first tile stood in a corner; the second, lying across
        # with a legal hole under one half and a hand's shadow read as
        # unsure cells beside it, rested 1.04 better turned a quarter, and
        # every tile after was judged a quarter turn off).
        said = FRAME_WEIGHT * top[1] * (top[0] % 4 == turn % 4)
        self._alt_doubt = 1.0 + said / GRAVITY_WEIGHT
        if turn % 4 == 0:
            return obs, patch
        self._turn_to(turn)
        if self._changed is not None:
            self._changed = np.rot90(self._changed, turn).copy()
            self._faint = np.rot90(self._faint, turn).copy()
        if self._lit_changed is not None:
            self._lit_changed = np.rot90(self._lit_changed, turn).copy()
        assert self.fit is not None
        s = self.settings
        patch = board_patch(image, self.fit.homography, self.rows, self.cols, s.px, s.margin)
        self.gate.reset()
        return obs.rotated(turn), patch

    def _tile_track(self, new: np.ndarray, patch: np.ndarray) -> np.ndarray:
        """Per cell of the board and its ring: in how many moving frames it
        showed the colour the new tile rests with (and not its own look
        from before). The tile is held over the ramp's top and slides down
        its column; the hand shows skin and sleeve, not the tile's colour."""
        s = self.settings
        m = s.margin
        out = np.zeros((self.rows + 2 * m, self.cols + 2 * m))
        if not self._motion or self._reference is None:
            return out
        now = cell_looks(patch, self.rows + 2 * m, self.cols + 2 * m)
        before = self._reference.cells
        grown = np.zeros(now.shape[:2], bool)
        grown[m : m + self.rows, m : m + self.cols] = new
        colours = now[grown]  # (n, 3) the tile's cells as they rest
        tol = 2 * s.change
        unlike_before = np.abs(log_ratio(before[:, :, None, :], colours[None, None])).max(axis=-1)
        for cells in self._motion:
            near = np.abs(log_ratio(cells[:, :, None, :], colours[None, None])).max(axis=-1)
            out += ((near < tol) & (unlike_before > tol)).any(axis=-1)
        return out

    def _game_turn(self, obs: Observation) -> int:
        """The quarter turns that make what lies on the ramp match the game's
        board, when the players put the game right (a correction from a
        phone) and it matches only turned: the way up was wrong. 0 when it
        matches as it is, or no turn matches clearly better."""
        # The game's board as it stands (not the tracker's copy: syncing
        # here would swallow the tracker's own "rebased" event).
        known = self.tracker.referee.accepted()
        if known is None:
            return 0
        held = np.array([[ch != "." for ch in row] for row in known], bool)
        if np.count_nonzero(held) < 2:
            return 0
        # Only cells read surely count, either way: under a new lamp a row of
        # black tiles read unsure as the ramp made a board heavy with them
        # match its half-turn better than itself (simulated BITS 1902: turned
        # mid-game, every later tile judged in the wrong place).
        covered, sure = obs.codes != ".", obs.sure
        differ = [
            int(np.count_nonzero((np.rot90(covered, k) != held) & np.rot90(sure, k)))
            for k in range(4)
        ]
        best = int(np.argmin(differ))
        if best and differ[best] <= TURN_SLACK and differ[best] + TURN_CELLS <= differ[0]:
            log.info("board %s: the game's board lies turned %d: turning", self.board, best)
            return best
        return 0

    def _turn_around(self, t: float) -> list[Event]:
        """The ramp was the other way up after all (the first tile lay in a
        corner): take back this board's recorded placements, record them
        again turned, turn the grid, and look afresh."""
        assert self._alt_turn is not None
        turn, self._alt_turn = self._alt_turn, None
        redo = self.tracker.take_back_own()
        if redo is None:
            log.warning("board %s: turned the wrong way, but others placed since", self.board)
            return []
        events = self.tracker.replace_turned(redo, turn, t)
        self._turn_to(turn)
        self._reference = None
        self._readings.clear()
        self._reading = False
        self.gate.reset()
        return [{"type": "turned", "t": t, "board": self.board, "quarter_turns": turn}, *events]

    def _turn_to(self, quarter_turns: int) -> None:
        assert self.fit is not None
        self.turn = (self.turn or 0) + quarter_turns
        if quarter_turns % 4:
            self.fit = with_corners(self.fit, turned(self.fit.corners, quarter_turns))
            self._forget_highlight()  # found in the grid's old orientation

    def _shining(self) -> frozenset[tuple[int, int]]:
        """The cells under the lamp's core, as the tracker's board has them
        (the way up settled), or none."""
        if self.highlight is None:
            return frozenset()
        return _cells(_under_spot(self.highlight, self.rows, self.cols))

    def _forget_highlight(self) -> None:
        """Look for the lamp's highlight again on the next read (the view,
        the way up or the light changed)."""
        self.highlight, self._look_for_highlight = None, True
        self._doubt_highlight = False
        self._under_spot = None

    def _arm_across(self, cells: np.ndarray, t: float) -> bool:
        """Whether something still lies across the ring (``cells``: this
        frame's cell means, ring included) that was not there when it was
        last seen clear around this grid: an arm resting over the board,
        whose hand would be read as tiles. Not past ``table_changed_s``."""
        if self._clear_ring is None or self._clear_ring[0] is not self.fit:
            return False
        if self.gate.still_for(t) >= self.settings.table_changed_s:
            return False
        light = fit_light(self._clear_ring[1], cells, use=self._ring)
        if light.scale <= self._unclear():
            return False
        # An arm covers ring cells that stand out of the table's own noise
        # (simulated BITS 12: 10 of 28); a new exposure on a noisy table
        # fits a little worse everywhere and stands out nowhere (BITS 1830:
        # a black tile by the edge, the camera's exposure moved 20 %, one
        # ring cell at most; waited out as an arm, the tile was missed).
        floor = self._unclear() / FLOOR_TIMES
        out = light.residual[self._ring] > self.settings.change_sigmas * floor
        return int(out.sum()) >= ARM_CELLS

    def _beside_a_piece(self, changed: np.ndarray) -> bool:
        """Whether the ring's changed cells (``changed``: ring included) are
        few and each touches a changed cell of the board, and the board's
        cells they touch are a piece's few (see RING_BESIDE, PIECE_BESIDE)."""
        ring = changed & self._ring
        if ring.sum() > RING_BESIDE:
            return False
        inner = changed & ~self._ring
        square = np.ones((3, 3), np.uint8)
        near = cv2.dilate(inner.astype(np.uint8), square).astype(bool)
        if not (near | ~ring).all():
            return False
        _, blob = cv2.connectedComponents(inner.astype(np.uint8), connectivity=8)
        touched = cv2.dilate(ring.astype(np.uint8), square).astype(bool) & inner
        return int(np.isin(blob, np.unique(blob[touched])).sum()) <= PIECE_BESIDE

    def _maybe_moved(
        self, image: np.ndarray, t: float, ring_clear: bool = False
    ) -> tuple[list[Event], str]:
        """Search for the grid near where it was. Returns the events and
        where the grid is: "here" (where it was), "moved" (read afresh from
        the next still frame) or "lost" (look again later). A grid found
        elsewhere counts only if, seen there, the ring around it looks as
        it did: a hand over the board can fool the search, not the ring.
        Where the search finds nothing, or nothing the ring confirms, the
        grid is carried by how the whole picture moved (:meth:`_followed`).
        ``ring_clear``: nothing lies across the ring around the grid (it
        looks as it did, or changed only beside a piece by the edge); then
        a grid found (even a row off) in a picture that stayed put means
        the grid is here."""
        assert self.fit is not None and self._reference is not None
        self.locates += 1
        found = locate_grid(image, self.rows, self.cols, hint=self.fit)
        if found is not None:
            events, where = self._moved_to(found, image, t)
            if where != "lost":
                return events, where
        followed = self._followed(image)
        if followed is not None and self._shift_px(followed) >= self._here_px():
            return self._moved_to(followed, image, t)
        if followed is not None and ring_clear and found is not None:
            # The picture stayed put, nothing lies across the ring, and the
            # search does see a grid, only not quite here: on a nearly full
            # ramp it may settle a row off, on the tiles' edges. The grid is
            # where it was; what lies on it changed (simulated BITS 602: the
            # round's last two tiles were missed as a lost view). A search
            # that sees no grid at all may be looking at a hand resting
            # over it: that waits, as before.
            return self._moved_to(self.fit, image, t)
        if found is not None:
            return [], "lost"
        self._misses += 1
        # Once may be a hand lying still over the grid; twice in one still
        # spell, a second apart, and the view is lost.
        if self._misses >= 2 and not self.lost:
            self.lost = True
            return [{"type": "view_moved", "t": t, "board": self.board, "found": False}], "lost"
        return [], "lost"

    def _picture_moved(self, image: np.ndarray, t: float) -> bool:
        """Whether the whole picture moved since the reference was taken
        (:meth:`_followed`: a knock moves the table with the board, an arm
        over the board moves neither); asked at most once per recheck_s."""
        if self._shaken_at is not None and t - self._shaken_at < self.settings.recheck_s:
            return False
        self._shaken_at = t
        followed = self._followed(image)
        return followed is not None and self._shift_px(followed) >= self._here_px()

    def _shift_px(self, fit: GridFit) -> float:
        """How far ``fit``'s corners lie from the grid's, pixels (mean)."""
        assert self.fit is not None
        corners = orient_like(fit.corners, self.fit.corners)
        return float(np.linalg.norm(corners - self.fit.corners, axis=1).mean())

    def _here_px(self) -> float:
        """A grid found within this many pixels is where it was."""
        assert self.fit is not None
        return self.settings.shift * self.fit.side_px()

    def _moved_to(self, fit: GridFit, image: np.ndarray, t: float) -> tuple[list[Event], str]:
        """Whether the grid is at ``fit`` (see :meth:`_maybe_moved`)."""
        assert self.fit is not None and self._reference is not None
        s = self.settings
        self._misses = 0
        corners = orient_like(fit.corners, self.fit.corners)
        shift = self._shift_px(fit)
        if shift < self._here_px():
            if self.lost:
                self.lost = False
                return [{"type": "view_found", "t": t, "board": self.board}], "here"
            return [], "here"
        if fit.quality < min(MOVE_QUALITY, self.fit.quality - QUALITY_SLACK):
            return [], "lost"  # not convincing enough to move for: look again later
        moved = with_corners(fit, corners)
        there = board_patch(image, moved.homography, self.rows, self.cols, s.px, s.margin)
        cells = cell_looks(there, self.rows + 2 * s.margin, self.cols + 2 * s.margin)
        light = fit_light(self._reference.cells, cells, use=self._ring)
        ring = light.residual[self._ring] > max(s.change, s.change_sigmas * light.scale)
        # Seen from a new angle a few ring cells catch the light differently;
        # a wrong fit (say, fooled by a hand) matches hardly any. Unless the
        # grid we hold was itself a poor fit: then the better one wins.
        convincing = fit.quality >= MOVE_QUALITY
        doubtful = convincing and self.fit.quality < MOVE_QUALITY
        unlike = not doubtful and (light.scale > self._unclear() or ring.mean() > RING_OUTLIERS)
        if unlike and not (convincing and self._found_there_before(corners, t)):
            # Not the board we knew: wait for a clearer look. A grid the
            # locator is not convinced of must show the ring as it was: on
            # 1815 a wrong grid, 100 px off, was found at 0.72 again and
            # again in the same place.
            return [], "lost"
        self._elsewhere.clear()
        self.fit = moved
        self.gate.reset()
        self._reference = None
        self._readings.clear()
        self._reading = False
        self.lost = True
        event = {
            "type": "view_moved",
            "t": t,
            "board": self.board,
            "found": True,
            "shift_px": round(shift, 1),
        }
        return [event], "moved"

    def _followed(self, image: np.ndarray) -> GridFit | None:
        """Where the grid went by how the whole picture moved since the last
        still look (vision.follow), when the locator cannot see it (a nearly
        full ramp, few printed lines left: simulated BITS game 313, a knock
        late in a round, every tile after it missed). The ring check that
        follows decides whether to believe it."""
        assert self.fit is not None
        if self._view is None or self._view.shape != image.shape[:2]:
            return None
        shift = view_shift(self._view, image)
        if shift is None:
            return None
        corners = carried(self.fit.corners, shift)
        return GridFit.from_corners(corners, self.rows, self.cols, self.fit.quality, "tracked")

    def _keep_view(self, image: np.ndarray) -> None:
        """Remember the picture the reference was taken from (grey: enough
        to follow the view by, a third of the memory)."""
        self._view = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)

    def _found_there_before(self, corners: np.ndarray, t: float) -> bool:
        """Whether the grid was found at ``corners`` (within the shift that
        counts as "here") on an earlier look, at least SAME_PLACE_S ago;
        remembers this place otherwise."""
        assert self.fit is not None
        for before, since in self._elsewhere:
            gap = float(np.linalg.norm(corners - before, axis=1).mean())
            if gap < self.settings.shift * self.fit.side_px():
                return t - since >= SAME_PLACE_S
        self._elsewhere = [*self._elsewhere[1 - PLACES_KEPT :], (corners, t)]
        return False


def _codes(reading: Reading) -> np.ndarray:
    """A reading's best palette code per cell (even where unsure)."""
    codes: np.ndarray = np.array(reading.palette.codes)[reading.entry]
    return codes


def _learnt_profile(
    reading: Reading, accepted: list[str] | None, nominal: Palette, corners: np.ndarray
) -> Profile:
    """A profile from one reading of a board whose cells the game knows.

    Colours seen on the board are learnt from it; colours not on the board
    yet keep their nominal values, under the light the seen ones show (a
    palette fitted to an empty board bends the unseen colours towards what
    it sees, and would misread the first tile)."""
    known = (
        {}
        if accepted is None
        else {(r, c): code for r, row in enumerate(accepted) for c, code in enumerate(row)}
    )
    return build_profile(reading, known, corners=corners, nominal=nominal)


def _first_reading(
    image: np.ndarray, fit: GridFit, nominal: Palette, accepted: list[str] | None
) -> Reading:
    """The first look with no calibration: balanced on the board's neutral
    cells with the nominal colours, unless the cells the game knows fit
    those badly (a board printed darker than nominal): then the palette is
    fitted to the picture."""
    balanced = read_board(image, fit, nominal, look_for_highlight=True)
    if accepted is None:
        return balanced
    misfit = _known_misfit(balanced, accepted)
    if misfit is None or misfit <= nominal.thresholds.max_distance / 2:
        return balanced
    tried = [read_board(image, fit, nominal, fit_palette=True, highlight=balanced.highlight)]
    if balanced.highlight is not None:
        # What the balanced look took for a highlight may be none: a slope
        # fitted over the whole board to a lamp's spot and a warm cast, which
        # taken off leaves half an empty ramp reading as black tiles
        # (simulated BITS 1120). The fit without it is tried too, and the
        # reading that explains the cells the game knows best is kept.
        tried.append(read_board(image, fit, nominal, fit_palette=True))
    # (The same cells are known in every reading, so none scores None.)
    scored = [(misfit, balanced)] + [(_known_misfit(r, accepted) or 0.0, r) for r in tried]
    return min(scored, key=lambda pair: pair[0])[1]


def _known_misfit(reading: Reading, accepted: list[str]) -> float | None:
    """The median distance of the cells the game knows (``accepted``) to the
    colour it knows them as, in ``reading``; None when it knows none."""
    alphabet, distance = code_distances(reading)
    known = np.array(
        [[alphabet.index(c) if c in alphabet else -1 for c in row] for row in accepted]
    )
    ok = known >= 0
    if not ok.any():
        return None
    d = np.take_along_axis(distance, np.maximum(known, 0)[..., None], axis=-1)[..., 0]
    return float(np.median(d[ok]))


def _surer(again: Reading, reading: Reading, under: np.ndarray | None) -> bool:
    """Whether ``again`` (read with a highlight found afresh) is the better
    reading: fewer cells unsure, or with ``under`` (the changed cells under
    the old highlight's centre) a highlight found that leaves them nearer
    their colours."""
    if under is None:
        return len(again.unsure()) < len(reading.unsure())
    return again.highlight is not None and bool(
        again.distance[under].sum() < reading.distance[under].sum()
    )


def _mask(cells: frozenset[tuple[int, int]], rows: int, cols: int) -> np.ndarray:
    """(rows, cols) bool, True on ``cells``."""
    out = np.zeros((rows, cols), bool)
    for r, c in cells:
        out[r, c] = True
    return out


def _cells(mask: np.ndarray) -> frozenset[tuple[int, int]]:
    """The cells of a (rows, cols) bool mask."""
    return frozenset((int(r), int(c)) for r, c in np.argwhere(mask))


def _under_spot(highlight: Highlight, rows: int, cols: int) -> np.ndarray:
    """(rows, cols) bool: the cells under the lamp's core, those within
    :data:`UNDER_SPOT` cells of its centre or lit by its drawing to at
    least :data:`UNDER_SPOT_LIGHT` of its peak (a broad spot reaches
    further).

    >>> from vision.glare import Highlight
    >>> sharp = Highlight(x=3.5, y=2.75, sigmas=(0.5,), peaks=np.full((1, 3), 80.0), share=1.0)
    >>> np.argwhere(_under_spot(sharp, 6, 6)).tolist()  # within a cell
    [[2, 3], [3, 3]]
    >>> broad = Highlight(x=3.5, y=2.75, sigmas=(1.4,), peaks=np.full((1, 3), 80.0), share=1.0)
    >>> np.argwhere(_under_spot(broad, 6, 6)).tolist()  # within 1.18 sigma: half the peak
    [[1, 2], [1, 3], [1, 4], [2, 2], [2, 3], [2, 4], [3, 2], [3, 3], [3, 4]]
    """
    ys, xs = np.mgrid[0:rows, 0:cols] + 0.5
    lit = highlight.at(ys, xs).max(axis=-1)
    peak = float(highlight.at(np.array(highlight.y), np.array(highlight.x)).max())
    near = _near_spot(highlight, rows, cols, UNDER_SPOT)
    return np.asarray(near | (lit >= UNDER_SPOT_LIGHT * peak), bool)


def _near_spot(highlight: Highlight, rows: int, cols: int, reach: float) -> np.ndarray:
    """(rows, cols) bool: cells whose centre lies within ``reach`` cells of
    the highlight's centre.

    >>> from vision.glare import Highlight
    >>> h = Highlight(x=3.25, y=2.6, sigmas=(1.0,), peaks=np.zeros((1, 3)), share=1.0)
    >>> np.argwhere(_near_spot(h, 6, 6, 1.0)).tolist()
    [[2, 2], [2, 3], [3, 3]]
    """
    ys, xs = np.mgrid[0:rows, 0:cols] + 0.5
    return np.asarray(np.hypot(xs - highlight.x, ys - highlight.y) <= reach)
