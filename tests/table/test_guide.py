"""The rules guide of every game (``guide.json`` beside its engine, read through its face) and
``help`` at the terminal."""

from __future__ import annotations

import pytest

from tablelight.core.errors import SetupError
from tablelight.core.registry import game_entries
from tablelight.games.farlander.engine import Farlander
from tablelight.games.landover.engine import Landover
from tablelight.lab.coverage import catalogue
from tablelight.table import events as ev
from tablelight.table.face import face_class, parse_guide
from tablelight.table.layout import load_layout_data
from tablelight.table.service import Table
from tablelight.table.typed import TypedInput
from tablelight.web.desk import Desk

GAMES_WITH_FACES = sorted(name for name, entry in game_entries().items() if entry.face is not None and name in
                          ("farlander", "mainland", "landover", "farside"))


@pytest.mark.parametrize("name", GAMES_WITH_FACES)
def test_every_game_has_a_guide_with_goal_turn_scoring_and_every_action(name):
    guide = face_class(name).guide()
    titles = [title.lower() for title, _ in guide]
    assert titles[0] == "goal" and any(t.startswith("how a") for t in titles) and "scoring" in titles
    assert all(text.strip() for _, text in guide)
    text = " ".join(f"{title} {body}" for title, body in guide).lower()
    players = 3 if name == "landover" else 2
    options = {"dice": "table"} if name == "farside" else {}  # the typed-dice variant adds "roll"
    actions = catalogue(name, players, options)["action"]
    actions += [t for t in ("regenerate", "dead_zone") if name == "farside"]  # actions the catalogue leaves out
    assert actions
    missing = [a for a in actions if a.replace("_", " ") not in text]
    assert missing == [], f"{name}'s guide does not name the actions {missing}"


def test_a_damaged_guide_is_one_clear_error():
    with pytest.raises(SetupError, match="games/x/guide.json is not JSON"):
        parse_guide("{", "games/x/guide.json")
    with pytest.raises(SetupError, match="section 1 needs a \"title\" and a \"text\""):
        parse_guide('{"sections": [{"title": "Goal", "text": "win"}, {"title": 3}]}', "games/x/guide.json")


def terminal(table: Table) -> list[str]:
    said: list[str] = []
    table.listen(lambda e: said.append(e.text) if isinstance(e, ev.Told) and e.kind == ev.TERMINAL else None)
    return said


def test_help_at_the_terminal_shows_the_guide_any_time_and_help_word_finds_a_section(fake_board):
    game = Landover(3, seed=2)
    table = Table(game, ["human", "random", "random"], board=fake_board)
    desk = Desk(table)
    said = terminal(table)
    typed = TypedInput(table, load_layout_data("landover"))
    before = (list(table.messages), desk.public()["message"])
    typed.handle("help")
    assert said[-1].startswith("how to play landover (sections: Goal, How a turn goes, Scoring,")
    assert "Goal: Be the first to reach 15 victory points" in said[-1]
    typed.handle("help raid")
    assert said[-1].startswith("Raid and catapults: Raid: pay 1 military power")
    typed.handle("help strength")  # not a title: found in the text (the barbarians' strength)
    assert said[-1].startswith("Barbarians: Strength:")
    typed.handle("help zebra")
    assert "says nothing about 'zebra'" in said[-1] and "Goal" in said[-1]
    # the guide is the terminal's: no page and no shared message is sent it
    assert (list(table.messages), desk.public()["message"]) == before
    assert desk.public()["guide"][0]["title"] == "Goal"


def test_help_works_when_it_is_not_a_persons_turn(fake_board):
    game = Farlander(2, seed=3)
    seats = ["random", "human"] if game.current_seat() == 0 else ["human", "random"]
    table = Table(game, seats, board=fake_board)
    said = terminal(table)
    TypedInput(table, load_layout_data("farlander")).handle("help conquer")
    assert said[-1].startswith("Conquer: Conquer (action phase)") and "strength" in said[-1]
