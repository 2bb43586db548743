"""Every Farlander rule, on real games and on small hand-made positions."""

import pytest

from tablelight.core import (
    GameOverError,
    MalformedActionError,
    NotYourTurnError,
    RuleViolationError,
    SetupError,
    new_game,
)
from tablelight.core.rng import Rng
from tablelight.games.farlander.engine import ACTION, DISTRIBUTION, OVER, Farlander

from .helpers import make_map, position


def play_random(game, seed=1):
    rng = Rng(seed)
    while not game.is_over():
        game.apply(game.random_action(rng))
    return game


# --------------------------------------------------------------------- setup

@pytest.mark.parametrize("players, units", [(2, 36), (3, 24), (4, 18)])
def test_units_per_player(players, units):
    assert new_game("farlander", players, seed=1).reserve == [units] * players


@pytest.mark.parametrize("players, garrisons", [(2, False), (3, True), (4, True)])
def test_garrisons_default_off_for_two_on_for_three_and_four(players, garrisons):
    assert new_game("farlander", players).options["garrisons"] is garrisons


def test_garrisons_option_can_be_overridden_and_bad_values_refused():
    assert new_game("farlander", 2, {"garrisons": "on"}).options["garrisons"] is True
    with pytest.raises(SetupError, match="garrisons"):
        new_game("farlander", 2, {"garrisons": "maybe"})
    with pytest.raises(SetupError, match="unknown option"):
        new_game("farlander", 2, {"castles": True})
    with pytest.raises(SetupError, match="2-4 players"):
        new_game("farlander", 5)


def test_first_player_of_each_phase_is_a_logged_chance_outcome():
    game = play_random(new_game("farlander", 3, seed=4))
    chances = [e for e in game.log if "chance" in e]
    assert [(e["chance"], e["phase"]) for e in chances] == [("first_player", DISTRIBUTION), ("first_player", ACTION)]
    first_action = next(e for e in game.log if "action" in e)
    assert first_action["seat"] == chances[0]["value"]
    starters = {new_game("farlander", 4, seed=s).turn for s in range(40)}
    assert starters == {0, 1, 2, 3}


# -------------------------------------------------------------- distribution

def test_place_into_empty_or_own_territory_and_turns_go_round():
    game = Farlander(2, {}, 0, setup={"map": make_map([("x", "y"), ("y", "z")])})
    first = game.turn
    game.apply({"type": "place", "territory": "x"})
    assert game.turn == 1 - first
    with pytest.raises(RuleViolationError) as error:
        game.apply({"type": "place", "territory": "x"})
    assert error.value.rule == "farlander.distribution.enemy_territory"
    game.apply({"type": "place", "territory": "y"})
    game.apply({"type": "place", "territory": "x"})
    assert game.state()["territories"]["x"] == {"owner": first, "units": 2}


def test_a_territory_holds_at_most_five_units():
    game = Farlander(2, {}, 0, setup={"map": make_map([("x", "y"), ("y", "z"), ("z", "w")])})
    p = game.turn
    for _ in range(5):
        game.apply({"type": "place", "territory": "x"}, seat=p)
        game.apply({"type": "place", "territory": "w"}, seat=1 - p)
    with pytest.raises(RuleViolationError) as error:
        game.apply({"type": "place", "territory": "x"})
    assert error.value.rule == "farlander.distribution.territory_full"
    assert {"type": "place", "territory": "x"} not in game.legal_actions()


def test_stuck_player_is_skipped_and_phase_ends_when_no_unit_can_be_placed():
    # Three territories in a line: the first player takes both ends, the other is boxed into the middle.
    game = Farlander(2, {}, 0, setup={"map": make_map([("x", "y"), ("y", "z")])})
    p, q = game.turn, 1 - game.turn
    game.apply({"type": "place", "territory": "x"}, seat=p)
    game.apply({"type": "place", "territory": "y"}, seat=q)
    game.apply({"type": "place", "territory": "z"}, seat=p)
    for _ in range(4):
        game.apply({"type": "place", "territory": "y"}, seat=q)
        game.apply({"type": "place", "territory": "x"}, seat=p)
    # q's territory is full and nothing is empty: q has units left but no legal territory, so q is skipped.
    assert game.units[game.index["y"]] == 5 and game.reserve[q] == 31
    assert game.turn == p and game.phase == DISTRIBUTION
    assert game.log[-1] == {"seat": q, "action": {"type": "skip"}, "auto": True}
    for _ in range(4):
        game.apply({"type": "place", "territory": "z"}, seat=p)
    # Nobody can place any more: the action phase begins (its first player is a chance draw).
    assert game.phase in (ACTION, OVER)
    assert any(e.get("chance") == "first_player" and e.get("phase") == ACTION for e in game.log)


