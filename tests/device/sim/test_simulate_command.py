"""``tilewatch simulate`` writes files that read back as the truth says."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from device.cli import main
from device.sources.folder import FolderSource


def test_simulate_writes_frames_and_truth_that_replay(tmp_path, capsys) -> None:
    out = tmp_path / "run"
    code = main(
        [
            "simulate",
            "--game",
            "lits",
            "--seed",
            "3",
            "--fps",
            "5",
            "--seconds",
            "6",
            "--size",
            "160x120",
            "--conditions",
            "random",
            "--set",
            "kelvin=3000",
            "--out",
            str(out),
            "--json",
        ]
    )
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    truth = json.loads((out / "truth.json").read_text())
    assert summary["frames"] == len(truth["frames"]) == 31
    assert truth["conditions"]["kelvin"] == 3000.0
    assert truth["corner_order"] == ["UL", "UR", "LR", "LL"]
    assert truth["game"] == "lits" and truth["grid"] == [10, 10]
    kinds = [e["kind"] for e in truth["events"]]
    assert "placed" in kinds and summary["placed"] == kinds.count("placed")
    # replaying the folder gives the same frames in the same order
    replay = list(FolderSource(out, fps=5))
    assert len(replay) == 31
    for frame, entry in zip(replay, truth["frames"], strict=True):
        assert frame.meta["path"].endswith(entry["file"])
        assert frame.image.shape == (120, 160, 3)
    corners = np.array(truth["frames"][0]["corners"])
    assert ((corners >= 0) & (corners < [160, 120])).all()


def test_simulate_video(tmp_path) -> None:
    video = tmp_path / "bits.avi"
    assert main(["simulate", "--video", str(video), "--frames", "8", "--size", "128x96"]) == 0
    capture = cv2.VideoCapture(str(video))
    count = 0
    while capture.read()[0]:
        count += 1
    assert count == 8
    truth = json.loads((tmp_path / "bits.avi.json").read_text())
    assert len(truth["frames"]) == 8 and "file" not in truth["frames"][0]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--set", "kelvin=20"], "kelvin=20.0 is outside"),
        (["--set", "kelvin"], "expected NAME=VALUE"),
        (["--size", "big"], "expected WIDTHxHEIGHT"),
        (["--conditions", "stormy"], "unknown conditions"),
        (["--fps", "0"], "--fps must be positive"),
    ],
)
def test_bad_arguments_are_one_line_errors(tmp_path, capsys, argv, message) -> None:
    code = main(["simulate", "--out", str(tmp_path / "x"), *argv])
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
