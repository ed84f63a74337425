import subprocess
import sys


def test_help_lists_the_commands():
    out = subprocess.run(
        [sys.executable, "-m", "device.cli", "--help"], capture_output=True, text=True, check=True
    )
    assert "tilewatch" in out.stdout


def test_no_command_is_an_error_with_help():
    out = subprocess.run([sys.executable, "-m", "device.cli"], capture_output=True, text=True)
    assert out.returncode == 2
    assert "usage" in out.stdout