def test_placing_in_action_phase_and_conquering_in_distribution_are_refused():
    game = new_game("farlander", 2, seed=1)
    with pytest.raises(RuleViolationError) as error:
        game.apply({"type": "conquer", "target": "a1", "moves": {"a2": 1}})
    assert error.value.rule == "farlander.action.wrong_phase"
    fight = position([("x", "y")], {"x": (0, 3), "y": (1, 1)})
    with pytest.raises(RuleViolationError) as error:
        fight.apply({"type": "place", "territory": "x"})
    assert error.value.rule == "farlander.action.wrong_phase"


# -------------------------------------------------------------------- action

def test_strength_is_the_sum_of_all_bordering_territories():
    # x(1) and y(1) border t(1); together they make 2 > 1, and z(2) can move in.
    game = position([("x", "t"), ("y", "t"), ("z", "t"), ("t", "u")], {"x": (0, 1), "y": (0, 1), "z": (0, 2), "t": (1, 3), "u": (1, 1)})
    assert game.strength(0, game.index["t"]) == 4
    assert "t" in [game.ids[t] for t in game.targets(0)]
    game.apply({"type": "conquer", "target": "t", "moves": {"z": 1}})
    assert game.state()["territories"]["t"] == {"owner": 0, "units": 1}
    assert game.state()["territories"]["z"] == {"owner": 0, "units": 1}


def test_strength_must_be_greater_than_defence():
    # Seat 0 can conquer v (so it is not skipped), but not t: 3 is not greater than 3.
    game = position([("x", "t"), ("t", "u"), ("x", "w"), ("x", "v")], {"x": (0, 3), "t": (1, 3), "u": (1, 5), "w": (1, 5), "v": (1, 1)})
    assert game.current_seat() == 0
    with pytest.raises(RuleViolationError) as error:
        game.apply({"type": "conquer", "target": "t", "moves": {"x": 1}})
    assert error.value.rule == "farlander.conquer.too_weak"
    assert game.legal_actions() == [] or all(a["target"] != "t" for a in game.legal_actions())


def test_attack_from_single_unit_territories_fails():
    # Three single units out-number the defender, but none can move in.
    # (Seat 0 can conquer v from w elsewhere, so it is to act.)
    game = position(
        [("x", "t"), ("y", "t"), ("z", "t"), ("t", "u"), ("w", "v")],
        {"x": (0, 1), "y": (0, 1), "z": (0, 1), "t": (1, 2), "u": (1, 1), "w": (0, 2), "v": (1, 1)},
    )
    assert game.current_seat() == 0
    assert game.strength(0, game.index["t"]) == 3
    with pytest.raises(RuleViolationError) as error:
        game.apply({"type": "conquer", "target": "t", "moves": {"x": 1}})
    assert error.value.rule == "farlander.conquer.no_units_to_move"
    assert [game.ids[t] for t in game.targets(0)] == ["v"]


def test_garrison_adds_one_to_the_defender_only():
    edges = [("x", "t"), ("t", "u")]
    holdings = {"x": (0, 3), "t": (1, 2), "u": (1, 1)}
    plain = position(edges, holdings, options={"garrisons": True})
    assert [plain.ids[t] for t in plain.targets(0)] == ["t"]
    # (v gives seat 0 a conquest elsewhere, so it is to act.)
    walled = position(edges + [("x", "v")], {**holdings, "v": (1, 1)}, garrisons=("t",), options={"garrisons": True})
    assert walled.defense(walled.index["t"]) == 3 and walled.current_seat() == 0
    assert [walled.ids[t] for t in walled.targets(0)] == ["v"]
    with pytest.raises(RuleViolationError, match="garrison"):
        walled.apply({"type": "conquer", "target": "t", "moves": {"x": 2}})
    # The garrison never adds to the attacker: the attacker on a garrison still has just its units.
    attacker = position(edges, {"x": (0, 2), "t": (1, 2), "u": (1, 1)}, garrisons=("x",), options={"garrisons": True})
    assert attacker.strength(0, attacker.index["t"]) == 2 and attacker.targets(0) == []
    # With garrisons off the castle is ignored.
    off = position(edges, holdings, garrisons=("t",), options={"garrisons": False})
    assert off.defense(off.index["t"]) == 2


