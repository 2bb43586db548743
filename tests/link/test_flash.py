"""`tablelight flash` copies the firmware onto a CIRCUITPY drive (a temporary folder here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablelight.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def test_flash_copies_firmware_and_keeps_board_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.1 on 2024-11-20; Adafruit Feather nRF52840 Express")
    (tmp_path / "settings.toml").write_text('TL_BUDGET_MA = 1800\n')
    assert main(["flash", "--drive", str(tmp_path)]) == 0
    for name in ("boot.py", "code.py"):
        assert (tmp_path / name).read_bytes() == (ROOT / "firmware" / name).read_bytes()
    for source in (ROOT / "firmware" / "lib").glob("*.py"):
        assert (tmp_path / "lib" / source.name).read_bytes() == source.read_bytes()
    assert (tmp_path / "lib" / "neopixel.py").exists()
    assert (tmp_path / "settings.toml").read_text() == "TL_BUDGET_MA = 1800\n"
    assert "reset" in capsys.readouterr().out


def test_flash_refuses_a_folder_that_is_not_circuitpython(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["flash", "--drive", str(tmp_path)]) == 1
    assert "boot_out.txt" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
