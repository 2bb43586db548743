"""`tablelight flash` keeps a maker's own code.py (a copy beside it, and says so), checks a kept
settings.toml against the layout it names on --verify, and writes a budget comment that matches
the budget."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tablelight.cli.main import main

from .conftest import ROOT, snapshot

FIRMWARE = ROOT / "firmware"
USER_CODE = b'import board\nprint("my own light show")\n'


def flash(*args: str) -> int:
    return main(["flash", "--no-wait", *args])


def test_a_users_code_py_is_kept_beside_it_and_the_flash_says_so(drive: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (drive / "code.py").write_bytes(USER_CODE)
    assert flash("--drive", str(drive), "--dry-run") == 0
    assert "would keep your own code.py as code-before-tablelight.py" in capsys.readouterr().out
    assert (drive / "code.py").read_bytes() == USER_CODE
    assert flash("--drive", str(drive)) == 0
    out = capsys.readouterr().out
    assert "your own code.py is kept as" in out and "code-before-tablelight.py" in out
    assert (drive / "code-before-tablelight.py").read_bytes() == USER_CODE
    assert (drive / "code.py").read_bytes() == (FIRMWARE / "code.py").read_bytes()
    before = snapshot(drive)
    assert flash("--drive", str(drive)) == 0  # tablelight's own code.py is not backed up again
    assert "kept as" not in capsys.readouterr().out and snapshot(drive) == before
    assert flash("--drive", str(drive), "--verify") == 0


def test_a_second_users_code_py_does_not_overwrite_the_first_copy(drive: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (drive / "code.py").write_bytes(USER_CODE)
    assert flash("--drive", str(drive)) == 0
    (drive / "code.py").write_bytes(b"print('another experiment')\n")
    (drive / "boot.py").write_bytes(b"import storage\nstorage.remount('/', False)\n")
    assert flash("--drive", str(drive)) == 0
    assert (drive / "code-before-tablelight.py").read_bytes() == USER_CODE
    assert (drive / "code-before-tablelight-2.py").read_bytes() == b"print('another experiment')\n"
    assert (drive / "boot-before-tablelight.py").read_bytes() == b"import storage\nstorage.remount('/', False)\n"


def test_an_older_tablelight_code_py_is_replaced_without_a_copy(drive: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (drive / "code.py").write_bytes(b'"""tablelight board: an older firmware."""\n')
    assert flash("--drive", str(drive)) == 0
    assert "kept as" not in capsys.readouterr().out and not list(drive.glob("*before-tablelight*"))


def test_verify_checks_a_kept_settings_toml_against_its_layout(drive: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert flash("--drive", str(drive), "--layout", "farlander") == 0
    assert flash("--drive", str(drive), "--verify") == 0
    text = (drive / "settings.toml").read_text().replace("TL_LEDS = 55", "TL_LEDS = 50")
    (drive / "settings.toml").write_text(text)
    before = snapshot(drive)
    capsys.readouterr()
    assert flash("--drive", str(drive), "--verify") == 1
    out = capsys.readouterr().out
    assert "settings.toml: TL_LEDS is 50, layout farlander has 55 LEDs" in out
    assert snapshot(drive) == before
    assert flash("--drive", str(drive)) == 0  # flashing without --layout keeps it, with a warning
    assert "warning: settings.toml: TL_LEDS is 50" in capsys.readouterr().err
    assert flash("--drive", str(drive), "--layout", "farlander") == 0
    assert flash("--drive", str(drive), "--verify") == 0


@pytest.mark.parametrize("layout", ["farlander", "landover"])
def test_the_budget_comment_matches_the_budget(drive: Path, layout: str) -> None:
    assert flash("--drive", str(drive), "--layout", layout) == 0
    text = (drive / "settings.toml").read_text()
    budget = tomllib.loads(text)["TL_BUDGET_MA"]
    comment = next(line for line in text.splitlines() if line.startswith("# current budget"))
    assert str(budget) in comment
    assert ("leaves margin on a 500 mA USB 2 port" in comment) == (budget <= 450)


def test_a_users_own_settings_lines_are_kept_with_their_comments_once(drive: Path) -> None:
    (drive / "settings.toml").write_text('# the attic network\n# (password in the drawer)\nCIRCUITPY_WIFI_SSID = "attic"\n'
                                         '# stale note about TL_LEDS\nTL_LEDS = 12\n')
    assert flash("--drive", str(drive), "--layout", "landover") == 0
    first = (drive / "settings.toml").read_text()
    assert first.endswith("# kept from the board's previous settings.toml\n# the attic network\n"
                          '# (password in the drawer)\nCIRCUITPY_WIFI_SSID = "attic"\n')
    assert "stale note" not in first  # it spoke of a line tablelight rewrites
    assert flash("--drive", str(drive), "--layout", "landover") == 0
    assert (drive / "settings.toml").read_text() == first  # flashing again adds nothing


def test_a_settings_toml_naming_no_layout_is_made_a_farlander_boards_with_its_lines_kept(drive: Path) -> None:
    (drive / "settings.toml").write_text('# CircuitPython\'s web workflow\nCIRCUITPY_WIFI_SSID = "attic"\n')
    assert flash("--drive", str(drive)) == 0
    text = (drive / "settings.toml").read_text()
    assert 'TL_LAYOUT = "farlander"' in text and text.endswith('# CircuitPython\'s web workflow\nCIRCUITPY_WIFI_SSID = "attic"\n')
    assert flash("--drive", str(drive), "--verify") == 0