@pytest.mark.parametrize(
    "moves, rule",
    [
        ({"x": 3}, "farlander.conquer.source_emptied"),  # x would be left empty
        ({"w": 1}, "farlander.conquer.move_source"),  # w does not border t
        ({"u": 1}, "farlander.conquer.move_source"),  # u is the enemy's
        ({}, "farlander.conquer.move_count"),
        ({"x": 0}, "farlander.conquer.move_count"),
        ({"x": 2, "y": 4}, "farlander.conquer.move_count"),  # 6 > 5
    ],
)
def test_move_in_rules(moves, rule):
    game = position(
        [("x", "t"), ("y", "t"), ("x", "w"), ("t", "u")],
        {"x": (0, 3), "y": (0, 5), "w": (0, 5), "t": (1, 1), "u": (1, 1)},
    )
    before = game.state()
    with pytest.raises(RuleViolationError) as error:
        game.apply({"type": "conquer", "target": "t", "moves": moves})
    assert error.value.rule == rule
    assert game.state() == before


@pytest.mark.parametrize(
    "action, error_type, rule",
    [
        ({"type": "fly"}, MalformedActionError, "farlander.action.unknown_type"),
        ({"type": "conquer", "target": "nowhere", "moves": {"x": 1}}, MalformedActionError, "farlander.action.unknown_territory"),
        ({"type": "conquer", "target": "t", "moves": [1]}, MalformedActionError, "farlander.conquer.moves_shape"),
        ({"type": "conquer", "target": "t", "moves": {"x": -1}}, MalformedActionError, "farlander.conquer.moves_shape"),
        ({"type": "conquer", "target": "t", "moves": {"x": True}}, MalformedActionError, "farlander.conquer.moves_shape"),
        ({"type": "conquer", "target": "t", "moves": {"x": 1}, "extra": 1}, MalformedActionError, "farlander.action.unknown_field"),
        ({"type": "conquer", "target": "x", "moves": {"y": 1}}, RuleViolationError, "farlander.conquer.own_territory"),
        ({"type": "conquer", "target": "e", "moves": {"x": 1}}, RuleViolationError, "farlander.conquer.empty_territory"),
        ({"type": "conquer", "target": "far", "moves": {"x": 1}}, RuleViolationError, "farlander.conquer.not_bordering"),
    ],
)
def test_each_kind_of_illegal_action_names_its_rule_and_changes_nothing(action, error_type, rule):
    game = position(
        [("x", "t"), ("y", "t"), ("t", "far"), ("x", "e")],
        {"x": (0, 3), "y": (0, 2), "t": (1, 1), "far": (1, 1)},
    )
    before, log_before = game.state(), list(game.log)
    with pytest.raises(error_type) as error:
        game.apply(action)
    assert error.value.rule == rule
    assert game.state() == before and game.log == log_before


def test_not_your_turn_and_game_over_errors():
    game = position([("x", "t"), ("t", "u")], {"x": (0, 3), "t": (1, 1), "u": (1, 1)})
    with pytest.raises(NotYourTurnError):
        game.apply({"type": "conquer", "target": "t", "moves": {"x": 1}}, seat=1)
    finished = play_random(new_game("farlander", 2, seed=3))
    with pytest.raises(GameOverError):
        finished.apply({"type": "place", "territory": "a1"})
    with pytest.raises(MalformedActionError):
        finished.apply("place a1")  # type: ignore[arg-type]


def test_empty_territories_are_closed_unless_claim_empty_is_on():
    edges = [("x", "e"), ("e", "t"), ("x", "t")]
    closed = position(edges, {"x": (0, 2), "t": (1, 1)}, options={"claim_empty": False})
    assert [closed.ids[t] for t in closed.targets(0)] == ["t"]
    opened = position(edges, {"x": (0, 2), "t": (1, 1)}, options={"claim_empty": True})
    assert sorted(opened.ids[t] for t in opened.targets(0)) == ["e", "t"]


