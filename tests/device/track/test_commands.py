"""``tilewatch replay``, ``tilewatch eval track`` and ``tilewatch bench``,
run through the real command line on small simulated inputs."""

from __future__ import annotations

import json

import pytest

from device.cli import main
from device.track.scenarios import sim_game


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_replay_a_simulated_game_prints_its_placements(capsys):
    code, out, _ = run_cli(capsys, "replay", "sim:lits,seed=2", "--json", "--quiet")
    assert code == 0
    result = json.loads(out)
    assert result["game"] == "lits"
    placed = [e for e in result["events"] if e["type"] == "placed"]
    truth = [e for e in sim_game("lits", 2).events if e["kind"] == "placed" and e["legal"]]
    # the first placements as the simulated players made them
    assert [sorted(e["cells"]) for e in placed[:3]] == [sorted(e["cells"]) for e in truth[:3]]
    assert result["view"]["pieces"] == len(placed)


def test_replay_a_folder_from_simulate_uses_its_truth_file(tmp_path, capsys):
    folder = tmp_path / "run"
    code, _, _ = run_cli(
        capsys,
        "simulate", "--game", "bits", "--seed", "4", "--players", "1",
        "--out", str(folder), "--seconds", "8", "--format", "jpg",
    )  # fmt: skip
    assert code == 0
    code, out, _ = run_cli(capsys, "replay", str(folder), "--quiet")
    assert code == 0
    lines = out.strip().splitlines()
    # seed 4's first tile: PP in the bottom row, columns 5 and 6 (counted from 1)
    assert any("placed PP at 6,5 6,6" in line for line in lines), lines
    assert lines[-1].startswith("81 frames")  # 0.0 to 8.0 s at 10 fps


def test_replay_says_what_is_wrong_with_a_missing_source(capsys):
    code, _, err = run_cli(capsys, "replay", "/no/such/video.mp4")
    assert code == 2
    assert err.count("\n") == 1 and "video.mp4" in err


@pytest.mark.slow
def test_eval_track_small_run(capsys):
    code, out, err = run_cli(
        capsys, "eval", "track", "--games", "1", "--moves", "4",
        "--conditions", "plain", "--json",
    )  # fmt: skip
    assert code == 0
    report = json.loads(out)
    total = report["summary"]["all"]
    assert total["games"] == 2 and total["placements"] >= 8
    assert total["judged_right"] + total["missed"] <= total["placements"]
    # plain light, short games: nearly everything judged right, nothing made
    # up (a black tile refused on the black ramp may pass unseen)
    assert total["judged_right"] >= total["placements"] - 1
    assert total["false_placements"] == 0
    assert "[2/2] lits seed 1" in err


def test_bench_reports_speed_and_memory(capsys):
    code, out, _ = run_cli(
        capsys, "bench", "--sizes", "320x240", "--seconds", "4", "--repeats", "1", "--json"
    )
    assert code == 0
    report = json.loads(out)
    (row,) = report["results"]
    assert row["size"] == "320x240" and row["frames"] == 121
    assert row["fps_median"] > 0 and row["ms_per_frame_median"] > 0
    assert row["peak_traced_mib"] > 0 and report["peak_rss_mib"] > 0


def test_bench_refuses_a_bad_size(capsys):
    code, _, err = run_cli(capsys, "bench", "--sizes", "big")
    assert code == 2 and "--sizes" in err
