"""Names from files (a map's territory ids, a roster's names) are printed with their control
characters escaped: a file cannot recolour, clear or rewrite the terminal of whoever prints it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablelight.cli.main import main
from tablelight.core.inputs import printable
from tablelight.games.farlander.engine import Farlander

ROOT = Path(__file__).resolve().parents[2]
EVIL = "\x1b[31mEVIL\x1b]0;pwned\x07\r\x9b2J"


def test_printable_escapes_control_characters_only() -> None:
    assert printable(EVIL) == "\\x1b[31mEVIL\\x1b]0;pwned\\x07\\x0d\\x9b2J"
    assert printable("a1 é 城\tb\nc") == "a1 é 城\\x09b\\x0ac"
    assert printable("line one\n\tline two\x1b", lines=True) == "line one\n\tline two\\x1b"


def test_a_map_id_is_shown_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = json.loads(json.dumps(Farlander(2, seed=1).setup_record()["map"]))
    first = board["territories"][0]["id"]
    text = json.dumps(board).replace(json.dumps(first), json.dumps(EVIL))
    (tmp_path / "map.json").write_text(text)
    assert main(["selfplay", "farlander", "--map", str(tmp_path / "map.json"), "--show"]) == 0
    out = capsys.readouterr().out
    assert "\\x1b[31mEVIL" in out and "\x1b[31mEVIL" not in out and "\x07" not in out and "\x9b" not in out


def test_a_roster_name_is_shown_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = (ROOT / "tests" / "farside" / "data" / "raiders.toml").read_text()
    roster = tmp_path / "evil.toml"
    roster.write_text(source.replace('name = "Red Raiders"', 'name = "Red\\u001b[2JRaiders"'))
    for command in (["farside", "cost", str(roster)], ["farside", "roster", str(roster)]):
        assert main(command) == 0
        out = capsys.readouterr().out
        assert "Red\\x1b[2JRaiders" in out and "\x1b" not in out, command


def test_a_map_id_in_the_tables_words_is_shown_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`play` says each move at the shared terminal ("places a unit in ..."): a map's id there is escaped too."""
    board = json.loads(json.dumps(Farlander(2, seed=1).setup_record()["map"]))
    first = board["territories"][0]["id"]
    text = json.dumps(board).replace(json.dumps(first), json.dumps(EVIL))
    (tmp_path / "map.json").write_text(text)
    code = main(["play", "farlander", "--map", str(tmp_path / "map.json"), "--seats", "random,random", "--board", "none",
                 "--view", "none", "--seed", "1", "--db", str(tmp_path / "g.sqlite")])
    assert code == 0
    out = capsys.readouterr().out
    assert "\\x1b[31mEVIL" in out and "\x1b" not in out and "\x07" not in out and "\x9b" not in out


def test_a_map_id_on_the_terminal_map_is_drawn_without_its_escape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The terminal map writes the first two characters of each place's id in its cell: an id that
    starts with ESC ] (a terminal's title sequence) is drawn as ``?]``, never as the escape."""
    board = json.loads(json.dumps(Farlander(2, seed=1).setup_record()["map"]))
    first = board["territories"][0]["id"]
    text = json.dumps(board).replace(json.dumps(first), json.dumps("\x1b]0;pwned\x07"))
    (tmp_path / "map.json").write_text(text)
    code = main(["play", "farlander", "--map", str(tmp_path / "map.json"), "--seats", "random,random", "--board", "none",
                 "--view", "terminal", "--seed", "1", "--db", str(tmp_path / "g.sqlite")])
    assert code == 0
    out = capsys.readouterr().out
    assert "?]" in out  # the cell of that place, drawn
    assert "\x1b" not in out and "\x07" not in out


def test_a_roster_name_with_a_line_break_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A name is printed on a line of its own report: one with a line break would forge a line."""
    source = (ROOT / "tests" / "farside" / "data" / "raiders.toml").read_text()
    for forged in ('name = "Red\\nArmy Red: 1 models, 5 points"', 'name = "Red\\u2028Raiders"'):
        roster = tmp_path / "forged.toml"
        roster.write_text(source.replace('name = "Red Raiders"', forged))
        for command in (["farside", "cost", str(roster)], ["farside", "roster", str(roster)]):
            assert main(command) == 1, command
            captured = capsys.readouterr()
            assert "name must be one line" in captured.err and "Army Red: 1 models" not in captured.out, command
    player = tmp_path / "player.toml"
    player.write_text(source.replace('player = "Ana"', 'player = "Ana\\nwarning: forged"'))
    assert main(["farside", "cost", str(player)]) == 1
    assert "player must be one line" in capsys.readouterr().err
