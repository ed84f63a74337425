"""The game record on disk: SQLite in WAL mode, one transaction per event.

A game is its set-up plus the log of what happened to it, in order: each
entry is an action the engine accepted (with the events it produced), an
undo, or a placement the engine refused (kept for the history only).
Nothing is ever rewritten or deleted, so the history of every game is
kept, and replaying the log rebuilds the game exactly where it was::

    store = Store("/var/lib/tilewatch/tilewatch.db")
    gid = store.start_game("bits", setup, t=time.time())
    store.append(gid, "action", {"type": "drop", ...}, events, source="camera", t=...)
    later = store.active_game()          # after a restart
    later.actions                        # the actions still in effect (undos applied)

Durability: ``synchronous=FULL`` so a committed entry survives a pulled power
cord, not just a killed process; the caller acknowledges an event only after
:meth:`Store.append` returns. Errors (a full disk, a file that is not a
database) raise :class:`StoreError` with a sentence for the user, and the
transaction is rolled back, so what was recorded before stays intact.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

SCHEMA_VERSION = 1

Kind = Literal["action", "undo", "refused"]

_SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
)""",
    """
CREATE TABLE IF NOT EXISTS games (
    id      INTEGER PRIMARY KEY,
    game    TEXT NOT NULL,            -- 'bits' or 'lits'
    setup   TEXT NOT NULL,            -- JSON, as given to Game.new
    started REAL NOT NULL,            -- unix seconds
    ended   REAL,                     -- NULL while the game is in progress
    outcome TEXT                      -- 'replaced' or 'closed' once ended
)""",
    """
CREATE TABLE IF NOT EXISTS log (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,         -- 1, 2, 3 ... per game
    -- 'action': accepted by the engine, 'undo': takes back the latest action,
    -- 'refused': a placement the engine judged illegal (kept for the history,
    -- skipped by replay)
    kind    TEXT NOT NULL CHECK (kind IN ('action', 'undo', 'refused')),
    action  TEXT,                     -- JSON, NULL for 'undo'
    events  TEXT NOT NULL,            -- JSON list the engine returned
    source  TEXT NOT NULL,            -- who asked: 'camera', 'phone', 'cli', ...
    t       REAL NOT NULL,            -- unix seconds
    PRIMARY KEY (game_id, seq)
)""",
)


class StoreError(RuntimeError):
    """The record cannot be read or written; the message says why and what to do."""


@dataclass(frozen=True)
class Entry:
    """One line of a game's log."""

    seq: int
    kind: Kind
    action: dict[str, Any] | None
    events: list[dict[str, Any]]
    source: str
    t: float

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "kind": self.kind,
            "action": self.action,
            "events": self.events,
            "source": self.source,
            "t": self.t,
        }


@dataclass(frozen=True)
class StoredGame:
    """A game as recorded: set-up, log, and whether it ended."""

    id: int
    game: str
    setup: dict[str, Any]
    started: float
    ended: float | None = None
    outcome: str | None = None
    entries: list[Entry] = field(default_factory=list)

    @property
    def actions(self) -> list[dict[str, Any]]:
        """The actions still in effect: each undo cancels the latest one left;
        refused placements never count.

        >>> e = lambda s, k, a=None: Entry(s, k, a, [], "phone", 0.0)
        >>> g = StoredGame(1, "bits", {}, 0.0, entries=[
        ...     e(1, "action", {"n": 1}), e(2, "action", {"n": 2}), e(3, "undo"),
        ...     e(4, "refused", {"n": 9}), e(5, "action", {"n": 3})])
        >>> g.actions
        [{'n': 1}, {'n': 3}]
        """
        stack: list[dict[str, Any]] = []
        for entry in self.entries:
            if entry.kind == "action" and entry.action is not None:
                stack.append(entry.action)
            elif entry.kind == "undo" and stack:
                stack.pop()
        return stack

    @property
    def last_seq(self) -> int:
        return self.entries[-1].seq if self.entries else 0

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "started": self.started,
            "ended": self.ended,
            "outcome": self.outcome,
            "entries": len(self.entries),
        }


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


