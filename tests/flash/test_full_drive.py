"""A real small file system (a tmpfs of 1 MiB, when this test may mount one: root on Linux) that
runs full while flashing: the old firmware stays whole. tests/flash/test_install.py covers the same
with a stand-in that runs out of space, everywhere."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablelight.cli.main import main
from tablelight.flash import install

from .conftest import FEATHER_BOOT_OUT, ROOT, make_circuitpy, snapshot


@pytest.fixture
def small_drive(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "CIRCUITPY"
    mount.mkdir()
    if sys.platform != "linux" or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root on Linux")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield make_circuitpy(mount, FEATHER_BOOT_OUT)
    finally:
        subprocess.run(["umount", str(mount)], check=False)


def fill(drive: Path, leave: int) -> None:
    """A maker's other files take all but ``leave`` bytes."""
    free = os.statvfs(drive).f_bavail * os.statvfs(drive).f_frsize
    (drive / "pictures.bin").write_bytes(b"\xff" * (free - leave))


def old_firmware(drive: Path) -> None:
    (drive / "lib").mkdir()
    for name in ("code.py", "lib/tablelight_wire.py", "lib/tl_link.py", "lib/tl_scene.py"):
        (drive / name).write_text(f"# the old firmware's {name}\n")


def test_a_full_drive_is_refused_before_writing(small_drive: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old_firmware(small_drive)
    fill(small_drive, 16 * 1024)
    before = snapshot(small_drive)
    assert main(["flash", "--drive", str(small_drive), "--no-wait"]) == 1
    assert "Nothing was written" in capsys.readouterr().err
    assert snapshot(small_drive) == before


def test_running_out_of_space_mid_write_leaves_each_file_whole(small_drive: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    old_firmware(small_drive)
    fill(small_drive, 24 * 1024)
    before = snapshot(small_drive)
    monkeypatch.setattr(install, "check_space", lambda drive, changes: None)  # as if the estimate were wrong
    assert main(["flash", "--drive", str(small_drive), "--no-wait"]) == 1
    err = capsys.readouterr().err
    assert "No space left on device" in err and "Traceback" not in err
    after = snapshot(small_drive)
    for name, data in before.items():
        new = ROOT / "firmware" / name
        assert after[name] == data or (new.exists() and after[name] == new.read_bytes()), name
    assert after["code.py"] == before["code.py"]
    assert not [name for name in after if install.TEMP_PREFIX in name]
