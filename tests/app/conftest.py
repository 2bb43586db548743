"""The app, built once per test session (`tablelight app build`), and served by `tablelight app serve`."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tablelight.app.build import Built, build_app, find_pyodide
from tablelight.core.errors import SetupError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def built_app(tmp_path_factory: pytest.TempPathFactory) -> Built:
    try:
        find_pyodide()
    except SetupError as error:
        pytest.fail(f"{error} (scripts/test.sh runs npm ci)")
    # the pinned Adafruit libraries the app carries, from the wheels scripts/test.sh cached
    os.environ.setdefault("TABLELIGHT_CACHE", str(ROOT / ".venv" / "tablelight-cache"))
    return build_app(tmp_path_factory.mktemp("app") / "site")


class Served:
    """``tablelight app serve DIR --port 0`` in a child process; ``url`` once it listens."""

    def __init__(self, folder: Path, *options: str, data_home: Path | None = None) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "host"))
        if data_home is not None:  # where it keeps what it makes (a self-signed certificate)
            env["XDG_DATA_HOME"] = str(data_home)
        self.process = subprocess.Popen([sys.executable, "-m", "tablelight", "app", "serve", str(folder), "--port", "0",
                                         *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if " at http://" not in line:
            self.stop()
            raise AssertionError(f"the server did not start: {line}{self.process.stderr.read() if self.process.stderr else ''}")
        self.url = line.split(" at ", 1)[1].split()[0]
        #: With --share: the address phones open (the second line names it).
        self.phones_url = self.process.stdout.readline().split(" at ", 1)[1].split()[0].rstrip(":") if options else ""

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


@pytest.fixture(scope="session")
def served_app(built_app: Built) -> Iterator[Served]:
    served = Served(built_app.folder)
    yield served
    served.stop()


def open_setup(page: Any) -> None:
    """Unfold "new game" as a player would: it folds away once a game takes the screen."""
    if not page.eval_on_selector("#setup", "details => details.open"):
        page.click("#setup summary")


def choose_first(page: Any) -> None:
    """Tap the seat screen's first choice, through its steps (more than 8 choices come in steps),
    until a move is sent."""
    for _ in range(8):
        button = page.locator("#choices button").first
        is_step = "step" in (button.get_attribute("class") or "").split()
        button.click()
        if not is_step:
            return
    raise AssertionError("no move after 8 steps")
