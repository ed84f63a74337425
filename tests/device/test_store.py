"""The SQLite game record: real files in tmp_path, reopened as after a restart."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

from device.store import Store, StoreError

SETUP = {"players": ["Ann", "寶"], "seed": 7}


def drop(n: int) -> dict:
    return {"type": "drop", "n": n}


def test_a_game_survives_reopening_with_its_log_in_order(tmp_path):
    path = tmp_path / "t.sqlite"
    store = Store(path)
    gid = store.start_game("bits", SETUP, t=100.0)
    assert store.append(gid, "action", drop(1), [{"event": "placed"}], "camera", 101.0) == 1
    assert store.append(gid, "action", drop(2), [], "phone", 102.0) == 2
    store.close()

    again = Store(path)
    game = again.active_game()
    assert game is not None
    assert (game.id, game.game, game.setup) == (gid, "bits", SETUP)
    assert [e.seq for e in game.entries] == [1, 2]
    assert game.entries[0].events == [{"event": "placed"}]
    assert game.entries[0].source == "camera"
    assert game.actions == [drop(1), drop(2)]


def test_undo_entries_cancel_the_latest_action_and_history_is_kept(tmp_path):
    store = Store(tmp_path / "t.sqlite")
    gid = store.start_game("bits", SETUP, t=1.0)
    store.append(gid, "action", drop(1), [], "camera", 2.0)
    store.append(gid, "action", drop(2), [], "camera", 3.0)
    store.append(gid, "undo", None, [], "phone", 4.0)
    store.append(gid, "action", drop(3), [], "camera", 5.0)
    game = store.load(gid)
    assert game.actions == [drop(1), drop(3)]
    assert [e.kind for e in game.entries] == ["action", "action", "undo", "action"]


def test_the_file_is_in_wal_mode_with_full_sync(tmp_path):
    path = tmp_path / "t.sqlite"
    Store(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_new_game_replaces_the_active_one_and_both_stay_in_history(tmp_path):
    store = Store(tmp_path / "t.sqlite")
    first = store.start_game("bits", SETUP, t=1.0)
    second = store.start_game("lits", {"layout": "random"}, t=2.0)
    active = store.active_game()
    assert active is not None and active.id == second
    old = store.load(first)
    assert (old.ended, old.outcome) == (2.0, "replaced")
    assert [g["id"] for g in store.games()] == [second, first]
    with pytest.raises(StoreError, match="ended"):
        store.append(first, "action", drop(1), [], "camera", 3.0)


def test_unknown_game_and_unknown_kind_are_refused(tmp_path):
    store = Store(tmp_path / "t.sqlite")
    with pytest.raises(StoreError, match="no game 42"):
        store.append(42, "action", drop(1), [], "camera", 1.0)
    gid = store.start_game("bits", SETUP, t=1.0)
    with pytest.raises(ValueError, match="kind"):
        store.append(gid, "redo", None, [], "phone", 1.0)  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        store.load(999)


def test_a_full_disk_is_a_clear_error_and_nothing_recorded_is_lost(tmp_path):
    path = tmp_path / "t.sqlite"
    store = Store(path)
    gid = store.start_game("bits", SETUP, t=1.0)
    store.append(gid, "action", drop(1), [], "camera", 2.0)
    # SQLite's own page limit makes the file "full" exactly as a full disk does
    # (SQLITE_FULL), without needing root to fill a real file system.
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count={pages}")
    big = {"type": "drop", "pad": "x" * 20000}
    with pytest.raises(StoreError, match="disk is full"):
        store.append(gid, "action", big, [], "camera", 3.0)
    store.close()
    game = Store(path).active_game()
    assert game is not None and game.actions == [drop(1)]


def test_a_file_that_is_not_a_database_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "t.sqlite"
    junk = b"this is not sqlite" * 100
    path.write_bytes(junk)
    with pytest.raises(StoreError, match="not a readable tilewatch game record"):
        Store(path)
    assert path.read_bytes() == junk


def test_a_record_from_a_newer_tilewatch_is_refused(tmp_path):
    path = tmp_path / "t.sqlite"
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=99")
    db.close()
    with pytest.raises(StoreError, match="newer tilewatch"):
        Store(path)


def test_an_unwritable_folder_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="cannot open"):
        Store(blocker / "sub" / "t.sqlite")


def test_meta_settings_persist(tmp_path):
    path = tmp_path / "t.sqlite"
    store = Store(path)
    assert store.get_meta("pin") is None
    store.set_meta("pin", "1234")
    store.set_meta("pin", "5678")
    store.close()
    assert Store(path).get_meta("pin") == "5678"


def test_threads_appending_at_once_get_distinct_consecutive_seqs(tmp_path):
    store = Store(tmp_path / "t.sqlite")
    gid = store.start_game("bits", SETUP, t=1.0)
    seqs: list[int] = []

    def work(k: int) -> None:
        for i in range(10):
            seqs.append(store.append(gid, "action", drop(k * 100 + i), [], "camera", 2.0))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(seqs) == list(range(1, 41))
    assert len(store.load(gid).entries) == 40


WRITER = """
import sys, time
from device.store import Store
store = Store(sys.argv[1])
gid = store.start_game("bits", {"players": ["A"]}, t=time.time())
n = 0
while True:
    n += 1
    store.append(gid, "action", {"type": "drop", "n": n}, [], "camera", time.time())
    print(n, flush=True)   # acknowledged only after append returned
"""


def test_every_acknowledged_entry_survives_a_sigkill(tmp_path):
    path = tmp_path / "t.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    assert proc.stdout is not None
    acked = 0
    deadline = time.monotonic() + 60  # a guard against a hung writer, not a timing
    while acked < 25 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        acked = int(line)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    # Acknowledgements printed before the kill landed but not yet read are
    # acknowledged too (a busy host runs the writer on a few appends more).
    for line in proc.stdout.read().split("\n")[:-1]:  # whole lines only
        acked = int(line)
    assert acked >= 25, "the writer did not get going"
    game = Store(path).active_game()
    assert game is not None
    stored = [a["n"] for a in game.actions]
    # everything acknowledged is there, in order; at most the one in flight beyond it
    assert stored[:acked] == list(range(1, acked + 1))
    assert len(stored) <= acked + 1
    assert json.dumps(game.setup) == json.dumps({"players": ["A"]})