class Store:
    """One SQLite file holding every game, plus a few table settings (``meta``).

    Thread-safe: one connection guarded by a lock; the web server's threads
    and the camera loop share it. Writes are tiny (one row), so a lock costs
    nothing next to the fsync that makes them durable.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                str(self.path), check_same_thread=False, isolation_level=None, timeout=10.0
            )
        except (OSError, sqlite3.Error) as err:
            raise StoreError(f"cannot open the game record {self.path}: {err}") from err
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} was written by a newer tilewatch (schema {version}, "
                    f"this one knows {SCHEMA_VERSION}); upgrade tilewatch"
                )
            with self._transaction():
                # executescript() would commit on its own: one statement at a time
                for statement in _SCHEMA:
                    self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.DatabaseError as err:
            self._db.close()
            raise StoreError(
                f"{self.path} is not a readable tilewatch game record ({err}); "
                "move it aside to start a new one, nothing was changed"
            ) from err

    # -- plumbing ---------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            # SQLite rolls back by itself on some errors (SQLITE_FULL)
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    @contextmanager
    def _writing(self, what: str) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                with self._transaction() as db:
                    yield db
            except sqlite3.OperationalError as err:
                hint = " (the disk is full: free some space)" if "full" in str(err) else ""
                raise StoreError(f"could not save {what}: {err}{hint}") from err
            except sqlite3.DatabaseError as err:
                raise StoreError(f"could not save {what}: {err}") from err

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- settings ---------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self._writing(f"setting {key!r}") as db:
            db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    # -- games ------------------------------------------------------------

    def start_game(self, game: str, setup: dict[str, Any], t: float) -> int:
        """Record a new game; a game still in progress is marked replaced
        in the same transaction (only one game is ever active)."""
        with self._writing("the new game") as db:
            db.execute("UPDATE games SET ended = ?, outcome = 'replaced' WHERE ended IS NULL", (t,))
            cur = db.execute(
                "INSERT INTO games (game, setup, started) VALUES (?, ?, ?)",
                (game, _dumps(setup), t),
            )
            return int(cur.lastrowid or 0)

    def append(
        self,
        game_id: int,
        kind: Kind,
        action: dict[str, Any] | None,
        events: list[dict[str, Any]],
        source: str,
        t: float,
    ) -> int:
        """Add one entry to a game's log, durably; returns its ``seq``."""
        if kind not in ("action", "undo", "refused"):
            raise ValueError(f"unknown log entry kind {kind!r}")
        with self._writing("the event") as db:
            row = db.execute(
                "SELECT ended, (SELECT COALESCE(MAX(seq), 0) FROM log WHERE game_id = ?) "
                "FROM games WHERE id = ?",
                (game_id, game_id),
            ).fetchone()
            if row is None:
                raise StoreError(f"there is no game {game_id}")
            if row[0] is not None:
                raise StoreError(f"game {game_id} has ended; start a new game")
            seq = int(row[1]) + 1
            db.execute(
                "INSERT INTO log (game_id, seq, kind, action, events, source, t) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    seq,
                    kind,
                    None if action is None else _dumps(action),
                    _dumps(events),
                    source,
                    t,
                ),
            )
            return seq

    def end_game(self, game_id: int, t: float, outcome: str = "closed") -> None:
        """Close a game for good (it is no longer resumed on start)."""
        with self._writing("the end of the game") as db:
            db.execute(
                "UPDATE games SET ended = ?, outcome = ? WHERE id = ? AND ended IS NULL",
                (t, outcome, game_id),
            )

    def active_game(self) -> StoredGame | None:
        """The game in progress (the one to resume), or ``None``."""
        with self._lock:
            row = self._db.execute(
                "SELECT id FROM games WHERE ended IS NULL ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return None if row is None else self.load(int(row[0]))

    def load(self, game_id: int) -> StoredGame:
        with self._lock:
            row = self._db.execute(
                "SELECT id, game, setup, started, ended, outcome FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                raise KeyError(game_id)
            rows = self._db.execute(
                "SELECT seq, kind, action, events, source, t FROM log "
                "WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        entries = [
            Entry(
                seq=int(seq),
                kind=kind,
                action=None if action is None else json.loads(action),
                events=json.loads(events),
                source=str(source),
                t=float(t),
            )
            for seq, kind, action, events, source, t in rows
        ]
        return StoredGame(
            id=int(row[0]),
            game=str(row[1]),
            setup=json.loads(row[2]),
            started=float(row[3]),
            ended=None if row[4] is None else float(row[4]),
            outcome=row[5],
            entries=entries,
        )

    def games(self, limit: int = 100) -> list[dict[str, Any]]:
        """Summaries of the latest games, newest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.game, g.started, g.ended, g.outcome, "
                "(SELECT COUNT(*) FROM log WHERE game_id = g.id) "
                "FROM games g ORDER BY g.id DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [
            {
                "id": r[0],
                "game": r[1],
                "started": r[2],
                "ended": r[3],
                "outcome": r[4],
                "entries": r[5],
            }
            for r in rows
        ]
