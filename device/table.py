"""The table: the one service interface between the running companion and
everything that shows or changes it (the phone page, the tracker, the CLI).

A :class:`Table` owns the game in progress (BITS or LITS), records every
change in the :class:`~device.store.Store` before acknowledging it, resumes
the recorded game on start, and publishes every change on a
:class:`~device.hub.Hub` (the phones follow it over server-sent events).
It also holds what the camera side knows, which is not part of the game:
the camera's status, the latest annotated snapshot, alerts waiting for the
players, and the calibration wizard's state.

Who calls what::

    table = Table(Store(path))                     # resumes the recorded game
    # the phone page (web_ui), with the PIN checked by the page
    table.new_game("bits", {"players": ["Ann", "Bo"], ...})
    table.apply({"type": ..., ...}, source="phone")
    table.undo()
    # the tracker (camera side)
    table.camera_status("ok")
    table.set_snapshot(jpeg_bytes, t)
    table.apply(action, source="camera")           # a judged, legal placement
    table.raise_illegal(player, verdict, action)   # not applied; players decide
    table.raise_unsure(player, cells, candidates)  # waits for a confirmation
    table.listen(callback)                         # corrections, confirmations

Everything is thread-safe; methods return plain JSON-able data.
"""

from __future__ import annotations

import hmac
import importlib
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from device.hub import Hub, Message, Subscription
from device.store import Kind, Store, StoredGame, StoreError
from engine.errors import ActionError

log = logging.getLogger(__name__)

GAMES = {"bits": "engine.bits.game", "lits": "engine.lits.game"}
CAMERA_STATUSES = ("starting", "ok", "gone", "view_moved", "light_changed", "off")
SOURCES = ("camera", "phone", "cli", "demo", "replay")
ANSWERS = (("illegal", "accept"), ("illegal", "overrule"), ("unsure", "confirm"))


class TableError(ValueError):
    """A request the table refuses (no game, unknown alert, bad value...).

    ``reason`` is a stable snake_case code (the page and tests key on it),
    ``status`` the HTTP status the page answers with."""

    def __init__(self, reason: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.status = status


class Game(Protocol):
    """What the table needs of an engine's game (engine.bits / engine.lits)."""

    @property
    def actions(self) -> list[dict[str, Any]]: ...

    def apply(self, action: dict[str, Any]) -> list[dict[str, Any]]: ...

    def undo(self) -> Any: ...  # LITS: the action taken back; BITS: events

    def view(self) -> dict[str, Any]: ...


def game_class(name: str) -> Any:
    """The engine's ``Game`` class for ``"bits"`` or ``"lits"``."""
    if name not in GAMES:
        raise TableError("unknown_game", f"unknown game {name!r}; choose one of: bits, lits")
    return importlib.import_module(GAMES[name]).Game


@dataclass
class Alert:
    """Something the players must look at: an illegal placement the camera
    saw, or cells it could not read for sure."""

    id: int
    kind: Literal["illegal", "unsure"]
    player: int | str | None  # BITS: the board's player number; LITS: the name
    reason: str  # verdict reason code, or 'unsure'
    message: str  # in English; the page translates by reason
    cells: list[list[int]]
    # unsure: for each cell (same order as ``cells``), the codes it may be
    candidates: list[list[str]] = field(default_factory=list)
    # illegal: the action the camera saw, applied if the players overrule
    action: dict[str, Any] | None = None
    t: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "player": self.player,
            "reason": self.reason,
            "message": self.message,
            "cells": self.cells,
            "candidates": self.candidates,
            "can_overrule": self.action is not None,
            "t": self.t,
        }


Listener = Callable[[Message], None]


