"""``Game.enter_chance`` (physical dice entered at the table): a value a kind can never give is
refused at entry with one error naming the kind and the value, queuing nothing; the declared
ranges (``chance_ranges``) are the draws' own."""

from __future__ import annotations

import copy
from collections import defaultdict
from typing import Any

import pytest

from tablelight.core.errors import IllegalActionError, ImpossibleChanceError
from tablelight.core.game import Game
from tablelight.core.rng import Rng
from tablelight.games.farside.engine import FarsideEncounter
from tablelight.games.landover.engine import Landover


def played(game: Game, seed: int) -> Game:
    rng = Rng(seed)
    while not game.is_over():
        game.apply(game.random_action(rng))
    return game


@pytest.mark.parametrize("kind, value", [
    ("white_die", 7), ("red_die", 0), ("event_die", True), ("event_die", "6"), ("gold", 5), ("aqueduct", -1),
])
def test_an_impossible_landover_outcome_is_refused_at_entry_and_changes_nothing(kind: str, value: Any) -> None:
    game = Landover(2, None, 3)
    while game.phase == "setup":
        game.apply(game.legal_actions()[0])
    before = copy.deepcopy((game.state(), game.log, game.rng.state))
    with pytest.raises(ImpossibleChanceError, match=f"a '{kind}' outcome is a whole number .*, not {value!r}") as error:
        game.enter_chance(kind, value)
    assert isinstance(error.value, IllegalActionError) and error.value.rule == "chance.impossible"
    assert (game.state(), game.log, game.rng.state) == before and game.undrawn_chance() is None
    game.enter_chance(kind, 1)  # a possible one is queued
    assert game.undrawn_chance() is not None and game.undrawn_chance()["value"] == 1


def test_a_farside_host_roll_outside_its_die_is_refused_at_entry() -> None:
    game = FarsideEncounter(2, {"dice": "press"}, 1)
    with pytest.raises(ImpossibleChanceError, match="a 'secure_zones' outcome is a whole number 1-3, not 4"):
        game.enter_chance("secure_zones", 4)
    assert game.undrawn_chance() is None


def test_kinds_whose_range_depends_on_the_position_are_checked_when_drawn() -> None:
    game = Landover(2, None, 3)
    game.enter_chance("dev_card", 10**6)  # the deck's size decides: queued, refused by the draw
    assert game.undrawn_chance() is not None


@pytest.mark.parametrize("game, seeds, often, rare", [
    (lambda seed: Landover(3, {"turn_cap": 150}, seed), (1, 2), 4, 1),  # the dice and gold; the aqueduct
    # defence rolls; an activation roll and Regeneration (the demo armies have no model with it)
    (lambda seed: FarsideEncounter(2, {"dice": "press"}, seed), (1, 2, 3, 4), 1, 2),
])
def test_the_declared_ranges_are_the_draws_own(game: Any, seeds: tuple[int, ...], often: int, rare: int) -> None:
    """Every logged outcome of a declared kind lies in its range, and a kind drawn often reaches both
    ends of it (a range too narrow would refuse real dice; one too wide would let impossible ones in)."""
    seen: dict[str, list[int]] = defaultdict(list)
    ranges: dict[str, tuple[int, int]] = {}
    for seed in seeds:
        done = played(game(seed), seed)
        ranges = dict(done.chance_ranges)
        for entry in done.log:
            if "chance" in entry and entry["chance"] in ranges:
                seen[entry["chance"]].append(entry["value"])
    assert len(seen) >= len(ranges) - rare  # all but the rare ones
    for kind, values in seen.items():
        low, high = ranges[kind]
        assert low <= min(values) and max(values) <= high, kind
        if len(values) >= 40:
            assert (min(values), max(values)) == (low, high), kind
    assert sum(len(values) >= 40 for values in seen.values()) >= often


@pytest.mark.parametrize("record_format", [3, 4])
@pytest.mark.parametrize("entered", [
    [("white_die", 1), ("red_die", 1), ("event_die", 4), ("dev_card", 10**6)],  # beyond the deck: known when drawn
    [("mystery", 0)],  # a kind the roll does not draw first
])
def test_an_entered_outcome_its_draw_refuses_leaves_the_game_as_it_was(entered: list[tuple[str, int]], record_format: int) -> None:
    """The roll (after end_turn in format 3, the roll action from format 4) is half done when the draw
    refuses the outcome: the action is refused with one error, the game is as before it, the entered
    outcomes are dropped, and it goes on."""
    position = {"order": [0, 1], "dice": {"white": 1, "red": 2, "event": "barbarian"}, "culture": [{"science": 1}, {"science": 1}]}
    game = Landover(2, None, 3, setup={"position": position}, record_format=record_format)
    rolling = {"type": "end_turn"}
    if record_format >= 4:
        game.apply(rolling)  # seat 1's turn waits for its roll
        rolling = {"type": "roll"}
    before = copy.deepcopy((game.state(), game.log, game.rng.state, game.pos.dev_cards, game.pos.decks))
    for kind, value in entered:
        game.enter_chance(kind, value)
    with pytest.raises(ImpossibleChanceError, match="an entered outcome does not fit: .*nothing changed") as error:
        game.apply(rolling)
    assert error.value.rule == "chance.impossible"
    assert (game.state(), game.log, game.rng.state, game.pos.dev_cards, game.pos.decks) == before
    assert game.undrawn_chance() is None
    for kind, value in entered[:3] if len(entered) > 1 else ():
        game.enter_chance(kind, value)
    game.apply(rolling)  # the same action, now with fitting outcomes (or the seed's)
    assert game.seat == 1 and len(game.log) > len(before[1])
