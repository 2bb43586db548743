"""Farlander's read API (games/farlander/reads.py) answers what the game's own state and listings say,
and what it gives cannot change the game (the caller may keep and change it)."""

from __future__ import annotations

import json

import pytest

from tablelight.core.rng import Rng
from tablelight.games.farlander.engine import Farlander
from tablelight.games.farlander.reads import FarlanderReads


def positions(players: int, seed: int) -> list[Farlander]:
    """A game after every action of a random game, each position a clone."""
    game, rng, found = Farlander(players, seed=seed), Rng(seed), []
    while not game.is_over():
        found.append(game.clone())
        game.apply(game.random_action(rng))
    return found + [game]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_reads_agree_with_the_state_and_the_listing(players: int) -> None:
    for game in positions(players, seed=players)[::7]:
        reads, state = FarlanderReads(game), game.state()
        ids = reads.territory_ids()
        assert list(ids) == list(state["territories"]) and reads.territory_count == len(ids)
        assert [reads.owner(t) for t in range(len(ids))] == [state["territories"][tid]["owner"] for tid in ids] == reads.owners()
        assert [reads.units(t) for t in range(len(ids))] == [state["territories"][tid]["units"] for tid in ids] == reads.unit_counts()
        assert [reads.reserve(s) for s in range(players)] == state["reserve"]
        assert reads.phase == state["phase"] or (reads.phase == "over" and state["turn"] is None)
        assert all(reads.territory_index(tid) == t for t, tid in enumerate(ids)) and reads.territory_index("nowhere") is None
        seat = reads.current_seat()
        if seat is None:
            continue
        listed = {a["territory"] if a["type"] == "place" else a["target"] for a in game.legal_actions()}
        chosen = reads.placements(seat) if reads.phase == "distribution" else reads.targets(seat)
        assert {reads.territory_id(t) for t in chosen} == listed


def test_what_the_reads_give_cannot_change_the_game() -> None:
    game = positions(3, seed=5)[60]
    reads = FarlanderReads(game)
    seat = reads.current_seat()
    assert seat is not None
    before = json.dumps(game.state(), sort_keys=True), game.legal_actions()
    for given in (reads.owners(), reads.unit_counts(), reads.placements(seat), reads.targets(seat)):
        given.clear()
    for target in FarlanderReads(game).targets(seat):
        reads.spare_units(seat, target).clear()
    assert (json.dumps(game.state(), sort_keys=True), game.legal_actions()) == before
