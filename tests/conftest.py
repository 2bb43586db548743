"""Project-wide pytest options: ``--board=PORT`` runs the end-to-end tests and the ``hardware``-marked
suite (tests/hardware) against a real board, or against one started with `tablelight sim`.

Without ``--board`` the same tests run against a simulated board (the real firmware on
CPython with fake hardware, reached through a pseudo-terminal). Tests that must press
keys or reboot the board by program use ``sim_board`` and are skipped on real hardware.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

pytest_plugins = ["tests.board_plugin"]  # --board-console, --board-logs, --flash (per-test console logs, resets)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--board",
        action="store",
        default=None,
        metavar="PORT",
        help="serial port (or pyserial URL) of a real board for the end-to-end tests; default: a simulated board",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "hardware: runs only with --board=PORT (a real or `tablelight sim` board)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--board"):
        return
    skip = pytest.mark.skip(reason="needs a real board: run with --board=PORT")
    for item in items:
        if item.get_closest_marker("hardware"):
            item.add_marker(skip)


@pytest.fixture
def real_board(request: pytest.FixtureRequest) -> str | None:
    """The ``--board`` port, or None when the tests run on the simulated board."""
    port: str | None = request.config.getoption("--board")
    return port


@pytest.fixture
def sim_board(real_board: str | None) -> Iterator[Any]:
    """A running SimBoard (skipped with ``--board``: a real board cannot be pressed by program)."""
    if real_board:
        pytest.skip("presses keys or reboots the board by program: simulated board only")
    from tablelight.sim.board import SimBoard

    with SimBoard.start("farlander") as sim:
        yield sim


@pytest.fixture
def board_port(request: pytest.FixtureRequest, real_board: str | None) -> Iterator[str]:
    """The port of the board under test: the real one given with ``--board``, else a SimBoard's pty."""
    if real_board:
        yield real_board
        return
    from tablelight.sim.board import SimBoard

    with SimBoard.start("farlander") as sim:
        yield sim.port


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless under Playwright, one per test module (each test opens its own
    context); skipped where either is missing (scripts/test.sh installs both)."""
    from tests.e2e.helpers import BROWSER_ARGS, CHROMIUM

    sync_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian chromium is not installed (scripts/test.sh installs it)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        yield launched
        launched.close()
