"""`tablelight bench link` runs the whole path and reports its figures (sizes checked, never times)."""

from __future__ import annotations

import json

import pytest

from tablelight.cli.main import main


@pytest.mark.parametrize("driver", [[], ["--async"]], ids=["thread", "asyncio"])
def test_bench_link_reports_latency_and_move_size(capsys: pytest.CaptureFixture[str], driver: list[str]) -> None:
    assert main(["bench", "link", "--presses", "5", "--json", *driver]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["presses"] == 5
    assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert figures["update_bytes"] <= 20 < figures["scene_bytes"]
