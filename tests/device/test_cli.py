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


def test_a_reader_that_goes_away_is_not_an_error():
    # `tilewatch ... | head -1`: the pipe closes before the output is written.
    proc = subprocess.Popen(
        [sys.executable, "-m", "device.cli", "score", "--list-cards"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    proc.stdout.close()
    assert proc.wait(timeout=30) == 0
    assert "Traceback" not in proc.stderr.read()
