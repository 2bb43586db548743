"""The hardware guide's host-lost power figures are the firmware's own estimates (docs match code)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tl_limit import CurrentLimiter  # type: ignore[import-not-found]
from tl_scene import MODE_LOST, PULSE_PERIOD_MS, Renderer, Scene  # type: ignore[import-not-found]

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "hardware.md"


def lost_pattern_range(leds: int, budget: int) -> tuple[int, int]:
    scene = Scene(leds)
    renderer = Renderer(scene, CurrentLimiter(budget, leds))
    renderer.mode = MODE_LOST
    estimates = []
    for now in range(0, PULSE_PERIOD_MS, 5):
        renderer.render(now)
        estimates.append(renderer.limiter.estimated_ma)
    return min(estimates), max(estimates)


@pytest.mark.parametrize(("board", "leds", "budget"), [("Farlander", 55, 450), ("Farside console", 83, 450),
                                                       ("Mainland mini-map", 284, 2700), ("Landover", 348, 1800)])
def test_host_lost_figures_match_the_firmware(board: str, leds: int, budget: int) -> None:
    low, high = lost_pattern_range(leds, budget)
    row = re.search(rf"^\| {board}, {leds} LEDs, budget {budget} \| (\d+)-(\d+) mA \| (.+) \|$",
                    GUIDE.read_text(encoding="utf-8"), re.MULTILINE)
    assert row, f"no host-lost row for {board} in {GUIDE}"
    assert (int(row[1]), int(row[2])) == (low, high)
    assert (row[3] != "no") == (high >= budget - 1)
