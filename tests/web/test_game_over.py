"""The end of a game on every screen: the desk's snapshots carry the result (winner by colour, each
seat's score and breakdown), `tablelight play` prints it; and words meant for the board's keys stay
off a seat's page."""

from __future__ import annotations

import random

import pytest

from tablelight.cli.table_run import result_text
from tablelight.core.registry import game_entry
from tablelight.table.service import Table
from tablelight.web.desk import Desk

COLOURS = {"farlander": ("red", "blue"), "mainland": ("green", "frozen"), "landover": ("red", "blue", "green"),
           "farside": ("red", "blue")}


def finished(name: str, seed: int = 1) -> tuple[Table, Desk]:
    """A game played to its end by random choices, seat 0 a person (whose page is watched)."""
    cls = game_entry(name).engine_class()
    players = len(COLOURS[name])
    game = cls(players, seed=seed)
    table = Table(game, ["human"] + ["random"] * (players - 1), board_attached=True)
    desk = Desk(table)
    pick = random.Random(seed)
    for _ in range(20000):
        if game.is_over():
            break
        table.apply(pick.choice(game.legal_actions()))
    assert game.is_over()
    return table, desk


@pytest.mark.parametrize("name", sorted(COLOURS))
def test_the_pages_snapshots_carry_the_result_by_colour(name):
    table, desk = finished(name)
    game, colours = table.game, COLOURS[name]
    public, seat = desk.public(), desk.seat(0)
    assert seat is not None and public["over"] and seat["over"]
    result = public["result"]
    assert seat["result"] == result
    winners = [colours[w] for w in game.winners()]
    assert result["winners"] == winners
    expected = f"{winners[0]} wins" if len(winners) == 1 else f"{' and '.join(winners)} share the win"
    assert result["headline"] == expected
    assert [s["name"] for s in result["seats"]] == list(colours)
    assert [s["score"] for s in result["seats"]] == list(game.scores())
    if name in ("mainland", "landover"):  # the engine's breakdown, part by part, adds up to the score
        for row in result["seats"]:
            parts = sum(points for _, points in row["breakdown"])
            assert row["breakdown"] and parts == row["score"], row
    # the turn line and the seat's prompt say the end in the same words, not "winner seat 1"
    assert public["turn_line"] == seat["prompt"] == f"game over: {expected}" and seat["choices"] == []
    printed = result_text(game, table.face)
    assert printed.splitlines()[0] == f"game over: {expected}"
    assert all(f"  {colour}: " in printed for colour in colours)


def test_no_result_while_the_game_runs():
    cls = game_entry("farlander").engine_class()
    table = Table(cls(2, seed=2), ["human", "human"], board_attached=True)
    desk = Desk(table)
    assert "result" not in desk.public() and "result" not in (desk.seat(0) or {})


def test_a_choice_tapped_on_a_page_leaves_no_board_menu_words_on_it():
    """Farside's keys open menus ("every legal action: ... (next/prev to change, confirm)"): a step
    tapped on the page narrows the same choice, and the page is told how many choices are left, not those words."""
    cls = game_entry("farside").engine_class()
    game = cls(2, seed=3)
    table = Table(game, ["human", "human"], board_attached=True)
    desk = Desk(table)
    table.prompt()
    while game.phase != "secrets":
        table.apply(random.Random(1).choice(game.legal_actions()))
    seat = game.current_seat()
    assert seat is not None
    answer = desk.narrow(seat, {"type": "secret"}, len(game.log))
    assert answer.done
    page = desk.seat(seat)
    left = len([a for a in game.legal_actions() if a["type"] == "secret"])
    assert page is not None and page["feedback"] == f"{left} choices left: choose on"
    assert "every legal action" not in str(page) and "(next/prev to change" not in str(page)
