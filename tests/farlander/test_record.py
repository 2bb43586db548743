"""Records, replay, undo, save/load and views."""

import copy
import json
import os
import subprocess
import sys

import pytest

from tablelight.core import NothingToUndoError, RecordError, new_game, replay
from tablelight.core.rng import Rng
from tablelight.games.farlander.engine import Farlander

TABLELIGHT = [sys.executable, "-m", "tablelight"]


def finished_game(players=3, seed=7):
    game = new_game("farlander", players, seed=seed)
    rng = Rng(seed + 100)
    while not game.is_over():
        game.apply(game.random_action(rng))
    return game


def test_record_has_the_documented_shape():
    record = finished_game().to_record()
    assert record["game"] == "farlander" and record["players"] == 3 and record["seed"] == 7
    assert record["options"] == {"garrisons": True, "claim_empty": False}
    territory = record["map"]["territories"][0]
    assert {"id", "tile", "garrison", "neighbors"} <= set(territory)
    assert record["log"][0] == {"chance": "first_player", "phase": "distribution", "value": record["log"][0]["value"]}
    assert {"seat", "action"} <= set(record["log"][1])
    assert set(record["result"]) == {"scores", "winners"}


def test_replay_reproduces_the_game_exactly():
    game = finished_game()
    again = replay(json.loads(json.dumps(game.to_record())))
    assert again.state() == game.state() and again.log == game.log and again.chance_matches_seed


def test_forced_skips_may_be_left_out_of_a_record():
    game = finished_game(players=4, seed=2)
    record = game.to_record()
    assert any(e.get("auto") for e in record["log"])
    record["log"] = [e for e in record["log"] if not e.get("auto")]
    assert replay(record).state() == game.state()
    # A skip logged without the auto flag is accepted where the engine skipped too.
    record = game.to_record()
    for entry in record["log"]:
        entry.pop("auto", None)
    assert replay(record).result() == game.result()


def test_replay_in_other_processes_with_other_hash_seeds(tmp_path):
    record_file = tmp_path / "game.json"
    env = dict(os.environ, PYTHONHASHSEED="1")
    subprocess.run(
        TABLELIGHT + ["selfplay", "farlander", "--players", "3", "--seed", "11", "--bots", "strong,random,random", "--record", str(record_file)],
        check=True, capture_output=True, env=env,
    )
    outputs = []
    for hash_seed in ("2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run(TABLELIGHT + ["replay", "--json", str(record_file)], capture_output=True, text=True, env=env)
        assert done.returncode == 0, done.stderr
        outputs.append(json.loads(done.stdout))
    record = json.loads(record_file.read_text())
    assert outputs[0] == outputs[1]
    assert outputs[0]["result"] == record["result"] and outputs[0]["legal"] is True
    # Replaying in this process gives the same game as well.
    assert replay(record).result() == record["result"]


def test_same_seed_and_bots_give_the_same_game_in_new_processes(tmp_path):
    records = []
    for hash_seed in ("5", "6"):
        path = tmp_path / f"{hash_seed}.json"
        subprocess.run(
            TABLELIGHT + ["selfplay", "farlander", "--players", "2", "--seed", "4", "--record", str(path)],
            check=True, capture_output=True, env=dict(os.environ, PYTHONHASHSEED=hash_seed),
        )
        records.append(json.loads(path.read_text()))
    assert records[0] == records[1]


def tampered(record, index, change):
    record = copy.deepcopy(record)
    change(record["log"][index])
    return record


def test_replay_names_the_first_offending_entry():
    record = finished_game().to_record()
    actions = [i for i, e in enumerate(record["log"]) if "action" in e and not e.get("auto")]
    # An illegal placement: into a territory the other seat already holds.
    index = actions[5]
    enemy = next(e["action"]["territory"] for e in record["log"][: index] if "action" in e and e["seat"] != record["log"][index]["seat"])
    bad = tampered(record, index, lambda e: e["action"].update(territory=enemy))
    with pytest.raises(RecordError) as error:
        replay(bad)
    assert error.value.entry == index and "farlander.distribution.enemy_territory" in error.value.message
    # The wrong seat.
    bad = tampered(record, actions[3], lambda e: e.update(seat=(e["seat"] + 1) % 3))
    with pytest.raises(RecordError) as error:
        replay(bad)
    assert error.value.entry == actions[3]
    # A chance outcome that is not possible.
    bad = tampered(record, 0, lambda e: e.update(value=9))
    with pytest.raises(RecordError) as error:
        replay(bad)
    assert error.value.entry == 0
    # A claimed result that is not the game's.
    bad = copy.deepcopy(record)
    bad["result"]["winners"] = [4]
    with pytest.raises(RecordError, match="winners"):
        replay(bad)
    # A truncated record is an unfinished game, not an error, unless it claims a result.
    short = copy.deepcopy(record)
    short["log"] = short["log"][:30]
    del short["result"]
    assert not replay(short).is_over()


def test_a_logged_chance_outcome_replaces_the_seeds_and_is_flagged():
    record = finished_game().to_record()
    start = record["log"][0]["value"]
    record["log"][0]["value"] = (start + 1) % 3
    del record["result"]
    # The seat in the next action entry no longer matches: the replay stops there.
    with pytest.raises(RecordError) as error:
        replay(record)
    assert error.value.entry == 1


def test_bad_records_get_clear_errors():
    with pytest.raises(RecordError, match="unknown game"):
        replay({"game": "chess", "log": []})
    with pytest.raises(RecordError, match="log"):
        replay({"game": "farlander", "players": 2})
    with pytest.raises(RecordError, match="players"):
        replay({"game": "farlander", "players": 7, "log": []})
    with pytest.raises(RecordError) as error:
        replay({"game": "farlander", "players": 2, "log": [{"chance": "first_player", "value": 0}, "junk"]})
    assert error.value.entry == 1


def test_undo_restores_state_log_and_generator():
    game = new_game("farlander", 2, seed=5)
    rng = Rng(9)
    snapshots = []
    while not game.is_over():
        snapshots.append((json.dumps(game.state()), list(game.log), game.rng.state))
        game.apply(game.random_action(rng))
    undone = 0
    while snapshots and undone < 40:
        state, log, rng_state = snapshots.pop()
        game.undo()
        undone += 1
        # Forced skips and chance draws made after an action go with it.
        assert json.dumps(game.state()) == state and game.log == log and game.rng.state == rng_state


def test_undo_with_nothing_to_undo():
    with pytest.raises(NothingToUndoError):
        new_game("farlander", 2).undo()


def test_save_and_load_round_trip_mid_game():
    game = new_game("farlander", 4, seed=8)
    rng = Rng(1)
    for _ in range(50):
        game.apply(game.random_action(rng))
    loaded = Farlander.load(game.save())
    assert loaded.state() == game.state() and loaded.log == game.log and loaded.rng.state == game.rng.state
    assert loaded.save() == game.save()


def test_view_of_farlander_hides_nothing_and_checks_the_seat():
    game = new_game("farlander", 2, seed=1)
    assert game.view(0) == game.state() == game.view(1)
    assert game.view_log(1) == game.log
    with pytest.raises(Exception):
        game.view(2)
