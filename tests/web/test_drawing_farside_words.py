"""Farside's screens in players' words (issue 21): choice steps a player can follow, the secrets panel,
the legend of the models' cards.

A seat's page narrows a long list of choices by the labels of each choice's ``path`` and shows at most
8 buttons a step (``seat.js`` renderChoices, mirrored by :func:`most_buttons`). Positions come from
seeded random play; the page's narrowing goes through the desk as a tap or a step button sends it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

from tablelight.core.rng import Rng
from tablelight.games.farside.engine import FarsideEncounter
from tablelight.table.service import Table
from tablelight.web.desk import Desk

from .conftest import NoBoard

SVG = "{http://www.w3.org/2000/svg}"
#: The most buttons a step of the seat page shows (seat.js MAX_SHOWN).
MAX_SHOWN = 8


def most_buttons(paths: list[list[str]]) -> int:
    """The most buttons any step shows while a page narrows ``paths`` as seat.js does: more than
    MAX_SHOWN choices are grouped by the first step they differ at, group by group."""
    most = 0

    def walk(left: list[list[str]], depth: int) -> None:
        nonlocal most
        if len(left) <= MAX_SHOWN:
            most = max(most, len(left))
            return
        while depth < len(left[0]) and len({p[depth] for p in left}) == 1:
            depth += 1
        if depth >= len(left[0]):
            most = max(most, len(left))
            return
        groups: dict[str, list[list[str]]] = {}
        for path in left:
            groups.setdefault(path[depth], []).append(path)
        most = max(most, len(groups))
        for group in groups.values():
            walk(group, depth + 1)

    walk(paths, 0)
    return most


def positions(seeds: range, steps: int = 3000) -> Iterator[FarsideEncounter]:
    for seed in seeds:
        game = FarsideEncounter(2, seed=seed)
        rng = Rng(seed)
        for _ in range(steps):
            if game.is_over():
                break
            yield game
            game.apply(game.random_action(rng))


def seat_choices(game: FarsideEncounter) -> tuple[Desk, int, list[dict[str, Any]]]:
    desk = Desk(Table(game, ["human", "human"], board=NoBoard()))
    seat = game.current_seat()
    assert seat is not None
    return desk, seat, desk.seat(seat)["choices"]


def test_every_step_of_a_seat_page_shows_at_most_8_buttons() -> None:
    impacts = 0
    for game in positions(range(1, 3)):
        legal = game.legal_actions()
        if sum(a["type"] == "impact" for a in legal) < 100 and game.phase != "secrets":
            continue
        desk, seat, choices = seat_choices(game)
        paths = [c["path"] for c in choices]
        assert most_buttons(paths) <= MAX_SHOWN, (game.phase, paths[:3])
        impacts += game.phase != "secrets"
        if impacts >= 5:
            break
    assert impacts >= 5  # the impact step of 100 choices and more was met


def test_the_steps_of_an_impact_are_an_army_a_model_a_range_and_a_count() -> None:
    game = next(g for g in positions(range(1, 2)) if sum(a["type"] == "impact" for a in g.legal_actions()) >= 100)
    desk, seat, choices = seat_choices(game)
    impact = next(c for c in choices if c["action"]["type"] == "impact" and c["action"]["tokens"] == 7)
    mid = impact["action"]["model"]
    name = game.models[mid]["name"]
    army = ("red", "blue")[game.models[mid]["owner"]]
    assert impact["path"] == ["record impact tokens", f"{army} army", f"{mid} ({name})", "6 to 10 tokens", "7 tokens"]
    # the page sends a step's fields, the face's own steps among them: the board's menu opens on them
    chosen = dict(zip(impact["fields"][:4], impact["values"][:4]))
    answer = desk.narrow(seat, chosen, len(game.log))
    assert answer.done, answer.words
    wanted = [a for a in game.legal_actions() if a["type"] == "impact" and a["model"] == mid and 6 <= a["tokens"] <= 10]
    assert answer.words.startswith(f"{len(wanted)} choices left")
    assert desk.face.choices[desk.face.index] in wanted  # type: ignore[attr-defined]
    refused = desk.narrow(seat, {"type": "impact", "army_of_model": 7}, len(game.log))
    assert not refused.done


def test_the_secrets_panel_says_the_mission_in_players_words() -> None:
    game = next(g for g in positions(range(1, 2)) if g.phase == "action")
    desk = Desk(Table(game, ["human", "human"], board=NoBoard()))
    secret = game.secrets[0]
    sections = desk.seat(0)["secrets"]
    assert [s["title"] for s in sections] == ["Your secret mission"]
    items = sections[0]["items"]
    assert items[0].startswith(f"Primary objective: {secret['primary']} (2 victory points")
    assert items[1].startswith(f"Stratagem: {secret['stratagem']} (1 victory point")
    assert items[2].startswith(f"Team size: {secret['team_size']}")


def test_the_legend_shows_the_three_damage_circles_of_a_card() -> None:
    game = next(g for g in positions(range(1, 2)) if g.phase == "action")
    desk = Desk(Table(game, ["human", "human"], board=NoBoard()))
    root = ET.fromstring(desk.public()["drawing"])
    in_models = {id(el) for g in root.iter() if g.attrib.get("data-name", "").startswith("model ") for el in g.iter()}
    legend = [el for el in root.iter(f"{SVG}circle") if id(el) not in in_models and el.attrib.get("stroke") == "#b00020"]
    assert len(legend) == 3 and sum(el.attrib["fill"] == "#b00020" for el in legend) == 2
    words = " ".join("".join(el.itertext()) for el in root.iter(f"{SVG}text"))
    assert "2 damage of 3: the 3rd removes it" in words
