"""CI gates for the firmware: mpy-cross syntax, the circuitpython-stubs type check, one wire source."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE_FILES = sorted([ROOT / "firmware" / "boot.py", ROOT / "firmware" / "code.py",
                         *(ROOT / "firmware" / "lib").glob("*.py")])
BIN = Path(sys.executable).parent


@pytest.mark.parametrize("path", FIRMWARE_FILES, ids=[p.name for p in FIRMWARE_FILES])
def test_mpy_cross_accepts(path: Path, tmp_path: Path) -> None:
    result = subprocess.run([str(BIN / "mpy-cross"), "-o", str(tmp_path / "out.mpy"), str(path)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_mpy_cross_rejects_cpython_only_syntax(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f(a, /, b):\n    return a\n")
    result = subprocess.run([str(BIN / "mpy-cross"), "-o", str(tmp_path / "out.mpy"), str(bad)],
                            capture_output=True, text=True)
    assert result.returncode != 0


def test_firmware_type_checks_against_circuitpython_stubs() -> None:
    result = subprocess.run([str(BIN / "mypy"), "--config-file", "firmware/mypy.ini"], capture_output=True,
                            text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_host_uses_the_firmware_wire_file() -> None:
    from tablelight.wire import wire

    assert os.path.samefile(wire.__file__, ROOT / "firmware" / "lib" / "tablelight_wire.py")
