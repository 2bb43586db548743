"""Helpers of the end-to-end tests (imported by the test modules next to it)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tablelight.games.farlander.engine import Farlander
from tablelight.games.farlander.face import SOLID, Pixel
from tablelight.table.service import Table
from tablelight.table.store import GameStore

CHROMIUM = "/usr/bin/chromium"
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--no-first-run"]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


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


class Hosted:
    """``tablelight ARGS`` in a child process, what it prints (stdout and stderr) collected as it comes."""

    def __init__(self, *args: str, env: Mapping[str, str] | None = None) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "tablelight", *args], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, bufsize=1, env=env)
        self.out: list[str] = []
        self.err: list[str] = []
        for stream, lines in ((self.process.stdout, self.out), (self.process.stderr, self.err)):
            threading.Thread(target=lambda s=stream, kept=lines: [kept.append(line) for line in s], daemon=True).start()

    def text(self) -> str:
        return "".join(self.out) + "".join(self.err)

    def links(self, count: int, timeout: float = 30) -> list[str]:
        """The seats' join links, once ``count`` are printed."""
        wait_for(lambda: len(re.findall(r"join (http://\S+)", self.text())) >= count, timeout=timeout)
        return re.findall(r"join (http://\S+)", self.text())

    def shared_page(self) -> str:
        """The shared board page's address, as the terminal names it."""
        found = re.search(r"board page for everyone: (\S+)", self.text())
        assert found, self.text()
        return found.group(1)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


def bots_interrupted(db: str, actions: int) -> str:
    """A Farlander game of two random bots on the simulated board, kept in ``db`` (``$TABLELIGHT_DB``, as
    a user's default store) and interrupted (Ctrl-C) once it has ``actions`` actions; what it printed."""
    env = {**os.environ, "TABLELIGHT_DB": db}
    play = subprocess.Popen([sys.executable, "-m", "tablelight", "play", "farlander", "--seats", "random,random",
                             "--board", "sim", "--view", "none", "--bot-delay", "0.02"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        def played() -> bool:
            if not os.path.exists(db):
                return False
            with GameStore(db) as store:
                games = store.games()
                return bool(games) and games[0].actions >= actions
        wait_for(played, timeout=30)
        play.send_signal(signal.SIGINT)
        return play.communicate(timeout=15)[0]
    finally:
        if play.poll() is None:
            play.kill()
