"""One board's referee on the camera side: observation in, verdicts out.

A :class:`BoardTracker` keeps what it believes is physically on the board
(``seen``) next to what the game has accepted. Each still observation (voted
readings, and which cells changed in appearance since the last one) becomes a
new belief; the belief is then compared with the game's board:

- the same board (tiles of an old round still lying there count as the same):
  nothing happened, or the board was put right after an alert (alerts cleared);
- one placement the rules allow: recorded through ``table.apply``;
- two placements seen at once (a quick second tile or piece): split into
  pieces and tried in both orders; recorded one after the other when the
  rules allow an order;
- a placement the rules refuse: recorded as refused (the table raises the
  alert with the engine's reason and cells);
- cells the reader could not settle: every combination of their candidate
  codes is judged, and if exactly one is a legal placement, the game has
  settled the tie (the card's tile); otherwise the players are asked
  (``table.raise_unsure``) and the game waits for their answer.

The tracker never shouts "illegal" over a colour it is not sure of: a
refusal that hangs on a colour (wrong tile, not a tile, wrong colour) turns
into a question when another plausible reading of the new cells would be
legal. Corrections, undos and overrules from the phones re-base it
(:meth:`BoardTracker.sync`).
"""

from __future__ import annotations

import itertools
import logging
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import numpy as np

from device.track.rules import NotNow, Referee, Step, new_cells, with_cells
from device.track.vote import CANDIDATE_MARGINS, Observation
from engine.errors import ActionError
from engine.regions import regions
from engine.verdict import Verdict
from vision.classify import SENSOR_BLACK_L
from vision.motion import beside

log = logging.getLogger(__name__)

Cell = tuple[int, int]


def _beside(cell: Cell) -> tuple[Cell, ...]:
    """The four cells sharing a side with ``cell`` (some may be off the board)."""
    r, c = cell
    return ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))


Event = dict[str, Any]

# Without a sign of change (a first look, after the camera moved or the light
# changed), a cell keeps its code while the reading is this close to it (in
# the reader's ΔE units): a black tile on a black ramp reads either way.
KEEP_DISTANCE = 15.0
# Weighing hypotheses (ΔE summed over the cells a hypothesis changes): a tile
# where nothing changed in look costs UNCHANGED_COST per cell, a cell whose
# look changed left empty CHANGED_COST; a placement must
# beat "nothing" by PLACED_LEAD and the next legal one by TIE_LEAD; the
# free reading must beat the best legal placement by FREE_LEAD before it is
# judged instead (a misread cell costs about one palette margin, 5). Between
# ASK_LEAD and FREE_LEAD the players are asked: a cell read that clearly
# as another colour may be a wrong tile as well as a misread.
UNCHANGED_COST = 25.0
CHANGED_COST = 15.0
FAINT_COST = CHANGED_COST / 2
PLACED_LEAD = 5.0
TIE_LEAD = 10.0
FREE_LEAD = 25.0
ASK_LEAD = 15.0
# A colour refusal is doubted (a question, not a shout) when the card's code
# lies within this many palette margins of the code read (and fits at all),
# or when a new cell fits even its best code no nearer than this share of
# the palette's max_distance (a reflection, not a colour).
PLAUSIBLE_MARGINS = 4.0
POOR_FIT = 0.5
# A change covering more cells than two pieces is judged only once the
# same sight has lasted this long (seconds): a hand resting on the board
# lifts before then.
CROWD_S = 5.0
# Combinations of unsure cells judged at most (3 candidates on 4 cells).
MAX_COMBINATIONS = 81
# Refusals of one new cell: no tile covers one cell of the grid, so a
# neighbour read as the board may hold the other half (see _lone_half).
LONE_REASONS = frozenset({"not_a_tile", "outside_grid"})
# Refusals of too few cells for a piece: its rest may have read as the
# board (see _rest_unseen).
PART_REASONS = frozenset({"not_a_tetromino"})
# A refusal with one of these reasons depends on the colours read.
COLOUR_REASONS = frozenset(
    {"wrong_tile", "not_a_tile", "second_neutral", "colour_mismatch", "not_a_tetromino"}
)


class TableLike(Protocol):
    """What a tracker calls on :class:`device.table.Table`."""

    def apply(self, action: dict[str, Any], source: str = "camera") -> list[dict[str, Any]]: ...

    def raise_unsure(
        self, player: int, cells: list[Any], candidates: list[list[str]] | None = None
    ) -> int: ...

    def clear_alerts(self, player: int | None = None) -> None: ...

    def undo(self, source: str = "phone") -> list[dict[str, Any]]: ...


class Learner(Protocol):
    """What a tracker calls on :class:`calibration.profile.Profile`."""

    def learn_reading(
        self, lab: np.ndarray, known: dict[tuple[int, int], str], trusted: bool = False
    ) -> int: ...


@dataclass
class Outcome:
    """What one candidate board would mean for the game."""

    kind: str  # 'rest' | 'legal' | 'illegal'
    rows: tuple[str, ...]
    steps: list[Step] = field(default_factory=list)

    @property
    def verdict(self) -> Verdict | None:
        return self.steps[-1].verdict if self.steps else None

    def key(self) -> tuple[Any, ...]:
        return (self.kind, tuple(s.rows for s in self.steps))


@dataclass
class Pending:
    """An alert the tracker is waiting on, and the board it was about."""

    kind: str  # 'illegal' | 'unsure'
    rows: tuple[str, ...]
    cells: tuple[Cell, ...] = ()
    candidates: tuple[tuple[str, ...], ...] = ()
    alert: int | None = None
    obs: Observation | None = None  # what the question was about (unsure)
    # the board of the refusal a question replaced (unsure): its tile may
    # be the one being taken back
    refused: tuple[str, ...] | None = None
    # what the players already said about this look (unsure): a question
    # asked after an answer never asks about those cells again
    told: dict[Cell, str] = field(default_factory=dict)

    @property
    def lab(self) -> np.ndarray | None:
        """The cells' colours when the question was asked (what an answer teaches)."""
        return None if self.obs is None else self.obs.lab


