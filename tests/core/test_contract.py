"""The rules contract, checked the same way on every registered engine."""

import json
import os
import subprocess
import sys

import pytest

from tablelight.core import IllegalActionError, game_names, new_game, replay
from tablelight.core.rng import Rng

TABLELIGHT = [sys.executable, "-m", "tablelight"]
#: Options that keep each game short enough for a unit test.
SHORT = {"landover": {"turn_cap": 40}}


def short_game(name: str, seed: int = 3):
    return new_game(name, 2, SHORT.get(name, {}), seed=seed)


@pytest.mark.parametrize("name", game_names())
def test_every_engine_replays_the_same_game_in_other_processes(name, tmp_path):
    options = [f"--option={k}={v}" for k, v in SHORT.get(name, {}).items()]
    records = []
    for hash_seed in ("1", "2"):
        path = tmp_path / f"{hash_seed}.json"
        done = subprocess.run(
            TABLELIGHT + ["selfplay", name, "--players", "2", "--seed", "5", "--record", str(path), *options],
            capture_output=True, text=True, env=dict(os.environ, PYTHONHASHSEED=hash_seed),
        )
        assert done.returncode == 0, done.stderr
        records.append(json.loads(path.read_text()))
    assert records[0] == records[1]
    checked = subprocess.run(
        TABLELIGHT + ["replay", "--json", str(tmp_path / "1.json")],
        capture_output=True, text=True, env=dict(os.environ, PYTHONHASHSEED="3"),
    )
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout)["result"]["winners"] == records[0]["result"]["winners"]


@pytest.mark.parametrize("name", game_names())
def test_every_engine_lists_only_actions_it_accepts_and_undoes_exactly(name):
    game = short_game(name)
    rng = Rng(11)
    states = []
    steps = 0
    while not game.is_over() and steps < 40:
        legal = game.legal_actions()
        assert legal, f"{name}: seat {game.current_seat()} to act has no legal action"
        for action in legal[:25]:
            assert game.check(action) is not None
        states.append((json.dumps(game.state(), sort_keys=True), len(game.log), game.rng.state))
        game.apply(game.random_action(rng))
        steps += 1
    for state, log_length, rng_state in reversed(states[-8:]):
        game.undo()
        assert (json.dumps(game.state(), sort_keys=True), len(game.log), game.rng.state) == (state, log_length, rng_state)


@pytest.mark.parametrize("name", game_names())
def test_every_engine_refuses_garbage_without_changing_anything(name):
    game = short_game(name)
    rng = Rng(2)
    for _ in range(10):
        if game.is_over():
            break
        game.apply(game.random_action(rng))
    before = (json.dumps(game.state(), sort_keys=True), list(game.log))
    for garbage in ({}, {"type": 7}, {"type": "no such action"}, {"type": "place", "x": "y" * 10}, {"type": None, "card": []}):
        with pytest.raises(IllegalActionError) as error:
            game.apply(garbage)
        assert error.value.rule and error.value.message
    assert (json.dumps(game.state(), sort_keys=True), list(game.log)) == before


@pytest.mark.parametrize("name", game_names())
def test_every_engine_saves_loads_and_gives_json_views(name):
    game = short_game(name)
    rng = Rng(4)
    for _ in range(25):
        if game.is_over():
            break
        game.apply(game.random_action(rng))
    loaded = type(game).load(game.save())
    assert loaded.state() == game.state() and loaded.log == game.log
    for seat in range(game.players):
        json.dumps(game.view(seat))
        json.dumps(game.view_log(seat))
    assert replay(json.loads(json.dumps(game.to_record()))).state() == game.state()
