"""Issue 25: Farside as the rulebook writes it (record format 4). Each rule is built by play:
both sides' impacts before a wipe-out ends the game, The Chosen named at the start of the round and
counting on every roll of its model, Regeneration and Dead Zone, Disappear carrying loot. Records of
older formats keep the readings they were played with."""

from __future__ import annotations

from typing import Any

import pytest

from tablelight.core.errors import IllegalActionError
from tablelight.games.farside.engine import FarsideEncounter

WARRIOR = {"name": "Warrior", "points": 50, "size": 1, "defense": 4}
DUEL = {"armies": [{"name": "Red", "models": [WARRIOR]}, {"name": "Blue", "models": [WARRIOR]}]}
TROLLS = {"armies": [
    {"name": "Red", "models": [WARRIOR, {**WARRIOR, "name": "Scout"}]},
    {"name": "Blue", "models": [{"name": "Troll", "points": 80, "size": 1, "defense": 4, "rules": ["Regeneration"]}, WARRIOR]},
]}


def act(game: FarsideEncounter, seat: int, **action: Any) -> None:
    game.apply(action, seat=seat)


def roll(game: FarsideEncounter, *faces: int) -> None:
    """The pending roll: entered faces (dice = table), or the host's roll of these faces (dice = press)."""
    pending = game.pending
    assert pending is not None
    if game.options["dice"] == "press":
        for face in faces:
            game.enter_chance(pending["roll"], face)
        act(game, pending["seat"], type="roll")
    elif pending["count_fails"]:
        act(game, pending["seat"], type="roll", fails=sum(1 for face in faces if face < 4))
    else:
        act(game, pending["seat"], type="roll", dice=list(faces))


def started(setup: dict[str, Any], dice: str = "table", manoeuvre: tuple[int, int] = (2, 4), **options: Any) -> FarsideEncounter:
    """Setup (seat 0 places, team sizes 1), then round 1's command dice: seat 0 takes 1 action point
    and goes first, seat 1 takes 5; the manoeuvre dice are ``manoeuvre``."""
    record_format = options.pop("record_format", None)
    game = FarsideEncounter(2, {"dice": dice, **options}, setup=setup, record_format=record_format)
    for faces in ([4], [2], [1, 3], [2, 2], [1], [6]):
        roll(game, *faces)
    act(game, 0, type="secret", primary="destruction", stratagem="loot", team_size=1)
    act(game, 1, type="secret", primary="loot", stratagem="destruction", team_size=1)
    roll(game, 1, manoeuvre[0])
    roll(game, 5, manoeuvre[1])
    act(game, 0, type="command", die=1)
    act(game, 1, type="command", die=5)
    assert game.phase == "action" and game.active == 0
    return game


def melee_both_ways(game: FarsideEncounter, tokens: int) -> None:
    """Seat 0's turn: both last warriors fight, each records ``tokens`` impact tokens on the other."""
    act(game, 0, type="end_turn")
    act(game, 0, type="impact", model="b1", tokens=tokens)
    act(game, 0, type="done")
    act(game, 1, type="impact", model="a1", tokens=tokens)
    act(game, 1, type="done")
    assert game.phase == "impact" and game.pending is not None and game.pending["model"] == "a1"


# ------------------------------------------------------------------ 1. one impact phase for both


def test_a_mutual_last_model_melee_is_not_decided_by_turn_order() -> None:
    game = started(DUEL)
    melee_both_ways(game, 3)
    roll(game, 1, 2, 3)  # the active player's warrior fails all three: removed
    assert game.models["a1"]["status"] == "lost" and not game.is_over()
    assert game.pending is not None and game.pending["model"] == "b1"  # the other side still rolls
    roll(game, 1, 1, 2)
    assert game.is_over() and game.state()["end_reason"] == "no models are left on the table"
    for seat in (0, 1):  # both lost a team and the game's most expensive model; nobody obliterated
        assert game.objectives[seat]["destruction"] == 1 and game.objectives[seat]["heavy loss"] == 1
        assert game.objectives[seat]["obliteration"] == 0


def test_the_survivor_of_the_impact_phase_obliterates() -> None:
    game = started(DUEL)
    melee_both_ways(game, 3)
    roll(game, 1, 2, 3)
    roll(game, 4, 5, 6)  # seat 1's warrior saves every die
    assert game.is_over() and game.models["b1"]["status"] == "table"
    assert game.objectives[1]["obliteration"] == 1 and game.objectives[0]["destruction"] == 0


@pytest.mark.parametrize("reading", [{"wipe_out": "at_once"}, {"record_format": 3}])
def test_the_game_ending_at_once_is_an_option_and_the_reading_of_older_records(reading: dict[str, Any]) -> None:
    game = started(DUEL, **reading)
    melee_both_ways(game, 3)
    roll(game, 1, 2, 3)
    assert game.is_over() and game.models["b1"]["impact"] == 3  # seat 1's three tokens are never rolled
    assert game.objectives[1]["obliteration"] == 1


# ------------------------------------------------------------------ 2. The Chosen


def test_the_chosen_is_named_at_the_start_of_the_round_only() -> None:
    game = started(TROLLS, manoeuvre=(2, 6))
    act(game, 0, type="impact", model="b1", tokens=1)
    with pytest.raises(IllegalActionError) as refused:
        act(game, 0, type="manoeuvre", player=1, name="The Chosen", model="b1")
    assert refused.value.rule == "farside.manoeuvre.chosen"
    old = started(TROLLS, manoeuvre=(2, 6), record_format=3)  # older records named it at any time
    act(old, 0, type="impact", model="b1", tokens=1)
    act(old, 0, type="manoeuvre", player=1, name="The Chosen", model="b1")
    assert old.chosen == [None, "b1"]


