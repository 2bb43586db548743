"""`tablelight flash` installs a working board on a (fake) CIRCUITPY drive, or refuses and changes nothing."""

from __future__ import annotations

import errno
import hashlib
import io
import json
import shutil
import tomllib
import zipfile
from pathlib import Path
from typing import BinaryIO

import pytest
from tqdm import tqdm

from tablelight.cli.main import main
from tablelight.flash import install, libraries

from .conftest import FEATHER_BOOT_OUT, ROOT, WHEELS, make_circuitpy, snapshot

FIRMWARE = ROOT / "firmware"
LAYOUTS = ROOT / "hardware" / "layouts"
BOARD = json.loads((ROOT / "hardware" / "boards" / "feather_nrf52840.json").read_text())


def flash(*args: str) -> int:
    return main(["flash", "--no-wait", *args])


def wheel_member(lib_name: str, member: str) -> bytes:
    lib = next(lib for lib in libraries.pinned() if lib.name == lib_name)
    with zipfile.ZipFile(WHEELS / lib.wheel) as archive:
        return archive.read(member)


def test_flash_installs_firmware_and_pinned_libraries(drive: Path) -> None:
    assert flash("--drive", str(drive)) == 0
    for name in ("boot.py", "code.py"):
        assert (drive / name).read_bytes() == (FIRMWARE / name).read_bytes()
    for source in (FIRMWARE / "lib").glob("*.py"):
        assert (drive / "lib" / source.name).read_bytes() == source.read_bytes()
    assert (drive / "lib" / "neopixel.py").read_bytes() == wheel_member("adafruit-circuitpython-neopixel", "neopixel.py")
    assert (drive / "lib" / "adafruit_pixelbuf.py").exists()
    assert not (drive / "lib" / "adafruit_ble").exists()  # BLE is off
    settings = tomllib.loads((drive / "settings.toml").read_text())
    assert (settings["TL_LAYOUT"], settings["TL_LEDS"], settings["TL_BLE"]) == ("farlander", 55, 0)
    assert not list(drive.rglob(install.TEMP_PREFIX + "*"))


def test_pinned_hashes_are_the_hashes_of_the_cached_wheels() -> None:
    for lib in libraries.pinned():
        assert hashlib.sha256((WHEELS / lib.wheel).read_bytes()).hexdigest() == lib.sha256, lib.name


@pytest.mark.parametrize("layout", sorted(p.stem for p in LAYOUTS.glob("*.json")))
def test_layout_writes_its_counts_pins_and_budget(drive: Path, layout: str) -> None:
    data = json.loads((LAYOUTS / f"{layout}.json").read_text())
    assert flash("--drive", str(drive), "--layout", layout) == 0
    settings = tomllib.loads((drive / "settings.toml").read_text())
    assert (settings["TL_LAYOUT"], settings["TL_LEDS"], settings["TL_KEYS"]) == (layout, data["leds"], data["keys"])
    assert settings["TL_BUDGET_MA"] == data.get("budget_ma", BOARD["power"]["default_budget_ma"])
    rows, columns = settings["TL_ROW_PINS"].split(","), settings["TL_COLUMN_PINS"].split(",")
    assert (len(rows), len(columns)) == (data["key_matrix"]["rows"], data["key_matrix"]["columns"])
    assert len(rows) * len(columns) >= data["keys"]
    assert len(set(rows + columns + [settings["TL_PIXEL_PIN"]])) == len(rows) + len(columns) + 1  # no pin twice
    assert f"({len(rows)} x {len(columns)} = {len(rows) * len(columns)} positions" in (drive / "settings.toml").read_text()


def test_without_layout_the_boards_own_settings_stay(drive: Path) -> None:
    (drive / "settings.toml").write_text('TL_LAYOUT = "mainland"\nTL_BUDGET_MA = 2700\n')
    assert flash("--drive", str(drive)) == 0
    assert (drive / "settings.toml").read_text() == 'TL_LAYOUT = "mainland"\nTL_BUDGET_MA = 2700\n'


def test_layout_keeps_settings_that_are_not_tablelights(drive: Path) -> None:
    (drive / "settings.toml").write_text('CIRCUITPY_WEB_API_PASSWORD = "secret"\nTL_LEDS = 3\n')
    assert flash("--drive", str(drive), "--layout", "farside") == 0
    settings = tomllib.loads((drive / "settings.toml").read_text())
    assert settings["CIRCUITPY_WEB_API_PASSWORD"] == "secret" and settings["TL_LEDS"] == 83


