"""`tablelight flash --circuitpython FILE.uf2`: bootloader, board check, UF2 copy, then tablelight."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablelight.cli.main import main

from .fake_bootloader import FakeBoard, uf2_file


def test_the_1200_baud_touch_installs_circuitpython_then_tablelight(mounts: Path, tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    uf2 = uf2_file(tmp_path / "adafruit-circuitpython-feather_nrf52840_express-en_US-9.2.1.uf2")
    with FakeBoard(mounts) as board:
        assert main(["flash", "--circuitpython", str(uf2), "--console", board.console, "--layout", "farside",
                     "--no-wait", "--wait", "20"]) == 0
        assert board.touched.is_set()
        assert board.flashed == uf2.read_bytes()
    out = capsys.readouterr().out
    assert "Adafruit Feather nRF52840 Express bootloader" in out and "CircuitPython is running" in out
    assert (mounts / "CIRCUITPY" / "code.py").exists()
    assert 'TL_LAYOUT = "farside"' in (mounts / "CIRCUITPY" / "settings.toml").read_text()


def test_without_a_console_it_asks_for_a_double_tap(mounts: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    uf2 = uf2_file(tmp_path / "circuitpython.uf2")
    with FakeBoard(mounts) as board:
        board.enter_bootloader()  # the maker double-tapped reset before running the command
        assert main(["flash", "--circuitpython", str(uf2), "--no-wait", "--wait", "20"]) == 0
        assert not board.touched.is_set() and board.flashed == uf2.read_bytes()
    assert (mounts / "CIRCUITPY" / "boot.py").exists()


def test_no_bootloader_drive_ends_with_what_to_do(mounts: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    uf2 = uf2_file(tmp_path / "circuitpython.uf2")
    assert main(["flash", "--circuitpython", str(uf2), "--no-wait", "--wait", "0.3"]) == 1
    err = capsys.readouterr().err
    assert "no UF2 bootloader drive appeared within 0.3 s" in err and "double-tap" in err


def test_a_uf2_for_another_chip_is_refused_before_copying(mounts: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    uf2 = uf2_file(tmp_path / "pico.uf2", family=0xE48BFF56)  # RP2040
    with FakeBoard(mounts) as board:
        board.enter_bootloader()
        assert main(["flash", "--circuitpython", str(uf2), "--no-wait", "--wait", "5"]) == 1
        assert board.flashed is None
        assert not list((mounts / "FTHR840BOOT").glob("*.uf2"))
    err = capsys.readouterr().err
    assert "0xE48BFF56" in err and "0xADA52840" in err and "Traceback" not in err


def test_an_unsupported_boards_bootloader_is_refused(mounts: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    uf2 = uf2_file(tmp_path / "circuitpython.uf2")
    with FakeBoard(mounts, info_uf2="UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n") as board:
        board.enter_bootloader()
        assert main(["flash", "--circuitpython", str(uf2), "--no-wait", "--wait", "5"]) == 1
        assert board.flashed is None
    assert "Board-ID RPI-RP2, which tablelight does not support" in capsys.readouterr().err


@pytest.mark.parametrize("content, words", [(b"", "not a UF2 file"), (b"x" * 512, "no UF2 magic numbers"),
                                            (None, "is not a file")])
def test_a_file_that_is_not_uf2_is_refused(tmp_path: Path, content: bytes | None, words: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "firmware.uf2"
    if content is not None:
        path.write_bytes(content)
    assert main(["flash", "--circuitpython", str(path), "--no-wait"]) == 1
    assert words in capsys.readouterr().err


def test_a_console_that_cannot_be_opened_is_named(mounts: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    uf2 = uf2_file(tmp_path / "circuitpython.uf2")
    assert main(["flash", "--circuitpython", str(uf2), "--console", str(tmp_path / "ttyACM9"), "--no-wait"]) == 1
    err = capsys.readouterr().err
    assert "cannot open the console port" in err and "double-tap" in err