class BoardTracker:
    """See the module docstring. ``board``: a name for events ("A", "ramp 2");
    ``referee``: the game as this board sees it; ``table``: where verdicts
    go; ``learner``: a calibration profile that learns confirmed colours."""

    def __init__(
        self,
        board: str,
        referee: Referee,
        table: TableLike,
        learner: Learner | None = None,
    ) -> None:
        self.board = board
        self.referee = referee
        self.table = table
        self.learner = learner
        self.seen: list[str] | None = None
        self.known: list[str] | None = None
        self.stale: set[Cell] = set()
        self.pending: Pending | None = None
        self.deferred = False  # the last observation waits for the game (NotNow)
        # hands' visits over the board since it last settled (observe)
        self._visits: int | None = 0
        self.doubt_colours_until = float("-inf")  # after a light change: ask, do not refuse
        # cells under the lamp's highlight (the watch says): ask, do not refuse
        self.shining: frozenset[Cell] = frozenset()
        self._unsure: dict[Cell, tuple[str, ...]] = {}
        self._crowd: tuple[tuple[str, ...], float] | None = None  # a big change, since when
        self._recheck: set[Cell] = set()  # refused cells to read afresh (a refusal dismissed)
        # Stale cells whose look changed in this observation but still read
        # their colour: an old tile under another light, or a tile put down
        # where the print was misread as that colour (see _with_set_aside).
        self._restless: set[Cell] = set()

    @property
    def unsure_cells(self) -> tuple[Cell, ...]:
        """The cells the tracker asked about and has no answer for yet."""
        return tuple(self._unsure)

    # --- the game changed from elsewhere -----------------------------------
    def sync(self, t: float = 0.0) -> list[Event]:
        """Re-base on the game's board when it changed without us (a new game
        or round, an undo, a correction, an overrule from a phone)."""
        accepted = self.referee.accepted()
        if accepted is None:
            self.known = None
            return []
        if self.known is None or self.seen is None:
            self.known = accepted
            if self.seen is None:
                self.seen = list(accepted)
            else:
                self._mark_stale(accepted)
            self.pending = None
            return []
        if accepted == self.known:
            return []
        empty = self.referee.empty
        grid = [list(row) for row in self.seen]
        for r, (old, new) in enumerate(zip(self.known, accepted, strict=True)):
            for c, (a, b) in enumerate(zip(old, new, strict=True)):
                if a == b:
                    continue
                if b != empty:
                    grid[r][c] = b  # a correction or an overrule: the game knows best
                    self.stale.discard((r, c))
                    self._unsure.pop((r, c), None)
                elif grid[r][c] != empty:
                    self.stale.add((r, c))  # taken back by the game, still lying there
        self.seen = ["".join(row) for row in grid]
        self.known = accepted
        self.pending = None
        return [{"type": "rebased", "t": t, "board": self.board}]

    def dismissed(self) -> None:
        """The players dismissed a refusal ("we'll fix it"). If the refused
        tile was never there (a shadow, a misread), nothing will change in
        look when they "fix" it, and a belief kept while the look is
        unchanged would carry it into the next placement. So every cell the
        tracker believes covered but the game does not hold is read afresh
        at the next observation: a tile still lying there is seen again, a
        phantom is gone."""
        if self.seen is None or self.known is None:
            return
        empty = self.referee.empty
        self._recheck = {
            (r, c)
            for r, (seen, known) in enumerate(zip(self.seen, self.known, strict=True))
            for c, (a, b) in enumerate(zip(seen, known, strict=True))
            if a != empty and b == empty and (r, c) not in self.stale
        }

    def _mark_stale(self, accepted: list[str]) -> None:
        assert self.seen is not None
        empty = self.referee.empty
        for r, (row, acc) in enumerate(zip(self.seen, accepted, strict=True)):
            for c, (a, b) in enumerate(zip(row, acc, strict=True)):
                if a != empty and b == empty:
                    self.stale.add((r, c))

    # --- a still observation ---------------------------------------------------
    def observe(
        self,
        obs: Observation,
        changed: np.ndarray | None = None,
        t: float | None = None,
        faint: np.ndarray | None = None,
        hint: np.ndarray | None = None,
        visits: int | None = None,
    ) -> list[Event]:
        """Take one observation. ``changed`` (rows, cols) bool: cells whose
        appearance changed since the last observation (None: no such
        evidence, e.g. the first look or after the camera moved: then only
        a sure reading may overrule the belief). ``faint`` (rows, cols)
        bool: cells beside a changed one that changed too little to count
        (vision.motion.faint_beside): a tile there is not held against the
        rules' hypotheses for an unchanged look. ``hint`` (rows, cols)
        bool, with ``changed`` None: cells that changed in look across a
        change of light, too unsure a sign to read them by, enough to say
        where the card's tile went when the careful read leaves several
        places open (:meth:`_open_drop`). ``visits``: how many spells of
        movement over the board came since the last observation (None: not
        counted); a drop the look missed needs one of its own
        (:meth:`_after_unseen_drop`)."""
        t = obs.t if t is None else t
        # Visits add up until the board settles (nothing deferred, asked or
        # refused and still lying there): a look that only asked, or a
        # refusal not yet taken back, leaves them.
        self._visits = None if visits is None or self._visits is None else self._visits + visits
        events = self._observe(obs, changed, t, faint, hint)
        if not self.deferred and self.pending is None and not self._unsure:
            self._visits = 0
        return events

    def _observe(
        self,
        obs: Observation,
        changed: np.ndarray | None,
        t: float,
        faint: np.ndarray | None,
        hint: np.ndarray | None,
    ) -> list[Event]:
        """:meth:`observe`, the visits counted."""
        events = self.sync(t)
        self.deferred = self.known is None or self.seen is None
        if self.deferred:
            return events
        board, unsure = self._belief(obs, changed)
        self._forget_gone(board, unsure)
        self._recheck.clear()
        if self._crowded(board, unsure, t):
            log.info("board %s: more covered than two pieces could: waiting", self.board)
            self.deferred = True
            return events
        try:
            by_rules = self._by_rules(obs, changed, faint)
            if isinstance(by_rules, dict):
                return events + self._ask(board, by_rules, [], obs, t)
            if by_rules is not None:
                return events + self._act(by_rules, obs.lab, t, settled=True)
            events += self._decide(
                board, unsure, obs, t, careful=changed is None, hint=hint, changed=changed
            )
        except NotNow as why:
            log.debug("board %s: not judged now (%s)", self.board, why)
            self.deferred = True
        return events

    def _crowded(self, board: list[str], unsure: dict[Cell, tuple[str, ...]], t: float) -> bool:
        """More new cells than two pieces cover, the game's tiles read
        gone counted in: a hand or an arm resting over the board, not a
        move. It is looked at again from the next
        still frames; only the same sight for :data:`CROWD_S` is judged (a
        heap of pieces dumped at once, which the rules then refuse)."""
        assert self.known is not None
        # A tile of an old round still believed there is not new: counted,
        # a round swept while the camera was knocked (every cell read afresh,
        # the print where black tiles lay taken for black) waits for ever.
        # A cell that may still be the board (an unsure print under a new
        # lamp, a tile's doubtful other half) is a question, not an arm.
        empty = self.referee.empty
        cells = new_cells(self.known, board, empty)
        n = len([c for c in cells if c not in self.stale and empty not in unsure.get(c, ())])
        # The game's tiles read surely gone count too: a hand resting still
        # over the ramp hides them as it covers the print (simulated BITS
        # 2416: 14 cells of tiles read as the print under a palm, refused
        # as "tiles moved"); a player takes back one tile, not three.
        n += len([c for c in new_cells(board, self.known, empty) if c not in unsure])
        if n <= 2 * self.referee.piece_cells:
            self._crowd = None
            return False
        key = tuple(board)
        if self._crowd is None or self._crowd[0] != key:
            self._crowd = (key, t)
        return t - self._crowd[1] < CROWD_S

    def _belief(
        self, obs: Observation, changed: np.ndarray | None
    ) -> tuple[list[str], dict[Cell, tuple[str, ...]]]:
        """The board as now believed, and the cells still open with their candidates."""
        assert self.seen is not None and self.known is not None
        empty = self.referee.empty
        # Where the game holds a tile, the game's colour is the belief to
        # start from; elsewhere what was last seen.
        grid = [
            [k if k != empty else s for s, k in zip(seen, known, strict=True)]
            for seen, known in zip(self.seen, self.known, strict=True)
        ]
        unsure: dict[Cell, tuple[str, ...]] = {}
        self._restless = set()
        rows, cols = obs.codes.shape
        beside_new = self._beside_sure_new(obs, grid) if changed is None else set()
        for r in range(rows):
            for c in range(cols):
                cell = (r, c)
                was = grid[r][c]
                moved = True if changed is None else bool(changed[r, c])
                moved = moved or cell in self._recheck
                if not moved:
                    if cell in self._unsure:
                        unsure[cell] = self._unsure[cell]
                    continue
                if changed is not None and cell in self.stale:
                    likeliest = str(obs.codes[r, c]) if obs.sure[r, c] else obs.candidates[r][c][0]
                    if likeliest == was:
                        # Still its colour, clearly or likeliest of a few:
                        # the old tile under another light (a lamp, a hand's
                        # shadow as the round is swept), or a tile put down
                        # where the print was misread as its colour (below).
                        # (Simulated BITS 953: an old black half, read black
                        # or the print, taken for gone; the card's black
                        # double was then "dropped" onto the old tile.)
                        self._restless.add(cell)
                    else:
                        self.stale.discard(cell)  # the old tile was moved or taken
                recorded = self.known[r][c] == was != empty
                if (
                    (changed is None or recorded)
                    and cell not in self._unsure
                    and cell not in beside_new
                    and (was in obs.candidates[r][c] or obs.distance_of(cell, was) <= KEEP_DISTANCE)
                ):
                    # No sign of change, or a tile the game holds there (tiles
                    # do not move in play): it stays while its colour still fits.
                    if (
                        was == empty
                        and obs.sure[r, c]
                        and str(obs.codes[r, c]) != empty
                        and any(n in beside_new for n in _beside(cell))
                    ):
                        # Read surely as a tile, near the print, beside cells
                        # that may hold one too: the half read clearly of a
                        # black tile on the dark print, a question as they are.
                        grid[r][c] = str(obs.codes[r, c])
                        unsure[cell] = (grid[r][c], empty)
                    continue
                if recorded and str(obs.codes[r, c]) != empty:
                    # A recorded tile does not turn into another colour where
                    # it lies: that is the light or the reader, not the game.
                    continue
                if obs.sure[r, c]:
                    grid[r][c] = str(obs.codes[r, c])
                else:
                    options = obs.candidates[r][c]
                    grid[r][c] = options[0]
                    unsure[cell] = options
        # Whole pieces of them changed in look together, alone or with cells
        # that may now hold a tile: something was put down there. Less than
        # a piece (one cell of an old tile in a shadow) stays old, unless it
        # completes a placement beside it (_with_set_aside).
        fresh = [
            (r, c)
            for r in range(rows)
            for c in range(cols)
            if changed is not None
            and changed[r, c]
            and (r, c) not in self.stale
            and any(o != empty for o in obs.candidates[r][c])
        ]
        whole = self._restless - self._partial(sorted({*self._restless, *fresh}))
        whole -= self._not_expected(whole, fresh, grid)
        if changed is not None and whole:
            around = {(r, c) for r, c in self.stale if changed[r, c]} - whole
            if len(around) > len(whole):
                # More old tiles changed in look elsewhere than in the pieces:
                # the view changed, not what lies there (simulated BITS 3669:
                # a round just over, not swept, the camera knocked; the raised
                # tiles' looks moved on ten cells, among them an old red
                # double just where the next card's red double could rest,
                # recorded as put down).
                whole = set()
        if self._visits == 0:
            # No hand came over the board since the last look: nothing was
            # put down on the old tiles, whatever their look did (simulated
            # BITS 2612: a round just over, not yet swept, an old yellow
            # double's look nudged over the limit by the picture's noise;
            # taken for a new tile on the empty ramp, it was "in mid-air").
            whole = set()
        self.stale -= whole
        self._restless -= whole
        self._refused_gone(grid, unsure, obs)
        return ["".join(row) for row in grid], unsure

    def _refused_gone(
        self, grid: list[list[str]], unsure: dict[Cell, tuple[str, ...]], obs: Observation
    ) -> None:
        """A refused tile is taken back whole: once one of its cells reads
        surely as the game's board there, the others kept only because
        their colour still fits (not read surely as the tile), or read as
        no colour at all, go back to the game's board too (``grid`` and
        ``unsure`` in place). Simulated BITS 1902: a tile refused, taken
        back as a lamp came on; its top half read the ramp, its black half
        read the print but kept, black within reach under the new light,
        and the next tile counted with it as two at once."""
        assert self.known is not None
        pending = self.pending
        if pending is None or pending.kind != "illegal":
            return
        empty = self.referee.empty
        cells = new_cells(self.known, list(pending.rows), empty)
        gone = [
            (r, c)
            for r, c in cells
            if obs.sure[r, c] and str(obs.codes[r, c]) == self.known[r][c] == grid[r][c]
        ]
        if gone:
            self._back_whole(grid, unsure, pending.rows, obs)

    def _back_whole(
        self,
        grid: list[list[str]],
        unsure: dict[Cell, tuple[str, ...]],
        refused: Sequence[str],
        obs: Observation,
        told: Iterable[Cell] = (),
    ) -> None:
        """The refused tile of ``refused`` (a board) is gone: each of its
        cells not read surely as the tile, nor ``told`` by the players,
        goes back to the game's board (``grid``, ``unsure`` and what was
        seen, in place)."""
        assert self.known is not None and self.seen is not None
        named = set(told)
        for r, c in new_cells(self.known, list(refused), self.referee.empty):
            if (r, c) in named:
                continue
            held = obs.sure[r, c] and str(obs.codes[r, c]) == refused[r][c]
            # A cell that fits no colour at all under a lamp's core says
            # nothing either way: taken for what the rest of the tile says
            # (simulated LITS 992: a refused L taken back under the glare,
            # one cell read as no code within reach, its nearest a T, and
            # refused as "not a tetromino").
            lost = _fits_nothing((r, c), obs)
            if (grid[r][c] == refused[r][c] or lost) and not held:
                grid[r][c] = self.known[r][c]
                unsure.pop((r, c), None)
                # and so it was last seen: a look that judges nothing (an
                # unclear one, under the new light) must not keep it
                row = self.seen[r]
                self.seen[r] = row[:c] + self.known[r][c] + row[c + 1 :]

    def _beside_sure_new(self, obs: Observation, grid: list[list[str]]) -> set[Cell]:
        """On a look with no "what changed" hint (after a knock): the cells
        next to a cell clearly read as a tile where none was believed, that
        may hold a tile too. A tile put down just before the camera was
        knocked shows one half clearly and the other (a black tile on the
        dark print) maybe: that other half is a question, not the board."""
        empty = self.referee.empty
        rows, cols = obs.codes.shape
        out: set[Cell] = set()
        for r in range(rows):
            for c in range(cols):
                if not obs.sure[r, c] or grid[r][c] != empty or str(obs.codes[r, c]) == empty:
                    continue
                for rr, cc in _beside((r, c)):
                    if (
                        0 <= rr < rows
                        and 0 <= cc < cols
                        and grid[rr][cc] == empty
                        and any(o != empty for o in obs.candidates[rr][cc])
                    ):
                        out.add((rr, cc))
        return out

    def _by_rules(
        self, obs: Observation, changed: np.ndarray | None, faint: np.ndarray | None = None
    ) -> Outcome | dict[Cell, tuple[str, ...]] | None:
        """Weigh what the game expects against what the reader sees.

        The hypotheses: nothing was placed, each legal placement the game
        allows now (BITS: every drop of the card's tile), and "something
        else" (the reader's best code on every cell that changed). Each
        costs the reader's distances over the cells it changes, relative to
        "nothing" (a tile on a cell whose look did not change costs
        :data:`UNCHANGED_COST` more). A legal placement is taken when it is
        clearly better than nothing, clearly better than any other legal
        one, and the free reading does not beat it by :data:`FREE_LEAD`:
        one misread cell does not make a refusal; when it beats it by
        :data:`ASK_LEAD`, though, the cells where they differ are returned
        with both codes (a question for the players). Otherwise None: the
        reading is judged as it is (nothing new, a refusal, two tiles, a
        question)."""
        if changed is None or self.pending is not None or self._unsure:
            return None
        assert self.known is not None
        empty = self.referee.empty
        if empty not in obs.alphabet:
            return None
        # Cells set aside (an old round's tiles, the print once misread as
        # black under a lamp) are not weighed here: a drop onto them is left
        # to the reading (a tile there changes their look little).
        boards = [
            (rows, odds)
            for rows, odds in self.referee.legal_boards(self.known)
            if not self.stale & set(new_cells(self.known, rows, empty))
        ]
        if not boards:
            return None
        e = obs.alphabet.index(empty)
        gain = obs.distance - obs.distance[..., e : e + 1]  # each code against "empty"
        free = np.array([[ch == empty for ch in row] for row in self.known], bool)
        # A cell believed covered by a tile the game does not hold (an old
        # round's, a refused one) changes in look when that tile is taken
        # away: leaving it empty costs nothing.
        held = np.array([[ch != empty for ch in row] for row in self.seen or self.known], bool)
        looked = np.asarray(changed, bool) & free & ~held
        # a cell whose look changed costs CHANGED_COST where a hypothesis
        # leaves it empty; a tile where the look did not change, UNCHANGED_COST
        # (nothing where it changed faintly beside a change: the other half
        # of a tile under the lamp's glare)
        unchanged = UNCHANGED_COST if faint is None else np.where(faint, 0.0, UNCHANGED_COST)
        # ... nor beside a change under the lamp's core, where a glossy tile
        # shines as the print did (simulated BITS 3331: the first tile, a
        # black double, one half put down in the spot; only the other
        # half's look changed, and the card's drop lost to "nothing").
        core = np.zeros_like(looked)
        for r, c in self.shining:
            core[r, c] = True
        unchanged = np.where(core & beside(looked) & free, 0.0, unchanged)
        # ... and a faint change is half a change: "nothing" leaves it
        # unexplained (simulated BITS 2046, lamp: a black double on the dark
        # print, one half changed clearly, the other's symbol doubled its
        # texture; both read nearer the print, and the card's tile at that
        # very place lost to "nothing", the drop missed).
        weak = np.zeros_like(looked)
        if faint is not None:
            weak = np.asarray(faint, bool) & free & ~held & ~looked
        unchanged = np.where(weak, -FAINT_COST, unchanged)
        # A cell believed covered whose look changed costs a tile there
        # nothing either way: the old tile taken off and a new one put down
        # both change it (simulated BITS 226: a black double dropped onto a
        # cell of the dark print once misread as black, charged as unchanged,
        # and "the set-aside tile was taken away" won; the drop was missed).
        moved = np.asarray(changed, bool) & free & held
        gain = gain + np.where(looked, -CHANGED_COST, np.where(moved, 0.0, unchanged))[..., None]
        gain[..., e] = 0.0
        nothing = CHANGED_COST * float(np.count_nonzero(looked)) + FAINT_COST * float(
            np.count_nonzero(weak)
        )
        index = {code: k for k, code in enumerate(obs.alphabet)}

        def cost(rows: list[str]) -> float:
            cells = new_cells(self.known or [], rows, empty)
            return nothing + sum(float(gain[r, c, index[rows[r][c]]]) for r, c in cells)

        ranked = sorted(
            ((cost(rows) + odds, odds, rows) for rows, odds in boards), key=lambda x: x[0]
        )
        lead, unexpected, rows = ranked[0]
        runner = ranked[1][0] if len(ranked) > 1 else float("inf")
        reading = nothing + self._free_reading(gain, looked, obs.alphabet)
        log.debug(
            "board %s: rules: nothing %.1f lead %.1f runner %.1f reading %.1f",
            self.board,
            nothing,
            lead,
            runner,
            reading,
        )
        if reading < min(lead, nothing) - FREE_LEAD:
            return None  # something the game did not expect: judge the reading
        if lead < nothing - PLACED_LEAD and runner - lead >= TIE_LEAD:
            hollow = self._only_where_taken(rows, obs, moved)
            if hollow:
                return hollow
            blind = self._decided_in_the_dark(ranked[:2], gain, obs) if ranked[1:] else {}
            if blind:
                return blind  # which way round, or where: the players say
            prior = self._decided_by_odds(ranked)
            if prior:
                return prior  # the card's tile or the neutral one: the players say
            if reading < lead - ASK_LEAD:
                differ = self._differ(rows, obs) or self._misplaced(rows, obs, looked)
                if differ:
                    return differ
            elif reading < lead and self._poorly_read(rows, obs):
                # Nearer, on a tile whose colours fit poorly (a look the light
                # or the exposure has just moved): a cell read surely as
                # another tile's colour is still a question, not the card's
                # (simulated BITS 3376: a blue and purple wrong tile as the
                # exposure was corrected, 20 and 15 ΔE off its colours, the
                # purple half read sure, the reading 12 ahead of the card's
                # blue double; recorded as it).
                surely = {
                    cell: codes for cell, codes in self._differ(rows, obs).items() if obs.sure[cell]
                }
                if surely:
                    return surely
                # Clearly nearer, every colour read poorly: the card's tile
                # is not to be taken over it unasked (simulated BITS 3705: a
                # dark exposure on the slate print, a yellow and blue wrong
                # tile read unsure yellow and black, 14 ahead of the card's
                # red and black double put there; recorded as it).
                other: dict[Cell, tuple[str, ...]] = {
                    cell: (read, rows[cell[0]][cell[1]])
                    for cell, read in self._read_as_another(rows, obs)
                }
                if other and reading < lead - TIE_LEAD:
                    return other
            beyond = self._beyond_reach(rows, obs)
            if beyond:
                return beyond
            if unexpected > 0:
                doubt = self._doubted_unexpected(rows, obs)
                if doubt:
                    return doubt
            return self._outcome(rows)
        even = self._even_with_nothing(rows, lead, runner, nothing, looked)
        if even:
            return even  # a tile or nothing, read alike where the look changed: the players say
        if (
            nothing < lead - PLACED_LEAD
            and reading > nothing - ASK_LEAD
            and (np.asarray(changed, bool) & free & held).any()
        ):
            # Tiles the game does not hold were taken away, and nothing
            # placed explains the look best (an old round swept off a ramp
            # whose print a black tile resembles): the board is as the
            # game has it, not a question about every cell that cannot
            # tell black from the print. Unless the look reads clearly as
            # something put down where nothing lay (simulated BITS 3655, a
            # lamp on: a refused neutral tile taken off the top corner and a
            # yellow and black tile let go there, stopped mid-air, its black
            # half on a cell believed empty read 20 ΔE nearer black than
            # the print: taken for the board as it was, and missed).
            return Outcome("rest", tuple(self.known))
        return None

    def _after_unseen_drop(
        self, board: list[str], outcome: Outcome, obs: Observation, told: Iterable[Cell] = ()
    ) -> Outcome | None:
        """Two legal placements instead of ``outcome``'s refusal: the card's
        tile dropped where its look hardly changed (a black double on the
        dark print, simulated BITS 227: the cells' colour moved under the
        change limit, so the drop was never judged), then the tile just
        seen. Only when exactly one legal drop of the tile the game waits
        for is read there (:meth:`_read_there`) and leaves the tile seen
        legal after it (simulated BITS 957: a tile seen on the top row
        rests on the drop missed below it, which the rules allow nowhere
        else); else None (the refusal stands). ``told``: cells the players
        named (no drop lies there but what they said)."""
        assert self.known is not None
        if outcome.kind != "illegal" or len(outcome.steps) != 1:
            return None
        if self._visits is not None and self._visits < 2:
            # One hand's visit since the last look: a drop missed in it
            # would be a second tile at once, never two legal ones
            # (simulated BITS 1893: the card's black double "missed" on the
            # print under a new lamp, black and the print within 2.5 ΔE, and
            # the wrong tile just put down passed as the next card's).
            return None
        empty = self.referee.empty
        fresh = set(new_cells(self.known, list(outcome.rows), empty))  # old rounds' tiles aside
        fresh |= set(told)
        aside = self.stale
        found: list[tuple[set[Cell], Outcome]] = []
        for rows, _ in self.referee.legal_boards(self.known):
            cells = new_cells(self.known, rows, empty)
            if not cells or fresh & set(cells):
                continue
            drop = {(r, c): rows[r][c] for r, c in cells}
            if not self._read_there(drop, obs):
                continue
            # A cell set aside (the print once misread as black) under the
            # drop was the tile's all along, if the two steps are legal.
            self.stale = aside - set(drop)
            try:
                both = self._outcome(with_cells(board, drop))
            finally:
                self.stale = aside
            if both.kind == "legal" and len(both.steps) == 2:
                found.append((set(drop), both))
        if len(found) != 1:
            return None
        under, both = found[0]
        self.stale = aside - under
        log.info("board %s: a drop the look missed, then the tile seen", self.board)
        return both

    def _decided_in_the_dark(
        self, two: Sequence[tuple[float, float, list[str]]], gain: np.ndarray, obs: Observation
    ) -> dict[Cell, tuple[str, ...]]:
        """The cells where the best legal drop and the runner-up (``two``,
        as ranked: cost, odds, rows) differ, each with both codes, when
        only cells at the sensor's black put the best :data:`TIE_LEAD`
        ahead: there every dark tile reads the same, so what the reader
        measured says "a tile", not which (simulated BITS 1403: the card's
        blue and purple tile, its purple half on black, recorded turned
        round). ``gain``: the weighing's costs (rows, cols, codes) against
        "empty". Empty otherwise (the lead stands)."""
        assert self.known is not None
        empty = self.referee.empty
        dark = obs.lab[..., 0] < SENSOR_BLACK_L
        if not dark.any():
            return {}
        tiles = [k for k, code in enumerate(obs.alphabet) if code != empty]
        flat = gain.copy()
        flat[..., tiles] = np.where(
            dark[..., None], gain[..., tiles].min(axis=-1, keepdims=True), gain[..., tiles]
        )
        index = {code: k for k, code in enumerate(obs.alphabet)}

        def cost(odds: float, board: list[str]) -> float:
            cells = new_cells(self.known or [], board, empty)
            return odds + sum(float(flat[r, c, index[board[r][c]]]) for r, c in cells)

        (_, lead_odds, rows), (_, runner_odds, runner) = two
        if cost(runner_odds, runner) - cost(lead_odds, rows) >= TIE_LEAD:
            return {}
        cells = set(new_cells(self.known, rows, empty)) | set(new_cells(self.known, runner, empty))
        return {(r, c): tuple(dict.fromkeys((rows[r][c], runner[r][c]))) for r, c in sorted(cells)}

    def _even_with_nothing(
        self, rows: list[str], lead: float, runner: float, nothing: float, looked: np.ndarray
    ) -> dict[Cell, tuple[str, ...]]:
        """The cells of the rules' best placement ``rows`` with its codes,
        the game's and empty, when it lies exactly on the cells whose look
        changed, no other placement comes near it (:data:`TIE_LEAD`), and
        the colours do not put it clearly ahead of "nothing"
        (:data:`PLACED_LEAD`): a whole footprint that changed in look is a
        sign of a tile the colours fail to confirm, not of nothing. Under a
        glint a tile reads as the bright print (simulated BITS 1775: the
        card's black double, one half read surely as the print, 4.7 ΔE,
        the other torn between grey and the print; later the neutral tile
        read 3.6 ΔE from the ivory print and 31 from grey). Taken for
        nothing, a tile is missed and the verdicts after it go wrong. The
        game's codes are offered: the best placement may be the neutral
        tile where the card's lies. Empty otherwise.
        """
        assert self.known is not None
        if lead < nothing - PLACED_LEAD or runner - lead < TIE_LEAD:
            return {}
        empty = self.referee.empty
        cells = new_cells(self.known, rows, empty)
        if len(cells) < 2 or set(cells) != set(zip(*np.nonzero(looked), strict=True)):
            return {}
        likely = self.referee.likely_codes(cells)
        return {
            (r, c): tuple(dict.fromkeys((rows[r][c], *likely, empty))) for r, c in sorted(cells)
        }

    def _decided_by_odds(
        self, ranked: list[tuple[float, float, list[str]]]
    ) -> dict[Cell, tuple[str, ...]]:
        """The cells of the lead of ``ranked`` (the rules' weighing: cost,
        odds, rows) with its codes and those of the best other placement on
        the same cells, when only the odds (how unexpected each is) put the
        lead :data:`TIE_LEAD` ahead of it: the colours read say nothing of
        which tile it is, and a guess from the odds is a false verdict
        whenever a player laid the unexpected one (simulated BITS 1671: the
        neutral tile under a lamp's core, every colour 13 to 17 ΔE off,
        recorded as the card's red double). Empty otherwise."""
        assert self.known is not None
        empty = self.referee.empty
        lead, lead_odds, rows = ranked[0]
        cells = set(new_cells(self.known, rows, empty))
        for cost, odds, other in ranked[1:]:
            if set(new_cells(self.known, other, empty)) != cells:
                continue
            if odds <= lead_odds or (cost - odds) - (lead - lead_odds) >= TIE_LEAD:
                return {}
            return {(r, c): (rows[r][c], other[r][c]) for r, c in sorted(cells)}
        return {}

    @staticmethod
    def _read_there(drop: dict[Cell, str], obs: Observation) -> bool:
        """Whether the reader shows the tile ``drop`` lays: on every cell it
        offers the drop's code, and it is sure of it on one or reads it first
        on all (simulated BITS 659). A cell that fits no colour within the
        palette's ``max_distance`` (a glint on a black tile) says nothing
        either way; one cell at least must fit."""
        fitting = {cell: code for cell, code in drop.items() if not _fits_nothing(cell, obs)}
        offered = all(code in obs.candidates[r][c] for (r, c), code in fitting.items())
        first = {cell: str(obs.codes[cell]) == code for cell, code in fitting.items()}
        sure = any(obs.sure[cell] and f for cell, f in first.items())
        return bool(fitting) and offered and (sure or all(first.values()))

    def _only_hinted_far(self, outcome: Outcome, obs: Observation) -> bool:
        """Whether ``outcome`` gives a new cell a code the reader did not
        offer there (only the game's hint did) and that lies beyond the
        palette's ``max_distance`` of it: the only legal reading is then a
        guess, not a settled tie (simulated BITS 210: a yellow tile read
        41 ΔE from yellow, 56 from grey, settled as the neutral tile; it was
        the wrong tile). Asked instead. So is a hinted code that fits worse
        than the empty board where the reader offered that: the hint may lift
        a colour the reader ranked too low, not above "nothing here" (simulated
        BITS 1615: a lamp's spot on the print, just swept, read grey; the
        card's red double was settled on it, one half 27 ΔE from red and 22
        from the print)."""
        assert self.known is not None
        rows = list(outcome.rows)
        empty = self.referee.empty
        for r, c in new_cells(self.known, rows, empty):
            code = rows[r][c]
            if code in obs.candidates[r][c]:
                continue
            fit = obs.distance_of((r, c), code)
            if fit > obs.max_distance:
                return True
            if empty in obs.candidates[r][c] and obs.distance_of((r, c), empty) < fit:
                return True
        return False

    def _read_as_another(self, rows: Sequence[str], obs: Observation) -> Iterator[tuple[Cell, str]]:
        """The new cells of ``rows`` that the reader reads as a tile other
        than the one ``rows`` puts there (not empty, not unsure), each with
        the code read."""
        assert self.known is not None
        empty = self.referee.empty
        for r, c in new_cells(self.known, list(rows), empty):
            read = str(obs.codes[r, c])
            if read not in (empty, "?", rows[r][c]):
                yield (r, c), read

    def _beyond_reach(self, rows: list[str], obs: Observation) -> dict[Cell, tuple[str, ...]]:
        """The new cells of ``rows`` read as another tile's colour that fits
        (within the palette's ``max_distance``), where the code ``rows``
        gives them does not fit at all: each with the code read, then the
        game's. The reader would never call such a cell the card's colour;
        the rules alone would, and a wrong tile passes (simulated BITS 1636
        and 1643: a blue and purple tile for the card's purple double, the
        blue half 17 and 13 ΔE from blue, 32 and 33 from purple). The
        players say which it is. Not where the cells as read make no real
        piece (half grey, half colour): that is a misread, and the card's
        tile the likeliest piece there. A cell read unsure counts by its
        candidates, the first that fits and makes a real piece with the
        other cells (simulated BITS 2268 under a lamp: the card's purple
        double wanted, a purple and black tile put down, its black half
        read unsure grey or black, 22.6 and 25.2 ΔE, purple 45.5: recorded
        as the card's tile)."""
        assert self.known is not None
        empty = self.referee.empty
        fresh = new_cells(self.known, rows, empty)
        read = {cell: str(obs.codes[cell]) for cell in fresh}
        out: dict[Cell, tuple[str, ...]] = {}
        for (r, c), want in ((cell, rows[cell[0]][cell[1]]) for cell in fresh):
            if obs.distance_of((r, c), want) <= obs.max_distance:
                continue
            options = (read[(r, c)],) if obs.sure[r, c] else obs.candidates[r][c]
            for code in options:
                if code in (empty, "?", want):
                    continue
                if obs.distance_of((r, c), code) > obs.max_distance:
                    continue
                if self.referee.is_piece("".join((read | {(r, c): code}).values())):
                    out[(r, c)] = (code, want)
                    break
        return out

    def _differ(self, rows: list[str], obs: Observation) -> dict[Cell, tuple[str, ...]]:
        """The new cells of ``rows`` that the reader reads as another tile,
        closely (within a palette margin: simulated BITS 616, a blue half
        read 0.7 ΔE from blue and 25 from the card's purple was the wrong
        tile) or surely (simulated BITS 1663: a purple half read sure, 7.3
        ΔE from purple and 22.7 from the card's blue, passed as blue), each
        with the code read, then the code ``rows`` gives it. Called only
        when the reading beats the game's by :data:`ASK_LEAD`. An unsure
        cell that fits its own code loosely too is a slip of the light, not
        a question; so is one that fits neither (both beyond the palette's
        ``max_distance``: simulated BITS 205, a second grey tile read 43 ΔE
        from grey and 55 from the card's purple, taken for the card's)."""
        out: dict[Cell, tuple[str, ...]] = {}
        for (r, c), read in self._read_as_another(rows, obs):
            fit = obs.distance[r, c, obs.alphabet.index(read)]
            lost = min(fit, obs.distance_of((r, c), rows[r][c])) > obs.max_distance
            if obs.sure[r, c] or fit <= obs.min_margin or lost:
                out[(r, c)] = (read, rows[r][c])
        return out

    def _only_where_taken(
        self, rows: list[str], obs: Observation, moved: np.ndarray
    ) -> dict[Cell, tuple[str, ...]]:
        """The question whether the tile of ``rows`` lies there, when its
        only sign is on cells whose old tile was just taken off (``moved``:
        believed covered, changed in look; a tile there costs nothing) and
        its other cells read nearer empty than its codes. Taking a round's
        tiles off changes their cells' look whatever is put down; a print
        that reads as a tile's colour there makes the drop (simulated BITS
        3717, a lamp on: the round swept off the ramp, the dark print under
        an old blue half read black, surely; the cell beside it read nearer
        empty, and the next card's black double was recorded there)."""
        empty = self.referee.empty
        cells = new_cells(self.known or [], rows, empty)
        taken = [(r, c) for r, c in cells if moved[r, c]]
        others = [(r, c) for r, c in cells if not moved[r, c]]
        if not taken or not others:
            return {}
        if any(
            obs.distance_of(cell, rows[cell[0]][cell[1]]) < obs.distance_of(cell, empty)
            for cell in others
        ):
            return {}
        return self._code_or_empty(rows, cells)

    def _misplaced(
        self, rows: list[str], obs: Observation, looked: np.ndarray
    ) -> dict[Cell, tuple[str, ...]]:
        """Where the reading that beats ``rows`` by :data:`ASK_LEAD` puts
        the tile elsewhere: cells whose look changed, read as one of the
        tile's colours, that ``rows`` leaves empty, while ``rows`` covers
        cells whose look did not change, read as empty. Each with the code
        read, then the code ``rows`` gives it; ``{}`` unless both are
        found. The card's drop one cell below where a black double stopped
        mid-air (simulated BITS 3643, a lamp on: the two cells that changed
        read black, unsurely; the drop resting one lower, on a cell read
        empty whose look had not changed, was recorded, 0.8 short of the
        lead that judges the reading)."""
        empty = self.referee.empty
        cells = new_cells(self.known or [], rows, empty)
        codes = {rows[r][c] for r, c in cells}
        left = [
            (int(r), int(c))
            for r, c in np.argwhere(looked)
            if rows[r][c] == empty and str(obs.codes[r, c]) in codes
        ]
        covered = [(r, c) for r, c in cells if not looked[r, c] and str(obs.codes[r, c]) == empty]
        if not left or not covered:
            return {}
        out = {(r, c): (str(obs.codes[r, c]), empty) for r, c in left}
        out.update({(r, c): (empty, rows[r][c]) for r, c in covered})
        return dict(sorted(out.items()))

    def _doubted_placement(
        self, rows: list[str] | None, obs: Observation
    ) -> dict[Cell, tuple[str, ...]]:
        """:meth:`_doubted_unexpected` for a placement read with no sign of
        where the look changed (a careful look), ``{}`` for the card's tile
        or none (``rows`` None)."""
        if rows is None or not self._unexpected(self._outcome(rows)):
            return {}
        return self._doubted_unexpected(rows, obs)

    def _doubted_unexpected(self, rows: list[str], obs: Observation) -> dict[Cell, tuple[str, ...]]:
        """For a placement the game expects less than the card's tile (BITS:
        the neutral tile) that the rules lead with, the question to ask
        instead when the reader does not tell it from the card's tile: a new
        cell read first as another tile's colour, or as near (within a
        palette margin) one of the card's colours as the code ``rows`` gives
        it, or read unsure (simulated BITS 1671: a black double under a
        lamp's glare, one half torn between grey and the print, the other
        between the print and grey, settled as the neutral tile), or that
        fits even its best code poorly (:meth:`_poorly_read`; simulated BITS
        1701: the card's red double under a lamp, 22 and 28 ΔE from grey,
        every other colour 38 or more: a colour washed out). Each new
        cell is asked about, with that code, the card's and the code read;
        ``{}`` when the reading is clear. The game's expectation
        settles ties for the card's tile, never for the tile a player lays
        by choice (simulated BITS 1418: a black double under the lamp's
        highlight, its upper half read grey, the lower one as near black as
        grey, recorded as the neutral tile; 1433: a blue and red tile under
        the lamp's core, both halves read purple first, recorded as the
        neutral tile)."""
        assert self.known is not None
        empty = self.referee.empty
        cells = new_cells(self.known, rows, empty)
        codes = {rows[r][c] for r, c in cells}
        card = [code for code in self.referee.likely_codes(cells) if code not in codes]
        doubt = any(
            str(obs.codes[cell]) not in (empty, rows[cell[0]][cell[1]])
            or not obs.sure[cell]
            or any(
                obs.distance_of(cell, code) - obs.distance_of(cell, rows[cell[0]][cell[1]])
                <= obs.min_margin
                for code in card
            )
            for cell in cells
        )
        doubt = doubt or self._poorly_read(rows, obs)
        # Under the lamp's core the print itself, the spot taken off, may
        # read as a sure grey (simulated BITS 3368: the neutral tile
        # "placed" twice on the print under a lamp's spot): nothing there is
        # offered too.
        lamp = [empty] if self._under_lamp(rows) else []
        if not (doubt or lamp) or not card:
            return {}
        return {
            (r, c): tuple(dict.fromkeys([rows[r][c], *card, str(obs.codes[r, c]), *lamp]))
            for r, c in cells
        }

    def _sure_of_another(self, rows: Sequence[str], obs: Observation) -> bool:
        """Whether a new cell of ``rows`` is read surely as another tile,
        the code ``rows`` gives it more than :data:`CANDIDATE_MARGINS`
        palette margins behind: further than the reader would ever offer
        it. The game's rules settle a near tie, not that (simulated BITS
        1811: a second neutral tile read surely grey, 9.7 ΔE, the card's
        yellow 29 ΔE behind, was recorded as the card's yellow double, and
        the real one after it as a tile too many)."""
        reach = CANDIDATE_MARGINS * obs.min_margin
        for (r, c), read in self._read_as_another(rows, obs):
            if not obs.sure[r, c]:
                continue
            if obs.distance_of((r, c), rows[r][c]) - obs.distance_of((r, c), read) > reach:
                return True
        return False

    def _under_lamp(self, rows: Sequence[str]) -> bool:
        """Whether a new cell of ``rows`` lies under the lamp's highlight
        (:attr:`shining`): what glare does to a colour is a guess there (a
        black tile's half read grey, simulated BITS 2782)."""
        assert self.known is not None
        return any(cell in self.shining for cell in new_cells(self.known, rows, self.referee.empty))

    def _poorly_read(self, rows: Sequence[str], obs: Observation) -> bool:
        """Whether a new cell of ``rows`` lies farther than
        :data:`POOR_FIT` of the palette's ``max_distance`` from even its
        best code, or reads at the sensor's black: however near a code it
        lies, every dark tile reads so there (simulated BITS 1403: a red
        double in the ramp's dark corner read surely purple and refused)."""
        assert self.known is not None
        fresh = new_cells(self.known, rows, self.referee.empty)
        return any(self._read_poorly(cell, obs) for cell in fresh)

    @staticmethod
    def _read_poorly(cell: Cell, obs: Observation) -> bool:
        """Whether ``cell`` lies farther than :data:`POOR_FIT` of the
        palette's ``max_distance`` from even its best code, or reads at the
        sensor's black (see :meth:`_poorly_read`)."""
        return (
            float(obs.distance[cell].min()) > POOR_FIT * obs.max_distance
            or float(obs.lab[cell][0]) < SENSOR_BLACK_L
        )

    def _ask_lone_half(
        self,
        board: list[str],
        outcome: Outcome,
        obs: Observation,
        t: float,
        changed: np.ndarray | None = None,
    ) -> list[Event] | None:
        """The question :meth:`_lone_half` asks instead of ``outcome``'s
        refusal; None when the refusal stands."""
        lone = self._lone_half(outcome, obs, changed)
        if not lone:
            return None
        combos = [(c, self._outcome(b)) for c, b in self._combinations(board, lone)]
        return self._ask(board, lone, combos, obs, t)

    def _lone_half(
        self, outcome: Outcome, obs: Observation, changed: np.ndarray | None = None
    ) -> dict[Cell, tuple[str, ...]]:
        """For a refusal of one new cell inside the grid (no tile covers one
        cell: a half was misread, either this one or its other half read as
        the board), the question to ask instead: that cell, with the codes
        read, the game's and empty, and each neighbour believed empty that
        the reader says may hold a tile (or whose look ``changed``), with
        empty and the game's codes (simulated BITS 308: a black double read
        as one grey cell, the other half doubting between the print and
        black). A neighbour set
        aside (believed covered by a tile the game does not hold) is asked
        about too, its old code offered besides: a cell whose look a tile
        hardly changes (under a lamp's core every surface reads grey) keeps
        what it was set aside as, though the new tile's other half now lies
        there (simulated BITS 1433: a red half of an old round's tile was
        never seen swept; the card's blue half put down on it, the purple
        half beside it alone was refused as "not a tile"). One new cell
        on the grid's edge is refused as sticking out, but it is a lone
        half all the same when a neighbour inside the grid may hold its
        other half (simulated BITS 957: a yellow double's lower half under
        a glint, brighter than white, doubting between grey, yellow and
        the print, the upper half refused as "outside the grid"); a tile
        really sticking out has no such neighbour (the cells below a tile
        standing on a full column are covered). ``{}`` otherwise."""
        verdict = outcome.verdict
        if outcome.kind != "illegal" or verdict is None:
            return {}
        if verdict.reason in PART_REASONS:
            return self._rest_unseen(outcome)
        if verdict.reason not in LONE_REASONS:
            return {}
        assert self.known is not None
        empty = self.referee.empty
        fresh = new_cells(self.known, list(outcome.rows), empty)
        if len(fresh) != 1:
            return {}
        (r, c) = fresh[0]
        rows, cols = obs.codes.shape
        near = [
            (r + dr, c + dc)
            for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1))
            if 0 <= r + dr < rows and 0 <= c + dc < cols
        ]
        # A neighbour whose look changed may hold the other half though it
        # reads as the print (simulated BITS 2428: a grey double standing
        # in the top corner of a light print, its lower half read as the
        # board, the upper one refused as sticking out of the grid).
        halves = [
            cell
            for cell in near
            if (self._believed_empty(cell) or cell in self.stale)
            and (
                any(code != empty for code in obs.candidates[cell[0]][cell[1]])
                or (changed is not None and bool(changed[cell]))
            )
        ]
        if not halves and verdict.reason != "not_a_tile":
            return {}  # sticking out: no neighbour inside may hold the other half
        likely = self.referee.likely_codes([fresh[0], *halves[:1]])
        options = {(r, c): tuple(dict.fromkeys([outcome.rows[r][c], *likely, empty]))}
        seen = self.seen or []
        for cell in halves:
            held = [seen[cell[0]][cell[1]]] if cell in self.stale and seen else []
            options[cell] = tuple(dict.fromkeys([empty, *likely, *held]))
        return options

    def _rest_unseen(self, outcome: Outcome) -> dict[Cell, tuple[str, ...]]:
        """For a refusal of fewer new cells than a piece covers (no piece
        is smaller than its four cells: the rest of it was read as the
        board), the question to ask instead: the new cells
        and every cell believed empty that would complete them into a piece
        the rules allow, each with empty and the letters of those pieces
        (simulated LITS 913: an L's fourth cell read as the board, the
        other three refused as "not a tetromino"). ``{}`` when no such piece
        exists: the refusal stands.

        Every joined set of cells that grows the new ones to a piece's size
        over believed-empty cells is tried: at most the 76 placements of a
        tetromino over one cell (19 fixed shapes, 4 cells each), and only
        for a refusal."""
        assert self.known is not None
        empty = self.referee.empty
        rows = list(outcome.rows)
        fresh = frozenset(new_cells(self.known, rows, empty))
        size = self.referee.piece_cells
        # (Not necessarily joined: the cell read as the board may be the one
        # that joins them; simulated LITS 1046, an L's corner cell, its
        # other three meeting only diagonally. A piece the rules allow is
        # joined, whatever is tried.)
        if not fresh or len(fresh) >= size:
            return {}
        n_rows, n_cols = len(rows), len(rows[0])
        grown = {fresh}
        for _ in range(size - len(fresh)):
            grown = {
                cells | {near}
                for cells in grown
                for cell in cells
                for near in _beside(cell)
                if near not in cells
                and 0 <= near[0] < n_rows
                and 0 <= near[1] < n_cols
                and self._believed_empty(near)
            }
        options: dict[Cell, list[str]] = {}
        for cells in grown:
            letters = self.referee.likely_codes(sorted(cells))
            for letter in letters:
                whole = with_cells(rows, dict.fromkeys(cells, letter))
                if self._outcome(list(whole)).kind != "legal":
                    continue
                for cell in cells:
                    first = [rows[cell[0]][cell[1]]] if cell in fresh else [empty]
                    options.setdefault(cell, first).append(letter)
        if not options:
            return {}
        return {cell: tuple(dict.fromkeys(codes)) for cell, codes in sorted(options.items())}

    def _free_reading(
        self, gain: np.ndarray, open_cells: np.ndarray, alphabet: tuple[str, ...]
    ) -> float:
        """The cost of "something else": the reader's best code on every
        open cell. Two touching covered cells are one piece, so they take
        the best codes a real piece can show (a tile read half grey, half
        red is a misread, not a placement), or just one of them."""
        best = np.minimum(np.where(open_cells, gain.min(axis=-1), 0.0), 0.0)
        covered = list(zip(*np.nonzero(best < 0), strict=True))
        total = float(best.sum())
        if len(covered) != 2:
            return total
        (r1, c1), (r2, c2) = covered
        if abs(r1 - r2) + abs(c1 - c2) != 1:
            return total
        e = alphabet.index(self.referee.empty)
        codes = [k for k in range(len(alphabet)) if k != e]
        pair = min(
            float(gain[r1, c1, a] + gain[r2, c2, b])
            for a in codes
            for b in codes
            if self.referee.is_piece(alphabet[a] + alphabet[b])
        )
        return min(pair, float(best[r1, c1]), float(best[r2, c2]))

    def _masked(self, board: Sequence[str]) -> list[str]:
        """``board`` with tiles of an old round (stale) counted as not there.
        Only looks: a board weighed here may be one of many the reading
        could be (see :meth:`_forget_gone`)."""
        assert self.known is not None
        empty = self.referee.empty
        grid = [list(row) for row in board]
        for r, c in self.stale:
            if grid[r][c] != empty:
                grid[r][c] = self.known[r][c]
        return ["".join(row) for row in grid]

    def _gone_either_way(self, r: int, c: int, unsure: dict[Cell, tuple[str, ...]]) -> bool:
        """Whether the tile set aside at (r, c) is gone, the cell read best
        as the board: read surely so, or unsure only of codes that are
        neither that tile's nor the card's (the board or black, on a print
        black resembles, where a blue was set aside: simulated BITS 659, an
        old round swept under a lamp stayed believed and a tile landing
        there later was never looked at). Unsure of the card's colour, it
        stays: forgotten, the card's tile would be weighed as put down over
        it (simulated BITS 21)."""
        options = unsure.get((r, c))
        if options is None:
            return True
        held = None if self.seen is None else self.seen[r][c]
        card = set(self.referee.likely_codes([(r, c)]))
        return held not in options and not card & set(options)

    def _forget_gone(self, board: Sequence[str], unsure: dict[Cell, tuple[str, ...]]) -> None:
        """A stale cell the believed ``board`` shows empty (not one of the
        ``unsure``) is stale no more, and empty in ``seen`` too: its old
        tile is gone (kept in ``seen``, it would come back as a new tile in
        the next belief, e.g. a whole old round seen cleared after a knock,
        when no placement is judged to rewrite ``seen``). Only for what is
        believed: a stale cell that one of many combinations of unsure
        cells leaves empty, forgotten, made its old tile count as new in
        the next combination (an old blue, under a lamp, the card's tile
        put down on an empty ramp)."""
        empty = self.referee.empty
        for r, c in list(self.stale):
            if board[r][c] == empty and self._gone_either_way(r, c, unsure):
                self.stale.discard((r, c))
                if self.seen is not None:
                    row = self.seen[r]
                    self.seen[r] = row[:c] + empty + row[c + 1 :]

    def _outcome(self, board: list[str]) -> Outcome:
        assert self.known is not None
        masked = self._masked(board)
        key = tuple(masked)
        verdict = None if masked == self.known else self.referee.judge(masked)
        if verdict is not None and verdict.legal:
            return Outcome("legal", key, [Step(key, verdict)])
        whole = self._with_set_aside(board, masked)
        if whole is not None:
            return whole
        if verdict is None:
            return Outcome("rest", key)
        if verdict.reason in ("two_tiles", "two_pieces"):
            tried = [
                self.referee.judge_steps(order) for order in self.referee.splits(self.known, masked)
            ]
            for steps in tried:
                if len(steps) == 2 and all(s.verdict.legal for s in steps):
                    return Outcome("legal", key, steps)
            for steps in tried:
                if steps and steps[0].verdict.legal:
                    return Outcome("illegal", key, steps)
        return Outcome("illegal", key, [Step(key, verdict)])

    def _with_set_aside(self, board: list[str], masked: list[str]) -> Outcome | None:
        """The one legal placement ``board`` shows when some stale cells are
        counted as there: those whose look just changed while they kept
        their colour (``_restless``: a tile put down where the print was
        misread as its colour), and those beside the new cells (half a tile
        on its own is no move: the cell beside it, set aside as the print
        misread or an old tile, was the other half all along); each alone
        or all of a kind together. Where two are legal, the one whose cells
        all changed in look. None when none or no one placement is legal:
        an old tile under a lamp or a shadow stays old."""
        assert self.known is not None
        if not self.stale:
            return None
        empty = self.referee.empty
        new = set(new_cells(self.known, masked, empty))
        beside = sorted(
            (r, c)
            for r, c in self.stale
            if board[r][c] != empty and any(other in new for other in _beside((r, c)))
        )
        restless = sorted(cell for cell in self._restless if board[cell[0]][cell[1]] != empty)
        groups: set[tuple[Cell, ...]] = {(cell,) for cell in [*beside, *restless]}
        groups |= {tuple(cells) for cells in (beside, restless, sorted({*beside, *restless}))}
        found: dict[tuple[str, ...], tuple[Verdict, bool]] = {}
        for group in groups - {()}:
            rows = with_cells(masked, {(r, c): board[r][c] for r, c in group})
            verdict = self.referee.judge(rows)
            if verdict.legal:
                found[tuple(rows)] = (verdict, set(group) <= self._restless)
        if len(found) > 1:
            found = {key: v for key, v in found.items() if v[1]}
        if len(found) != 1:
            return None
        key, (verdict, _) = next(iter(found.items()))
        return Outcome("legal", key, [Step(key, verdict)])

    def _with_hints(
        self,
        board: list[str],
        unsure: dict[Cell, tuple[str, ...]],
        obs: Observation | None = None,
    ) -> dict[Cell, tuple[str, ...]]:
        """Unsure cells with the codes the game expects there added (the
        card's colours, the letter of the shape the new cells form): the
        reader may have ranked the true code too low to offer it. With
        ``obs``, only where the code is within the palette's
        ``max_distance`` of the cell's best code (a reading all off, as
        before the exposure is checked, keeps its hints): a cell torn
        between "empty" and the grey tile is no red tile because red is
        on the card."""
        assert self.known is not None
        empty = self.referee.empty
        fresh = [
            (r, c)
            for r, row in enumerate(board)
            for c, code in enumerate(row)
            if self.known[r][c] == empty and (code != empty or (r, c) in unsure)
        ]
        hints = self.referee.likely_codes(fresh)
        if not hints:
            return unsure

        def fits(cell: Cell, code: str) -> bool:
            if obs is None:
                return True
            best = float(obs.distance[cell].min())
            return obs.distance_of(cell, code) <= best + obs.max_distance

        return {
            cell: tuple(dict.fromkeys([*options, *(h for h in hints if fits(cell, h))]))
            if self.known[cell[0]][cell[1]] == empty
            else options
            for cell, options in unsure.items()
        }

    def _combinations(
        self, board: list[str], unsure: dict[Cell, tuple[str, ...]]
    ) -> list[tuple[dict[Cell, str], list[str]]]:
        cells = sorted(unsure)
        out = []
        for codes in itertools.islice(
            itertools.product(*(unsure[c] for c in cells)), MAX_COMBINATIONS
        ):
            choice = dict(zip(cells, codes, strict=True))
            out.append((choice, with_cells(board, choice)))
        return out

    def _decide(
        self,
        board: list[str],
        unsure: dict[Cell, tuple[str, ...]],
        obs: Observation,
        t: float,
        careful: bool = False,
        hint: np.ndarray | None = None,
        changed: np.ndarray | None = None,
    ) -> list[Event]:
        """Judge the believed board. ``changed``: as :meth:`observe` was
        given it. ``careful``: no sign of which cells
        changed (after the camera moved or the light changed; ``hint``: see
        :meth:`observe`): only a clear,
        legal placement counts, or one whole piece read clearly and far
        from the print's colour (:meth:`_one_clear_piece`) that breaks the
        rules; anything else is taken for a misreading of an unchanged board
        and waits for the next change."""
        unsure = self._with_hints(board, unsure, obs)
        if careful:
            sure = self._outcome(board) if not unsure else None
            if sure is not None and sure.kind == "legal":
                # More than one tile at once is a surprise too: the second
                # is a tile no card has shown yet (simulated BITS 2300: the
                # print in the top row, seen afresh from a knocked camera,
                # read as a grey double beside the card's tile just put
                # down; both were recorded, the double twice in the game).
                alone = len(sure.steps) <= 1 and not self._unexpected(sure)
                if alone or self._one_clear_piece(sure, obs):
                    return self._act(sure, obs.lab, t, settled=False)
                # Not the card's tile (the neutral one) and read near the
                # print's colour: the print under the lamp's glare, seen
                # afresh after a knock (simulated BITS 652: a slate print
                # taken for a grey double), or the grey double really put
                # down as the lamp came on (simulated BITS 858: let pass,
                # the game stayed a card behind and the next tile was
                # refused). The players know which: ask.
                log.info("board %s: an unexpected tile near the print's colour", self.board)
                cells = new_cells(self.known or [], board, self.referee.empty)
                return self._ask(board, self._code_or_empty(board, cells), [], obs, t)
            drops = self._read_drops(obs)
            drop = self._likeliest(drops, obs)
            doubt = self._doubted_placement(drop, obs)
            if drop is not None and doubt:
                # The question is about the drop's cells: the rest of the
                # board is as the drop has it, not as the look's best
                # guesses (simulated BITS 3603: just after a knock, a cell
                # of the print under the glare read black, unsurely, beside
                # a neutral double asked about; answered, the cell came
                # along as a black tile and the double was refused as two
                # tiles at once).
                return self._ask(drop, doubt, [], obs, t)
            if drop is not None:
                # what was set aside there is gone
                self.stale -= set(new_cells(self.known or [], drop, self.referee.empty))
                return self._act(self._outcome(drop), obs.lab, t, settled=False)
            if drops:
                return self._ask_which(board, unsure, drops, obs, t)
            if sure is not None and sure.kind == "rest":
                drop = self._open_drop(obs, hint)
                if drop is not None and self._leans_to(drop, obs):
                    if self._look_spills(drop, obs):
                        return self._ask_drop(drop, obs, t)
                    return self._act(self._outcome(drop), obs.lab, t, settled=False)
                if drop is not None and self._changed_just_there(drop, hint):
                    return self._ask_drop(drop, obs, t)
                if drop is not None:
                    self._recheck |= set(new_cells(self.known or [], drop, self.referee.empty))
                return self._act(sure, obs.lab, t, settled=False)
            combos = [(choice, self._outcome(b)) for choice, b in self._combinations(board, unsure)]
            taken = self._taken_away(unsure, combos)
            if taken is not None:
                # The refused tile taken off as a lamp came on (simulated
                # BITS 1899: its cells read the print first, the card's black
                # double a close second, and the card settled the tie).
                return self._act(taken, obs.lab, t, settled=False)
            if self._maybe_taken_away(unsure, obs):
                # As after a look that saw where things changed: the card's
                # tile lying where the refused one did, or the refused one
                # taken off, the players say (simulated BITS 3112: a wrong
                # tile taken off as a lamp came on, one half reading the
                # print first, the other grey 2 ΔE ahead of it under the
                # new light; the card's grey double recorded there).
                return self._ask(board, unsure, combos, obs, t)
            outcomes = [o for _, o in combos]
            fits = {o.key(): o for o in outcomes if o.kind == "legal"}
            if len(fits) == 1:
                fit = next(iter(fits.values()))
                doubt = self._doubted_placement(list(fit.rows), obs)
                if doubt:
                    return self._ask(list(fit.rows), doubt, [], obs, t)
                return self._act(fit, obs.lab, t, settled=True)
            if len(fits) > 1 and self._put_down_somewhere(list(fits.values()), obs):
                # A tile clearly lies where none was, and the card's tile
                # fits there more than one way (a black double on the dark
                # print, one half sure, the other torn between two cells):
                # the likelier, else ask. Set aside, the card would wait
                # and the next tile be refused as the wrong one (simulated
                # BITS game 541).
                boards = [list(o.rows) for o in fits.values()]
                drop = self._likeliest(boards, obs)
                if drop is not None:
                    return self._act(self._outcome(drop), obs.lab, t, settled=False)
                return self._ask_which(board, unsure, boards, obs, t)
            clear = sure if sure is not None else self._clear_of_doubts(board, unsure)
            if clear is None and hint is not None:
                calm = self._calm(board, unsure, hint)
                if calm is not None and self._one_clear_piece(calm, obs):
                    # The doubts lie where the look did not change across
                    # the light's change (the dark print under the new
                    # lamp), the piece that did is clear and far from the
                    # print: judged as it is (simulated BITS 3244: a wrong
                    # red double put down as a lamp came on, two cells of
                    # the print elsewhere torn between black and the board;
                    # set aside, the refusal never came).
                    board, unsure, clear = list(calm.rows), {}, calm
            if (
                clear is not None
                and clear.kind == "illegal"
                and (
                    t >= self.doubt_colours_until
                    or self._partly_far(clear, obs)
                    or self._changed_under(clear, hint)
                )
                and self._one_clear_piece(clear, obs, far=False)
                and not self._one_clear_piece(clear, obs)
            ):
                # One whole piece read sure against the rules, near the
                # print's colour, and the light has not just changed (so it
                # is not the print under a new lamp): a black tile on the
                # dark print, seen after a knock (simulated BITS 1661: a
                # black double in mid-air, 0.6 ΔE from black and 6.7 from
                # the print, set aside, then taken away unjudged). Ask. So
                # under a new lamp, when one of its cells is far from any
                # print (simulated BITS 1895: a red and black wrong tile put
                # down as the lamp came on, its black half near the print,
                # set aside and taken away unjudged), or when every cell of
                # it changed in look across the light's change (simulated
                # BITS 3361: a second grey double put down as the lamp came
                # on, set aside as the print and never refused).
                log.info("board %s: a piece against the rules near the print's colour", self.board)
                cells = new_cells(self.known or [], list(clear.rows), self.referee.empty)
                return self._ask(board, self._code_or_empty(board, cells), [], obs, t)
            if clear is not None and self._clear_part(clear, obs):
                # Part of a piece read clearly, far from the print, and the
                # rest of it read as the board (simulated LITS 1067: an L
                # put down as a lamp came on, one cell read as the board
                # under the new light; set aside as a misreading of an
                # unchanged board, it was never judged). Ask which cells
                # complete it.
                part = self._ask_lone_half(board, clear, obs, t)
                if part is not None:
                    return part
            if clear is None or clear.kind != "illegal" or not self._one_clear_piece(clear, obs):
                # No board the look may be is clear, but the card's tile
                # lies where one of its cells clearly shows it (simulated
                # BITS 2223: a blue and black tile put down as the light
                # dimmed; the dark print read black here and there, cells
                # once set aside as black tiles among them, so every board
                # held two tiles or more, and the tile was never judged).
                drop = self._anchored_drop(obs)
                if drop is not None and self._leans_to(drop, obs):
                    return self._act(self._outcome(drop), obs.lab, t, settled=False)
                if drop is not None:
                    return self._ask_drop(drop, obs, t)
                # The look changed just where one drop of the card is open,
                # while the new light leaves the print in doubt elsewhere
                # (simulated BITS 3130: a black double put down on the dark
                # print as a lamp came on, its cells and four others read
                # unsure between black and the print; set aside, it was
                # missed and the next tile refused as the wrong one).
                drop = self._open_drop(obs, hint)
                if drop is not None and self._changed_just_there(drop, hint):
                    if self._leans_to(drop, obs):
                        return self._act(self._outcome(drop), obs.lab, t, settled=False)
                    return self._ask_drop(drop, obs, t)
                shone = self._drop_under_the_core(hint)
                if shone:
                    # on the board as the game has it: the question is only
                    # whether the drop lies under the glare
                    return self._ask(list(self.known or board), shone, [], obs, t)
                log.info("board %s: unclear look after a change of view or light", self.board)
                self._set_aside(board, unsure)
                return []
            # One whole piece, every cell read clearly where the board was
            # believed empty, and against the rules: judged as any look is
            # (six of the eight illegal tiles missed on the tuning games
            # were put down in the seconds after a knock, then taken away).
        if not unsure:
            outcome = self._outcome(board)
            extra = self._more_than_visits(outcome)
            if extra:
                return self._ask(board, self._code_or_empty(board, extra), [], obs, t)
            options = self._plausible(outcome, obs) if self._colour_doubt(outcome) else {}
            shaky = (
                t < self.doubt_colours_until
                or self._poorly_read(outcome.rows, obs)
                or self._under_lamp(outcome.rows)
            )
            if self._colour_doubt(outcome) and shaky:
                # The light changed a moment ago, or a new cell fits even its
                # best colour poorly (a lamp's reflection on a black tile
                # read as a far-off yellow: simulated BITS 308): colours
                # read now are not to be trusted with a refusal. Ask,
                # offering what the game expects.
                asked = self._with_hints(board, options)
                if any(len(o) > 1 for o in asked.values()):
                    combos = [(c, self._outcome(b)) for c, b in self._combinations(board, asked)]
                    return self._ask(board, asked, combos, obs, t)
            lone = self._ask_lone_half(board, outcome, obs, t, changed)
            if lone is not None:
                return lone
            unseen = self._after_unseen_drop(board, outcome, obs)
            if unseen is not None:
                return self._act(unseen, obs.lab, t, settled=False)
            if not any(len(o) > 1 for o in options.values()):
                return self._act(outcome, obs.lab, t, settled=False)
            unsure = options
        combos = [(choice, self._outcome(b)) for choice, b in self._combinations(board, unsure)]
        legal = {o.key(): o for _, o in combos if o.kind == "legal"}
        illegal = [o for _, o in combos if o.kind == "illegal"]
        taken = self._taken_away(unsure, combos)
        if taken is not None:
            return self._act(taken, obs.lab, t, settled=False)
        if self._maybe_taken_away(unsure, obs):
            return self._ask(board, unsure, combos, obs, t)
        rest = not self._fresh_piece(unsure)
        settled = self._settled([o for _, o in combos], rest)
        if settled is not None and not self._only_hinted_far(settled, obs):
            if self._alike_left_empty(settled, unsure, obs, changed) or self._blind_where_swept(
                settled, obs
            ):
                return self._ask(board, unsure, combos, obs, t)
            # The only legal reading of torn cells is a tile laid by choice
            # (the neutral one): the card's tile under a glare as likely.
            doubt = self._doubted_unexpected(list(settled.rows), obs)
            if doubt and self._unexpected(settled):
                return self._ask(board, doubt, [], obs, t)
            if self._sure_of_another(list(settled.rows), obs):
                return self._ask(board, unsure, combos, obs, t)
            extra = self._more_than_visits(settled)
            if extra:
                doubt = self._code_or_empty(settled.rows, extra)
                return self._ask(list(settled.rows), doubt, [], obs, t)
            borrowed = self._borrowed_from_old(settled, obs)
            if borrowed:
                return self._ask(board, {**unsure, **borrowed}, [], obs, t)
            return self._act(settled, obs.lab, t, settled=True)
        maybe_nothing = any(o.kind == "rest" for _, o in combos)
        if (
            not legal
            and illegal
            and not maybe_nothing
            and self._same_refusal(illegal)
            and self._all_weighed(unsure)
        ):
            lone = self._ask_lone_half(board, illegal[0], obs, t, changed)
            if lone is not None:
                return lone
            if self._gone_unsurely(illegal[0], obs):
                # Tiles "taken off" that no cell surely shows gone: a hand
                # resting still over the ramp, read as the print and grey
                # tiles (simulated BITS 914), not a move. Looked at again.
                raise NotNow("tiles read gone only unsurely")
            if self._gone_under_cover(illegal[0], obs, changed):
                # ... or while the look changed on empty cells away from
                # them too: a hand held still over the bottom left corner
                # of the light print for 0.3 s, its skin read as the print
                # (simulated BITS 3536, a lamp): the two tiles under it
                # were refused as taken off. Looked at again.
                raise NotNow("tiles read gone under something")
            return self._act(illegal[0], obs.lab, t, settled=False)
        return self._ask(board, unsure, combos, obs, t)

    def _alike_left_empty(
        self,
        outcome: Outcome,
        unsure: dict[Cell, tuple[str, ...]],
        obs: Observation,
        changed: np.ndarray | None,
    ) -> bool:
        """Whether the game's pick among doubtful cells (``outcome``, the one
        legal board) lays a tile on a cell that reads no more like that tile,
        against "empty", than another doubtful cell it leaves empty (by less
        than a palette margin), the two having changed in look alike. The
        colours then do not say where the tile is, only the rules would:
        a round swept off a dark ramp left a whole column of the print torn
        between black and the board, and the start tile was "settled" on
        its lowest two cells, where no tile lay (simulated BITS 960)."""
        empty = self.referee.empty
        rows = outcome.rows

        def lean(cell: Cell, code: str) -> float:
            return obs.distance_of(cell, code) - obs.distance_of(cell, empty)

        picked = [(cell, rows[cell[0]][cell[1]]) for cell in unsure]
        left = [
            cell
            for cell, code in picked
            if code == empty and (changed is None or bool(changed[cell]))
        ]
        for cell, code in picked:
            if code == empty:
                continue
            alike = [lean(o, code) for o in left if code in unsure[o]]
            if alike and min(alike) <= lean(cell, code) + obs.min_margin:
                return True
        return False

    def _blind_where_swept(self, outcome: Outcome, obs: Observation) -> bool:
        """Whether every new cell of ``outcome`` lay under a tile the game
        does not hold (an old round's, just swept off) and reads its code
        no more than a palette margin ahead of "empty". Taking the old tile
        away changed those cells' look, so the change is no sign of a new
        one, and the colours cannot tell a black tile from the dark print:
        only the rules would put the round's first tile there (simulated
        BITS 1816: the start tile, a black double, recorded where the old
        round's yellow double had lain, 2.8 ΔE from black and 4.2 from the
        print; the real one went down elsewhere two seconds later)."""
        assert self.known is not None
        empty = self.referee.empty
        seen = self.seen or self.known
        cells = new_cells(self.known, list(outcome.rows), empty)
        return bool(cells) and all(
            seen[r][c] != empty
            and obs.distance_of((r, c), empty) - obs.distance_of((r, c), outcome.rows[r][c])
            <= obs.min_margin
            for r, c in cells
        )

    def _taken_away(
        self, unsure: dict[Cell, tuple[str, ...]], combos: list[tuple[dict[Cell, str], Outcome]]
    ) -> Outcome | None:
        """The refused tile taken away: every doubtful cell lay under the
        tile the game refused, and each reads likelier empty than anything.
        Right after a refusal the players take the tile off; on a dark print
        its empty cells may read nearly as the card's black tile, and the
        card must not settle that near tie into a drop nobody made (a right
        tile put down in the same moment reads as itself first)."""
        empty = self.referee.empty
        if not unsure or not self._under_refusal(unsure):
            return None
        if any(options[0] != empty for options in unsure.values()):
            return None
        for choice, outcome in combos:
            if outcome.kind == "rest" and all(code == empty for code in choice.values()):
                return outcome
        return None

    def _unexpected(self, outcome: Outcome) -> bool:
        """Whether ``outcome`` is a placement the game expects less than
        the card's tile (BITS: the neutral tile instead of it)."""
        assert self.known is not None
        rows = tuple(outcome.rows)
        boards = self.referee.legal_boards(self.known)
        return any(odds > 0 for legal, odds in boards if tuple(legal) == rows)

    def _maybe_taken_away(self, unsure: dict[Cell, tuple[str, ...]], obs: Observation) -> bool:
        """Whether the refused tile may have been taken away, though not
        every cell reads likelier empty: each doubtful cell lies under it
        and reads empty within a palette margin of its best. Then the card
        does not settle the tie, the players are asked (simulated BITS 654:
        a second neutral refused on the dark print and taken off, one half
        read as the card's black 0.1 ΔE nearer than the print, a drop
        recorded two seconds before it was made). So too when every cell
        reads the card's tile first, but within a margin of empty
        (simulated BITS 215: a second neutral taken off a print one ΔE from
        the card's black, recorded as the black double two seconds before
        it came): a right tile put down in the same moment looks the same,
        and only the players can say."""
        empty = self.referee.empty
        if not unsure or not self._under_refusal(unsure) or empty not in obs.alphabet:
            return False
        e = obs.alphabet.index(empty)
        return all(
            empty in options
            and float(obs.distance[r, c, e] - obs.distance[r, c].min()) <= obs.min_margin
            for (r, c), options in unsure.items()
        )

    def _under_refusal(self, cells: Iterable[Cell]) -> bool:
        """Whether ``cells`` all lie under the tile the game last refused
        (its alert still open)."""
        pending = self.pending
        if pending is None or pending.kind != "illegal":
            return False
        return set(cells) <= set(pending.cells)

    def _set_aside(self, board: list[str], unsure: dict[Cell, tuple[str, ...]]) -> None:
        """After an unclear careful look, the tiles read clearly where the
        game holds none are believed there but not judged, as an old
        round's are (stale): a refused tile put down while the camera was
        knocked and taken away again changes the look of its cells, and
        "changed" must not make it the card's tile placed there (a black
        card on a print black resembles). Only joined cells enough for a
        piece: a single cell is a misreading of the print (set aside, a
        piece later put down over it, changing its look little, would be
        judged a cell short)."""
        assert self.known is not None and self.seen is not None
        empty = self.referee.empty
        clear = [c for c in new_cells(self.known, board, empty) if c not in unsure]
        whole = set(clear) - self._partial(clear)
        self.stale |= whole
        # Where the look shows the board, nothing lies any more: an old
        # round's tiles swept off while the camera was knocked are gone, not
        # new cells of every later look (simulated BITS 308: the whole last
        # round believed still there, every look after "crowded").
        gone = {
            (r, c): empty
            for r, row in enumerate(board)
            for c, code in enumerate(row)
            if code == empty and (r, c) not in unsure and self.seen[r][c] != empty
        }
        self.stale -= set(gone)
        self.seen = with_cells(self.seen, {**gone, **{(r, c): board[r][c] for r, c in whole}})

    def _fresh_piece(self, unsure: dict[Cell, tuple[str, ...]]) -> bool:
        """Whether the unsure cells that were believed empty and may now hold
        a tile are, joined, at least a whole piece: then "nothing happened"
        is no settlement (a black tile on the black print reads either way,
        and refused by the rules it must be asked about, not let pass)."""
        assert self.known is not None and self.seen is not None
        empty = self.referee.empty
        fresh = [
            (r, c)
            for (r, c), options in unsure.items()
            if self.seen[r][c] == empty
            and self.known[r][c] == empty
            and any(o != empty for o in options)
        ]
        return len(fresh) > len(self._partial(fresh))

    def _read_drops(self, obs: Observation) -> list[list[str]]:
        """After a change of view or light: the legal placements whose every
        cell the reader is sure shows its code, on cells believed empty.
        Kept to the belief there, a black tile dropped while the camera was
        knocked would read as the black print it resembles and be missed,
        and the next tile judged against the card it took. A cell set aside
        (stale) counts as empty where it now clearly shows another code than
        it was set aside with: a dark cell of the print once taken for a
        black tile, now under the card's blue one."""
        assert self.known is not None and self.seen is not None
        empty = self.referee.empty
        found = []
        for rows, _ in self.referee.legal_boards(self.known):
            cells = new_cells(self.known, rows, empty)
            if cells and all(
                obs.sure[r, c]
                and str(obs.codes[r, c]) == rows[r][c]
                and (
                    self.seen[r][c] != rows[r][c]
                    if (r, c) in self.stale
                    else self.seen[r][c] == empty
                )
                for r, c in cells
            ):
                found.append(rows)
        return found

    def _open_drop(self, obs: Observation, hint: np.ndarray | None = None) -> list[str] | None:
        """After a change of view: the one drop of the card that the reader
        could not rule out (each cell sure of the card's code, or unsure
        with it among the candidates, and one at least unsure). Taken when
        its cells lean to it (:meth:`_leans_to`), else read again at the
        next change: the look taken now is the new reference, so a black
        tile put down as the camera was knocked, read as the print it
        resembles, would never change in look again (simulated BITS game
        328: missed, the next tile judged against its card). None when
        several drops could be there, unless one alone lies where the look
        changed (``hint``; simulated BITS game 402: a black double put down
        as a lamp was switched on, on a dark print that left a second drop
        of it open)."""
        assert self.known is not None
        empty = self.referee.empty
        open_drops = []
        for rows, _ in self.referee.legal_boards(self.known):
            cells = new_cells(self.known, rows, empty)
            if not cells or all(obs.sure[r, c] for r, c in cells):
                continue
            if all(
                rows[r][c] in obs.candidates[r][c]
                if not obs.sure[r, c]
                else str(obs.codes[r, c]) == rows[r][c]
                for r, c in cells
            ):
                open_drops.append(rows)
        if hint is not None and len(open_drops) > 1:
            open_drops = [
                rows
                for rows in open_drops
                if all(hint[cell] for cell in new_cells(self.known, rows, empty))
            ]
            # Still several where the look changed: the one whose cells
            # lean to it, if only one does (simulated BITS 2976: a black
            # double put down as a lamp came on, each half 4.4 ΔE nearer
            # black than the print; the same double one cell along, half on
            # a cell the lamp's glare changed that read the print 3.4 ΔE
            # nearer, was open too; the drop was missed and the next black
            # double refused as in mid-air). After a knock (no hint) every
            # cell's look is new, and a dark print reading black here and
            # there is no sign of a drop.
            leaning = [rows for rows in open_drops if self._leans_to(rows, obs)]
            open_drops = leaning if len(leaning) == 1 else open_drops
        return open_drops[0] if len(open_drops) == 1 else None

    def _anchored_drop(self, obs: Observation) -> list[str] | None:
        """The one legal drop whose every cell the reading allows (sure of
        its code, or unsure with it among the candidates) and one cell of
        which reads surely as its code far from the print's colour
        (:meth:`_far`), where the game holds nothing: a tile clearly lies
        there, and the rules say which. None when no drop or several are."""
        assert self.known is not None
        empty = self.referee.empty
        found = []
        for rows, _ in self.referee.legal_boards(self.known):
            cells = new_cells(self.known, rows, empty)
            allowed = all(
                str(obs.codes[r, c]) == rows[r][c]
                if obs.sure[r, c]
                else rows[r][c] in obs.candidates[r][c]
                for r, c in cells
            )
            anchored = any(
                obs.sure[cell] and self._believed_empty(cell) and self._far(cell, obs)
                for cell in cells
            )
            if cells and allowed and anchored:
                found.append(rows)
        return found[0] if len(found) == 1 else None

    def _changed_just_there(self, drop: list[str], hint: np.ndarray | None) -> bool:
        """Whether the cells that changed in look across a change of light
        (``hint``) are the new cells of ``drop`` and no others."""
        if hint is None:
            return False
        cells = set(new_cells(self.known or [], drop, self.referee.empty))
        return bool(cells) and cells == {(int(r), int(c)) for r, c in np.argwhere(hint)}

    def _drop_under_the_core(self, hint: np.ndarray | None) -> dict[Cell, tuple[str, ...]]:
        """The question what lies on the cells that changed in look across a
        change of light (``hint``), when they are all under the lamp's core
        and just the new cells of some drop of the card, and a hand came over
        the board: each such drop's codes offered, and nothing. The glare
        there says nothing of the colours (simulated BITS 3552: a lamp came
        on with its core over a black and yellow double just put down, read
        grey and pale grey; no drop of the card was open to the reading, the
        look was set aside and the drop missed)."""
        if hint is None or not self._visits:
            return {}
        assert self.known is not None
        empty = self.referee.empty
        looked = {(int(r), int(c)) for r, c in np.argwhere(hint)}
        if not looked or not looked <= self.shining:
            return {}
        asked: dict[Cell, tuple[str, ...]] = {}
        for rows, _ in self.referee.legal_boards(self.known):
            cells = new_cells(self.known, rows, empty)
            if set(cells) != looked or not all(self._believed_empty(cell) for cell in cells):
                continue
            for r, c in cells:
                asked[(r, c)] = tuple(dict.fromkeys([*asked.get((r, c), ()), rows[r][c]]))
        return {cell: (*codes, empty) for cell, codes in asked.items()}

    def _ask_drop(self, drop: list[str], obs: Observation, t: float) -> list[Event]:
        """The one open drop of the card lies just where the look changed as
        a lamp came on, but its cells do not lean to it (a black double put
        down on the dark print in that moment, one half read nearer the
        print, simulated BITS 202): the players say whether it is there.
        Left for the next change, it was missed (the board stays still until
        the next tile, which is then judged against this card)."""
        asked = self._code_or_empty(drop, new_cells(self.known or [], drop, self.referee.empty))
        # Asked on the drop's board, not the look's best guesses elsewhere
        # (the doubted placement's reason, simulated BITS 3603).
        combos = [(choice, self._outcome(b)) for choice, b in self._combinations(drop, asked)]
        return self._ask(drop, asked, combos, obs, t)

    def _leans_to(self, drop: list[str], obs: Observation) -> bool:
        """Whether every cell of ``drop`` looks likelier its code than empty,
        and all of them by :data:`PLACED_LEAD` together: the only drop of
        the card the look allows, its black cells nearer black than the
        print (simulated BITS game 303, a black double put down as the
        camera was knocked)."""
        cells = new_cells(self.known or [], drop, self.referee.empty)
        if not all(self._believed_empty(cell) for cell in cells):
            return False  # where something was believed: the reading's, not the card's
        leads = self._leads(drop, obs)
        return bool(leads) and min(leads) > 0 and sum(leads) >= PLACED_LEAD

    def _look_spills(self, drop: list[str], obs: Observation) -> bool:
        """Whether a cell beside the new cells of ``drop``, believed empty,
        reads unsurely as one of the drop's codes: the drop's look goes on
        past its cells, a shadow or a tint over the print rather than a
        tile (simulated BITS 3650: after a knock, a shadow band across the
        light print read as grey on four cells of a row; the card's neutral
        double fitted two of them and was recorded, though nothing had been
        put down). The players say."""
        empty = self.referee.empty
        cells = new_cells(self.known or [], drop, empty)
        codes = {drop[r][c] for r, c in cells}
        mask = np.zeros((len(drop), len(drop[0])), bool)
        for r, c in cells:
            mask[r, c] = True
        around = beside(mask) & ~mask
        return any(
            not obs.sure[r, c] and str(obs.codes[r, c]) in codes and self._believed_empty((r, c))
            for r, c in map(tuple, np.argwhere(around))
        )

    def _leads(self, drop: list[str], obs: Observation) -> list[float]:
        """Per new cell of ``drop``: by how much it looks likelier the drop's
        code than empty (ΔE)."""
        empty = self.referee.empty
        return [
            obs.distance_of(cell, empty) - obs.distance_of(cell, drop[cell[0]][cell[1]])
            for cell in new_cells(self.known or [], drop, empty)
        ]

    def _put_down_somewhere(self, fits: list[Outcome], obs: Observation) -> bool:
        """Whether the legal ``fits`` of a careful look are each one tile
        and share a cell read surely covered where the game holds nothing
        and nothing was set aside: a tile was put down, only where exactly
        is in doubt."""
        empty = self.referee.empty
        if any(len(o.steps) != 1 for o in fits):
            return False
        shared = set.intersection(*(set(new_cells(self.known or [], o.rows, empty)) for o in fits))
        return any(
            obs.sure[cell] and str(obs.codes[cell]) != empty and self._believed_empty(cell)
            for cell in shared
        )

    def _believed_empty(self, cell: Cell) -> bool:
        """The tracker believes nothing lies on ``cell`` (nor set it aside)."""
        r, c = cell
        seen = self.seen
        return seen is not None and seen[r][c] == self.referee.empty and cell not in self.stale

    def _likeliest(self, drops: list[list[str]], obs: Observation) -> list[str] | None:
        """The one of ``drops`` (:meth:`_read_drops`) the look shows: the only
        one, or the one whose cells look likelier covered than empty by
        :data:`TIE_LEAD` more than any other's. Two can be read at once when
        a cell of the dark print reads as the card's black beside the tile
        really put down (simulated BITS game 312)."""
        if len(drops) <= 1:
            return drops[0] if drops else None
        ranked = sorted((sum(self._leads(rows, obs)), rows) for rows in drops)
        (second, _), (best, rows) = ranked[-2:]
        return rows if best - second >= TIE_LEAD else None

    def _ask_which(
        self,
        board: list[str],
        unsure: dict[Cell, tuple[str, ...]],
        drops: list[list[str]],
        obs: Observation,
        t: float,
    ) -> list[Event]:
        """Several drops of the card read clearly and none stands out: ask
        about the cells they do not share (covered, or the print), rather
        than let the placement pass and judge the next tile against this
        card."""
        assert self.known is not None
        empty = self.referee.empty
        each = [set(new_cells(self.known, rows, empty)) for rows in drops]
        doubt = set[Cell]().union(*each) - each[0].intersection(*each[1:])
        asked = dict(unsure)
        for r, c in sorted(doubt):
            asked[(r, c)] = tuple(dict.fromkeys([board[r][c], empty]))
        combos = [(choice, self._outcome(b)) for choice, b in self._combinations(board, asked)]
        return self._ask(board, asked, combos, obs, t)

    def _gone_unsurely(self, outcome: Outcome, obs: Observation) -> bool:
        """Whether ``outcome`` refuses tiles taken off the board (BITS
        ``tiles_moved``) while none of the cells it names reads surely as
        the board."""
        verdict = outcome.verdict
        if verdict is None or verdict.reason != "tiles_moved":
            return False
        empty = self.referee.empty
        cells = [(int(r), int(c)) for r, c in verdict.cells]
        return not any(obs.sure[r, c] and obs.codes[r, c] == empty for r, c in cells)

    def _gone_under_cover(
        self, outcome: Outcome, obs: Observation, changed: np.ndarray | None
    ) -> bool:
        """Whether ``outcome`` refuses tiles taken off the board (BITS
        ``tiles_moved``) while the look also changed on a cell believed and
        read empty that shares no side with them: a tile taken off changes
        its own cells (and the shade it cast beside them), nothing farther."""
        verdict = outcome.verdict
        if changed is None or verdict is None or verdict.reason != "tiles_moved":
            return False
        assert self.known is not None
        empty = self.referee.empty
        gone = np.zeros(np.shape(changed), bool)
        for r, c in verdict.cells:
            gone[int(r), int(c)] = True
        was_empty = np.array([[ch == empty for ch in row] for row in self.known], bool)
        elsewhere = np.asarray(changed, bool) & was_empty & (obs.codes == empty) & ~beside(gone)
        return bool(elsewhere.any())

    @staticmethod
    def _settled(outcomes: list[Outcome], rest: bool = True) -> Outcome | None:
        """What the game settles among the boards a reading may be: the one
        legal placement, or (none legal, and ``rest`` allowed) nothing new
        on the board."""
        legal = {o.key(): o for o in outcomes if o.kind == "legal"}
        if len(legal) == 1:
            return next(iter(legal.values()))
        nothing = [o for o in outcomes if o.kind == "rest"]
        return nothing[0] if rest and not legal and nothing else None

    @staticmethod
    def _colour_doubt(outcome: Outcome) -> bool:
        """A refusal that hangs on the colours read."""
        verdict = outcome.verdict
        return (
            outcome.kind == "illegal" and verdict is not None and verdict.reason in COLOUR_REASONS
        )

    def _plausible(self, outcome: Outcome, obs: Observation) -> dict[Cell, tuple[str, ...]]:
        """Other codes within reach of the new cells (for a colour refusal):
        any colour that fits at all (a light or a white balance a little
        off moves every colour, and the card's may come out second), but
        "empty" only where the reader itself would offer it (within
        :data:`~device.track.vote.CANDIDATE_MARGINS` palette margins of the
        best code): a cell whose look changed and that reads clearly as a
        tile holds one, and "nothing happened" must not swallow its refusal
        (a second neutral tile on a grey ramp)."""
        assert self.known is not None
        empty = self.referee.empty
        options: dict[Cell, tuple[str, ...]] = {}
        fresh = new_cells(self.known, list(outcome.rows), empty)
        partial = self._partial(fresh)
        for r, c in fresh:
            d = obs.distance[r, c]
            order = np.argsort(d)
            reach = float(d[order[0]]) + CANDIDATE_MARGINS * obs.min_margin
            # A colour far behind one the cell fits closely is not what a
            # light a little off made of it (a blue tile read 0.7 ΔE from
            # blue is not the card's purple at 30: simulated BITS game 300).
            behind = float(d[order[0]]) + PLAUSIBLE_MARGINS * obs.min_margin
            near = [
                obs.alphabet[k]
                for k in order
                if d[k] <= min(obs.max_distance, behind)
                and (obs.alphabet[k] != empty or d[k] <= reach or (r, c) in partial)
            ]
            read = outcome.rows[r][c]
            options[(r, c)] = tuple(dict.fromkeys([read, *near]))[:3]
        return options

    def _clear_of_doubts(
        self, board: list[str], unsure: dict[Cell, tuple[str, ...]]
    ) -> Outcome | None:
        """The believed board judged as it is when every doubt is a cell
        believed empty that reads empty first: no sign of change there, so
        no reason to hold back a piece read clearly beside it (simulated
        BITS game 438: a second neutral tile put down as a lamp came on,
        the dark print beside it doubting between empty and black)."""
        empty = self.referee.empty
        if not all(
            options[0] == empty and self._believed_empty(cell) for cell, options in unsure.items()
        ):
            return None
        return self._outcome(board)

    def _changed_under(self, outcome: Outcome, hint: np.ndarray | None) -> bool:
        """Whether every cell ``outcome`` adds changed in look across the
        light's change (``hint``)."""
        assert self.known is not None
        cells = new_cells(self.known, list(outcome.rows), self.referee.empty)
        return hint is not None and bool(cells) and all(bool(hint[cell]) for cell in cells)

    def _calm(
        self, board: list[str], unsure: dict[Cell, tuple[str, ...]], hint: np.ndarray
    ) -> Outcome | None:
        """The believed board judged with every doubt taken as the game has
        it, when each is a cell believed empty whose look did not change
        (outside ``hint``); None otherwise."""
        assert self.known is not None
        if not unsure or any(bool(hint[cell]) or not self._believed_empty(cell) for cell in unsure):
            return None
        rows = [list(row) for row in board]
        for r, c in unsure:
            rows[r][c] = self.known[r][c]
        return self._outcome(["".join(row) for row in rows])

    def _one_clear_piece(self, outcome: Outcome, obs: Observation, far: bool = True) -> bool:
        """Whether the cells ``outcome`` adds to the game's board are one
        whole piece (edge-connected, as many cells as a piece covers), each
        read sure where the tracker believed the board empty (not a cell set
        aside: an old round's tile), and each farther from the print's
        colour than any colour that fits (not the dark print under a lamp
        taken for a black tile: simulated BITS games 21, 33, 314; with
        ``far`` False, that last test is left out)."""
        assert self.known is not None
        empty = self.referee.empty
        cells = new_cells(self.known, list(outcome.rows), empty)
        if len(cells) != self.referee.piece_cells or self._partial(cells):
            return False
        return all(
            obs.sure[cell] and self._believed_empty(cell) and (not far or self._far(cell, obs))
            for cell in cells
        )

    def _code_or_empty(
        self, rows: Sequence[str], cells: Iterable[Cell]
    ) -> dict[Cell, tuple[str, ...]]:
        """The question whether ``cells`` hold the code ``rows`` gives them
        or lie empty."""
        return {(r, c): (rows[r][c], self.referee.empty) for r, c in cells}

    def _borrowed_from_old(self, outcome: Outcome, obs: Observation) -> dict[Cell, tuple[str, ...]]:
        """The cells of a new tile in ``outcome`` whose colour is an old
        tile's, not the look's: set aside as an old round's (kept as last
        seen while their look did not change) and read unsurely now, with
        what the look offers there. A tile put down where an old one was
        believed still to lie takes nothing from it (simulated BITS 2751,
        a lamp on: the last round's black double, missed and entered by
        hand, swept off unseen, one half last seen as "blue"; a purple and
        blue tile then landed on that cell and beside it, the look there
        torn between blue and purple, and the old "blue" made the tile fit
        one way round only: recorded the wrong way round)."""
        assert self.known is not None
        cells = new_cells(self.known, list(outcome.rows), self.referee.empty)
        return {
            (r, c): tuple(dict.fromkeys([outcome.rows[r][c], *obs.candidates[r][c]]))
            for r, c in cells
            if (r, c) in self.stale and not obs.sure[r, c]
        }

    def _more_than_visits(self, outcome: Outcome) -> list[Cell]:
        """The new cells of a legal ``outcome``'s later tiles when it puts
        down more tiles than hands came over the board since the last look
        (a hand puts down one tile a visit): those are the doubtful ones
        (simulated BITS 2300: a red double put down under two empty cells
        of the top row, whose raised side changed their look; read as a
        grey double, recorded as a second tile at once). ``[]`` otherwise,
        or when the visits were not counted."""
        if outcome.kind != "legal" or len(outcome.steps) < 2 or self._visits is None:
            return []
        if self._visits >= len(outcome.steps):
            return []
        empty = self.referee.empty
        return new_cells(list(outcome.steps[0].rows), list(outcome.rows), empty)

    def _clear_part(self, outcome: Outcome, obs: Observation) -> bool:
        """Whether ``outcome`` is refused as part of a piece (PART_REASONS)
        whose cells are each read sure, where the board was believed empty,
        and far from the print's colour (:meth:`_far`): no misreading of
        the print under a new lamp."""
        verdict = outcome.verdict
        if outcome.kind != "illegal" or verdict is None or verdict.reason not in PART_REASONS:
            return False
        assert self.known is not None
        cells = new_cells(self.known, list(outcome.rows), self.referee.empty)
        return bool(cells) and all(
            obs.sure[cell] and self._believed_empty(cell) and self._far(cell, obs) for cell in cells
        )

    def _far(self, cell: Cell, obs: Observation) -> bool:
        """Whether ``cell`` reads farther from the print's colour than any
        colour that fits (the palette's ``max_distance``): no lamp makes
        the print look so."""
        return obs.distance_of(cell, self.referee.empty) > obs.max_distance

    def _partly_far(self, outcome: Outcome, obs: Observation) -> bool:
        """Whether a new cell of ``outcome`` reads far from the print (:meth:`_far`)."""
        assert self.known is not None
        cells = new_cells(self.known, list(outcome.rows), self.referee.empty)
        return any(self._far(cell, obs) for cell in cells)

    def _not_expected(
        self, whole: set[Cell], fresh: Sequence[Cell], grid: list[list[str]]
    ) -> set[Cell]:
        """Cells of ``whole`` (old tiles whose every cell changed in look but
        still reads its old colour) in a piece the game does not expect now:
        colours that are neither the card's tile nor the neutral one. A tile
        put down exactly where an old one of the same colours still lies is
        the card's tile (put down again after an undo, or on print misread as
        its colour); anything else there is the old tile under a passing
        glint or shadow (simulated BITS 2052: the last round's yellow double,
        not yet swept, changed in look as the next round's start tile was
        due, and was asked about, then refused as the wrong tile). Without a
        known card nothing is ruled out."""
        if not whole:
            return set()
        out: set[Cell] = set()
        for group in self._groups([*whole, *fresh]):
            hints = self.referee.likely_codes(sorted(group))
            old = group & whole
            if hints and any(grid[r][c] not in hints for r, c in old):
                out |= old
        return out

    def _partial(self, cells: Sequence[Cell]) -> set[Cell]:
        """The cells of ``cells`` in edge-connected groups smaller than one
        piece: no piece covers them alone (a lone cell read as a tile is a
        highlight or a shadow as likely as half a tile)."""
        return {
            cell
            for group in self._groups(cells)
            if len(group) < self.referee.piece_cells
            for cell in group
        }

    def _groups(self, cells: Iterable[Cell]) -> list[frozenset[Cell]]:
        """``cells`` in edge-connected groups."""
        marked = with_cells(
            [self.referee.empty * len(row) for row in self.known or []],
            dict.fromkeys(cells, "#"),
        )
        return [group for _, group in regions(marked, "#")]

    @staticmethod
    def _all_weighed(unsure: dict[Cell, tuple[str, ...]]) -> bool:
        """Whether every board the open cells may make was judged (no more
        than :data:`MAX_COMBINATIONS`). The first of too many all read the
        first cells alike, so their one refusal says nothing of the rest: a
        round swept off the ramp under a lamp left 28 cells torn between the
        print and grey, and the first 81 boards, grey in 24 of them, were
        refused as "two tiles" while the ramp lay empty (simulated BITS 1608).

        >>> BoardTracker._all_weighed({(0, 0): ("N", "."), (0, 1): ("N", ".")})
        True
        >>> BoardTracker._all_weighed({(0, c): ("N", ".") for c in range(7)})
        False
        """
        return math.prod(len(options) for options in unsure.values()) <= MAX_COMBINATIONS

    @staticmethod
    def _same_refusal(illegal: list[Outcome]) -> bool:
        """Every possible reading breaks the same rule: the refusal does not
        hang on the reader."""
        first = illegal[0].verdict
        assert first is not None
        return all(o.verdict is not None and o.verdict.reason == first.reason for o in illegal)

    # --- acting on a decision -------------------------------------------------
    def _act(
        self,
        outcome: Outcome,
        lab: np.ndarray | None,
        t: float,
        settled: bool,
        learn: bool = True,
    ) -> list[Event]:
        """Carry out a decision: tell the table, update the beliefs."""
        assert self.known is not None
        events: list[Event] = []
        self._unsure = {}
        before_known = self.known
        if outcome.kind == "rest":
            if self.pending is not None:
                self.table.clear_alerts(self._alert_scope())
                events.append({"type": "cleared", "t": t, "board": self.board})
            self.pending = None
            self.seen = self._unmask(list(outcome.rows))
            return events
        if (
            outcome.kind == "illegal"
            and self.pending is not None
            and self.pending.kind == "illegal"
            and self.pending.rows == outcome.rows
        ):
            return events  # the same refused board: already said
        if outcome.kind == "illegal" and self._part_of_refused(outcome):
            # What is left of the refused tile as the players take it away
            # (a half still in view as the hand lifts it): already said, and
            # no new move (simulated BITS 873: "half a tile outside the grid"
            # shouted after a refused mid-air tile, then the next tile
            # refused for it as a second one).
            return events
        if self.pending is not None:
            self.table.clear_alerts(self._alert_scope())
            self.pending = None
        for step in outcome.steps:
            recorded = self._record(step, lab if learn else None, t, settled, before_known)
            events += recorded
            if not any(e["type"] == "placed" for e in recorded):
                self.pending = Pending("illegal", outcome.rows, step.verdict.cells)
                break
            before_known = list(step.rows)
        self.seen = self._unmask(list(outcome.rows))
        # What the game should hold now; if it holds something else (the round
        # ended and the ramp starts empty), sync() marks the old tiles stale.
        self.known = before_known
        # A cell the game holds a tile on is not stale (a set-aside cell
        # that turned out to be half of the tile just placed).
        self.stale = {(r, c) for r, c in self.stale if before_known[r][c] == self.referee.empty}
        self.sync(t)
        return events

    def _part_of_refused(self, outcome: Outcome) -> bool:
        """Whether the cells ``outcome`` adds to the game's board are some,
        not all, of the refused tile's, each still reading as it did (a
        cell reading as the refused board does is one of its new cells)."""
        pending = self.pending
        if pending is None or pending.kind != "illegal" or self.known is None:
            return False
        empty = self.referee.empty
        refused = new_cells(self.known, list(pending.rows), empty)
        cells = new_cells(self.known, list(outcome.rows), empty)
        return 0 < len(cells) < len(refused) and all(
            outcome.rows[r][c] == pending.rows[r][c] for r, c in cells
        )

    def _unmask(self, rows: list[str]) -> list[str]:
        """The physical board: stale tiles are still there."""
        assert self.seen is not None
        grid = [list(row) for row in rows]
        for r, c in self.stale:
            grid[r][c] = self.seen[r][c]
        return ["".join(row) for row in grid]

    def _record(
        self, step: Step, lab: np.ndarray | None, t: float, settled: bool, before: list[str]
    ) -> list[Event]:
        action = self.referee.action(step.rows)
        player = self.referee.alert_player()
        try:
            engine = self.table.apply(action, source="camera")
        except ActionError as err:
            log.warning("board %s: the game refused %r: %s", self.board, action, err)
            return []
        cells = new_cells(before, list(step.rows), self.referee.empty)
        placed = [e for e in engine if e.get("type") == "placed"]
        if placed:
            known = {cell: step.rows[cell[0]][cell[1]] for cell in cells}
            if self.learner is not None and lab is not None and known:
                self.learner.learn_reading(lab, known)
            return [
                {
                    "type": "placed",
                    "t": t,
                    "board": self.board,
                    "player": player,
                    "cells": [list(c) for c in cells],
                    "codes": "".join(step.rows[r][c] for r, c in cells),
                    "rows": list(step.rows),
                    "settled": settled,
                    "engine": placed[0],
                }
            ]
        refused = [e for e in engine if e.get("type") == "illegal"]
        verdict = step.verdict
        if refused:
            verdict = Verdict.illegal(
                str(refused[0].get("reason")),
                str(refused[0].get("message", "")),
                tuple(tuple(c) for c in refused[0].get("cells", [])),
            )
        return [
            {
                "type": "illegal",
                "t": t,
                "board": self.board,
                "player": player,
                "reason": verdict.reason,
                "message": verdict.message,
                "cells": [list(c) for c in verdict.cells],
                "rows": list(step.rows),
            }
        ]

    def _ask(
        self,
        board: list[str],
        unsure: dict[Cell, tuple[str, ...]],
        combos: list[tuple[dict[Cell, str], Outcome]],
        obs: Observation,
        t: float,
        told: dict[Cell, str] | None = None,
    ) -> list[Event]:
        """Ask the players about the cells no reading or rule could settle
        (``told``: what they said about this look already)."""
        cells = tuple(sorted(unsure))
        # Only the codes some still-possible board uses are worth offering.
        useful = [choice for choice, o in combos if o.kind != "illegal"] or [
            choice for choice, _ in combos
        ]
        candidates = tuple(
            tuple(dict.fromkeys([*(choice[cell] for choice in useful), *unsure[cell]]))
            for cell in cells
        )
        key = tuple(board)
        if (
            self.pending is not None
            and self.pending.kind == "unsure"
            and self.pending.cells == cells
            and self.pending.candidates == candidates
        ):
            return []
        if (
            self._under_refusal(cells)
            and self.pending is not None
            and all(self.pending.rows[r][c] in unsure[(r, c)] for r, c in cells)
        ):
            # The refused tile, as the players said it was, may still lie
            # there: asking again would refuse it again. The refusal stands
            # until the cells change.
            return []
        if self.pending is not None:
            self.table.clear_alerts(self._alert_scope())
        player = self.referee.alert_player()
        alert = self.table.raise_unsure(
            player,  # type: ignore[arg-type]
            [list(c) for c in cells],
            [list(options) for options in candidates],
        )
        kept = replace(obs, lab=obs.lab.copy(), distance=obs.distance.copy())
        refused = self.pending
        rows = None if refused is None or refused.kind != "illegal" else refused.rows
        self.pending = Pending(
            "unsure", key, cells, candidates, alert, kept, rows, dict(told or {})
        )
        self._unsure = dict(zip(cells, candidates, strict=True))
        self.seen = list(board)
        return [
            {
                "type": "unsure",
                "t": t,
                "board": self.board,
                "player": player,
                "cells": [list(c) for c in cells],
                "candidates": [list(options) for options in candidates],
                "alert": alert,
            }
        ]

    def take_back_own(self) -> list[list[str]] | None:
        """Undo every placement the game recorded on this board; returns the
        boards they recorded, oldest first (``[]`` when the board holds
        nothing). Only while no other board holds a tile (an undo takes back
        the game's latest placement, whoever made it): otherwise None and
        nothing is undone."""
        game = getattr(self.table, "game", None)
        accepted = self.referee.accepted()
        if game is None or accepted is None:
            return None
        others = [
            seat["board"]
            for i, seat in enumerate(game.view().get("players", []))
            if i != getattr(self.referee, "player", None)
        ]
        if any(ch != self.referee.empty for board in others for row in board for ch in row):
            return None
        boards: list[list[str]] = []
        while any(ch != self.referee.empty for row in accepted for ch in row):
            boards.append(list(accepted))
            self.table.undo(source="camera")
            accepted = self.referee.accepted() or []
        return list(reversed(boards))

    def replace_turned(self, boards: list[list[str]], turn: int, t: float) -> list[Event]:
        """Record ``boards`` again turned ``turn`` quarter turns, and start
        believing afresh from the game's board."""
        events: list[Event] = []
        for rows in boards:
            grid = np.rot90(np.array([list(r) for r in rows]), turn)
            turned = ["".join(r) for r in grid]
            try:
                self.table.apply(self.referee.action(turned), source="camera")
            except ActionError as err:
                log.warning("board %s: could not record the turned board: %s", self.board, err)
                break
            events.append({"type": "rebased", "t": t, "board": self.board})
        self.known = self.referee.accepted()
        self.seen = None if self.known is None else list(self.known)
        self.stale = set()
        self.pending = None
        self._unsure = {}
        return events

    def confirm(self, alert: int, codes: Sequence[str], t: float = 0.0) -> list[Event]:
        """The players answered our unsure alert: the cells are ``codes``.
        Learn them (trusted) and judge the board they describe; a refusal
        that hangs on the colour of a cell they were not asked about is
        doubted as an unasked reading is (another plausible code that makes
        the board legal or unchanged wins)."""
        pending = self.pending
        if pending is None or pending.kind != "unsure" or pending.alert != alert:
            return []
        if len(codes) != len(pending.cells):
            return []
        answer = dict(zip(pending.cells, codes, strict=True))
        # Every answer about this look so far: a question that follows one
        # asks about other cells (simulated BITS 3186: a wrong black double,
        # each half read poorly; the answer about one asked about the other,
        # whose answer asked about the first again, 31 times in 3 s).
        told = {**pending.told, **answer}
        if self.learner is not None and pending.lab is not None:
            self.learner.learn_reading(pending.lab, answer, trusted=True)
        board = with_cells(list(pending.rows), answer)
        self.pending = None  # the table dropped the alert when it was answered
        self._unsure = {}
        events = self.sync(t)
        if self.known is None:
            return events
        board = self._told_taken_back(board, answer, pending)
        self._forget_gone(board, {})
        try:
            outcome = self._outcome(board)
            if self._colour_doubt(outcome) and pending.obs is not None:
                # The answer settles the cells asked about, not a doubtful
                # colour elsewhere (a shadow read as a lone black cell at the
                # start of a round): the same doubt as an unasked reading.
                # Every cell answered about this look is settled, not only
                # this answer's (simulated BITS 3376: a purple half named,
                # then its blue half; the purple one, doubted again, was
                # settled as the card's blue and the wrong tile recorded).
                doubt = {
                    cell: options
                    for cell, options in self._plausible(outcome, pending.obs).items()
                    if cell not in told
                }
                combos = [self._outcome(b) for _, b in self._combinations(board, doubt)]
                outcome = self._settled(combos) or outcome
        except NotNow as why:
            log.debug("board %s: confirmed board not judged now (%s)", self.board, why)
            return events
        shaky = self._shaky_unasked(outcome, pending.obs, told)
        if shaky and pending.obs is not None:
            # The answer leaves a refusal that hangs on the colour of cells
            # nobody was asked about, read poorly: asked about in turn, as
            # an unasked look read so would be (simulated BITS 3106: a black
            # and purple tile at the top of a steep view, both halves read
            # black 15 ΔE off it; the players said the cell beside it was
            # bare, and the tile was refused as the wrong one).
            asked = self._with_hints(board, shaky, pending.obs)
            if any(len(options) > 1 for options in asked.values()):
                choices = [(c, self._outcome(b)) for c, b in self._combinations(board, asked)]
                return events + self._ask(board, asked, choices, pending.obs, t, told)
        other_half = self._other_half(outcome, told)
        if other_half and pending.obs is not None:
            # The players said what one half is, and with the other half as
            # read no tile looks like that (half grey, half colour): the
            # camera misread the half nobody was asked about. Ask about it
            # rather than refuse a tile that cannot exist (a black tile
            # under a highlight read clearly as grey: simulated BITS 619).
            return events + self._ask(board, other_half, [], pending.obs, t, told)
        lone = {} if pending.obs is None else self._lone_half(outcome, pending.obs)
        if pending.obs is not None and any(cell not in told for cell in lone):
            # The players named one cell a tile's colour, and it is the only
            # new cell: no tile covers one cell, so its other half lies on a
            # neighbour the camera read as the board (simulated BITS 1429: a
            # purple half under a new lamp's core read as the print, the
            # blue half asked about alone, named, refused as "not a tile").
            # Ask about the neighbours that may hold it; answered, a lone
            # half is refused.
            choices = [(c, self._outcome(b)) for c, b in self._combinations(board, lone)]
            return events + self._ask(board, lone, choices, pending.obs, t, told)
        if pending.obs is not None:
            # The tile the players named is refused: the card's tile may lie
            # unseen where the look hardly changed (simulated BITS 957: a
            # black tile asked about, named, refused as the wrong tile; the
            # card's black double lay under it, one half under a glint).
            unseen = self._after_unseen_drop(board, outcome, pending.obs, answer)
            if unseen is not None:
                return events + self._act(unseen, pending.lab, t, settled=False, learn=False)
        return events + self._act(outcome, pending.lab, t, settled=True, learn=False)

    def _shaky_unasked(
        self, outcome: Outcome, obs: Observation | None, answer: dict[Cell, str]
    ) -> dict[Cell, tuple[str, ...]]:
        """The new cells of a colour refusal the players were not asked
        about (each with its code as read), when one of them is read poorly
        (:meth:`_poorly_read`); empty when the refusal stands on the colours."""
        if obs is None or self.known is None or not self._colour_doubt(outcome):
            return {}
        rows = list(outcome.rows)
        fresh = [c for c in new_cells(self.known, rows, self.referee.empty) if c not in answer]
        if not any(self._read_poorly(cell, obs) for cell in fresh):
            return {}
        return {cell: (rows[cell[0]][cell[1]],) for cell in fresh}

    def _told_taken_back(
        self, board: list[str], answer: dict[Cell, str], pending: Pending
    ) -> list[str]:
        """``board`` as the players' ``answer`` leaves it, with the refused
        tile the question was about taken back whole when they named one of
        its cells the game's board: a tile is taken off whole, and its other
        cells, kept only because their colour still fitted, are the board
        too (simulated BITS 3038: a second grey double refused and taken
        off under a lamp's glare; one half asked about and named the ramp,
        the other, read as before, made a lone grey cell "outside the
        grid")."""
        assert self.known is not None
        refused, obs = pending.refused, pending.obs
        if refused is None or obs is None or self.seen is None:
            return board
        cells = new_cells(self.known, list(refused), self.referee.empty)
        if not any(answer.get(cell) == self.known[cell[0]][cell[1]] for cell in cells):
            return board
        grid = [list(row) for row in board]
        self._back_whole(grid, {}, refused, obs, told=answer)
        return ["".join(row) for row in grid]

    def _other_half(self, outcome: Outcome, answer: dict[Cell, str]) -> dict[Cell, tuple[str, ...]]:
        """For a refusal of new cells that are no piece at all, the new
        cells the players were not asked about, each with the codes the game
        expects there that would make one piece with the answered cells
        (then the code read); ``{}`` when the refusal stands."""
        assert self.known is not None
        fresh = new_cells(self.known, list(outcome.rows), self.referee.empty)
        unasked = [cell for cell in fresh if cell not in answer]
        if outcome.kind != "illegal" or not unasked or len(unasked) == len(fresh):
            return {}
        codes = "".join(outcome.rows[r][c] for r, c in fresh)
        if self.referee.is_piece(codes):
            return {}
        options: dict[Cell, tuple[str, ...]] = {}
        for cell in unasked:
            fits = tuple(
                code
                for code in self.referee.likely_codes(fresh)
                if self.referee.is_piece(
                    "".join(code if f == cell else outcome.rows[f[0]][f[1]] for f in fresh)
                )
            )
            if not fits:
                return {}
            # What the camera read stays a choice: the players' first
            # answer may have been the slip.
            options[cell] = (*fits, outcome.rows[cell[0]][cell[1]])
        return options

    def _alert_scope(self) -> int | None:
        """Whose alerts to clear: the BITS player of this ramp; all on a LITS board."""
        player = self.referee.alert_player()
        return player if isinstance(player, int) else None


def _fits_nothing(cell: Cell, obs: Observation) -> bool:
    """Whether ``cell`` reads beyond the palette's ``max_distance`` of every
    code: a glint or a lamp's core, which says nothing of what lies there."""
    return float(obs.distance[cell].min()) > obs.max_distance
