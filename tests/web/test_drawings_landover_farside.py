"""Landover and Farside draw themselves (issue 21): ``GameFace.drawing(seat)``, an SVG of the map or armies.

Games are built through public means (seeded random play, the secret pairs of
``tests/table/test_board_secrets.py``). Checked: the shared drawing names every land hex (Landover)
and every model (Farside) and is the same whatever a seat's hidden cards; a seat's drawing shows its
own hand (or secret mission) and no other's; every ``data-pick`` is a part of a legal action's
:meth:`choice_steps` and the face takes it as a narrowing (a tap narrows); only the seat to act's
drawing has taps; no text is under 12 CSS px on a 390 px wide phone.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

from tablelight.core.game import Game
from tablelight.core.registry import game_class
from tablelight.core.rng import Rng
from tablelight.table.face import GameFace, make_face
from tests.table.test_board_secrets import OBSERVER, farside_twin, landover_twin, twins

SVG = "{http://www.w3.org/2000/svg}"
PHONE_WIDTH = 390


def parsed(picture: str | None) -> ET.Element:
    assert isinstance(picture, str), "the face draws nothing"
    root = ET.fromstring(picture)  # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg"
    return root


def names(root: ET.Element) -> set[str]:
    return {el.attrib["data-name"] for el in root.iter() if "data-name" in el.attrib}


def picks(root: ET.Element) -> list[dict[str, Any]]:
    return [json.loads(el.attrib["data-pick"]) for el in root.iter() if "data-pick" in el.attrib]


def words(root: ET.Element) -> str:
    return " ".join("".join(el.itertext()) for el in root.iter(f"{SVG}text"))


def positions(name: str, players: int, seeds: range, every: int, options: dict[str, Any] | None = None) -> Iterator[Game]:
    """Positions of seeded random games of ``name``, one every ``every`` actions (the same game object, moved on)."""
    for seed in seeds:
        game = game_class(name)(players, options or {}, seed)
        rng = Rng(seed)
        step = 0
        while not game.is_over() and step < 40 * every:
            if step % every == 0:
                yield game
            game.apply(game.random_action(rng))
            step += 1
        yield game


def smallest_text_px(root: ET.Element) -> float:
    """The smallest font size of the drawing in CSS px when it is shown 390 px wide."""
    width = float(root.attrib["viewBox"].split()[2])
    sizes = [float(el.attrib["font-size"]) for el in root.iter(f"{SVG}text")]
    assert sizes and all(el.attrib.get("font-size") for el in root.iter(f"{SVG}text"))
    return min(sizes) * PHONE_WIDTH / width


def check_taps(face: GameFace, game: Game) -> int:
    """Every data-pick of the drawing of the seat to act is a part of some legal action's choice steps,
    the face takes it as a narrowing, and no other seat's drawing (nor the shared one) has taps."""
    seat = game.current_seat()
    if seat is None:
        assert not picks(parsed(face.drawing(None)))
        return 0
    for other in [None, *(s for s in range(game.players) if s != seat)]:
        assert not picks(parsed(face.drawing(other))), f"the drawing of {other} has taps on {seat}'s turn"
    found = picks(parsed(face.drawing(seat)))
    steps = [set(face.choice_steps(action)) for action in game.legal_actions()]
    for pick in found:
        assert any(set(pick.items()) <= s for s in steps), f"{pick} agrees with no legal action"
        outcome = face.narrow(pick)
        assert not outcome.refused, f"{pick}: {outcome.message}"
        face.narrow({})
    return len(found)


# ---------------------------------------------------------------------------------------------- Landover


def test_landover_shared_drawing_names_every_land_hex_and_no_card() -> None:
    game = game_class("landover")(3, {}, 7)
    root = parsed(make_face(game).drawing(None))
    land = {f"hex {h}" for h in range(game.hex_count) if game.terrain(h) != "water"}  # type: ignore[attr-defined]
    assert land <= names(root)
    text = words(root)
    for word in ("wool", "wood", "ore", "wheat", "clay", "Barbarians 0 of 7", "2:1"):
        assert word in text
    assert not any(name.startswith("card ") for name in names(root))
    assert "Your cards" not in text and "Development cards" not in text


