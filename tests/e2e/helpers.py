"""Helpers of the end-to-end tests (imported by the test modules next to it)."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tablelight.games.farlander.engine import Farlander
from tablelight.games.farlander.face import SOLID, Pixel
from tablelight.table.service import Table


def reference_game(players: int, seed: int, seats: list[str]) -> Farlander:
    """The same game played with no board and no faults."""
    game = Farlander(players, seed=seed)
    Table(game, seats).run()
    return game


#: Set to 1 to let the end-to-end tests refresh the pictures of the docs (docs/img) they take.
UPDATE_SCREENSHOTS = "TABLELIGHT_UPDATE_SCREENSHOTS"
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"


def keep_screenshot(taken: Path, name: str, environ: Mapping[str, str] = os.environ) -> Path | None:
    """Copy a screenshot a test took (in its tmp folder) to docs/img/``name`` only when
    TABLELIGHT_UPDATE_SCREENSHOTS=1: an ordinary run leaves the checked-in picture alone."""
    if environ.get(UPDATE_SCREENSHOTS) != "1":
        return None
    target = DOCS_IMG / name
    shutil.copyfile(taken, target)
    return target


def wait_for(check: Callable[[], Any], timeout: float = 5.0, interval: float = 0.01) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {check}")
        time.sleep(interval)


def shows_scene(shown: Sequence[Sequence[int]], wanted: Sequence[Pixel]) -> bool:
    """True when the LEDs ``shown`` are the solid pixels of ``wanted``, scaled by one common factor.

    The board scales every colour by its brightness and current limiter; blinking and
    pulsing LEDs animate, so only their being lit at some point matters and they are left out.
    """
    if len(shown) < len(wanted):  # the board is between boots
        return False
    # The common factor comes from the brightest wanted LED: a dim one rounds too coarsely to tell it.
    lit = [led for led, want in enumerate(wanted) if want[3] == SOLID and max(want[:3]) > 0]
    factor = None
    if lit:
        top = max(lit, key=lambda led: max(wanted[led][:3]))
        channel = max(range(3), key=lambda c: wanted[top][c])
        factor = shown[top][channel] / wanted[top][channel]
    for led, want in enumerate(wanted):
        if want[3] != SOLID:
            continue
        got = shown[led][:3]
        if max(want[:3]) == 0:
            if max(got) != 0:
                return False
            continue
        if max(got) == 0:
            return False
        channel = max(range(3), key=lambda c: want[c])
        ratio = got[channel] / want[channel]
        factor = ratio if factor is None else factor
        if any(abs(got[c] - want[c] * factor) > 3 for c in range(3)):
            return False
    return True
