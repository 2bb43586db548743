"""`tablelight bench link --ble` runs the whole BLE path at two MTUs and reports its figures
(sizes and write counts checked, never times)."""

from __future__ import annotations

import json

import pytest

from tablelight.cli.main import main


def test_bench_link_ble_reports_both_mtus(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "link", "--ble", "--scenes", "2", "--presses", "3", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    small, large = figures["mtus"]
    assert figures["layout"] == "landover" and small["leds"] == 348
    assert (small["mtu"], large["mtu"]) == (23, 247)
    assert small["scene_bytes"] == large["scene_bytes"] > 20 * small["move_bytes"] // 2
    assert small["scene_writes"] > large["scene_writes"] >= 2 and small["move_writes"] == 1
    assert 0 < small["scene_p50_ms"] <= small["scene_max_ms"]