def test_landover_numbers_and_pieces_are_drawn_where_the_game_has_them() -> None:
    for game in positions("landover", 3, range(1, 3), 60):
        root = parsed(make_face(game).drawing(None))
        titles = {el.text for el in root.iter(f"{SVG}title")}
        for h in game.land_hexes():  # type: ignore[attr-defined]
            if game.number(h) is not None:  # type: ignore[attr-defined]
                assert f"hex {h}: {game.terrain(h)} {game.number(h)}" in titles  # type: ignore[attr-defined]
        pieces = game.pieces()  # type: ignore[attr-defined]
        for kind, listed, where in (("village", "villages", "vertex"), ("city", "cities", "vertex"),
                                    ("road", "roads", "edge"), ("bridge", "bridges", "edge")):
            for piece in pieces[listed]:
                place = "corner" if where == "vertex" else "side"
                wanted = f"{place} {piece[where]}: {('red', 'blue', 'green')[piece['seat']]} {kind}"
                assert any(t and t.startswith(wanted) for t in titles), wanted


def test_landover_shared_and_observer_drawings_are_the_same_whatever_the_hidden_cards() -> None:
    for game, other in twins("landover", 3, landover_twin, 3):
        victim = game.current_seat()
        a, b = make_face(game), make_face(other)
        assert a.drawing(None) == b.drawing(None)
        assert a.drawing(OBSERVER) == b.drawing(OBSERVER)
        # the victim's own drawing shows its own cards, so it tells the two apart
        assert a.drawing(victim) != b.drawing(victim)


def test_landover_a_seat_sees_its_own_hand_and_no_other() -> None:
    for game in positions("landover", 3, range(3, 4), 80):
        face = make_face(game)
        for seat in range(game.players):
            root = parsed(face.drawing(seat))
            text = words(root)
            assert f"Your cards ({('red', 'blue', 'green')[seat]})" in text
            assert sum("Your cards" in t for t in [text]) == 1
            hand = list(game.hand(seat).values())  # type: ignore[attr-defined]
            cards = {el.attrib["data-name"]: "".join(el.itertext()) for el in root.iter() if el.attrib.get("data-name", "").startswith("card ")}
            assert len(cards) == 8
            for kind, count in zip(("wool", "wood", "ore", "wheat", "clay", "cloth", "paper", "coin"), hand):
                assert cards[f"card {kind}"] == f"{kind}{count}"
            for card in set(game.dev_cards(seat)):  # type: ignore[attr-defined]
                assert card.replace("_", " ") in text
            assert "Costs" in text and "Trade with the bank" in text


def test_landover_taps_narrow_to_legal_actions() -> None:
    counted = 0
    for game in positions("landover", 3, range(1, 3), 25):
        counted += check_taps(make_face(game), game)
    assert counted >= 50  # corners, sides and hexes were tappable along the way


def test_landover_text_is_at_least_12_px_on_a_phone() -> None:
    for game in positions("landover", 4, range(1, 2), 100):
        face = make_face(game)
        for seat in (None, 0, 3):
            assert smallest_text_px(parsed(face.drawing(seat))) >= 12


# ---------------------------------------------------------------------------------------------- Farside


def test_farside_shared_drawing_names_every_model() -> None:
    for game in positions("farside", 2, range(1, 3), 40, {"points_level": 700}):
        root = parsed(make_face(game).drawing(None))
        assert {f"model {mid}" for mid in game.models} <= names(root)  # type: ignore[attr-defined]
        text = words(root)
        assert "Objectives" in text and "red army" in text and "blue army" in text
        for mid, model in game.models.items():  # type: ignore[attr-defined]
            group = next(el for el in root.iter() if el.attrib.get("data-name") == f"model {mid}")
            seen = "".join(group.itertext())
            assert mid in seen
            if model["status"] == "table":
                marks = [el for el in group.iter(f"{SVG}circle") if el.attrib.get("fill") == "#b00020"]
                assert len(marks) == min(3, model["damage"])  # its damage tokens
                if model["impact"]:
                    assert f"impact {model['impact']}" in seen


def test_farside_shared_and_observer_drawings_are_the_same_whatever_the_secret_mission() -> None:
    for game, other in twins("farside", 2, farside_twin, 3):
        a, b = make_face(game), make_face(other)
        assert a.drawing(None) == b.drawing(None)
        assert a.drawing(OBSERVER) == b.drawing(OBSERVER)
        victim = 1 - OBSERVER
        assert a.drawing(victim) != b.drawing(victim)  # its own drawing names its own mission
        secret = game.secrets[victim]  # type: ignore[attr-defined]
        assert f"primary {secret['primary']}" in words(parsed(a.drawing(victim)))
        assert "primary" not in words(parsed(a.drawing(None)))
        assert "blue: secret mission hidden; team size" in words(parsed(a.drawing(OBSERVER)))


