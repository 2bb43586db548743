"""The Landover benchmark module works without catanatron installed (figures are not asserted)."""

from __future__ import annotations

import argparse
import importlib

import pytest

from tablelight.games.landover import bench


def test_landover_random_games_report_rates_and_turn_caps() -> None:
    figures = bench.landover_random_games(1, seed=3, players=2)
    assert figures["games"] == 1 and figures["actions"] > 0
    assert figures["actions_per_s"] > 0 and 0 <= figures["turn_capped"] <= 1
    assert figures["mean_turns"] > 0


def test_missing_catanatron_gets_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.import_module

    def fake(name: str, *args: object) -> object:
        if name == "catanatron":
            raise ImportError("No module named 'catanatron'")
        return real(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(importlib, "import_module", fake)
    with pytest.raises(RuntimeError, match=r"tablelight\[bench\]"):
        bench.catanatron_random_games(1)


def test_vs_catanatron_is_for_landover_only(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(game="farlander", games=1, seed=0, json=True, players=2)
    assert bench.run_vs_catanatron(args) == 2
    assert "landover" in capsys.readouterr().err


def test_the_stalls_study_prints_one_line_of_figures_per_variant(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from tablelight.games.landover import stalls

    assert stalls.main(["--games", "1", "--variant", "format 1 (before)", "--variant", "format 2 (now)"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [list(line) for line in lines] == [["format 1 (before)"], ["format 2 (now)"]]
    for line in lines:
        figures = next(iter(line.values()))
        assert figures["games"] == 1 and 0 <= figures["capped"] <= 1 and figures["mean_turns"] > 0
        assert figures["attacks"] >= figures["attacks_on_no_city"] >= 0


def test_vs_catanatron_with_cpu_times_both_engines_by_cpu_seconds(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json
    import time

    clocks: list[object] = []

    def fake_catanatron_game(catanatron: object, seed: int, tally: object, clock: object = None) -> None:
        clocks.append(clock)
        tally.add(10, 5, False, 0.5)  # type: ignore[attr-defined]

    monkeypatch.setattr(bench, "load_catanatron", lambda: object())
    monkeypatch.setattr(bench, "play_catanatron_game", fake_catanatron_game)
    args = argparse.Namespace(game="landover", games=1, seed=3, json=True, players=4, cpu=True)
    assert bench.run_vs_catanatron(args) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["seconds"] == "cpu" and clocks == [time.process_time]
    assert figures["catanatron"]["actions_per_s"] == 20.0 and figures["landover"]["actions"] > 0


def test_cpu_without_vs_catanatron_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from tablelight.cli import bench as cli_bench

    args = argparse.Namespace(game="landover", games=1, seed=0, json=True, players=2, cpu=True, vs_catanatron=False)
    assert cli_bench.run_rules(args) == 2
    assert "--cpu goes with --vs-catanatron" in capsys.readouterr().err