def test_ble_turns_bluetooth_on_and_installs_adafruit_ble(drive: Path) -> None:
    assert flash("--drive", str(drive), "--ble") == 0
    assert tomllib.loads((drive / "settings.toml").read_text())["TL_BLE"] == 1
    nordic = drive / "lib" / "adafruit_ble" / "services" / "nordic.py"
    assert nordic.read_bytes() == wheel_member("adafruit-circuitpython-ble", "adafruit_ble/services/nordic.py")
    # flashing again without --ble keeps it on, and keeps the library
    assert flash("--drive", str(drive), "--verify") == 0


def test_test_input_is_off_by_default_and_never_with_ble(drive: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert flash("--drive", str(drive)) == 0
    assert tomllib.loads((drive / "settings.toml").read_text())["TL_TEST_INPUT"] == 0
    assert flash("--drive", str(drive), "--test-input") == 0
    assert tomllib.loads((drive / "settings.toml").read_text())["TL_TEST_INPUT"] == 1
    before = snapshot(drive)
    assert flash("--drive", str(drive), "--ble") == 1
    assert "anyone in radio range" in capsys.readouterr().err
    assert snapshot(drive) == before
    assert flash("--drive", str(drive), "--ble", "--no-test-input") == 0


def test_a_second_flash_writes_nothing(drive: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert flash("--drive", str(drive)) == 0
    before = {p: p.stat().st_mtime_ns for p in drive.rglob("*") if p.is_file()}
    capsys.readouterr()
    assert flash("--drive", str(drive)) == 0
    assert "wrote 0 files" in capsys.readouterr().out
    assert {p: p.stat().st_mtime_ns for p in drive.rglob("*") if p.is_file()} == before


def test_verify_names_every_differing_file_and_writes_nothing(drive: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert flash("--drive", str(drive)) == 0
    assert flash("--drive", str(drive), "--verify") == 0
    (drive / "lib" / "tl_scene.py").write_text("# changed by hand\n")
    (drive / "lib" / "neopixel.py").unlink()
    before = snapshot(drive)
    capsys.readouterr()
    assert flash("--drive", str(drive), "--verify") == 1
    out = capsys.readouterr().out
    assert "differs: lib/tl_scene.py" in out and "missing: lib/neopixel.py" in out
    assert "code.py" not in out
    assert snapshot(drive) == before
    assert flash("--drive", str(drive), "--verify", "--layout", "landover") == 1  # the settings would change


def test_verify_counts_every_file_the_flash_wrote(drive: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A flash without --layout writes settings.toml on a new board; --verify checks it too."""
    assert flash("--drive", str(drive)) == 0
    written = capsys.readouterr().out.split("wrote ")[1].split(" files")[0]
    assert flash("--drive", str(drive), "--verify") == 0
    assert f"all {written} files match" in capsys.readouterr().out
    (drive / "settings.toml").unlink()
    assert flash("--drive", str(drive), "--verify") == 1  # a lost settings.toml is named
    assert "missing: settings.toml" in capsys.readouterr().out


@pytest.mark.parametrize("boot_out, words", [
    ("Adafruit CircuitPython 8.0.5 on 2023-03-31; Adafruit Feather nRF52840 Express with nRF52840\n"
     "Board ID:feather_nrf52840_express\n", ["8.0.5", "9 or 10", "--circuitpython"]),
    ("Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n",
     ["Raspberry Pi Pico", "raspberry_pi_pico", "does not support", "feather_nrf52840_express"]),
    ("Adafruit CircuitPython 6.3.0 on 2021-06-01; Adafruit Feather nRF52840 Express with nRF52840\n",
     ["Board ID", "9 or 10"]),
    ("hello\n", ["does not name a CircuitPython version"]),
])
def test_unsupported_boards_and_versions_are_refused(mounts: Path, boot_out: str, words: list[str],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    drive = make_circuitpy(mounts / "CIRCUITPY", boot_out)
    assert flash("--drive", str(drive)) == 1
    err = capsys.readouterr().err
    assert all(word in err for word in words), err
    assert "Traceback" not in err and err.count("\n") == 1
    assert [p.name for p in drive.iterdir()] == ["boot_out.txt"]


def test_a_folder_without_boot_out_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert flash("--drive", str(tmp_path)) == 1
    assert "boot_out.txt" in capsys.readouterr().err
    assert flash("--drive", str(tmp_path / "nothing")) == 1
    assert "not a folder" in capsys.readouterr().err


@pytest.mark.parametrize("args, words", [
    (["--layout", "chess"], ["no board layout 'chess'", "farlander"]),
    (["--wait", "-1"], ["--wait"]),
])
def test_bad_options_get_one_clear_error(drive: Path, args: list[str], words: list[str],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["flash", "--drive", str(drive), *args]) == 1
    err = capsys.readouterr().err
    assert all(word in err for word in words) and "Traceback" not in err
    assert [p.name for p in drive.iterdir()] == ["boot_out.txt"]


def test_a_broken_settings_toml_is_named_not_overwritten(drive: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (drive / "settings.toml").write_text("TL_LEDS = = 3\n")
    assert flash("--drive", str(drive), "--ble") == 1
    assert "settings.toml is not valid TOML" in capsys.readouterr().err
    assert (drive / "settings.toml").read_text() == "TL_LEDS = = 3\n"


class QuotaFile(io.FileIO):
    """A file on a drive that fills up: ENOSPC once the drive's quota is used (FAT reports free
    space before the write, and still runs out: clusters, directory entries, other writers)."""

    left = 0

    def write(self, data: bytes) -> int:  # type: ignore[override]
        if len(data) > QuotaFile.left:
            super().write(data[:QuotaFile.left])
            QuotaFile.left = 0
            raise OSError(errno.ENOSPC, "No space left on device")
        QuotaFile.left -= len(data)
        return super().write(data)


def test_a_drive_that_fills_up_keeps_the_old_firmware_whole(drive: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    old = {"code.py": b'"""tablelight board: the old firmware\'s code.py"""\n' * 50,
           "lib/tablelight_wire.py": b"# old wire\n" * 400, "lib/tl_link.py": b"# old link\n" * 30,
           "settings.toml": (FIRMWARE / "settings.toml").read_bytes()}
    for name, data in old.items():
        (drive / name).parent.mkdir(exist_ok=True)
        (drive / name).write_bytes(data)
    before = snapshot(drive)

    def limited(path: Path) -> BinaryIO:
        return QuotaFile(path, "w")

    QuotaFile.left = 20_000  # the first few files fit, then the drive is full in the middle of one
    monkeypatch.setattr(install, "open_for_write", limited)
    assert flash("--drive", str(drive)) == 1
    err = capsys.readouterr().err
    assert "No space left on device" in err and "Traceback" not in err
    after = snapshot(drive)
    for name, data in before.items():  # every file is either its old content or the whole new one
        new = (FIRMWARE / name).read_bytes() if (FIRMWARE / name).exists() else None
        assert after[name] in (data, new), name
    assert after["code.py"] == old["code.py"]  # written last: the board still runs the old firmware
    assert not [name for name in after if install.TEMP_PREFIX in name]
    monkeypatch.undo()
    assert flash("--drive", str(drive)) == 0  # with room again, the flash completes
    assert flash("--drive", str(drive), "--verify") == 0


def test_too_little_free_space_is_refused_before_writing(drive: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    real = shutil.disk_usage

    def small(path: str | Path) -> object:
        usage = real(path)
        return type(usage)(total=usage.total, used=usage.total - 8192, free=8192)

    monkeypatch.setattr(install.shutil, "disk_usage", small)
    assert flash("--drive", str(drive)) == 1
    err = capsys.readouterr().err
    assert "8 KiB free" in err and "Nothing was written" in err
    assert [p.name for p in drive.iterdir()] == ["boot_out.txt"]


def test_a_damaged_cached_wheel_is_never_installed(drive: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    cache = tmp_path / "cache"
    shutil.copytree(WHEELS, cache)
    neopixel = next(lib for lib in libraries.pinned() if lib.name == "adafruit-circuitpython-neopixel")
    (cache / neopixel.wheel).write_bytes(b"not the pinned wheel")
    monkeypatch.setenv("TABLELIGHT_CACHE", str(cache))
    assert flash("--drive", str(drive), "--offline") == 1
    assert neopixel.wheel in capsys.readouterr().err
    assert [p.name for p in drive.iterdir()] == ["boot_out.txt"]


def test_offline_flash_works_from_the_cache(drive: Path) -> None:
    assert flash("--drive", str(drive), "--offline", "--ble") == 0
    assert (drive / "lib" / "adafruit_ble" / "__init__.py").exists()


def test_leftovers_of_a_cut_off_flash_are_removed(drive: Path) -> None:
    (drive / "lib").mkdir()
    (drive / "lib" / (install.TEMP_PREFIX + "tl_link.py")).write_bytes(b"half a fi")
    assert flash("--drive", str(drive)) == 0
    assert not list(drive.rglob(install.TEMP_PREFIX + "*"))


def test_the_drive_is_found_and_several_drives_are_not_guessed(mounts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["flash", "--no-wait"]) == 1
    assert "no CIRCUITPY drive found" in capsys.readouterr().err
    drive = make_circuitpy(mounts / "CIRCUITPY", FEATHER_BOOT_OUT)
    assert main(["flash", "--no-wait"]) == 0
    assert (drive / "code.py").exists()
    make_circuitpy(mounts / "CIRCUITPY1", FEATHER_BOOT_OUT)
    assert main(["flash", "--no-wait"]) == 1
    assert "several CIRCUITPY drives" in capsys.readouterr().err


def test_progress_bar_counts_the_bytes_written(drive: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert flash("--drive", str(drive), "--progress") == 0
    err = capsys.readouterr().err
    total = sum(p.stat().st_size for p in drive.rglob("*") if p.is_file() and p.name != "boot_out.txt")
    size = tqdm.format_sizeof(total)
    assert "flashing: 100%" in err and f"{size}/{size}" in err, err[-300:]


def test_dry_run_lists_and_writes_nothing(drive: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert flash("--drive", str(drive), "--dry-run", "--layout", "mainland") == 0
    out = capsys.readouterr().out
    assert "would write code.py (new" in out and "would write settings.toml" in out
    assert [p.name for p in drive.iterdir()] == ["boot_out.txt"]


@pytest.mark.parametrize("platform, user, expected", [
    ("darwin", "ann", ["/Volumes"]),
    ("linux", "ann", ["/media/ann", "/run/media/ann", "/media", "/run/media", "/mnt"]),
])
def test_drives_are_looked_for_where_each_system_mounts_them(monkeypatch: pytest.MonkeyPatch, platform: str,
                                                             user: str, expected: list[str]) -> None:
    from tablelight.flash import drives

    monkeypatch.delenv("TABLELIGHT_MOUNTS")
    monkeypatch.setenv("USER", user)
    monkeypatch.setattr(drives.sys, "platform", platform)
    assert [str(p) for p in drives.mount_roots()] == expected


def test_a_folder_named_circuitpy_without_boot_out_is_not_a_board(mounts: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    (mounts / "CIRCUITPY").mkdir()
    assert flash() == 1
    assert "no CIRCUITPY drive found" in capsys.readouterr().err


def test_layout_keeps_the_persons_own_comments_and_lines(drive: Path) -> None:
    """What tablelight does not own stays as it was written (comments too), once, however often it flashes."""
    own = ("# my board: the one in the blue box\n"
           "CIRCUITPY_WIFI_SSID = \"attic\"  # the upstairs network\n"
           "\n"
           "# the web workflow's password; change it before a party\n"
           "CIRCUITPY_WEB_API_PASSWORD = \"secret\"\n")
    (drive / "settings.toml").write_text(own + "TL_LEDS = 3\n# brightness 0..255 until the host sets one\nTL_BRIGHTNESS = 40\n")
    for layout in ("farside", "mainland"):
        assert flash("--drive", str(drive), "--layout", layout) == 0
        text = (drive / "settings.toml").read_text()
        assert own.rstrip("\n") in text, text  # the person's lines, in their order, word for word
        assert text.count("# my board") == 1 and text.count("# kept from") == 1
        assert text.count("# brightness 0..255 until the host sets one") == 1  # the template's comment, not doubled
        settings = tomllib.loads(text)
        assert settings["CIRCUITPY_WIFI_SSID"] == "attic" and settings["TL_LAYOUT"] == layout
        assert settings["TL_BRIGHTNESS"] == 40  # a value of tablelight's key the person set is kept
