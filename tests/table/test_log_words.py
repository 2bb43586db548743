"""The log in words on the pages: draws described in words (public parts only on the shared page),
numbered by their place in the game's log; and prompts that say why a kind of choice is missing."""

from __future__ import annotations

import random
import re

from tablelight.games.farlander.engine import Farlander
from tablelight.games.farside.engine import FarsideEncounter as Farside
from tablelight.games.landover.engine import Landover
from tablelight.games.mainland.engine import Mainland
from tablelight.table.service import Table
from tablelight.web.desk import Desk, choice_path

RAW_CHANCE = re.compile(r"chance \w+|: \[\d")  # the engine's own line (`chance barbarian_city (seat 0): 0`)


def played(game, seats, actions: int, seed: int = 1, seen: set[str] | None = None) -> tuple[Table, Desk]:
    """``actions`` random actions at a table with a desk; ``seen`` collects every line the shared page showed."""
    table = Table(game, seats, board_attached=True)
    desk = Desk(table)
    pick = random.Random(seed)
    for _ in range(actions):
        if game.is_over():
            break
        table.apply(pick.choice(game.legal_actions()))
        if seen is not None:
            seen.update(desk.public()["log"])
    return table, desk


def test_landover_draws_read_as_words_and_the_shared_page_names_no_secret_card():
    game = Landover(3, seed=4)
    shown: set[str] = set()
    table, desk = played(game, ["human", "random", "random"], 400, seen=shown)
    public = desk.public()
    lines = public["log"]
    assert any(line.startswith("event die: ") for line in lines) and any(line.startswith("white die: ") for line in lines)
    assert not [line for line in lines if RAW_CHANCE.search(line)]
    drawn = [e for e in game.log if e.get("chance") == "dev_card"]
    everyone = "\n".join(shown)
    assert drawn and "draws a " in everyone
    names = {name for name in ("knight", "bishop", "spy", "deserter", "wedding", "alchemist", "crane", "inventor", "medicine",
                               "irrigation", "mining", "printer", "constitution", "famine", "vandal", "diplomat", "raze")}
    assert not [n for n in names if f"draws a {n}" in everyone]
    # numbered by the entry's place in the log, not by the line's place on the page: no clipping after 9
    numbers = public["log_numbers"]
    assert numbers == sorted(numbers) and numbers[-1] == len(game.log) and len(numbers) == len(lines)
    seat = desk.seat(0)
    assert seat is not None and not [line for line in seat["log"] if RAW_CHANCE.search(line)]
    assert seat["log_numbers"][-1] == len(game.log)


def test_mainland_and_farlander_draws_in_words():
    game = Mainland(2, seed=2)
    _, desk = played(game, ["human", "random"], 6)
    log = desk.public()["log"]
    assert log[0] == "the green clan's deck is shuffled" and log[1] == "the frozen clan's deck is shuffled"
    farlander = Farlander(2, seed=3)
    _, desk = played(farlander, ["human", "human"], 2)
    assert desk.public()["log"][0] == f"drawn at random: {('red', 'blue')[farlander.log[0]['value']]} starts placing units"


def test_farside_rolls_are_told_once():
    game = Farside(2, seed=3)
    _, desk = played(game, ["human", "human"], 12)  # the setup rolls still among the last 40 lines
    log = desk.public()["log"]
    assert log[0].endswith(f"setup roll {game.log[0]['value']}")  # a roll with no action before it has a line
    # a roll right after an action is in that action's words, not again on a line of its own
    assert not [line for line in log if RAW_CHANCE.search(line)]
    rolls_alone = [line for line in log if " roll " in line and not line.startswith(("red: ", "blue: "))]  # not a move
    setup = [e for e in game.log[: next(i for i, e in enumerate(game.log) if "action" in e)]]
    assert len(rolls_alone) == len(setup)


def test_mainland_says_why_no_card_can_be_placed_and_what_to_do():
    game = Mainland(2, seed=0)
    pick = random.Random(0)
    for _ in range(10):  # seed 0: after 10 random actions the seat to act holds no card that fits
        game.apply(pick.choice(game.legal_actions()))
    seat = game.current_seat()
    assert seat is not None and not [a for a in game.legal_actions() if a["type"] == "place"]
    prompt = Table(game, ["human", "human"], board_attached=True).face.prompt(seat)
    assert "None of your cards fits anywhere now" in prompt and "Choose a card and place it" not in prompt
    assert "replace a card" in prompt and "gather your clan or pass" in prompt


def test_farsides_prompt_names_end_turn_as_its_page_button_does():
    game = Farside(2, seed=3)
    table, desk = played(game, ["human", "human"], 0)
    pick = random.Random(2)
    while game.phase != "action" or game.pending is not None or game.failed is not None:
        table.apply(pick.choice(game.legal_actions()))
    seat = game.current_seat()
    snapshot = desk.seat(seat)
    assert snapshot is not None and "end turn" in snapshot["prompt"]
    labels = {choice["path"][0] for choice in snapshot["choices"]}
    assert "end turn" in labels and choice_path(table.face, [("type", "end_turn")]) == ["end turn"]


def test_landover_says_why_only_end_turn_is_offered():
    game = Landover(3, seed=0)
    pick = random.Random(0)
    for _ in range(14):  # seed 0: then the seat to act can pay for nothing (its roll included, format 4)
        game.apply(pick.choice(game.legal_actions()))
    assert game.phase == "main" and {a["type"] for a in game.legal_actions()} == {"end_turn"}
    prompt = Table(game, ["human"] * 3, board_attached=True).face.prompt(game.current_seat())
    assert "your hand pays for nothing now (road: wood + clay;" in prompt and prompt.endswith("press end turn")
