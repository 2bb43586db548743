"""``tablelight lab``: statistics per variant, the same figures for any number of workers, resuming a file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tablelight.cli.main import main


def lab_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["lab", *args, "--json", "--quiet"]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def without_run(stats: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in stats.items() if k != "run"}


def test_variants_and_their_comparison(capsys: pytest.CaptureFixture[str]) -> None:
    stats = lab_json(capsys, "mainland", "--games", "12", "--bots", "random,greedy", "--vary", "board_size=8,10",
                     "--seed", "3", "--workers", "1")
    assert [v["label"] for v in stats["variants"]] == ["board_size=8", "board_size=10"]
    for variant in stats["variants"]:
        assert variant["games"] == 12
        assert variant["options"]["board_size"] in (8, 10)
        seats = variant["win_rate_by_seat"]
        assert len(seats) == 2 and all(0 <= s["ci95"][0] <= s["ci95"][1] <= 1 for s in seats)
        # the bots rotate seats: each sits 12 times
        assert {b: p["n"] for b, p in variant["win_rate_by_bot"].items()} == {"greedy": 12, "random": 12}
        assert variant["actions"]["n"] == 12 and variant["actions"]["min"] > 0
        assert "place" in variant["action_types"]
        assert variant["events"]["chance:shuffle"]["per_game"] > 0
    comparison = stats["comparisons"][0]
    assert comparison["base"] == "board_size=8" and comparison["variant"] == "board_size=10"
    assert set(comparison["win_rate_by_bot"]) == {"greedy", "random"}
    assert stats["run"]["workers"] == 1 and stats["run"]["games_played"] == 24


def test_the_last_vary_is_compared_within_each_value_of_the_others(capsys: pytest.CaptureFixture[str]) -> None:
    stats = lab_json(capsys, "farlander", "--games", "3", "--vary", "players=2,3", "--vary", "garrisons=off,on",
                     "--workers", "1")
    assert [v["label"] for v in stats["variants"]] == [
        "players=2, garrisons=off", "players=2, garrisons=on", "players=3, garrisons=off", "players=3, garrisons=on"]
    assert [(c["base"], c["variant"]) for c in stats["comparisons"]] == [
        ("players=2, garrisons=off", "players=2, garrisons=on"), ("players=3, garrisons=off", "players=3, garrisons=on")]
    assert [v["players"] for v in stats["variants"]] == [2, 2, 3, 3]


def test_same_statistics_for_one_and_two_workers(capsys: pytest.CaptureFixture[str]) -> None:
    one = lab_json(capsys, "farlander", "--games", "10", "--players", "3", "--seed", "5", "--workers", "1")
    two = lab_json(capsys, "farlander", "--games", "10", "--players", "3", "--seed", "5", "--workers", "2")
    assert without_run(one) == without_run(two)
    assert one["run"]["workers"] == 1 and two["run"]["workers"] == 2
    other_seed = lab_json(capsys, "farlander", "--games", "10", "--players", "3", "--seed", "6", "--workers", "1")
    assert without_run(other_seed) != without_run(one)


def test_max_actions_caps_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    stats = lab_json(capsys, "landover", "--games", "2", "--players", "3", "--workers", "1", "--max-actions", "40")
    variant = stats["variants"][0]
    assert variant["capped"]["k"] == 2 and variant["actions"]["max"] == 40
    assert all(p["k"] == 0 for p in variant["win_rate_by_seat"])


def test_a_stopped_lab_continues_from_its_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole = lab_json(capsys, "mainland", "--games", "9", "--seed", "2", "--workers", "1")
    out = tmp_path / "games.jsonl"
    lab_json(capsys, "mainland", "--games", "9", "--seed", "2", "--workers", "1", "--out", str(out))
    lines = out.read_text().splitlines()
    assert len(lines) == 10  # header + 9 games
    # Simulate a stop: keep 4 games and half of the fifth line.
    out.write_text("\n".join(lines[:5]) + "\n" + lines[5][: len(lines[5]) // 2])
    resumed = lab_json(capsys, "mainland", "--games", "9", "--seed", "2", "--workers", "2", "--out", str(out))
    assert resumed["run"]["games_resumed"] == 4 and resumed["run"]["games_played"] == 5
    assert without_run(resumed) == without_run(whole)
    assert len(out.read_text().splitlines()) == 10


def test_another_plan_in_the_same_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    lab_json(capsys, "mainland", "--games", "2", "--seed", "2", "--workers", "1", "--out", str(out))
    before = out.read_text()
    assert main(["lab", "mainland", "--games", "2", "--seed", "9", "--out", str(out), "--quiet"]) == 1
    assert "another lab" in capsys.readouterr().err
    assert out.read_text() == before


@pytest.mark.parametrize(
    "args, message",
    [
        (["--vary", "board_size"], "--vary takes OPTION=V1,V2"),
        (["--vary", "no_such=1,2"], "unknown option"),
        (["--vary", "board_size=8,huge"], "board_size"),
        (["--bots", "nobody"], "unknown bot 'nobody'"),
        (["--bots", "mcts:lots"], "bot 'mcts:lots': after ':' give the iterations per move"),
        (["--bots", "mcts:0"], "bot 'mcts:0'"),
        (["--bots", "greedy:8"], "unknown bot 'greedy:8'"),
        (["--games", "0"], "--games must be at least 1"),
        (["--max-actions", "0"], "--max-actions must be at least 1"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--cluster", "local:zero"], "local:N"),
        (["--vary", "players=two"], "--vary players takes whole numbers"),
        (["--out", "/nonexistent-dir/games.jsonl"], "cannot use the results file"),
    ],
)
def test_bad_options_get_one_clear_error(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert main(["lab", "mainland", "--games", "2", "--quiet", *args]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_html_report_has_the_plots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report.html"
    assert main(["lab", "mainland", "--games", "6", "--bots", "random,greedy", "--vary", "board_size=8,10",
                 "--workers", "1", "--quiet", "--report", str(report)]) == 0
    text = report.read_text()
    assert text.count("<svg") >= 5  # seats, bots, capped/first, two length histograms, comparison
    assert "Win rate by bot" in text and "Variants against their baseline" in text
    assert "board_size=10" in capsys.readouterr().out
