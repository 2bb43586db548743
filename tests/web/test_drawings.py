"""The games' own drawings (``GameFace.drawing``) on the pages' snapshots (issue 21).

Farlander and Mainland draw their boards: the shared drawing names every territory or placed card,
shows no hidden card (Mainland: the same whatever the hidden cards, the pairs of
``tests/table/test_board_secrets.py``), a seat's drawing shows its own hand and nobody else's,
and a tap's ``data-pick`` narrows that seat's choices through the desk as the face expects.
Positions are reached through public means (legal actions applied, records replayed).
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any

import pytest

from tablelight.core.game import Game
from tablelight.core.rng import Rng
from tablelight.games.farlander.engine import Farlander
from tablelight.games.mainland.engine import Mainland
from tablelight.table.drawing import MIN_TEXT, PAGE_WIDTH
from tablelight.table.service import Table
from tablelight.web.desk import Desk
from tests.table.test_board_secrets import mainland_twin, twins

from .conftest import NoBoard


class Things(HTMLParser):
    """The named and the tappable things of a drawing, and its text sizes."""

    def __init__(self, svg: str) -> None:
        super().__init__()
        self.names: list[str] = []
        self.picks: list[tuple[str, dict[str, Any]]] = []  # (data-name, data-pick)
        self.sizes: list[float] = []
        self.view_box: list[float] = []
        self.inherited: list[float | None] = [None]  # font sizes of the open elements (text inherits its group's)
        self.feed(svg)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "svg":
            self.view_box = [float(v) for v in (found.get("viewbox") or "").split()]
        if found.get("data-name") is not None:
            self.names.append(str(found["data-name"]))
        if found.get("data-pick") is not None:
            self.picks.append((str(found.get("data-name")), json.loads(str(found["data-pick"]))))
        own = found.get("font-size")
        self.inherited.append(float(own) if own is not None else self.inherited[-1])
        if tag == "text":
            size = self.inherited[-1]
            assert size is not None, "a text without a font size"
            self.sizes.append(size)

    def handle_endtag(self, tag: str) -> None:
        self.inherited.pop()


def played(game: Game, actions: int, seed: int = 1, only: str | None = None) -> Game:
    rng = Rng(seed)
    for _ in range(actions):
        if game.is_over():
            break
        legal = game.legal_actions()
        wanted = [a for a in legal if a["type"] == only] if only else legal
        game.apply((wanted or legal)[rng.below(len(wanted or legal))])
    return game


def seated(game: Game) -> tuple[Table, Desk]:
    table = Table(game, ["human"] * game.players, board=NoBoard())
    return table, Desk(table)


def agrees(action: dict[str, Any], pick: dict[str, Any]) -> bool:
    return all(name in action and action[name] == value for name, value in pick.items())


def narrowed_by(desk: Desk, seat: int, pick: dict[str, Any]) -> list[dict[str, Any]]:
    """Tap ``pick`` as the page does (Desk.narrow) and return the choices the seat's page then lists
    that agree with it (drawing.js filters the list by the tapped fields)."""
    answer = desk.narrow(seat, pick, len(desk.game.log))
    assert answer.done, answer.words
    return [c["action"] for c in desk.seat(seat)["choices"] if agrees(c["action"], pick)]


# ------------------------------------------------------------------ Farlander


@pytest.mark.parametrize("actions", [0, 40, 80])
def test_farlander_drawings_name_every_territory_with_its_units(actions: int) -> None:
    game = played(Farlander(3, seed=7), actions)
    table, desk = seated(game)
    shared = desk.public()["drawing"]
    named = Things(shared).names
    for t, tid in enumerate(game.ids):
        owner, units = game.owner[t], game.units[t]
        mine = [n for n in named if n.split(" ")[0] == tid]
        assert len(mine) == 1, tid
        assert (f", {units} unit" in mine[0]) if owner >= 0 else ("empty" in mine[0])
    # everything in Farlander is public: each seat's drawing is the board with tappable territories
    for seat in range(game.players):
        assert Things(desk.seat(seat)["drawing"]).names == named
    assert Things(shared).picks == []  # the shared page taps nothing


@pytest.mark.parametrize("actions", [10, 80])
def test_farlander_a_tapped_territory_narrows_the_choices_as_the_face_expects(actions: int) -> None:
    game = played(Farlander(3, seed=7), actions)
    assert not game.is_over()
    table, desk = seated(game)
    seat = game.current_seat()
    picks = dict(Things(desk.seat(seat)["drawing"]).picks)
    legal = game.legal_actions()
    place = "territory" if game.phase == "distribution" else "target"
    assert {a[place] for a in legal} <= {p[place] for p in picks.values()}  # every choice can be tapped
    for name, pick in picks.items():
        wanted = [a for a in legal if agrees(a, pick)]
        if not wanted:  # nothing to do there now: the page says so and the face is not asked
            continue
        assert narrowed_by(desk, seat, pick) == wanted, name
        desk.narrow(seat, {}, len(game.log))


def test_farlander_a_finished_game_says_who_won_and_taps_nothing() -> None:
    game = played(Farlander(2, seed=7), 500)
    assert game.is_over()
    desk = seated(game)[1]
    winners = " and ".join(("red", "blue")[w] for w in game.winners())
    for svg in (desk.public()["drawing"], desk.seat(0)["drawing"]):
        assert f"game over: {winners} win" in svg and Things(svg).picks == []


def test_farlander_text_is_readable_on_a_phone() -> None:
    things = Things(Desk(Table(played(Farlander(4, seed=3), 60), ["human"] * 4, board=NoBoard())).public()["drawing"])
    assert things.view_box[2] == PAGE_WIDTH and min(things.sizes) >= MIN_TEXT


def test_farlander_a_map_without_tile_geometry_is_drawn_as_a_grid() -> None:
    neighbours = {"x": ["y"], "y": ["x", "z"], "z": ["y"]}
    game = Farlander(2, seed=1, setup={"map": {"territories": [{"id": t, "neighbors": n} for t, n in neighbours.items()]}})
    game.apply(game.legal_actions()[0])
    things = Things(seated(game)[1].public()["drawing"])
    assert sorted(n.split(" ")[0] for n in things.names if n.split(" ")[0] in neighbours) == ["x", "y", "z"]
    assert any(n.endswith(", 1 unit)") for n in things.names)


# ------------------------------------------------------------------ Mainland


def placed(game: Game) -> list[str]:
    clans = ("green", "frozen", "sand", "arid")
    return [f"{clans[e['seat']]} {e['action']['card']} at ({e['action']['x']}, {e['action']['y']})"
            for e in game.log if "action" in e and e["action"]["type"] == "place"]


def test_mainland_shared_drawing_names_every_placed_card_and_no_hand() -> None:
    game = played(Mainland(3, seed=4), 20, only="place")
    table, desk = seated(game)
    things = Things(desk.public()["drawing"])
    cards = placed(game)
    assert len(cards) >= 6 and [n for n in things.names if " at (" in n] == cards
    assert not [n for n in things.names if n.startswith(("hand", "spot"))] and things.picks == []
    assert min(things.sizes) >= MIN_TEXT


def test_mainland_a_four_clan_board_keeps_its_codes_readable() -> None:
    """16 tiles across do not fit a phone's page with readable codes: the drawing keeps its size
    (the page scrolls it sideways) instead of shrinking the text."""
    game = played(Mainland(4, seed=2), 60, only="place")
    svg = seated(game)[1].public()["drawing"]
    things = Things(svg)
    assert things.view_box[2] >= 16 * 26 and f'data-least-width="{things.view_box[2]:g}"' in svg and 'style=' not in svg
    assert min(things.sizes) >= MIN_TEXT


def test_mainland_shared_drawing_is_the_same_whatever_the_hidden_cards() -> None:
    for game, other in twins("mainland", 2, mainland_twin, 3):
        (ta, a), (tb, b) = seated(game), seated(other)
        seat = game.current_seat()
        assert a.public()["drawing"] == b.public()["drawing"]
        # each seat to act chooses a card of its own hand (different ones): the shared page shows neither
        for desk in (a, b):
            hand_pick = next(p for n, p in Things(desk.seat(seat)["drawing"]).picks if n.startswith("hand"))
            desk.narrow(seat, hand_pick, len(desk.game.log))
        assert a.public()["drawing"] == b.public()["drawing"]
        assert a.seat(seat)["drawing"] != b.seat(seat)["drawing"]  # the hands differ: each seat sees its own


def test_mainland_a_seat_drawing_shows_its_own_hand_only() -> None:
    game = played(Mainland(2, seed=5), 6, only="place")
    table, desk = seated(game)
    for seat in range(2):
        names = Things(desk.seat(seat)["drawing"]).names
        assert sorted(n.removeprefix("hand ") for n in names if n.startswith("hand ")) == sorted(game.hands[seat])
    waiting = 1 - game.current_seat()
    assert not [n for n in Things(desk.seat(waiting)["drawing"]).names if n.startswith("spot")]


def test_mainland_taps_choose_a_card_a_turn_and_a_spot() -> None:
    game = played(Mainland(2, seed=5), 6, only="place")
    table, desk = seated(game)
    seat = game.current_seat()
    legal = game.legal_actions()
    picks = Things(desk.seat(seat)["drawing"]).picks
    hand = {p["card"]: p for n, p in picks if n.startswith("hand ")}
    card = next(c for c in hand if any(a["type"] == "place" and a["card"] == c for a in legal))
    assert narrowed_by(desk, seat, hand[card]) == [a for a in legal if agrees(a, hand[card])]
    # the chosen card's four turns and its spots are drawn on this seat's page now
    picks = Things(desk.seat(seat)["drawing"]).picks
    turns = [p for n, p in picks if n.startswith(f"{card} turned")]
    spots = [p for n, p in picks if n.startswith("spot")]
    assert len(turns) == 4 and spots
    assert {(p["x"], p["y"]) for p in spots} == {(a["x"], a["y"]) for a in legal if a["type"] == "place" and a["card"] == card}
    assert not [n for n in Things(desk.public()["drawing"]).names if n.startswith("spot")]
    turn = next(p for p in turns if any(agrees(a, p) for a in legal))
    assert narrowed_by(desk, seat, turn) == [a for a in legal if agrees(a, turn)]
    spots = [p for n, p in Things(desk.seat(seat)["drawing"]).picks if n.startswith("spot")]
    assert spots and all(p["rotation"] == turn["rotation"] for p in spots)  # the spots of the card turned so
    wanted = [a for a in legal if agrees(a, spots[0])]
    assert len(wanted) == 1 and narrowed_by(desk, seat, spots[0]) == wanted
    # the card's place is framed, on this page and on the shared one (the LEDs blink those tiles too)
    frame = f"the card goes at ({spots[0]['x']}, {spots[0]['y']})"
    assert frame in Things(desk.seat(seat)["drawing"]).names and frame in Things(desk.public()["drawing"]).names