class Table:
    """See the module docstring. ``pin``: the table PIN (4-8 digits); when
    None, a random one is made once and kept in the store, so phones that
    entered it stay allowed across restarts."""

    def __init__(self, store: Store, pin: str | None = None, hub: Hub | None = None) -> None:
        self.store = store
        self.hub = hub or Hub()
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._record: StoredGame | None = None
        self._game: Game | None = None
        self._camera: dict[str, Any] = {"status": "off", "message": "", "t": None}
        self._snapshot: tuple[bytes, float, int] | None = None
        self._snapshot_cond = threading.Condition()
        self._alerts: dict[int, Alert] = {}
        self._alert_ids = 0
        self._calibration: dict[str, Any] = _empty_calibration()
        self._calibration_jpeg: bytes | None = None
        self._closing = threading.Event()
        self.pin = pin or self._stored_pin()
        self.secret = self._stored_secret()
        self._resume()

    # -- start-up ---------------------------------------------------------

    def _stored_pin(self) -> str:
        pin = self.store.get_meta("pin")
        if pin is None:
            pin = f"{secrets.randbelow(10000):04d}"
            self.store.set_meta("pin", pin)
        return pin

    def _stored_secret(self) -> str:
        secret = self.store.get_meta("secret")
        if secret is None:
            secret = secrets.token_hex(32)
            self.store.set_meta("secret", secret)
        return secret

    def _resume(self) -> None:
        record = self.store.active_game()
        if record is None:
            return
        try:
            cls = game_class(record.game)
            self._game = cls.replay(record.setup, record.actions)
        except (ActionError, TableError, StoreError) as err:
            # A record this engine cannot replay must not stop the service:
            # the page says so and offers a new game; the record stays on disk.
            log.error("cannot resume game %s: %s", record.id, err)
            self._camera["message"] = f"could not resume game {record.id}: {err}"
            return
        self._record = record
        log.info("resumed game %s (%s) at entry %s", record.id, record.game, record.last_seq)

    # -- PIN --------------------------------------------------------------

    def check_pin(self, pin: object) -> bool:
        """True when ``pin`` is the table PIN (constant-time compare)."""
        if not isinstance(pin, str) or not pin:
            return False
        return hmac.compare_digest(pin.strip().encode(), self.pin.encode())

    # -- listening --------------------------------------------------------

    def subscribe(self, last_event_id: str | None = None) -> Subscription:
        """Follow every change (see :class:`~device.hub.Subscription`)."""
        return self.hub.subscribe(last_event_id)

    def listen(self, callback: Listener) -> None:
        """Call ``callback(message)`` after every change, in the thread that
        made it. For the tracker: corrections, confirmations, undo and
        calibration requests from the phones arrive this way."""
        with self._lock:
            self._listeners.append(callback)

    def unlisten(self, callback: Listener) -> None:
        """Stop calling ``callback`` (a tracker that is replaced must go, or
        the table would keep it, and every frame it holds, alive)."""
        with self._lock:
            self._listeners = [c for c in self._listeners if c != callback]

    def _publish(self, kind: str, data: dict[str, Any]) -> Message:
        msg = self.hub.publish(kind, data)
        for callback in list(self._listeners):
            try:
                callback(msg)
            except Exception:  # a listener's bug must not undo a recorded change
                log.exception("table listener failed on %s", kind)
        return msg

    # -- the game ---------------------------------------------------------

    @property
    def game_name(self) -> str | None:
        return None if self._record is None else self._record.game

    @property
    def game(self) -> Game | None:
        """The engine's game object, for reading (the tracker asks it what
        the card is, judges placements with it). Change it only through
        :meth:`apply` and :meth:`undo`, which record and publish."""
        return self._game

    def new_game(self, game: str, setup: dict[str, Any], source: str = "phone") -> dict[str, Any]:
        """Start a new game (the one in progress is kept in the history)."""
        if not isinstance(setup, dict):
            raise TableError("bad_setup", "the set-up must be an object")
        cls = game_class(game)
        try:
            new = cls.new(setup)
        except ActionError as err:
            raise TableError("bad_setup", str(err)) from err
        # The engine may fill in defaults (seeds, layouts); record what it used.
        used = getattr(new, "setup", setup)
        with self._lock:
            gid = self.store.start_game(game, dict(used), time.time())
            self._record = self.store.load(gid)
            self._game = new
            self._alerts.clear()
        self._publish("game", {"change": "new", "game": game, "record": gid, "source": source})
        return self.state()

    def _need_game(self) -> tuple[StoredGame, Game]:
        if self._record is None or self._game is None:
            raise TableError("no_game", "no game is in progress; set one up first", 409)
        return self._record, self._game

    def apply(self, action: dict[str, Any], source: str = "camera") -> list[dict[str, Any]]:
        """Offer one action to the engine; returns its events.

        Accepted (the engine recorded it): saved to the store *before* this
        returns, every alert settled, a 'game' message published. Judged
        illegal (an ``illegal`` event, nothing changed): kept in the history
        as 'refused' and raised as an alert the players answer (accept, or
        overrule when the event says ``can_overrule``).

        Raises :class:`~engine.errors.ActionError` (nothing changed) when the
        engine refuses a malformed or impossible action, and
        :class:`~device.store.StoreError` when it cannot be saved (the game
        is put back as it was)."""
        if not isinstance(action, dict):
            raise ActionError("an action must be an object")
        with self._lock:
            record, game = self._need_game()
            before = len(game.actions)
            events = self._engine_apply(game, action)
            accepted = len(game.actions) > before
            illegal = [e for e in events if e.get("type") == "illegal"]
            if accepted or illegal:
                kind: Kind = "action" if accepted else "refused"
                stored = game.actions[-1] if accepted else action
                try:
                    self.store.append(record.id, kind, stored, events, source, time.time())
                except StoreError:
                    if accepted:
                        self._rebuild()
                    raise
            if accepted:
                self._alerts_after_change()
            raised = [self._illegal_alert(e, action) for e in illegal]
        if accepted:
            self._publish("game", {"change": "action", "events": events, "source": source})
        for alert in raised:
            self._publish("alert", {"change": "raised", "alert": alert.to_json()})
        return events

    def _illegal_alert(self, event: dict[str, Any], action: dict[str, Any]) -> Alert:
        """An alert for an engine's ``illegal`` event (lock held)."""
        overrule = _overrule_action(self.game_name, event, action)
        self._alert_ids += 1
        alert = Alert(
            id=self._alert_ids,
            kind="illegal",
            player=event.get("player"),
            reason=str(event.get("reason", "illegal")),
            message=str(event.get("message", "")),
            cells=_cells(event.get("cells", [])),
            action=overrule,
            t=time.time(),
        )
        self._alerts[alert.id] = alert
        return alert

    def _engine_apply(self, game: Game, action: dict[str, Any]) -> list[dict[str, Any]]:
        try:
            return list(game.apply(action))
        except ActionError:
            raise
        except Exception as err:
            # The engine promises ActionError for anything malformed; if some
            # input slips through as another error, the game may be half
            # changed: rebuild it from the record and refuse the action.
            log.exception("engine failed on action %r", action)
            self._rebuild()
            raise ActionError(f"the game could not take this action ({err})") from err

    def undo(self, source: str = "phone") -> list[dict[str, Any]]:
        """Take back the last placement; recorded like any change. Returns
        the events (``[{"type": "undone", ...}]``)."""
        with self._lock:
            record, game = self._need_game()
            count = len(game.actions)
            try:
                result = game.undo()
            except ActionError as err:
                raise TableError("nothing_to_undo", str(err), 409) from None
            # LITS takes the action off its list (and returns it); BITS keeps
            # it and records an "undo" action (returning events). The store
            # mirrors whichever the engine did, so replay rebuilds the same game.
            if len(game.actions) < count:
                kind: Kind = "undo"
                stored = None
                events = [{"type": "undone", "action": result}]
            else:
                kind, stored, events = "action", game.actions[-1], list(result)
            try:
                self.store.append(record.id, kind, stored, events, source, time.time())
            except StoreError:
                self._rebuild()
                raise
            self._alerts_after_change()
        self._publish("game", {"change": "undo", "events": events, "source": source})
        return events

    def correct_cell(
        self, player: int | str, cell: list[int], code: str, source: str = "phone"
    ) -> list[dict[str, Any]]:
        """A player fixes a cell the camera misread: BITS, a tile colour on
        ``player``'s board (``code`` from ``.RYBPKN``); LITS, a printed symbol
        of the layout (``X``, ``O`` or ``.``; ``player`` is ignored). Applied
        and recorded like any action; the tracker re-bases on the message."""
        record, _ = self._need_game()
        if record.game == "bits":
            action = {"type": "correct_cell", "player": player, "cell": cell, "code": code}
        else:
            action = {"type": "correct_cell", "cell": cell, "symbol": code}
        return self.apply(action, source=source)

    def _rebuild(self) -> None:
        """Put the in-memory game back to what the record says."""
        if self._record is None:
            return
        self._record = self.store.load(self._record.id)
        cls = game_class(self._record.game)
        self._game = cls.replay(self._record.setup, self._record.actions)

    def _alerts_after_change(self) -> None:
        # An accepted change (placement, undo, correction) settles every
        # alert: the camera raises a new one if the board still disagrees.
        self._alerts.clear()

    def record(self, game_id: int | None = None) -> StoredGame:
        """The stored record of a game (default: the one in progress)."""
        if game_id is None:
            record, _ = self._need_game()
            game_id = record.id
        try:
            return self.store.load(game_id)
        except KeyError:
            raise TableError("unknown_game_id", f"there is no game {game_id}", 404) from None

    # -- camera side ------------------------------------------------------

    def camera_status(self, status: str, message: str = "", t: float | None = None) -> None:
        """Report the camera's health: 'ok', 'gone' (unplugged, retrying),
        'view_moved' (the grid moved; searching), 'light_changed', 'starting',
        'off'. Published only when it changes."""
        if status not in CAMERA_STATUSES:
            raise TableError("bad_status", f"camera status must be one of {CAMERA_STATUSES}")
        with self._lock:
            if self._camera["status"] == status and self._camera["message"] == message:
                return
            self._camera = {"status": status, "message": message, "t": t or time.time()}
            data = dict(self._camera)
        self._publish("camera", data)

    def set_snapshot(self, jpeg: bytes, t: float) -> None:
        """The latest camera picture with the detected grid drawn on it
        (JPEG bytes), for the page's snapshot and MJPEG stream. Not
        published as an event: phones poll or stream it."""
        if not isinstance(jpeg, bytes | bytearray) or not jpeg.startswith(b"\xff\xd8"):
            raise TableError("bad_snapshot", "a snapshot must be JPEG bytes")
        with self._snapshot_cond:
            n = self._snapshot[2] + 1 if self._snapshot else 1
            self._snapshot = (bytes(jpeg), t, n)
            self._snapshot_cond.notify_all()

    def snapshot(self) -> tuple[bytes, float, int] | None:
        """``(jpeg, t, n)`` of the latest snapshot (n counts them), or None."""
        return self._snapshot

    def wait_snapshot(self, after: int, timeout: float) -> tuple[bytes, float, int] | None:
        """The first snapshot newer than number ``after``, waiting up to
        ``timeout`` seconds; None on timeout or when the service stops."""
        deadline = time.monotonic() + timeout
        with self._snapshot_cond:
            while not self.closing and (self._snapshot is None or self._snapshot[2] <= after):
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._snapshot_cond.wait(left)
            return None if self.closing else self._snapshot

    def raise_illegal(
        self,
        player: int,
        verdict: Any,
        action: dict[str, Any] | None = None,
    ) -> int:
        """Tell the players a placement broke a rule, for a problem the tracker
        found itself (``table.apply`` raises alerts for the engine's own
        ``illegal`` events). ``verdict`` is an ``engine.verdict.Verdict`` (or
        its JSON); ``action``, if given, is the engine action to apply if the
        players overrule (e.g. LITS ``{"type": "overrule", "shape", "cells"}``);
        without it the alert can only be accepted. Returns the alert id."""
        v = verdict.to_json() if hasattr(verdict, "to_json") else dict(verdict)
        if v.get("legal"):
            raise TableError("not_illegal", "the verdict says the placement is legal")
        return self._add_alert(
            kind="illegal",
            player=player,
            reason=str(v.get("reason", "illegal")),
            message=str(v.get("message", "")),
            cells=_cells(v.get("cells", [])),
            action=action,
        )

    def raise_unsure(
        self, player: int, cells: list[Any], candidates: list[list[str]] | None = None
    ) -> int:
        """Ask the players about cells the camera could not read for sure.
        ``candidates[i]`` lists the codes cell ``i`` may be, likeliest first.
        The game waits; the answer arrives to listeners as a 'confirm'
        message (``{"alert", "player", "cells", "codes"}``)."""
        cell_list = _cells(cells)
        cand = [list(map(str, c)) for c in (candidates or [[] for _ in cell_list])]
        if len(cand) != len(cell_list):
            raise TableError("bad_candidates", "one list of candidates per cell")
        return self._add_alert(
            kind="unsure",
            player=player,
            reason="unsure",
            message="The camera is not sure about these cells.",
            cells=cell_list,
            candidates=cand,
        )

    def _add_alert(self, **fields: Any) -> int:
        with self._lock:
            self._alert_ids += 1
            alert = Alert(id=self._alert_ids, t=time.time(), **fields)
            self._alerts[alert.id] = alert
            data = alert.to_json()
        self._publish("alert", {"change": "raised", "alert": data})
        return alert.id

    def alerts(self) -> list[dict[str, Any]]:
        with self._lock:
            return [a.to_json() for a in self._alerts.values()]

    def clear_alerts(self, player: int | None = None) -> None:
        """The camera saw the board put right: drop the alerts (of one player)."""
        with self._lock:
            gone = [a for a in self._alerts.values() if player is None or a.player == player]
            for a in gone:
                del self._alerts[a.id]
        if gone:
            self._publish("alert", {"change": "cleared", "ids": [a.id for a in gone]})

    def resolve_alert(
        self, alert_id: int, decision: str, codes: list[str] | None = None, source: str = "phone"
    ) -> dict[str, Any]:
        """The players' answer to an alert.

        - illegal + ``'accept'``: the verdict stands; they will fix the tile.
        - illegal + ``'overrule'``: house rule, the placement counts: the
          refused placement is applied as an ``overrule`` action (only where
          the engine allows it: the alert's ``can_overrule``).
        - unsure + ``'confirm'`` with ``codes`` (one per cell): listeners get
          a 'confirm' message and carry on with the confirmed reading.
        """
        with self._lock:
            alert = self._alerts.get(alert_id)
            if alert is None:
                raise TableError("unknown_alert", f"there is no alert {alert_id}", 404)
            answer = (alert.kind, decision)
            if answer == ("illegal", "overrule") and alert.action is None:
                raise TableError(
                    "cannot_overrule", "this rule cannot be overruled; take the piece back", 409
                )
            if answer not in ANSWERS:
                raise TableError(
                    "bad_decision",
                    f"{decision!r} is not an answer to an {alert.kind} alert "
                    f"({'accept or overrule' if alert.kind == 'illegal' else 'confirm'})",
                )
            result: dict[str, Any] = {"alert": alert_id, "decision": decision}
            if decision == "confirm":
                result.update(player=alert.player, cells=alert.cells, codes=_codes(codes, alert))
            if decision != "overrule":
                del self._alerts[alert_id]
        if decision == "overrule":
            assert alert.action is not None
            # apply() settles every alert once the placement is recorded
            result["events"] = self.apply(alert.action, source=source)
        kind = "confirm" if decision == "confirm" else "alert"
        self._publish(kind, {"change": "resolved", **result, "source": source})
        return result

    # -- calibration wizard -----------------------------------------------

    def calibration_snapshot(
        self,
        jpeg: bytes,
        corners: list[list[float]],
        grid: tuple[int, int],
        cells: list[str] | None = None,
        t: float | None = None,
        tight: float | None = None,
    ) -> None:
        """The wizard's picture: a camera frame (JPEG, *without* drawings: the
        page draws the grid so corners can be dragged), the grid's four
        outer corners in its pixels (upper-left, upper-right, lower-right,
        lower-left), the grid size, and the board as read (board text rows);
        ``tight``: the grid found comes within this many cells of the
        picture's edge, too close (see :func:`device.doctor.too_tight`), so
        the page asks for the camera to be raised or turned."""
        if not isinstance(jpeg, bytes | bytearray) or not jpeg.startswith(b"\xff\xd8"):
            raise TableError("bad_snapshot", "a snapshot must be JPEG bytes")
        checked = _corners(corners)
        size = jpeg_size(bytes(jpeg))
        if size is None:
            raise TableError("bad_snapshot", "a snapshot must be JPEG bytes")
        with self._lock:
            self._calibration_jpeg = bytes(jpeg)
            self._calibration.update(
                step="check",
                corners=checked,
                width=size[0],
                height=size[1],
                grid=[int(grid[0]), int(grid[1])],
                cells=list(cells) if cells is not None else None,
                image=len(jpeg),
                t=t or time.time(),
                tight=None if tight is None else round(max(float(tight), 0.0), 2),
            )
            data = dict(self._calibration)
        self._publish("calibration", {"change": "snapshot", "calibration": data})

    def calibration(self) -> dict[str, Any]:
        with self._lock:
            return dict(self._calibration)

    def calibration_image(self) -> bytes | None:
        return self._calibration_jpeg

    def calibration_start(self, source: str = "phone") -> None:
        """A player opened the wizard: listeners (the tracker) should send a
        fresh :meth:`calibration_snapshot`."""
        with self._lock:
            self._calibration["step"] = "waiting"
        self._publish("calibration", {"change": "start", "source": source})

    def calibration_corners(self, corners: list[Any], source: str = "phone") -> None:
        """The player dragged the corners; listeners re-read the board with
        them and send a new :meth:`calibration_snapshot`."""
        checked = _corners(corners)
        with self._lock:
            if self._calibration["corners"] is None:
                raise TableError("no_calibration", "no calibration picture yet", 409)
            self._calibration.update(corners=checked, step="waiting")
        self._publish("calibration", {"change": "corners", "corners": checked, "source": source})

    def calibration_confirm(self, source: str = "phone") -> None:
        """The player confirmed the reading; listeners save the profile."""
        with self._lock:
            if self._calibration["corners"] is None:
                raise TableError("no_calibration", "no calibration picture yet", 409)
            self._calibration["step"] = "done"
            corners = self._calibration["corners"]
        self._publish("calibration", {"change": "confirm", "corners": corners, "source": source})

    # -- everything a phone shows -----------------------------------------

    def state(self) -> dict[str, Any]:
        """The whole table as JSON: ``version`` (the latest event id),
        ``game`` ('bits'/'lits'/None), ``record`` (game id), ``view`` (the
        engine's ``view()``), ``camera``, ``alerts``, ``calibration``."""
        with self._lock:
            version = f"{self.hub.run}-{self.hub.seq}"
            snap = self._snapshot
            return {
                "version": version,
                "game": self.game_name,
                "record": None if self._record is None else self._record.id,
                "view": None if self._game is None else self._game.view(),
                "camera": {**self._camera, "snapshot": None if snap is None else snap[2]},
                "alerts": [a.to_json() for a in self._alerts.values()],
                "calibration": dict(self._calibration),
            }

    @property
    def closing(self) -> bool:
        return self._closing.is_set()

    def pause(self, seconds: float) -> bool:
        """Sleep up to ``seconds``, waking at once if the table closes.
        Returns True when closing (for loops that pace themselves)."""
        return self._closing.wait(seconds)

    def close(self) -> None:
        """Stop every listener (the service is shutting down)."""
        self._closing.set()
        self.hub.close()
        with self._snapshot_cond:
            self._snapshot_cond.notify_all()


