"""The input boundary (tablelight.core.inputs) and every loader routed through it.

Each bad-file kind the issue found (deep nesting, huge integers, NaN/Infinity, non-UTF-8 bytes,
wrong types) gets one clear error naming the file, never a traceback; a bounded hypothesis fuzz
per loader checks that nothing but a TablelightError ever comes out.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablelight.cli.main import main
from tablelight.core.errors import TablelightError
from tablelight.core.inputs import InputError, parse_json, parse_toml, read_json_file
from tablelight.core.record import replay
from tablelight.core.registry import game_class
from tablelight.games.farlander.map import map_from_json
from tablelight.games.farside.roster import parse_roster
from tablelight.games.mainland.boardfile import parse_board
from tablelight.table.layout import check_layout_data, load_layout_data

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=20,
)
# what arrives from outside: valid JSON of any shape, or any bytes at all
outside_bytes = json_values.map(lambda v: json.dumps(v).encode()) | st.binary(max_size=200)

BAD_JSON = {
    "deep": b"[" * 100_000 + b"]" * 100_000,
    "huge int": b'{"seed": ' + b"9" * 5000 + b"}",
    "NaN": b'{"seed": NaN}',
    "Infinity": b'{"seed": -Infinity}',
    "float overflow": b'{"seed": 1e999}',
    "not UTF-8": b'{"game": "\xff\xfe"}',
    "duplicate key": b'{"seed": 1, "seed": 2}',
    "truncated": b'{"game": "farlander", "log": [',
}


@pytest.mark.parametrize("kind", sorted(BAD_JSON))
def test_every_bad_json_kind_is_one_input_error_naming_the_source(kind: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_json(BAD_JSON[kind], "game.json")
    assert str(caught.value).startswith("game.json: ")
    assert "\n" not in str(caught.value)


def test_the_place_is_named() -> None:
    with pytest.raises(InputError, match="line 3 column"):
        parse_json(b'{\n "a": 1,\n "b": }', "x.json")
    with pytest.raises(InputError, match="line 2: byte 9"):
        parse_json(b'{\n "a": "\xc3("}', "x.json")


def test_sizes_are_limited_before_parsing(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b"[" + b"1," * 600 + b"1]")
    with pytest.raises(InputError, match="larger than 1000 bytes"):
        read_json_file(big, max_bytes=1000)
    assert read_json_file(big)[-1] == 1


def test_toml_refuses_the_same_kinds() -> None:
    for text in (b"a = " + b"[" * 5000 + b"]" * 5000, b"a = " + b"9" * 5000, b"a = nan", b"a = inf",
                 b"a = '\xff'", b"a = 1\na = 2"):
        with pytest.raises(InputError):
            parse_toml(text, "army.toml")
    assert parse_toml(b"a = 1.5\nb = [1, 2]", "ok.toml") == {"a": 1.5, "b": [1, 2]}


@FUZZ
@given(outside_bytes)
def test_parse_json_either_parses_or_refuses(data: bytes) -> None:
    try:
        value = parse_json(data, "fuzz.json")
    except InputError:
        return
    assert json.loads(json.dumps(value)) == value  # plain, finite, round-trips


def _only_tablelight_errors(load: Any, data: bytes) -> None:
    try:
        load(data)
    except TablelightError:
        pass


@FUZZ
@given(outside_bytes)
def test_replay_loader(data: bytes) -> None:
    _only_tablelight_errors(lambda d: replay(parse_json(d, "record.json")), data)


@FUZZ
@given(json_values)
def test_replay_of_any_header_shape(value: Any) -> None:
    record = {"game": "farlander", "players": 2, "seed": 1, "log": []}
    for key in ("players", "seed", "options", "result", "map"):
        _only_tablelight_errors(lambda d: replay({**record, key: value}), b"")


@FUZZ
@given(json_values)
def test_map_loader(value: Any) -> None:
    _only_tablelight_errors(lambda d: map_from_json(value), b"")
    good = game_class("farlander")(2, {}, 1).setup_record()["map"]
    for field in ("tile", "edges", "anchor", "neighbors", "garrison", "id"):
        broken = json.loads(json.dumps(good))
        broken["territories"][0][field] = value
        _only_tablelight_errors(lambda d: map_from_json(broken), b"")


@FUZZ
@given(outside_bytes)
def test_layout_loader(data: bytes) -> None:
    _only_tablelight_errors(lambda d: check_layout_data(parse_json(d, "layout.json"), "layout.json"), data)


@FUZZ
@given(outside_bytes)
def test_board_file_loader(data: bytes) -> None:
    _only_tablelight_errors(lambda d: parse_board(d.decode("utf-8", "replace"), "board.txt"), data)


@FUZZ
@given(outside_bytes | st.text(max_size=200).map(str.encode))
def test_roster_loader(data: bytes) -> None:
    for kind in ("json", "toml"):
        _only_tablelight_errors(lambda d: parse_roster(d.decode("utf-8", "replace"), kind), data)


def test_a_layout_claiming_ten_million_leds_is_refused_before_allocating(tmp_path: Path) -> None:
    layout = tmp_path / "huge.json"
    layout.write_text(json.dumps({"id": "huge", "leds": 10**7, "keys": 1, "drawing": {}}))
    with pytest.raises(TablelightError, match="leds must be a whole number 1-760"):
        load_layout_data(str(layout))
    layout.write_bytes(b'{"id": "deep", "leds": 1, "keys": 1, "drawing": ' + b"[" * 10_000 + b"]" * 10_000 + b"}")
    with pytest.raises(TablelightError, match="nested deeper"):
        load_layout_data(str(layout))


def _record_file(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def _record() -> dict[str, Any]:
    game = game_class("farlander")(2, {}, 5)
    return game.to_record()


BAD_RECORDS = {
    **{name: data for name, data in BAD_JSON.items()},
    "options as a list": json.dumps({**_record(), "options": []}).encode(),
    "result as a list": json.dumps({**_record(), "result": [1]}).encode(),
    "result as a string": json.dumps({**_record(), "result": "won"}).encode(),
    "map anchor of the wrong type": json.dumps(
        {**_record(), "map": {**_record()["map"], "territories": [
            {**t, "anchor": "here"} for t in _record()["map"]["territories"]]}}).encode(),
    "map edges of the wrong type": json.dumps(
        {**_record(), "map": {**_record()["map"], "territories": [
            {**t, "edges": 3} for t in _record()["map"]["territories"]]}}).encode(),
}


@pytest.mark.parametrize("kind", sorted(BAD_RECORDS))
def test_replay_and_play_map_give_one_line_not_a_traceback(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _record_file(tmp_path, "bad.json", BAD_RECORDS[kind])
    assert main(["replay", path]) in (1, 2)
    error = capsys.readouterr().err
    assert error.startswith("tablelight") and "Traceback" not in error and error.count("\n") == 1
    assert main(["play", "farlander", "--board", "none", "--seats", "bot,bot", "--map", path,
                 "--db", str(tmp_path / "games.sqlite")]) != 0
    error = capsys.readouterr().err
    assert "Traceback" not in error and error.strip()


@pytest.mark.parametrize("text", [b"name = 'x'\nmodels = " + b"[" * 3000 + b"]" * 3000, b"a = " + b"7" * 5000,
                                  b"name = '\xff'"])
def test_farside_cost_refuses_bad_rosters(text: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record_file(tmp_path, "army.toml", text)
    assert main(["farside", "cost", path]) != 0
    error = capsys.readouterr().err
    assert "army.toml" in error and "Traceback" not in error


def test_finite_values_only() -> None:
    assert math.isfinite(parse_json(b"[1e308]", "x")[0])


@pytest.mark.parametrize("text", ["9" * 5000 + "wh", "1wh " * 10_000, "\u00b2wh", "1wh\n" * 100])
def test_mainland_text_boards_refuse_huge_clans_and_sizes(text: str) -> None:
    with pytest.raises(TablelightError) as caught:
        parse_board(text, "board.txt")
    assert str(caught.value).startswith("board.txt: ") and len(str(caught.value)) < 400


@FUZZ
@given(st.lists(st.lists(st.from_regex(r"[0-9]{0,6}[a-z.]{0,3}", fullmatch=True), max_size=6), max_size=6))
def test_board_text_loader(rows: list[list[str]]) -> None:
    _only_tablelight_errors(lambda d: parse_board("\n".join(" ".join(r) for r in rows), "board.txt"), b"")
