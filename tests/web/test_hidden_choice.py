"""While a seat weighs a hidden card on its own page, the shared board shows nothing of which.

Twin Mainland games differ only in the hands (two seeds, the same camps placed by the same
actions, so everything public is the same). The seat to act takes, on its page, every step
toward a placement of each card of its hand, as the page sends them (``Desk.narrow``, through
the table's one door). After every step the board's LEDs and the shared page's drawing must be
the same in both games: they may show what the whole table may see, not the card. (They showed
the spot the page chose, and the spots a card can take tell it: from the LEDs alone the cards a
seat might hold fell from about 20 to 2.6.)
"""

from __future__ import annotations

from typing import Any

from tablelight.games.mainland.data import spot_name
from tablelight.games.mainland.engine import Mainland
from tablelight.table.service import Table
from tablelight.web.desk import Desk

from .conftest import NoBoard

SEEDS = [(seed, seed + 100) for seed in range(1, 17)]


def twins(seed_a: int, seed_b: int) -> list[tuple[Mainland, Table, Desk]]:
    """Two games whose camps are placed by the same actions (the first legal camp of each clan)."""
    games = [Mainland(2, seed=seed_a), Mainland(2, seed=seed_b)]
    for _ in range(2):
        camp = next(a for a in games[0].legal_actions() if a["type"] == "place")
        for game in games:
            game.apply(camp)
    seated = []
    for game in games:
        table = Table(game, ["human"] * game.players, board=NoBoard())
        seated.append((game, table, Desk(table)))
    return seated


def steps_toward(table: Table, game: Mainland, card: str) -> list[dict[str, Any]]:
    """The page's partial choices, one step at a time, toward a placement of ``card`` (none: it fits nowhere)."""
    action = next((a for a in game.legal_actions() if a["type"] == "place" and a["card"] == card), None)
    if action is None:
        return []
    chosen: dict[str, Any] = {}
    steps = []
    for field, value in table.face.choice_steps(action):
        chosen = {**chosen, field: value}
        steps.append(dict(chosen))
    return steps


def seen_by_all(table: Table) -> tuple[Any, ...]:
    return tuple(tuple(p) for p in table.pixels()), table.face.drawing(None)


def test_the_board_shows_nothing_of_which_hidden_card_a_seat_weighs_on_its_page() -> None:
    compared = 0
    for seed_a, seed_b in SEEDS:
        (game_a, table_a, desk_a), (game_b, table_b, desk_b) = twins(seed_a, seed_b)
        seat = game_a.current_seat()
        assert seat == game_b.current_seat() and game_a.hands[seat] != game_b.hands[seat]
        assert seen_by_all(table_a) == seen_by_all(table_b)  # the same public position
        for index in range(len(game_a.hands[seat])):
            steps_a = steps_toward(table_a, game_a, game_a.hands[seat][index])
            steps_b = steps_toward(table_b, game_b, game_b.hands[seat][index])
            for chosen_a, chosen_b in zip(steps_a, steps_b):
                assert desk_a.narrow(seat, chosen_a, len(game_a.log)).done
                assert desk_b.narrow(seat, chosen_b, len(game_b.log)).done
                assert seen_by_all(table_a) == seen_by_all(table_b), (seed_a, index, chosen_a, chosen_b)
                compared += 1
            for desk, game in ((desk_a, game_a), (desk_b, game_b)):
                assert desk.narrow(seat, {}, len(game.log)).done
    assert compared >= 20  # enough cards that fit somewhere, in both twins, to mean something (20 steps here)


def test_the_seats_own_page_still_shows_the_spot_it_chose() -> None:
    (game, table, desk), _ = twins(5, 6)
    seat = game.current_seat()
    card = next(c for c in game.hands[seat] if steps_toward(table, game, c))
    *_, whole = steps_toward(table, game, card)
    answer = desk.narrow(seat, whole, len(game.log))
    assert answer.done and f"at {spot_name(whole['x'], whole['y'])}," in answer.words
    assert f"the card goes at ({whole['x']}, {whole['y']})" in (table.face.drawing(seat) or "")
