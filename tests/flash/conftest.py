"""Fake CIRCUITPY drives (folders) and the pinned library wheels, cached by scripts/test.sh."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WHEELS = ROOT / ".venv" / "tablelight-cache"  # filled by scripts/test.sh (`tablelight flash --download`)

FEATHER_BOOT_OUT = ("Adafruit CircuitPython 9.2.1 on 2024-11-20; Adafruit Feather nRF52840 Express with nRF52840\n"
                    "Board ID:feather_nrf52840_express\nUID:C5A7C1E2B3D4\n")


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """Libraries from the pre-filled cache; drives only looked for under an empty test folder."""
    from tablelight.flash import libraries

    monkeypatch.setenv("TABLELIGHT_CACHE", str(WHEELS))
    if not all((WHEELS / lib.wheel).exists() for lib in libraries.pinned()):
        libraries.fetch_all()  # scripts/test.sh normally did this already
    mounts = tmp_path / "mounts"
    mounts.mkdir()
    monkeypatch.setenv("TABLELIGHT_MOUNTS", str(mounts))
    yield


@pytest.fixture
def mounts(tmp_path: Path) -> Path:
    return tmp_path / "mounts"


def make_circuitpy(path: Path, boot_out: str = FEATHER_BOOT_OUT) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    (path / "boot_out.txt").write_text(boot_out)
    return path


@pytest.fixture
def drive(mounts: Path) -> Path:
    """An empty CIRCUITPY drive of a Feather nRF52840 Express running CircuitPython 9.2.1."""
    return make_circuitpy(mounts / "CIRCUITPY")


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
