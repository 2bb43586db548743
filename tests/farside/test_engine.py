"""The round and mission tracker: the rulebook's sequence, missions, dice from host or table, records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tablelight.core.errors import IllegalActionError, SetupError
from tablelight.core.record import replay
from tablelight.core.registry import new_game
from tablelight.core.rng import Rng
from tablelight.core.serve import RulesServer
from tablelight.games.farside.engine import FarsideEncounter

ARMIES = {
    "armies": [
        {"name": "Raiders", "models": [
            {"name": "Warrior", "points": 50, "size": 1, "defense": 4},
            {"name": "Beast", "points": 120, "size": 2, "defense": 3},
        ]},
        {"name": "Guards", "models": [
            {"name": "Trooper", "points": 40, "size": 1, "defense": 4},
            {"name": "Walker", "points": 200, "size": 3, "defense": 3},
        ]},
    ]
}


def table_game(**options: Any) -> FarsideEncounter:
    return FarsideEncounter(2, {"dice": "table", **options}, setup=ARMIES)


def act(game: FarsideEncounter, seat: int, **action: Any) -> None:
    game.apply(action, seat=seat)


def through_setup(game: FarsideEncounter, team: tuple[int, int] = (1, 1),
                  secrets: tuple[tuple[str, str], tuple[str, str]] = (("destruction", "loot"), ("secure", "destruction"))) -> None:
    act(game, 0, type="roll", dice=[4])
    act(game, 1, type="roll", dice=[2])  # seat 0 rolled higher: it places terrain and loot
    act(game, 0, type="roll", dice=[1, 3])  # 2D3 terrain zones to secure
    act(game, 0, type="roll", dice=[2, 2])  # 2D3 loot tokens
    act(game, 1, type="roll", dice=[1])  # deployment widths, each player
    act(game, 0, type="roll", dice=[6])
    for seat in (0, 1):
        primary, stratagem = secrets[seat]
        act(game, seat, type="secret", primary=primary, stratagem=stratagem, team_size=team[seat])


def command(game: FarsideEncounter, dice0: list[int], dice1: list[int], first_choice: int, second_choice: int) -> None:
    act(game, 0, type="roll", dice=dice0)
    act(game, 1, type="roll", dice=dice1)
    chooser = game.current_seat()
    assert chooser is not None
    act(game, chooser, type="command", die=first_choice)
    act(game, 1 - chooser, type="command", die=second_choice)


def test_setup_rolls_and_command_phase() -> None:
    game = table_game()
    through_setup(game)
    state = game.state()
    assert state["setup"] == {"rolls": [4, 2], "placer": 0, "secure_zones": 4, "loot_tokens": 4, "deployment_cm": [30, 10]}
    assert state["phase"] == "command" and game.current_seat() == 0
    act(game, 0, type="roll", dice=[5, 2])
    act(game, 1, type="roll", dice=[3, 3])
    assert game.current_seat() == 1  # the lower sum chooses first
    assert game.legal_actions() == [{"type": "command", "die": 3}]
    act(game, 1, type="command", die=3)
    assert {a["die"] for a in game.legal_actions()} == {2, 5}
    act(game, 0, type="command", die=5)
    state = game.state()
    assert state["command"]["action_points"] == [0, 3] and state["command"]["manoeuvre_die"] == [2, 3]
    assert state["first_player"] == 1 and game.current_seat() == 1 and state["phase"] == "action"


def test_equal_sums_are_rolled_again_and_equal_points_go_to_the_lower_sum() -> None:
    game = table_game()
    through_setup(game)
    act(game, 0, type="roll", dice=[3, 4])
    act(game, 1, type="roll", dice=[2, 5])
    assert game.state()["pending_roll"]["roll"] == "command" and game.current_seat() == 0
    command(game, [4, 2], [4, 5], 4, 4)
    assert game.state()["first_player"] == 0  # 4 against 4 action points: sum 6 beats sum 9


def test_setup_tie_is_rolled_again() -> None:
    game = table_game()
    act(game, 0, type="roll", dice=[3])
    act(game, 1, type="roll", dice=[3])
    assert game.state()["pending_roll"] == {"roll": "setup", "seat": 0, "dice": 1, "sides": 6, "count_fails": False}


def defend(game: FarsideEncounter, seat: int, fails: int) -> None:
    """Enter a defence roll and keep it when the tracker offers Evade (a manoeuvre die of 5+)."""
    act(game, seat, type="roll", fails=fails)
    offer = game.state()["evade_offer"]
    if offer is not None and offer["fails"] == fails:
        act(game, seat, type="accept", model=offer["model"])


def turn_with_impacts(game: FarsideEncounter, seat: int, impacts: dict[str, int]) -> None:
    for model, tokens in impacts.items():
        act(game, seat, type="impact", model=model, tokens=tokens)
    act(game, seat, type="end_turn")
    act(game, seat, type="done")
    act(game, 1 - seat, type="done")


def test_impact_phase_defence_rolls_and_size() -> None:
    game = table_game()
    through_setup(game, team=(2, 2))
    command(game, [1, 6], [5, 6], 1, 5)  # seat 0: 1 action point, goes first
    turn_with_impacts(game, 0, {"b1": 2, "b2": 4})
    assert game.state()["pending_roll"] == {"roll": "defense", "seat": 1, "dice": 2, "sides": 6, "count_fails": True, "model": "b1"}
    assert [a["fails"] for a in game.legal_actions()] == [0, 1, 2]
    defend(game, 1, 1)
    defend(game, 1, 3)  # size 3 ignores two fails
    models = game.state()["models"]
    assert (models["b1"]["damage"], models["b2"]["damage"]) == (1, 1)
    assert models["b1"]["impact"] == 0 and game.state()["active"] == 1 and game.state()["phase"] == "action"


def test_activation_rolls_failed_activation_and_martyr() -> None:
    game = table_game()
    through_setup(game, team=(1, 2))
    command(game, [1, 6], [5, 6], 1, 5)
    turn_with_impacts(game, 0, {"b1": 2})
    defend(game, 1, 2)  # b1: two damage tokens
    # Seat 1's turn: 5 action points. A simple action with 2 damage needs a 2+, a complex one a 3+.
    act(game, 1, type="activate", model="b1", action="complex")
    assert game.state()["pending_roll"]["roll"] == "activation"
    act(game, 1, type="roll", dice=[2])
    assert game.state()["failed_activation"] == {"model": "b1", "roll": 2}
    with pytest.raises(IllegalActionError) as error:
        act(game, 1, type="end_turn")
    assert error.value.rule == "farside.activation.failed_pending"
    act(game, 1, type="failed", model="b1", choice="act")  # a martyr: acts, then is removed
    state = game.state()
    assert state["models"]["b1"]["status"] == "lost"
    assert state["objectives"][1]["martyr"] == 1
    assert state["objectives"][0]["destruction"] == 0  # seat 1's team size is 2: one loss is not a team
    assert state["command"]["action_points"][1] == 4
    # An undamaged model needs no roll; a model cannot act twice in a turn.
    act(game, 1, type="activate", model="b2", action="complex")
    assert game.state()["pending_roll"] is None
    with pytest.raises(IllegalActionError, match="already activated"):
        act(game, 1, type="activate", model="b2", action="simple")


def test_group_activation_shares_one_roll_and_one_action_point() -> None:
    game = table_game()
    through_setup(game)
    command(game, [1, 6], [5, 6], 1, 5)
    turn_with_impacts(game, 0, {"b1": 1, "b2": 3})
    defend(game, 1, 1)
    defend(game, 1, 3)
    act(game, 1, type="activate", model="b1", action="simple")
    act(game, 1, type="roll", dice=[1])  # simple with one damage token: 1 >= 1 succeeds
    assert game.state()["failed_activation"] is None
    act(game, 1, type="activate", model="b2", action="complex", group=True)
    # the same roll (1) applies: complex with one damage token needs more than 1
    assert game.state()["failed_activation"] == {"model": "b2", "roll": 1}
    assert game.state()["command"]["action_points"][1] == 4
    act(game, 1, type="failed", model="b2", choice="pass")
    assert game.state()["models"]["b2"]["damage"] == 1


def test_inspired_rerolls_a_failed_activation() -> None:
    game = table_game()
    through_setup(game)
    command(game, [1, 6], [5, 6], 1, 5)  # seat 1's manoeuvre die is 6
    turn_with_impacts(game, 0, {"b1": 1})
    defend(game, 1, 1)
    act(game, 1, type="activate", model="b1", action="complex")
    act(game, 1, type="roll", dice=[1])
    act(game, 1, type="manoeuvre", player=1, name="Inspired")
    act(game, 1, type="roll", dice=[4])
    assert game.state()["failed_activation"] is None and game.state()["command"]["manoeuvre_used"] == [None, "Inspired"]
    with pytest.raises(IllegalActionError, match="already used"):
        act(game, 1, type="manoeuvre", player=1, name="Cure", model="b1")


@pytest.mark.parametrize("takeover, scores, total", [("adds", [5, 4], 4), ("moves", [3, 3], 3)])
def test_missions_victory_points_and_the_end_after_the_round(takeover: str, scores: list[int], total: int) -> None:
    game = table_game(objective_limit=2, secure_takeover=takeover)
    # seat 0: primary secure, stratagem loot; seat 1: primary loot, stratagem secure
    through_setup(game, team=(1, 1), secrets=(("secure", "loot"), ("loot", "secure")))
    command(game, [2, 6], [5, 6], 2, 5)
    act(game, 0, type="secure", zone=1)
    act(game, 0, type="secure", zone=2)
    assert game.state()["objective_total"] == 2 and game.state()["command"]["action_points"][0] == 0
    with pytest.raises(IllegalActionError, match="action point"):
        act(game, 0, type="secure", zone=3)
    turn_with_impacts(game, 0, {})
    assert not game.is_over()  # the round is completed first
    act(game, 1, type="secure", zone=1)  # taken over
    act(game, 1, type="loot", model="b1")
    assert game.state()["secured"] == {"1": 1, "2": 0} and game.state()["loot_left"] == 3
    turn_with_impacts(game, 1, {})
    assert game.is_over() and game.total_objectives() == total
    # adds: seat 0: 2 secure (primary) = 4, seat 1's loot (stratagem loot) = 1 -> 5;
    #       seat 1: 1 loot (primary) = 2, seat 0's 2 secure (stratagem secure) = 2 -> 4.
    # moves: zone 1's point went to seat 1: seat 0 keeps 1 secure (2) + 1 = 3; seat 1: 2 + 1 = 3.
    assert game.scores() == scores and game.winners() == ([0] if takeover == "adds" else [0, 1])
    assert "end of round 1" in game.state()["end_reason"]


def test_destruction_heavy_loss_grand_slam_and_obliteration() -> None:
    game = table_game()
    through_setup(game, team=(1, 1))
    command(game, [1, 6], [5, 6], 1, 5)
    act(game, 0, type="loot", model="a1")  # seat 0 loot
    turn_with_impacts(game, 0, {"b2": 5})
    defend(game, 1, 5)  # the walker (200, the most expensive) takes 3 damage
    state = game.state()
    assert state["models"]["b2"]["status"] == "lost"
    assert state["objectives"][0]["destruction"] == 1 and state["objectives"][0]["heavy loss"] == 1
    assert state["objectives"][0]["grand slam"] == 0  # three kinds so far
    act(game, 1, type="impact", model="a2", tokens=1)
    act(game, 1, type="break_through", model="b1")  # seat 1's last model leaves: the game ends at once
    assert game.is_over()
    state = game.state()
    assert state["objectives"][1]["breakthrough"] == 1
    assert state["objectives"][0]["obliteration"] == 1 and state["objectives"][0]["grand slam"] == 1
    assert "no models left" in state["end_reason"]


def test_secrets_are_hidden_until_the_end() -> None:
    game = table_game()
    through_setup(game, team=(1, 2))
    view = game.view(1)
    assert view["secrets"][0] == {"team_size": 1} and view["secrets"][1]["primary"] == "secure"
    hidden = [e for e in game.view_log(1) if e.get("action", {}).get("type") == "secret"]
    assert hidden[0]["action"] == {"type": "secret", "team_size": 1}
    assert hidden[1]["action"]["primary"] == "secure"
    assert "destruction" not in json.dumps(game.view_log(1)[:-1])


def test_bad_actions_are_refused_and_change_nothing() -> None:
    game = table_game()
    through_setup(game)
    command(game, [1, 2], [5, 6], 1, 5)  # seat 0: manoeuvre die 2
    before = game.save()
    bad = [
        ({"type": "fly"}, "farside.action.type"),
        ({"type": "impact", "model": "z9", "tokens": 1}, "farside.model.unknown"),
        ({"type": "impact", "model": "b1", "tokens": 0}, "farside.tokens.range"),
        ({"type": "activate", "model": "b1", "action": "complex"}, "farside.model.not_yours"),
        ({"type": "activate", "model": "a1", "action": "heroic"}, "farside.activate.kind"),
        ({"type": "activate", "model": "a1", "action": "simple", "group": True}, "farside.activate.no_group"),
        ({"type": "roll", "dice": [3]}, "farside.roll.none"),
        ({"type": "secure", "zone": 9}, "farside.zone.range"),
        ({"type": "manoeuvre", "player": 0, "name": "Evade"}, "farside.manoeuvre.die"),
        ({"type": "manoeuvre", "player": 0, "name": "Teleport"}, "farside.manoeuvre.unknown"),
        ({"type": "done"}, "farside.phase"),
    ]
    for action, rule in bad:
        with pytest.raises(IllegalActionError) as error:
            game.apply(action, seat=0)
        assert error.value.rule == rule, action
    assert game.save() == before
    host = FarsideEncounter(2, {}, seed=1, setup=ARMIES)
    assert host.current_seat() == 0 and host.state()["phase"] == "secrets"
    with pytest.raises(IllegalActionError, match="host rolls"):
        host.apply({"type": "roll", "dice": [3]})
    with pytest.raises(IllegalActionError, match="die must be a whole number 1..6"):
        FarsideEncounter(2, {"dice": "table"}, setup=ARMIES).apply({"type": "roll", "dice": [7]})


def test_bad_setup_is_a_clear_error() -> None:
    with pytest.raises(SetupError, match="two armies"):
        FarsideEncounter(2, setup={"armies": []})
    with pytest.raises(SetupError, match="defense"):
        FarsideEncounter(2, setup={"armies": [{"models": [{"name": "x", "points": 1, "size": 1, "defense": 9}]}] * 2})
    with pytest.raises(SetupError, match="deployment"):
        FarsideEncounter(2, {"deployment": "25"})


def play_random(game: FarsideEncounter, seed: int, limit: int = 5000) -> int:
    rng = Rng(seed)
    steps = 0
    while not game.is_over() and steps < limit:
        game.apply(game.random_action(rng))
        steps += 1
    return steps


@pytest.mark.parametrize("dice", ["host", "table"])
def test_random_games_end_and_replay_exactly(dice: str) -> None:
    for seed in range(3):
        game = new_game("farside", 2, {"dice": dice}, seed=seed)
        play_random(game, seed)
        assert game.is_over()
        record = json.loads(game.save())
        again = replay(record)
        assert again.state() == game.state() and again.scores() == game.scores()
        if dice == "host":
            kinds = {e["chance"] for e in record["log"] if "chance" in e}
            assert {"setup", "secure_zones", "loot_tokens", "deployment", "command"} <= kinds


def test_legal_actions_are_all_accepted_and_undo_restores() -> None:
    game = new_game("farside", 2, {}, seed=4)
    rng = Rng(9)
    for _ in range(60):
        if game.is_over():
            break
        legal = game.legal_actions()
        assert legal and all(game.is_legal(a) for a in legal[:: max(1, len(legal) // 25)])
        before = game.save()
        game.apply(rng.choice(legal))
        after = game.save()
        game.undo()
        assert game.save() == before
        game.apply(json.loads(after)["log"][len(json.loads(before)["log"])]["action"])
        assert game.save() == after


def test_physical_dice_through_the_chance_queue() -> None:
    entries = [
        {"chance": "setup", "seat": 0, "value": 6}, {"chance": "setup", "seat": 1, "value": 1},
        {"chance": "secure_zones", "seat": 0, "value": 3}, {"chance": "secure_zones", "seat": 0, "value": 3},
        {"chance": "loot_tokens", "seat": 0, "value": 1}, {"chance": "loot_tokens", "seat": 0, "value": 1},
        {"chance": "deployment", "seat": 1, "value": 5}, {"chance": "deployment", "seat": 0, "value": 2},
    ]
    game = FarsideEncounter(2, {}, seed=0, setup=ARMIES, chance=entries)
    setup = game.state()["setup"]
    assert setup == {"rolls": [6, 1], "placer": 0, "secure_zones": 6, "loot_tokens": 2, "deployment_cm": [10, 30]}
    assert [e["value"] for e in game.log] == [e["value"] for e in entries]


def test_rules_serve_drives_the_tracker() -> None:
    server = RulesServer()
    created = server.handle_line(json.dumps({"cmd": "new", "game": "farside", "seed": 2}))
    assert created["ok"], created
    game_id = created["game_id"]
    legal = server.handle_line(json.dumps({"cmd": "legal", "game_id": game_id}))
    assert legal["ok"] and legal["actions"][0]["type"] == "secret"
    applied = server.handle_line(json.dumps({"cmd": "apply", "game_id": game_id, "action": legal["actions"][0]}))
    assert applied["ok"], applied
    refused = server.handle_line(json.dumps({"cmd": "apply", "game_id": game_id, "action": {"type": "fly"}}))
    assert not refused["ok"] and refused["error"]["rule"] == "farside.action.type"


def test_heavy_loss_is_the_most_expensive_model_of_the_game() -> None:
    game = table_game()
    through_setup(game, team=(2, 2))
    command(game, [1, 6], [5, 6], 1, 5)
    turn_with_impacts(game, 0, {})
    act(game, 1, type="impact", model="a2", tokens=4)  # the Beast, 120: seat 0's best, not the game's (200)
    turn_with_impacts(game, 1, {})
    defend(game, 0, 4)  # size 2 ignores one: 3 damage tokens
    state = game.state()
    assert state["models"]["a2"]["status"] == "lost" and state["objectives"][1]["heavy loss"] == 0


def test_rules_serve_loads_a_game_with_armies() -> None:
    game = table_game()
    through_setup(game)
    server = RulesServer()
    loaded = server.handle_line(json.dumps({"cmd": "load", "record": game.to_record()}))
    assert loaded["ok"], loaded
    view = server.handle_line(json.dumps({"cmd": "view", "game_id": loaded["game_id"], "seat": 1}))
    assert view["ok"] and view["view"]["models"]["b2"]["name"] == "Walker"
    assert view["view"]["secrets"][0] == {"team_size": 1}


# ------------------------------------------- record format 2: roll then choose, Evade


def damaged_b1(damage: int, record_format: int = 2) -> FarsideEncounter:
    """Seat 1's b1 (defence 4+, size 1) with ``damage`` tokens at the start of seat 1's turn (5 points)."""
    game = FarsideEncounter(2, {"dice": "table"}, setup=ARMIES, record_format=record_format)
    through_setup(game)
    command(game, [1, 6], [5, 6], 1, 5)  # seat 0 goes first; both manoeuvre dice are 6
    turn_with_impacts(game, 0, {"b1": damage})
    defend(game, 1, damage)
    assert game.state()["models"]["b1"]["damage"] == damage and game.current_seat() == 1
    return game


def test_the_activation_roll_comes_first_so_one_damage_token_always_allows_a_simple_action() -> None:
    game = damaged_b1(1)
    act(game, 1, type="activate", model="b1", action="complex")
    act(game, 1, type="roll", dice=[1])  # too low for the complex action, enough for a simple one
    assert game.state()["failed_activation"] == {"model": "b1", "roll": 1}
    assert {"type": "failed", "model": "b1", "choice": "simple"} in game.legal_actions()
    act(game, 1, type="failed", model="b1", choice="simple")
    state = game.state()
    assert state["models"]["b1"]["damage"] == 1 and state["models"]["b1"]["action"] == "simple"
    assert state["failed_activation"] is None and state["command"]["action_points"][1] == 4


def test_a_simple_action_instead_needs_a_roll_of_at_least_the_damage() -> None:
    game = damaged_b1(2)
    act(game, 1, type="activate", model="b1", action="complex")
    act(game, 1, type="roll", dice=[1])
    assert {"type": "failed", "model": "b1", "choice": "simple"} not in game.legal_actions()
    with pytest.raises(IllegalActionError) as refused:
        act(game, 1, type="failed", model="b1", choice="simple")
    assert refused.value.rule == "farside.failed.simple"


def test_records_of_format_1_declare_the_action_before_the_roll() -> None:
    game = damaged_b1(1, record_format=1)
    act(game, 1, type="activate", model="b1", action="complex")
    act(game, 1, type="roll", dice=[1])
    assert [a["choice"] for a in game.legal_actions() if a["type"] == "failed"] == ["pass", "act"]
    assert game.to_record()["format"] == 1
    stored = json.loads((Path(__file__).parent / "data" / "format1-calm.json").read_text())
    assert stored["format"] == 1 and replay(stored).result() == stored["result"]


def test_evade_rerolls_a_defence_roll_once_and_the_new_result_stands() -> None:
    game = table_game()
    through_setup(game)
    command(game, [1, 6], [5, 6], 1, 5)
    turn_with_impacts(game, 0, {"b1": 3})
    act(game, 1, type="roll", fails=2)
    assert game.state()["evade_offer"] == {"model": "b1", "fails": 2} and game.current_seat() == 1
    evade = {"type": "manoeuvre", "player": 1, "name": "Evade", "model": "b1"}
    assert game.legal_actions() == [{"type": "accept", "model": "b1"}, evade]
    with pytest.raises(IllegalActionError) as refused:
        act(game, 1, type="end_turn")
    assert refused.value.rule == "farside.evade.pending"
    act(game, 1, **evade)
    assert game.state()["pending_roll"]["dice"] == 3 and game.state()["command"]["manoeuvre_used"] == [None, "Evade"]
    act(game, 1, type="roll", fails=3)  # worse, but it has to be accepted: no second offer
    assert game.state()["evade_offer"] is None and game.state()["models"]["b1"]["damage"] == 3
    assert game.state()["models"]["b1"]["status"] == "lost"


def test_evade_is_offered_only_when_the_roll_would_do_damage_and_not_as_a_note() -> None:
    game = table_game()
    through_setup(game)
    command(game, [1, 6], [5, 6], 1, 5)
    with pytest.raises(IllegalActionError) as refused:
        act(game, 0, type="manoeuvre", player=0, name="Evade")
    assert refused.value.rule == "farside.manoeuvre.evade"
    turn_with_impacts(game, 0, {"b2": 3})  # the walker: size 3 ignores two fails
    act(game, 1, type="roll", fails=2)
    assert game.state()["evade_offer"] is None and game.state()["models"]["b2"]["damage"] == 0
