"""``tablelight rules serve``: a real subprocess driven over JSON lines."""

import json
import subprocess
import sys

import pytest

from tablelight.core.serve import RulesServer


@pytest.fixture()
def server():
    process = subprocess.Popen(
        [sys.executable, "-m", "tablelight", "rules", "serve"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
    )

    def ask(line):
        process.stdin.write((line if isinstance(line, str) else json.dumps(line)) + "\n")
        process.stdin.flush()
        return json.loads(process.stdout.readline())

    yield ask
    process.stdin.close()
    assert process.wait(timeout=10) == 0


def test_a_whole_game_over_the_wire(server):
    assert server({"id": 1, "cmd": "hello"})["protocol"] == "tablelight-rules/1"
    new = server({"id": 2, "cmd": "new", "game": "farlander", "players": 2, "seed": 3})
    assert new["ok"] and new["id"] == 2 and new["state"]["phase"] == "distribution"
    steps = 0
    while True:
        legal = server({"cmd": "legal"})
        if not legal["actions"]:
            break
        reply = server({"cmd": "apply", "action": legal["actions"][0], "seat": legal["seat"]})
        assert reply["ok"], reply
        assert reply["log"][0]["action"] == legal["actions"][0]
        steps += 1
    scores = server({"cmd": "scores"})
    assert scores["over"] and sum(scores["scores"]) > 0 and scores["winners"]
    record = server({"cmd": "record"})["record"]
    loaded = server({"cmd": "load", "record": record})
    assert loaded["ok"] and loaded["state"] == server({"cmd": "state", "game_id": new["game_id"]})["state"]
    assert steps > 50


def test_bad_lines_get_error_objects_and_change_nothing(server):
    assert server("this is not json")["error"]["kind"] == "BadJSON"
    assert server("[1, 2]")["error"]["kind"] == "BadRequest"
    assert server({"cmd": "fly"})["error"]["kind"] == "UnknownCommand"
    assert server({"cmd": "state"})["error"]["kind"] == "NoGame"
    assert server({"cmd": "new", "game": "chess"})["error"]["kind"] == "SetupError"
    assert server({"cmd": "new", "game": "farlander", "players": "two"})["error"]["kind"] == "BadRequest"
    state = server({"cmd": "new", "game": "farlander", "players": 2, "seed": 1})["state"]
    illegal = server({"id": "x", "cmd": "apply", "action": {"type": "conquer", "target": "a1", "moves": {}}})
    assert illegal["ok"] is False and illegal["id"] == "x"
    assert illegal["error"]["rule"] == "farlander.action.wrong_phase"
    assert server({"cmd": "apply"})["error"]["kind"] == "BadRequest"
    assert server({"cmd": "undo"})["error"]["kind"] == "NothingToUndoError"
    assert server({"cmd": "view", "seat": 9})["ok"] is False
    assert server({"cmd": "load", "record": {"game": "farlander", "players": 2, "log": ["x"]}})["error"]["entry"] == 0
    assert server({"cmd": "state"})["state"] == state


def test_undo_view_and_bot_commands(server):
    server({"cmd": "new", "game": "farlander", "players": 3, "seed": 5})
    first = server({"cmd": "state"})
    moved = server({"cmd": "bot", "bot": "strong", "apply": True})
    assert moved["applied"] and moved["log"][0]["action"] == moved["action"]
    undone = server({"cmd": "undo"})
    assert undone["state"] == first["state"] and undone["undone"]["action"] == moved["action"]
    view = server({"cmd": "view", "seat": 1})
    assert view["view"] == first["state"] and view["log"] == [e for e in view["log"] if "chance" in e]
    games = server({"cmd": "games"})["games"]
    assert any(g["name"] == "farlander" and "strong" in g["bots"] for g in games)
    assert server({"cmd": "quit"})["bye"] is True


def test_server_reports_internal_errors_instead_of_dying(monkeypatch):
    server = RulesServer()
    server.handle({"cmd": "new", "game": "farlander", "players": 2})

    def broken(request):
        raise ZeroDivisionError("boom")

    server.commands["state"] = broken
    reply = server.handle({"cmd": "state"})
    assert reply["ok"] is False and reply["error"]["kind"] == "InternalError"
    assert server.handle({"cmd": "scores"})["ok"] is True


def test_as_seat_answers_show_only_what_that_seat_may_see():
    server = RulesServer()
    new = server.handle({"cmd": "new", "game": "mainland", "players": 2, "seed": 4, "as_seat": 1})
    assert "hands" not in new["state"] and "decks" not in new["state"]
    assert new["state"]["seat"] == 1 and len(new["state"]["hand"]) == 5
    full = server.handle({"cmd": "state"})["state"]
    assert "hands" in full  # without as_seat the server answers for the table (everything)
    mover = new["seat"]
    other = 1 - mover
    assert server.handle({"cmd": "legal", "as_seat": other})["actions"] == []
    legal = server.handle({"cmd": "legal", "as_seat": mover})["actions"]
    assert legal
    refused = server.handle({"cmd": "apply", "action": legal[0], "as_seat": other})
    assert refused["ok"] is False and refused["error"]["kind"] == "NotYourTurnError"
    reply = server.handle({"cmd": "apply", "action": legal[0], "as_seat": mover})
    assert reply["ok"] and "hands" not in reply["state"]
    for entry in reply["log"]:
        if entry.get("chance") == "shuffle":
            assert entry["value"] is None
    record = server.handle({"cmd": "record", "as_seat": other})["record"]
    assert all(e.get("value") is None for e in record["log"] if e.get("chance") == "shuffle")
    assert server.handle({"cmd": "state", "as_seat": 5})["error"]["kind"] == "BadRequest"


def test_a_seats_record_leaves_out_a_starting_position_that_names_every_hand():
    from tablelight.games.landover.engine import Landover

    start = Landover(2, seed=3, setup={"position": {"hands": [{"ore": 2, "wool": 1}, {"wheat": 3}]}})
    server = RulesServer()
    loaded = server.handle({"cmd": "load", "record": start.to_record()})
    assert loaded.get("ok", True) is not False, loaded
    full = server.handle({"cmd": "record"})["record"]
    assert "position" in full  # the owner's record replays from it
    for seat in (0, 1):
        scoped = server.handle({"cmd": "record", "as_seat": seat})["record"]
        assert "position" not in scoped and "seed" not in scoped
        assert json.dumps(full["position"]["hands"]) not in json.dumps(scoped)