@pytest.mark.parametrize("record_format, damage", [(4, 0), (3, 2)])
def test_a_chosen_models_ones_count_as_sixes_on_its_defence_roll(record_format: int, damage: int) -> None:
    game = started(TROLLS, dice="press", manoeuvre=(2, 6), record_format=record_format)
    act(game, 0, type="manoeuvre", player=1, name="The Chosen", model="b1")  # before the first action
    act(game, 0, type="impact", model="b1", tokens=2)
    act(game, 0, type="end_turn")
    act(game, 0, type="done")
    act(game, 1, type="done")
    roll(game, 1, 1)
    assert game.models["b1"]["damage"] == damage  # format 3 counted the ones on activation rolls only


# ------------------------------------------------------------------ 3. Regeneration and Dead Zone


def troll_with_damage(damage: int) -> FarsideEncounter:
    """Seat 1's turn (5 action points) with its Troll (b1, Regeneration) carrying ``damage`` tokens."""
    game = started(TROLLS)
    act(game, 0, type="impact", model="b1", tokens=damage)
    act(game, 0, type="end_turn")
    act(game, 0, type="done")
    act(game, 1, type="done")
    roll(game, *[1] * damage)
    assert game.models["b1"]["damage"] == damage and game.active == 1 and game.phase == "action"
    return game


def test_regeneration_is_a_simple_action_that_removes_a_damage_token_on_3_or_more() -> None:
    game = troll_with_damage(2)
    with pytest.raises(IllegalActionError) as refused:
        act(game, 1, type="regenerate", model="b1")
    assert refused.value.rule == "farside.regenerate.simple"  # not activated yet
    act(game, 1, type="activate", model="b1", action="simple")
    roll(game, 2)  # two damage tokens: a simple action needs 2+
    assert {"type": "regenerate", "model": "b1"} in game.legal_actions()
    act(game, 1, type="regenerate", model="b1")
    roll(game, 3)
    assert game.models["b1"]["damage"] == 1
    with pytest.raises(IllegalActionError) as twice:
        act(game, 1, type="regenerate", model="b1")
    assert twice.value.rule == "farside.regenerate.simple"  # its simple action is spent
    act(game, 1, type="activate", model="b2", action="simple")
    with pytest.raises(IllegalActionError) as no_rule:
        act(game, 1, type="regenerate", model="b2")
    assert no_rule.value.rule == "farside.regenerate.rule"


def test_regeneration_adds_a_damage_token_on_a_one_and_a_third_removes_the_model() -> None:
    game = troll_with_damage(2)
    act(game, 1, type="activate", model="b1", action="simple")
    roll(game, 4)
    act(game, 1, type="regenerate", model="b1")
    roll(game, 1)
    assert game.models["b1"]["status"] == "lost" and game.losses == [0, 1]
    assert game.objectives[0]["destruction"] == 1 and game.objectives[0]["heavy loss"] == 0  # not killed by the enemy


def test_a_model_on_a_dead_zone_is_removed_on_1_or_2_rolled_once_a_turn() -> None:
    game = started(TROLLS)
    act(game, 0, type="dead_zone", model="a2")
    assert game.pending is not None and game.pending["roll"] == "dead_zone" and game.pending["seat"] == 0
    roll(game, 3)
    assert game.models["a2"]["status"] == "table"
    with pytest.raises(IllegalActionError) as refused:
        act(game, 0, type="dead_zone", model="a2")
    assert refused.value.rule == "farside.dead_zone.once"
    act(game, 0, type="dead_zone", model="b2")  # either seat enters it; the model's owner rolls
    assert game.pending is not None and game.pending["seat"] == 1
    roll(game, 2)
    assert game.models["b2"]["status"] == "lost" and game.objectives[0]["destruction"] == 1


# ------------------------------------------------------------------ 4. Disappear counts for loot


def test_disappear_carrying_a_loot_token_scores_loot_and_breakthrough() -> None:
    game = started(TROLLS, manoeuvre=(2, 6))
    loot = {"type": "manoeuvre", "player": 1, "name": "Disappear", "model": "b2", "loot": True}
    assert loot in game.legal_actions()
    act(game, 0, **loot)
    assert game.models["b2"]["status"] == "left" and game.loot_left == 3
    assert game.objectives[1]["loot"] == 1 and game.objectives[1]["breakthrough"] == 1
    assert game.losses == [0, 0]


def test_the_chosen_is_named_with_the_command_die_that_leaves_a_six() -> None:
    game = FarsideEncounter(2, {"dice": "table"}, setup=TROLLS)
    for faces in ([4], [2], [1, 3], [2, 2], [1], [6]):
        roll(game, *faces)
    act(game, 0, type="secret", primary="destruction", stratagem="loot", team_size=1)
    act(game, 1, type="secret", primary="loot", stratagem="destruction", team_size=1)
    roll(game, 1, 2)
    roll(game, 5, 6)
    act(game, 0, type="command", die=1)
    assert {"type": "command", "die": 5, "chosen": "b1"} in game.legal_actions()
    with pytest.raises(IllegalActionError) as refused:
        act(game, 1, type="command", die=6, chosen="b1")  # it would leave a manoeuvre die of 5
    assert refused.value.rule == "farside.manoeuvre.die"
    act(game, 1, type="command", die=5, chosen="b1")
    assert game.chosen == [None, "b1"] and game.manoeuvre_used == [None, "The Chosen"]
