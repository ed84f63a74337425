"""A pulled power cord, as near as a test gets: the real server, the real
simulated camera playing at full speed, SIGKILL mid-game, and a restart that
must show every event that was acknowledged before the kill."""

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

pytestmark = pytest.mark.slow


def _start(args, env):
    proc = subprocess.Popen(
        [sys.executable, "-m", "device.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    deadline = time.monotonic() + 60
    lines = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        found = re.search(r"open (http://[\d.]+:\d+/) on the phones", line)
        if found:
            return proc, found.group(1)
    proc.kill()
    raise AssertionError("server did not start:\n" + "".join(lines))


def _get(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def test_every_acknowledged_event_survives_sigkill(tmp_path):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    state = tmp_path / "state"
    proc, url = _start(
        ["demo", "--fast", "--host", "127.0.0.1", "--port", "0", "--state", str(state)], env
    )
    try:
        # Let the game run until several placements are recorded.
        deadline = time.monotonic() + 90
        record = None
        while time.monotonic() < deadline:
            table = _get(url + "api/state")
            if table["record"] is not None:
                record = _get(url + f"api/games/{table['record']}")
                if sum(e["kind"] == "action" for e in record["log"]) >= 4:
                    break
            time.sleep(0.2)
        assert record is not None and sum(e["kind"] == "action" for e in record["log"]) >= 4
        acknowledged = record["log"]
        game_id = table["record"]
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)

    # Back up without the demo (it would deal a new game): the plain service,
    # on a camera that is not there, must resume the same game.
    proc, url = _start(
        [
            "serve",
            "--camera",
            "usb:97",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--state",
            str(state),
        ],
        env,
    )
    try:
        table = _get(url + "api/state")
        assert table["record"] == game_id
        after = _get(url + f"api/games/{game_id}")["log"]
        assert after[: len(acknowledged)] == acknowledged
        assert table["camera"]["status"] == "gone"  # and the page says so
        # The resumed game is the replayed record: the board on the page is
        # the board the record rebuilds.
        assert table["view"] == _get(url + f"api/games/{game_id}")["view"]
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
