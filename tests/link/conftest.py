"""Fixtures for link tests: a simulated board, a session on it, and fault-injecting links."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablelight.board.session import BoardSession
from tablelight.sim.board import SimBoard

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "firmware" / "lib") not in sys.path:
    sys.path.insert(0, str(ROOT / "firmware" / "lib"))


@pytest.fixture
def sim() -> Iterator[SimBoard]:
    with SimBoard.start() as board:
        yield board


@pytest.fixture
def session(sim: SimBoard) -> Iterator[BoardSession]:
    s = BoardSession.open(sim.port)
    yield s
    s.close()


