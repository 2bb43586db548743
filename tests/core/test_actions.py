"""Typed, immutable actions and log entries (core/actions.py), parsed once at the boundary."""

import copy
import json
import pickle
from pathlib import Path

import pytest

from tablelight.core import Game, MalformedActionError, RecordError, game_names, new_game, replay
from tablelight.core.actions import (
    Action,
    ActionEntry,
    ChanceEntry,
    FrozenDict,
    FrozenList,
    parse_log_entry,
)
from tablelight.core.bots import RandomBot
from tablelight.core.rng import Rng

TESTS = Path(__file__).resolve().parent.parent
#: Saved games written by the code from before actions were typed (tests/core/data/saved-*.json).
SAVED = sorted((TESTS / "core" / "data").glob("saved-*.json"))
#: Every other stored record under tests/ (their options predate newer options, so only the log is compared).
FIXTURES = sorted(p for p in TESTS.glob("*/data/*.json")
                  if not p.name.startswith("saved-") and '"log"' in p.read_text())  # records (not the cost record)
SHORT = {"landover": {"turn_cap": 40}}


def test_an_action_is_a_value_that_cannot_change() -> None:
    action = Action({"type": "conquer", "target": "c3", "moves": FrozenDict({"a1": 2})})
    assert action == {"type": "conquer", "target": "c3", "moves": {"a1": 2}}
    assert action.type == "conquer"
    assert json.dumps(action) == '{"type": "conquer", "target": "c3", "moves": {"a1": 2}}'
    mutations = [
        lambda: action.__setitem__("target", "a1"),
        lambda: action.__delitem__("target"),
        lambda: action.update(target="a1"),
        lambda: action.pop("target"),
        lambda: action.popitem(),
        lambda: action.setdefault("x", 1),
        lambda: action.clear(),
        lambda: action["moves"].__setitem__("a1", 3),
    ]
    for mutate in mutations:
        with pytest.raises(TypeError, match="immutable"):
            mutate()
    assert action == {"type": "conquer", "target": "c3", "moves": {"a1": 2}}
    assert len({action, Action(action), action.replace(target="c3")}) == 1
    assert action.replace(target="b2")["target"] == "b2" and action["target"] == "c3"
    assert copy.deepcopy(action) is action and pickle.loads(pickle.dumps(action)) == action
    thawed = action.to_json()
    thawed["moves"]["a1"] = 1
    assert type(thawed) is dict and action["moves"]["a1"] == 2


def test_a_frozen_list_cannot_change() -> None:
    values = FrozenList([3, 5])
    for mutate in (lambda: values.append(1), lambda: values.sort(), lambda: values.__setitem__(0, 1),
                   lambda: values.extend([1]), lambda: values.__iadd__([1])):
        with pytest.raises(TypeError, match="immutable"):
            mutate()
    assert values == [3, 5] and hash(values) == hash((3, 5))


def test_parse_freezes_nested_values_and_names_what_is_wrong() -> None:
    action = Action.parse({"type": "roll", "dice": [3, 5], "extra": {"a": [1]}})
    assert type(action) is Action and type(action["dice"]) is FrozenList
    assert type(action["extra"]) is FrozenDict and type(action["extra"]["a"]) is FrozenList
    assert Action.parse(action) is action
    bad = [
        (["end_turn"], "the action must be a JSON object"),
        ({1: "x"}, "field names are strings"),
        ({"type": "roll", "dice": {3, 5}}, "field 'dice'"),
        ({"type": "roll", "dice": [1, float("nan")]}, "field 'dice'[1]"),
    ]
    for value, words in bad:
        with pytest.raises(MalformedActionError) as error:
            Action.parse(value)
        assert words in error.value.message and error.value.rule == "action.shape"
    deep: object = 1
    for _ in range(100):
        deep = [deep]
    with pytest.raises(MalformedActionError, match="nested deeper"):
        Action.parse({"type": "x", "deep": deep})


