"""Property tests: listing and validation agree, and bad actions never change the game."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelight.core import IllegalActionError, new_game
from tablelight.core.rng import Rng


def game_after(players, seed, steps):
    game = new_game("farlander", players, seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        if game.is_over():
            break
        game.apply(game.random_action(rng))
    return game


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000), steps=st.integers(0, 140))
def test_every_listed_action_is_accepted(players, seed, steps):
    game = game_after(players, seed, steps)
    for action in game.legal_actions()[:60]:
        assert game.is_legal(action)
    if not game.is_over():
        assert game.legal_actions(), "a seat to act always has a legal action"


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 140),
    target=st.sampled_from(["a1", "b2", "c3", "d4", "g1", "zz", 3, None]),
    moves=st.dictionaries(st.sampled_from(["a1", "a2", "b1", "c2", "e3", "f1", "x"]), st.integers(-1, 6), max_size=3),
    kind=st.sampled_from(["place", "conquer", "skip", "jump"]),
)
def test_accepted_actions_are_exactly_the_listed_ones(players, seed, steps, target, moves, kind):
    game = game_after(players, seed, steps)
    if game.is_over():
        return
    action = {"type": kind, "territory": target} if kind == "place" else {"type": kind, "target": target, "moves": moves}
    listed = game.legal_actions()
    before = json.dumps(game.state()), list(game.log)
    try:
        game.apply(action)
    except IllegalActionError as error:
        assert error.rule and error.message
        assert (json.dumps(game.state()), game.log) == before
        normal = {k: v for k, v in action.items()}
        if kind == "conquer" and isinstance(moves, dict):
            normal["moves"] = {k: v for k, v in sorted(moves.items()) if v}
        assert normal not in listed
    else:
        assert game.log[len(before[1])]["action"] in listed


def test_random_actions_draw_the_listed_ways_to_move_in_by_their_number():
    """``random_action`` counts the ways to move into a target instead of listing them: the k-th it
    makes is the k-th of ``move_options``, for every target of many positions."""
    from tablelight.core.rng import Rng
    from tablelight.games.farlander.engine import Farlander

    rng = Rng(5)
    checked = 0
    for seed in range(6):
        game = Farlander(2 + seed % 3, seed=seed)
        while not game.is_over():
            seat = game.current_seat()
            if game.phase == "action":
                for target in game.targets(seat):
                    listed = game.move_options(seat, target)
                    ways = game.move_ways(seat, target)
                    assert ways.count == len(listed)
                    assert [ways.nth(k) for k in range(ways.count)] == listed
                    checked += 1
            game.apply(game.random_action(rng))
    assert checked > 100


def test_the_drawn_action_skips_no_check_it_would_fail():
    """``apply`` skips re-checking the very (immutable) action ``random_action`` just drew; the full
    check gives that action the same normal form, and a copy changed in any way (a ``True`` for
    a 1, an extra field, another target, after the board moved on) is checked in full."""
    import copy

    from tablelight.core.errors import MalformedActionError
    from tablelight.games.farlander.engine import Farlander

    rng = Rng(11)
    tampered = 0
    for seed in range(3):
        game = Farlander(2 + seed % 3, seed=seed)
        while not game.is_over():
            action = game.random_action(rng)
            if len(game.log) % 6 == 0:
                fresh = Farlander.load(game.save())  # the same position, never drawn from: the full check
                normal = game.check(action)
                assert json.dumps(normal) == json.dumps(fresh.check(copy.deepcopy(action)))  # key order too
            if action["type"] == "conquer" and tampered < 30:
                bent = action.to_json()
                first = next(iter(bent["moves"]))
                if bent["moves"][first] == 1:
                    bent["moves"][first] = True
                    try:
                        game.check(bent)
                    except MalformedActionError:
                        tampered += 1
                    else:
                        raise AssertionError(f"{bent} was accepted")
            assert not game.is_legal({**action, "extra": 1})
            if action["type"] == "place" and len(game.log) % 5 == 0:
                normal = game.check(action)  # the drawn action's normal form, handed out
                with pytest.raises(TypeError):
                    normal["territory"] = "zz"  # its holder cannot change it ...
                assert not game.is_legal(normal.replace(territory="zz"))  # ... and a changed copy is checked in full
            game.apply(action)
    assert tampered > 5


def test_targets_kept_conquest_by_conquest_match_a_fresh_count():
    """Every seat's targets, kept up to date after each conquest, are those of a copy of the same
    position started afresh from the same position (counted anew), with and without claim_empty and garrisons."""
    from tablelight.games.farlander.engine import Farlander

    rng = Rng(3)
    compared = 0
    for seed, players, options in ((1, 2, {"claim_empty": True}), (2, 3, {}), (3, 4, {"garrisons": False})):
        game = Farlander(players, options, seed=seed)
        while not game.is_over():
            if game.phase == "action" and len(game.log) % 3 == 0:
                fresh = Farlander(players, options, seed, setup={"map": game.map.to_json(), "position": game.position()})
                assert fresh.position() == game.position() and len(fresh.log) == 0
                assert [game.targets(s) for s in range(players)] == [fresh.targets(s) for s in range(players)]
                compared += 1
            game.apply(game.random_action(rng))
    assert compared > 10
