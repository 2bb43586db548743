"""Property tests: listing and validation agree, and bad actions never change the game."""

import json

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