def test_conquering_is_compulsory_one_per_turn_and_stuck_players_are_skipped():
    # Seat 0 can conquer t; seat 1 can never conquer anything.
    game = position(
        [("x", "t"), ("t", "u"), ("x", "v")],
        {"x": (0, 5), "v": (0, 1), "t": (1, 1), "u": (1, 1)},
    )
    actions = game.legal_actions()
    assert actions and all(a["type"] == "conquer" for a in actions)
    with pytest.raises(MalformedActionError):
        game.apply({"type": "skip"})  # there is no voluntary skip
    game.apply({"type": "conquer", "target": "t", "moves": {"x": 2}})
    # Seat 1 (u:1 against t:2) is skipped, and the turn is back to seat 0 for its next single conquest.
    assert game.turn == 0
    assert {"seat": 1, "action": {"type": "skip"}, "auto": True} in game.log
    game.apply({"type": "conquer", "target": "u", "moves": {"t": 1}})
    assert game.phase == OVER and game.is_over()
    assert game.legal_actions() == []


def test_game_ends_when_no_player_can_conquer_with_scores_and_shared_win():
    # Positions where nobody can conquer: the game is over as soon as it starts there.
    tie = position([("x", "y"), ("y", "z"), ("z", "w")], {"x": (0, 1), "y": (0, 1), "z": (1, 1), "w": (1, 1)})
    assert tie.is_over() and tie.current_seat() is None and tie.scores() == [2, 2] and tie.winners() == [0, 1]
    walled = position(
        [("x", "y"), ("y", "z")], {"x": (0, 1), "y": (1, 1), "z": (1, 1)}, garrisons=("x",), options={"garrisons": True}
    )
    assert walled.is_over() and walled.scores() == [2, 2] and walled.winners() == [0, 1]
    walled_off = position(
        [("x", "y"), ("y", "z")], {"x": (0, 1), "y": (1, 1), "z": (1, 1)}, garrisons=("x",), options={"garrisons": False}
    )
    assert walled_off.is_over() and walled_off.scores() == [1, 2] and walled_off.winners() == [1]


def test_attacker_loses_nothing_and_defender_units_leave_the_game():
    game = position([("x", "t"), ("y", "t"), ("t", "u")], {"x": (0, 4), "y": (0, 2), "t": (1, 3), "u": (1, 1)})
    game.apply({"type": "conquer", "target": "t", "moves": {"x": 2, "y": 1}})
    units = {tid: game.units[game.index[tid]] for tid in game.ids}
    assert units == {"t": 3, "u": 1, "x": 2, "y": 1}
    assert sum(units.values()) == 7  # 6 attackers still on the board; the 3 defenders are gone, u keeps 1


def test_legal_move_options_are_every_distribution_of_one_to_five():
    game = position([("x", "t"), ("y", "t"), ("t", "u")], {"x": (0, 3), "y": (0, 5), "t": (1, 1), "u": (1, 1)})
    options = game.move_options(0, game.index["t"])
    # x can send 0-2, y 0-4, total 1-5.
    expected = [(a, b) for a in range(3) for b in range(5) if 1 <= a + b <= 5]
    assert sorted((m.get("x", 0), m.get("y", 0)) for m in options) == sorted(expected)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_with_every_unit_accounted_for(players):
    for seed in range(5):
        game = play_random(new_game("farlander", players, seed=seed), seed)
        assert game.phase == OVER
        assert sum(game.units) <= sum([{2: 36, 3: 24, 4: 18}[players]] * players)
        assert all(u == 0 for u, o in zip(game.units, game.owner) if o == -1)
        assert all(1 <= u <= 5 for u, o in zip(game.units, game.owner) if o != -1)
        assert all(not game.can_conquer(s) for s in range(players))


def test_check_validates_like_apply_without_applying():
    game = position([("x", "t"), ("t", "u")], {"x": (0, 3), "t": (1, 1), "u": (1, 1)})
    before, log_before = game.state(), list(game.log)
    normal = game.check({"type": "conquer", "target": "t", "moves": {"x": 2, "u": 0}})
    assert normal == {"type": "conquer", "target": "t", "moves": {"x": 2}}
    assert game.state() == before and game.log == log_before
    with pytest.raises(RuleViolationError):
        game.check({"type": "conquer", "target": "t", "moves": {"x": 3}})
    with pytest.raises(NotYourTurnError):
        game.check(normal, seat=1)
    assert game.is_legal(normal) and not game.is_legal({"type": "conquer", "target": "u", "moves": {"x": 1}})
