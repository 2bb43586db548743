"""What each seat's page and the shared screen are given: a seat's own secrets, never another's.

Positions are reached through public means only (bots' actions applied by the table).
"""

from __future__ import annotations

import json

from tablelight.games.farlander.engine import Farlander
from tablelight.games.landover.engine import Landover
from tablelight.games.mainland.engine import Mainland
from tablelight.table.service import Table
from tablelight.web.desk import Desk
from tablelight.web.places import words

from .conftest import NoBoard


def played(game, bots: list[str], moves: int, done=lambda game: False) -> Table:
    table = Table(game, bots)
    for _ in range(moves):
        if game.is_over() or done(game):
            break
        table.bot_move(game.current_seat())
    return Table(game, ["human"] * game.players, board=NoBoard())


def test_landover_resources_and_development_cards_reach_only_their_seat():
    game = Landover(2, seed=4)
    table = played(game, ["greedy", "greedy"], 400, lambda g: g.dev_cards(0) and g.hand_size(0) and g.hand_size(1))
    assert game.dev_cards(0) and game.hand_size(0)
    desk = Desk(table)
    public = json.dumps(desk.public())
    for seat, other in ((0, 1), (1, 0)):
        mine = desk.seat(seat)
        theirs = json.dumps(desk.seat(other))
        sections = {s["title"]: s["text"] for s in mine["secrets"]}
        own_resources = words(game.view(seat)["players"][seat]["hand"])
        assert sections["resources"] == own_resources
        assert sections["development cards"] == words(sorted(game.dev_cards(seat)))
        if own_resources != words(game.view(other)["players"][other]["hand"]):
            assert own_resources not in theirs and own_resources not in public
        # card names are words the public log uses too ("buys military power"): look where a hand would show
        # (by whole names: "merchant" is part of "master merchant")
        their_cards = {s["title"]: s["text"] for s in desk.seat(other)["secrets"]}["development cards"].split(", ")
        for card in set(game.dev_cards(seat)) - set(game.dev_cards(other)):
            assert card.replace("_", " ") not in their_cards and card not in their_cards
        assert "development cards" not in public and "secrets" not in desk.public()


def test_mainland_hands_reach_only_their_seat_and_the_shared_screen_gets_no_prompt_with_a_hand():
    game = Mainland(2, seed=5)
    table = played(game, ["random", "random"], 6)
    desk = Desk(table, join_url="http://127.0.0.1:8055/join")
    for seat, other in ((0, 1), (1, 0)):
        shown = json.dumps(desk.seat(seat))
        assert all(card in shown for card in game.hands[seat])
        assert not any(card in shown for card in game.hands[other])
        assert not any(card in json.dumps(desk.public()) for card in game.hands[seat])
    acting = game.current_seat()
    prompt = f"{table.seat_label(acting)}: {table.face.prompt(acting)}"
    assert game.hands[acting][0] in prompt
    # the table says the prompt privately: the seat's page gets it, the shared screen a pointer to it
    table.join_hint = desk.join_hint
    before = len(table.messages)
    table.say(prompt, seat=acting)
    shared = table.messages[before:]
    assert len(shared) == 1 and game.hands[acting][0] not in shared[0]
    assert "join at http://127.0.0.1:8055/join" in shared[0]
    assert game.hands[acting][0] in json.dumps(desk.seat(acting))


def test_a_seats_page_does_not_repeat_its_prompt_as_feedback():
    game = Mainland(2, seed=5)
    table = played(game, ["random", "random"], 2)
    desk = Desk(table, join_url="http://127.0.0.1:8055/join")
    table.join_hint = desk.join_hint
    acting = game.current_seat()
    table.say("refused: that card does not fit there", seat=acting)
    assert desk.seat(acting)["feedback"] == "refused: that card does not fit there"
    table.prompt()
    page = desk.seat(acting)
    assert page["prompt"] == table.face.prompt(acting) and page["feedback"] == ""
    assert "? lists your choices" not in json.dumps(page)


def test_the_board_pages_moves_are_moves_not_prompts_or_refusals():
    game = Farlander(2, seed=3)
    table = played(game, ["random", "random"], 4)
    desk = Desk(table)
    table.prompt()
    assert desk.public()["message"] == f"{table.seat_label(0)}: {table.face.prompt(0)}"  # a page is not typed at
    table.say("b2 is held by seat 1: place only into empty or own territories")
    desk.changed()  # what the table's on_message does in `play`
    public = desk.public()
    assert public["message"].startswith("b2 is held")  # the latest word is still shown, once
    described = [f"{table.seat_label(e['seat'])}: {table.face.describe_action(e['action'])}" for e in game.log if "action" in e]
    first = game.log[0]["value"]  # the draw of who starts, in words (see tests/table/test_log_words.py)
    assert public["log"] == [f"drawn at random: {table.face.seat_word(first)} starts placing units", *described]
    assert len(described) == 4 and public["log_numbers"] == [1, 2, 3, 4, 5]


def test_a_seats_choices_that_differ_in_its_own_cards_read_differently():
    game = Mainland(2, seed=5)
    table = played(game, ["random", "random"], 2)
    desk = Desk(table)
    acting = game.current_seat()
    replaces = [c["text"] for c in desk.seat(acting)["choices"] if c["action"]["type"] == "replace"]
    assert len(replaces) == len(game.hands[acting]) == len(set(replaces))
    assert all(any(card in text for text in replaces) for card in game.hands[acting])
    # the table's public words for the same move still hide the card
    assert not any(card in table.face.describe_action({"type": "replace", "card": card}) for card in game.hands[acting])
