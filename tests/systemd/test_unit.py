"""The unit file as systemd itself reads it."""

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "tilewatch.service"


def _unit_for(prefix: Path) -> str:
    return UNIT.read_text().replace("@PREFIX@", str(prefix))


def _parsed() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read_string(_unit_for(Path("/opt/tilewatch")))
    return parser


def test_unit_asks_for_notify_watchdog_restart_and_hardening():
    service = _parsed()["Service"]
    assert service["Type"] == "notify"
    assert service["WatchdogSec"] == "30"
    assert service["Restart"] == "on-failure"
    assert service["StateDirectory"] == "tilewatch"
    assert "video" in service["SupplementaryGroups"].split()
    for key in ("NoNewPrivileges", "ProtectHome", "PrivateTmp"):
        assert service[key] == "yes"
    assert service["ProtectSystem"] == "strict"
    assert service["ExecStart"].startswith("/opt/tilewatch/venv/bin/tilewatch serve --config ")


def _verify(tmp_path: Path, text: str) -> tuple[int, list[str]]:
    """systemd-analyze verify on ``text``; the lines it complains about our unit."""
    # Point ExecStart at a real executable so verify can check it exists.
    prefix = tmp_path / "prefix"
    (prefix / "venv" / "bin").mkdir(parents=True, exist_ok=True)
    exe = prefix / "venv" / "bin" / "tilewatch"
    if not exe.exists():
        exe.symlink_to(Path(sys.executable))
    unit = tmp_path / "tilewatch.service"
    unit.write_text(text.replace("@PREFIX@", str(prefix)))
    result = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(unit)], capture_output=True, text=True
    )
    # The User= not existing on this machine is fine (install.sh creates it).
    problems = [
        line
        for line in result.stderr.splitlines()
        if "tilewatch.service" in line and "User" not in line
    ]
    return result.returncode, problems


needs_systemd = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="needs systemd-analyze (make test installs it)"
)


@needs_systemd
def test_systemd_analyze_verify_accepts_the_unit(tmp_path):
    code, problems = _verify(tmp_path, UNIT.read_text())
    assert code == 0 and not problems, problems


@needs_systemd
def test_verify_would_catch_a_misspelt_key(tmp_path):
    _, problems = _verify(tmp_path, UNIT.read_text().replace("WatchdogSec=", "WatchdogSecs="))
    assert any("WatchdogSecs" in line for line in problems)
