"""Fixtures for Bluetooth LE tests: bumble's virtual radio (no Bluetooth hardware needed)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablelight.sim.radio import VirtualRadio

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "firmware" / "lib") not in sys.path:
    sys.path.insert(0, str(ROOT / "firmware" / "lib"))


@pytest.fixture
def radio() -> Iterator[VirtualRadio]:
    air = VirtualRadio()
    yield air
    air.close()