def _overrule_action(
    game: str | None, event: dict[str, Any], action: dict[str, Any]
) -> dict[str, Any] | None:
    """The action that counts a refused placement anyway, or None where the
    engine does not allow it. LITS takes the placement again as type
    'overrule' (placement rules only: ``can_overrule``); BITS accepts "the
    player's last refused board", which it keeps only for boards the camera
    saw (``rows``)."""
    if game == "lits" and event.get("can_overrule"):
        return {**action, "type": "overrule"}
    if game == "bits" and "rows" in action and "player" in event:
        return {"type": "overrule", "player": event["player"]}
    return None


def _empty_calibration() -> dict[str, Any]:
    return {
        "step": "idle",
        "corners": None,
        "width": None,
        "height": None,
        "grid": None,
        "cells": None,
        "image": 0,
        "t": None,
        "tight": None,
    }


def jpeg_size(jpeg: bytes) -> tuple[int, int] | None:
    """``(width, height)`` from a JPEG's frame header, or None if it has none.

    >>> jpeg_size(bytes.fromhex("ffd8ffc0000b080020004003012200ffd9"))
    (64, 32)
    """
    if not jpeg.startswith(b"\xff\xd8"):
        return None
    i = 2
    while i + 4 <= len(jpeg):
        if jpeg[i] != 0xFF:
            return None
        marker = jpeg[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        length = int.from_bytes(jpeg[i + 2 : i + 4], "big")
        # SOF0..SOF15 carry the size, except DHT (C4), JPG (C8) and DAC (CC)
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if i + 9 > len(jpeg):
                return None
            height = int.from_bytes(jpeg[i + 5 : i + 7], "big")
            width = int.from_bytes(jpeg[i + 7 : i + 9], "big")
            return (width, height) if width and height else None
        i += 2 + length
    return None


def _cells(cells: Any) -> list[list[int]]:
    out = []
    for cell in cells:
        r, c = cell
        out.append([int(r), int(c)])
    return out


def _corners(corners: Any) -> list[list[float]]:
    try:
        pts = [[float(x), float(y)] for x, y in corners]
    except (TypeError, ValueError):
        raise TableError("bad_corners", "corners: four [x, y] points") from None
    if len(pts) != 4 or not all(v == v and abs(v) < 1e6 for p in pts for v in p):
        raise TableError("bad_corners", "corners: four [x, y] points")
    return pts


def _codes(codes: Any, alert: Alert) -> list[str]:
    if not isinstance(codes, list) or len(codes) != len(alert.cells):
        n = len(alert.cells)
        raise TableError("bad_codes", f"give one cell code for each of the {n} cells")
    for code in codes:
        if not isinstance(code, str) or len(code) != 1 or code == "?":
            raise TableError("bad_codes", "each cell code is one letter, e.g. R or .")
    return list(codes)
