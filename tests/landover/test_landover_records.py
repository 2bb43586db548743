"""Landover maps, records, replay, undo, seat views and the generic commands."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tablelight.core.errors import RecordError, SetupError
from tablelight.core.record import replay
from tablelight.core.rng import Rng
from tablelight.core.serve import RulesServer
from tablelight.games.landover.hexmap import DIRECTIONS, builtin_map, map_from_json, random_map
from tablelight.games.landover.engine import Landover

from .helpers import end_turn, force, hex_of, main_game, village


def played(players: int = 2, seed: int = 5, turns: int = 120, bots: str = "random") -> Landover:
    game = Landover(players, {"turn_cap": turns}, seed)
    rng = Rng(seed)
    bot = Landover.make_bot("greedy", seed) if bots == "greedy" else None
    while not game.is_over():
        game.apply(bot.choose(game) if bot else game.random_action(rng))
    return game


# ----------------------------------------------------------------------- maps


def test_builtin_map_has_islands_harbors_mystery_and_edge_kinds() -> None:
    m = builtin_map("archipelago")
    assert len({i for i in m.hex_island if i >= 0}) >= 3
    assert len(m.harbors) == 6 and len(m.mystery_pool) == m.terrain.count("mystery") > 0
    index = {c: h for h, c in enumerate(m.coords)}
    data = m.to_json()
    for edge in data["edges"]:
        v, w = edge["vertices"]
        shared = set(m.vertex_hexes[v]) & set(m.vertex_hexes[w])
        land = [h for h in shared if m.terrain[h] != "water"]
        if edge["kind"] == "land":
            assert len(shared) == 2 and len(land) == 2
        elif edge["kind"] == "water":
            assert not land
        else:
            assert len(land) == 1
    del index


def test_map_round_trips_and_bad_maps_are_refused_with_reasons() -> None:
    m = builtin_map("archipelago")
    data = m.to_json()
    again = map_from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data
    bad = copy.deepcopy(data)
    bad["hexes"][3]["terrain"] = "lava"
    with pytest.raises(SetupError, match="unknown terrain"):
        map_from_json(bad)
    bad = copy.deepcopy(data)
    bad["mystery_pool"] = []
    with pytest.raises(SetupError, match="mystery"):
        map_from_json(bad)
    bad = copy.deepcopy(data)
    bad["edges"][0]["kind"] = "land" if bad["edges"][0]["kind"] != "land" else "water"
    with pytest.raises(SetupError, match="edges"):
        map_from_json(bad)
    bad = copy.deepcopy(data)
    land = next(h for h in bad["hexes"] if h["terrain"] in ("sheep", "field"))
    land["number"] = 7
    with pytest.raises(SetupError, match="number"):
        map_from_json(bad)
    with pytest.raises(SetupError):
        map_from_json({"hexes": "none"})


def test_random_maps_keep_islands_apart_and_depend_only_on_the_seed() -> None:
    for seed in range(4):
        m = random_map(Rng(seed))
        assert m.to_json() == random_map(Rng(seed)).to_json()
        index = {c: h for h, c in enumerate(m.coords)}
        for h, c in enumerate(m.coords):
            if m.hex_island[h] < 0:
                continue
            for d in DIRECTIONS:
                n = index.get((c[0] + d[0], c[1] + d[1]))
                if n is not None and m.hex_island[n] >= 0:
                    assert m.hex_island[n] == m.hex_island[h]
        assert len({i for i in m.hex_island if i >= 0}) >= 3 and len(m.harbors) >= 3


def test_game_on_a_random_map_and_on_a_map_file() -> None:
    game = Landover(3, {"map_name": "random"}, 8)
    assert game.map.name == "random"
    data = random_map(Rng(99)).to_json()
    custom = Landover(2, None, 1, setup={"map": data})
    assert custom.map.to_json() == data


# -------------------------------------------------------------------- records


def test_record_holds_the_map_and_the_result_keys() -> None:
    game = played(turns=150)
    record = json.loads(game.save())
    m = record["map"]
    assert m["hexes"] and m["vertices"][0]["id"] == 0
    assert {e["kind"] for e in m["edges"]} == {"land", "water", "coast"}
    assert all(len(e["vertices"]) == 2 for e in m["edges"])
    result = record["result"]
    pieces = result["pieces"]
    assert set(pieces) == {"roads", "bridges", "villages", "cities"}
    assert {"seat", "edge"} <= set(pieces["roads"][0]) and {"seat", "vertex"} <= set(pieces["villages"][0] if pieces["villages"] else pieces["cities"][0])
    assert len(result["vp"]) == 2 and len(result["vp_breakdown"]) == 2 and len(result["routes"]) == 2
    assert [sum(b.values()) for b in result["vp_breakdown"]] == result["vp"]
    assert "longest_route" in result and "winners" in result
    assert result["winners"] == [] if result["turn_cap"] else len(result["winners"]) == 1


def test_replay_reproduces_the_game_and_catches_tampering() -> None:
    game = played(players=3, seed=2, turns=90)
    record = game.to_record()
    again = replay(json.loads(json.dumps(record)))
    assert again.result() == game.result() and again.state() == game.state()
    tampered = copy.deepcopy(record)
    roll = next(i for i, e in enumerate(tampered["log"]) if e.get("chance") == "white_die")
    tampered["log"][roll]["value"] = 9
    with pytest.raises(RecordError) as caught:
        replay(tampered)
    assert caught.value.entry == roll


def test_undo_takes_back_the_last_action() -> None:
    game = played(turns=30)
    game2 = Landover(2, {"turn_cap": 60}, 3)
    rng = Rng(1)
    for _ in range(40):
        game2.apply(game2.random_action(rng))
    before = game2.state()
    log_before = list(game2.log)
    game2.apply(game2.random_action(rng))
    game2.undo()
    assert game2.state() == before and game2.log == log_before
    assert game.is_over()


def test_greedy_game_reaches_fifteen() -> None:
    game = Landover(2, None, 7)
    bots = [Landover.make_bot("greedy", 1), Landover.make_bot("greedy", 2)]
    while not game.is_over():
        seat = game.current_seat()
        assert seat is not None
        game.apply(bots[seat].choose(game), seat=seat)
    assert game.winners() and game.vp(game.winners()[0]) >= 15


# ---------------------------------------------------------------- seat views


def test_views_hide_hands_dev_cards_and_secret_draws() -> None:
    me, other = 0, 1
    game = main_game(position={"hands": [{}, {"ore": 2}], "dev_cards": [[], ["spy"]], "culture": [{}, {"science": 1}]})
    force(game, ("white_die", 1), ("red_die", 1), ("event_die", 4), ("dev_card", 3))
    end_turn(game)
    seen = game.view(me)
    assert "hand" not in seen["players"][other] and "dev_cards" not in seen["players"][other]
    assert seen["players"][other]["hand_size"] == 2 and seen["players"][other]["dev_count"] == 2
    assert seen["players"][me]["hand"]["ore"] == 0 and "dev_cards" in seen["players"][me]
    assert "decks" in seen and all(isinstance(n, int) for n in seen["decks"].values())
    draw_mine = [e for e in game.view_log(me) if e.get("chance") == "dev_card"]
    draw_theirs = [e for e in game.view_log(other) if e.get("chance") == "dev_card"]
    assert draw_mine[-1]["value"] is None and draw_mine[-1]["hidden"]
    assert draw_theirs[-1]["value"] == 3
    assert game.state()["players"][other]["hand"]["ore"] == 2
    with pytest.raises(Exception):
        game.view(5)


def test_steals_and_spy_picks_are_hidden_from_bystanders() -> None:
    me, a, b = 0, 1, 2
    game = main_game(3, position={
        "dev_cards": [["spy"], ["bishop"], []], "hands": [{}, {"wool": 1}, {}], "military": [1, 0, 0],
    })
    game.apply({"type": "play", "card": "spy", "target": a})
    game.apply({"type": "take", "dev_card": "bishop"})
    assert game.view_log(b)[-1]["action"] == {"type": "take"} and game.view_log(b)[-1]["hidden"]
    assert game.view_log(a)[-1]["action"]["dev_card"] == "bishop"
    sheep = hex_of(game, "sheep")
    village(game, a, game.map.hex_vertices[sheep][0])
    game.apply({"type": "raid", "hex": sheep})  # steals a's one card
    assert game.pos.hands[me][0] == 1

    def steal(seat: int) -> dict[str, Any]:
        return next(e for e in reversed(game.view_log(seat)) if e.get("chance") == "steal")

    assert steal(b)["value"] is None and steal(a)["value"] == 0 and steal(me)["value"] == 0


# ---------------------------------------------------------- generic commands


def test_selfplay_replay_and_rules_serve_commands(tmp_path: Path) -> None:
    record = tmp_path / "landover.json"
    cmd = [sys.executable, "-m", "tablelight"]
    run = subprocess.run(
        cmd + ["selfplay", "landover", "--players", "4", "--seed", "2", "--turn-cap", "80", "--record", str(record)],
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(record.read_text())
    assert data["game"] == "landover" and data["result"]["turn_cap"] in (True, False)
    check = subprocess.run(cmd + ["replay", str(record), "--json"], capture_output=True, text=True, timeout=120)
    assert check.returncode == 0 and json.loads(check.stdout)["legal"] is True
    server = RulesServer()
    made = server.handle({"cmd": "new", "game": "landover", "players": 2, "seed": 1})
    assert made["ok"], made
    legal = server.handle({"cmd": "legal", "game_id": made["game_id"]})
    assert legal["ok"] and legal["actions"]
    bad = server.handle({"cmd": "apply", "game_id": made["game_id"], "action": {"type": "build", "piece": "village", "vertex": -1}})
    assert not bad["ok"] and bad["error"]["rule"] == "landover.action.bad_vertex"


def test_a_map_too_small_for_the_players_is_refused() -> None:
    tiny = {"hexes": [{"id": 0, "q": 0, "r": 0, "terrain": "field", "number": 6}]}
    with pytest.raises(SetupError, match="starting corners"):
        Landover(2, None, 0, setup={"map": tiny})
    for players in (2, 3, 4):
        Landover(players, {"map_name": "random"}, players)


def test_options_out_of_range_are_refused() -> None:
    for options in ({"target": 0}, {"turn_cap": -5}, {"barbarian_delay": -1}, {"map_name": "atlantis"}):
        with pytest.raises(SetupError):
            Landover(2, options, 0)