def test_log_entries_are_typed_with_named_parts() -> None:
    entry = parse_log_entry({"seat": 1, "action": {"type": "skip"}, "auto": True})
    assert isinstance(entry, ActionEntry) and entry.seat == 1 and entry.auto and entry.action == {"type": "skip"}
    chance = parse_log_entry({"chance": "roll", "phase": "main", "value": [2, 5]})
    assert isinstance(chance, ChanceEntry)
    assert (chance.kind, chance.context, chance.value) == ("roll", {"phase": "main"}, [2, 5])
    for value, words in [
        ({"seat": 0}, "neither a chance entry nor an action entry"),
        ({"seat": 0, "action": {"type": "x"}, "chance": "roll"}, "neither"),
        ({"seat": "0", "action": {"type": "x"}}, "'seat' must be a whole number"),
        ({"seat": 0, "action": {"type": "x"}, "auto": 1}, "'auto' must be true or false"),
        ({"seat": 0, "action": {"type": "x"}, "note": "hi"}, "no field 'note'"),
        ({"seat": 0, "action": "end_turn"}, "the log entry's action must be a JSON object"),
    ]:
        with pytest.raises(MalformedActionError) as error:
            parse_log_entry(value)
        assert words in error.value.message


def test_a_malformed_record_entry_is_one_record_error_naming_it() -> None:
    game = new_game("farlander", 2, seed=3)
    game.apply(game.legal_actions()[0])
    record = game.to_record()
    record["log"][1]["action"]["moves"] = {"a1": {1, 2}}  # a Python set: no JSON value
    with pytest.raises(RecordError) as error:
        replay(record)
    assert error.value.entry == 1 and "log entry 1's action, field 'moves', field 'a1'" in error.value.message


def deeply_frozen(value: object) -> bool:
    if isinstance(value, dict):
        return isinstance(value, FrozenDict) and all(deeply_frozen(v) for v in value.values())
    if isinstance(value, list):
        return isinstance(value, FrozenList) and all(deeply_frozen(v) for v in value)
    return value is None or isinstance(value, (str, int, float))


@pytest.mark.parametrize("name", game_names())
def test_every_engine_lists_and_logs_immutable_values(name: str) -> None:
    game = new_game(name, 2, SHORT.get(name, {}), seed=6)
    rng = Rng(8)
    for _ in range(120):
        if game.is_over():
            break
        listed = game.legal_actions()
        assert all(type(a) is Action and deeply_frozen(a) for a in listed), listed[:3]
        game.apply(rng.choice(listed))
    assert all(type(e) in (ActionEntry, ChanceEntry) and deeply_frozen(e) for e in game.log)
    assert all(type(e["action"]) is Action for e in game.log if isinstance(e, ActionEntry))
    clone = game.clone()
    assert clone.log == game.log and clone.log is not game.log


def without_new_options(game: Game, original: str) -> str:
    """``game``'s saved text less the options added since ``original`` was written, each of which must
    hold its default (an option a later rules decision added, such as Farside's ``points_check``)."""
    saved = json.loads(game.save())
    defaults = {spec.name: spec.default for spec in game.option_specs}
    for name in set(saved["options"]) - set(json.loads(original)["options"]):
        assert saved["options"].pop(name) == defaults[name], name
    return json.dumps(saved, separators=(",", ":"))


@pytest.mark.parametrize("path", SAVED, ids=lambda p: p.name)
def test_saved_games_replay_and_save_byte_identical(path: Path) -> None:
    text = path.read_text().strip()
    game = Game.load(text)
    assert without_new_options(game, text) == text
    assert json.loads(game.save()) == game.to_record()
    again = game.to_record()
    again["log"][-1]["changed"] = True  # the record is plain JSON: changing it leaves the game alone
    assert "changed" not in game.log[-1]


@pytest.mark.parametrize("path", [p for p in SAVED if "landover" not in p.name and "farside" not in p.name], ids=lambda p: p.name)
def test_the_same_game_played_live_saves_byte_identical(path: Path) -> None:
    """A game played now writes the record the code from before typed actions wrote (Landover's and
    Farside's latest record formats moved on with their rules, so their saved games are checked by replay only)."""
    name = path.stem.removeprefix("saved-")
    game = new_game(name, 2, SHORT.get(name, {}), seed=11)
    bot = RandomBot(5)
    while not game.is_over():
        game.apply(bot.choose(game))
    assert game.save() == path.read_text().strip()


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_stored_records_keep_their_log_byte_for_byte(path: Path) -> None:
    text = path.read_text().strip()
    saved = Game.load(text).save()

    def log_text(record: str) -> str:
        """The log as the game writes it (a fixture may be indented: its log is written compact here)."""
        return json.dumps(json.loads(record)["log"], separators=(",", ":"))

    assert log_text(saved) == log_text(text)
    assert saved[saved.index('"log":') :].startswith('"log":' + log_text(text))  # written as is, key order too