def test_farside_the_chosen_and_activation_are_shown() -> None:
    seen_chosen = seen_acted = 0
    for game in positions("farside", 2, range(1, 5), 10):
        root = parsed(make_face(game).drawing(None))
        for seat, mid in enumerate(game.chosen):  # type: ignore[attr-defined]
            if mid is not None and game.models[mid]["status"] == "table":  # type: ignore[attr-defined]
                group = next(el for el in root.iter() if el.attrib.get("data-name") == f"model {mid}")
                assert any(el.attrib.get("fill") == "#ffc400" for el in group.iter(f"{SVG}polygon"))
                seen_chosen += 1
        for mid, model in game.models.items():  # type: ignore[attr-defined]
            if model["activated"] and model["status"] == "table":
                group = next(el for el in root.iter() if el.attrib.get("data-name") == f"model {mid}")
                assert "acted" in "".join(group.itertext())
                seen_acted += 1
    assert seen_chosen and seen_acted


def test_farside_taps_narrow_to_legal_actions() -> None:
    counted = 0
    for game in positions("farside", 2, range(1, 3), 7):
        counted += check_taps(make_face(game), game)
    assert counted >= 30


def test_farside_text_is_at_least_12_px_on_a_phone() -> None:
    for game in positions("farside", 2, range(1, 2), 30, {"points_level": 1000}):
        face = make_face(game)
        for seat in (None, 0, 1):
            assert smallest_text_px(parsed(face.drawing(seat))) >= 12


@pytest.mark.parametrize("name", ["landover", "farside"])
def test_the_drawing_is_a_pure_look(name: str) -> None:
    """Drawing changes nothing: the same legal actions and state before and after."""
    game = game_class(name)(2, {}, 4)
    rng = Rng(4)
    for _ in range(30):
        game.apply(game.random_action(rng))
    before = (game.state(), game.legal_actions())
    face = make_face(game)
    for seat in (None, 0, 1):
        face.drawing(seat)
    assert (game.state(), game.legal_actions()) == before


def test_the_end_is_drawn_with_the_winner() -> None:
    """A finished game's shared drawing says who won (and, for Farside, the victory points, which the
    secret missions decide and are public once it is over)."""
    for name, players in (("landover", 2), ("farside", 2)):
        game = game_class(name)(players, {"target": 5} if name == "landover" else {}, 5)
        rng = Rng(5)
        while not game.is_over():
            game.apply(game.random_action(rng))
        text = words(parsed(make_face(game).drawing(None)))
        colours = ("red", "blue")
        if game.winners():
            assert all(colours[s] in text.split(":")[1] for s in game.winners()), text[:80]
        assert text.startswith("Game over")
        if name == "farside":
            points = game.victory_points()  # type: ignore[attr-defined]
            assert f"Victory points: red {points[0]}, blue {points[1]}" in text
            assert "primary" in text  # the missions are public at the end


def test_landover_tap_squares_never_overlap() -> None:
    """A tap reaches a corner or a side in the square around its dot (``data-tap`` across): no two
    squares overlap, so a tap never picks a neighbour (the page zooms until they are a finger wide)."""
    checked = 0
    for game in positions("landover", 2, range(1, 3), 9):
        seat = game.current_seat()
        if seat is None:
            continue
        root = parsed(make_face(game).drawing(seat))
        squares = []
        for el in root.iter():
            if "data-pick" in el.attrib and el.attrib["data-name"].startswith(("corner ", "side ")):
                rect = next(r for r in el.iter(f"{SVG}rect") if r.attrib.get("fill-opacity") == "0.01")
                x, y, w = (float(rect.attrib[k]) for k in ("x", "y", "width"))
                assert abs(w - float(el.attrib["data-tap"])) < 0.2
                squares.append((x, y, w))
        for i, (x, y, w) in enumerate(squares):
            for u, v, z in squares[i + 1:]:
                assert x + w <= u + 0.15 or u + z <= x + 0.15 or y + w <= v + 0.15 or v + z <= y + 0.15, (x, y, u, v)
        checked += len(squares)
    assert checked >= 100
