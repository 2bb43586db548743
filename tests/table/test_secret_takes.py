"""The master merchant and the spy cannot be used to read another seat's cards without playing them.

In the style of ``test_secrets.py``: a Landover position reached through a public means (a stored
record, replayed: seat 2 holds a master merchant and a spy, seat 1 is ahead and hides resource
and development cards) is seated at a table of four human seats with a seat page per seat. An
attacker collects every channel a seat sees -- the legal listing ``rules serve`` gives it
``as_seat``, every other scoped answer, its page JSON, its view and log, its scoped record, the
typed ``?`` menu said to it, the shared screen's text -- and tries to rebuild seat 1's hand and
development cards from the take pairs and card names found there.

* Before seat 2 plays: seat 2 (which holds the cards) cannot, and neither can anybody else. The
  same attack on the same position read as record format 2 (one-step plays) succeeds, so the
  attack is not vacuous: it is the leak this protects against.
* Once seat 2 plays and names seat 1, seat 2 sees seat 1's cards (the rules say so): the bystanders
  (seats 0 and 3) still cannot, and after the take nobody but seats 1 and 2 can tell which cards
  moved; the shared screen never names them.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from tablelight.core.errors import TablelightError
from tablelight.core.game import Game
from tablelight.core.record import replay
from tablelight.core.serve import RulesServer
from tablelight.games.landover.hexmap import CARDS
from tablelight.table.layout import load_layout_data
from tablelight.table.service import Table
from tablelight.table.typed import TypedInput
from tablelight.view.terminal import draw
from tablelight.web.desk import Desk

from ..landover.stored import TAKER, before_the_play
from .conftest import FakeBoard

VICTIM = 1
BYSTANDERS = (0, 3)


def seated(game: Game) -> tuple[Table, Desk, TypedInput]:
    table = Table(game, ["human"] * game.players, board=FakeBoard(), flash_seconds=0.0)
    desk = Desk(table)
    table.refresh()
    table.prompt()
    typed = TypedInput(table, load_layout_data(type(table.face).default_layout))
    return table, desk, typed


def channels(game: Game, table: Table, desk: Desk, typed: TypedInput, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may see, by channel (the typed menu is asked for when it is that seat's turn)."""
    if game.current_seat() == seat:
        typed.handle("?")
    desk.changed()
    server = RulesServer()
    loaded = server.handle({"cmd": "load", "record": game.to_record(), "as_seat": seat})
    assert loaded["ok"], loaded
    answers = [loaded] + [
        server.handle({**request, "as_seat": seat})
        for request in ({"cmd": "state"}, {"cmd": "legal"}, {"cmd": "scores"}, {"cmd": "view", "seat": seat}, {"cmd": "bot"})
    ]
    layout = load_layout_data(type(table.face).default_layout)
    shared = "\n".join(table.messages) + "\n" + draw(layout, table.pixels(), color=False, labels=table.face.led_labels())
    return {
        "legal as_seat": server.handle({"cmd": "legal", "as_seat": seat})["actions"],
        "rules serve answers": answers,
        "scoped record": server.handle({"cmd": "record", "as_seat": seat})["record"],
        "page": desk.seat(seat),
        "view": game.view(seat),
        "view_log": game.view_log(seat),
        "said to the seat": list(table.private_messages[seat]),
        "shared screen": shared,
    }


def truth(game: Game, seat: int) -> dict[str, Any]:
    state = game.state()["players"][seat]
    return {"kinds": sorted(k for k, n in state["hand"].items() if n), "dev_cards": sorted(set(state["dev_cards"]))}


def actions_in(value: Any) -> list[dict[str, Any]]:
    """Every JSON object in ``value`` that looks like a Landover action, logs left out: a seat rightly
    knows what it took or lost before (:func:`log_leaks` checks the logs)."""
    found = []
    if isinstance(value, dict):
        if isinstance(value.get("type"), str):
            found.append(value)
        for key, item in value.items():
            if key not in ("log", "view_log"):
                found += actions_in(item)
    elif isinstance(value, list):
        for item in value:
            found += actions_in(item)
    return found


def rebuild(seen: dict[str, Any], target: int) -> dict[str, Any]:
    """Seat ``target``'s card kinds and development cards, as far as the take pairs and card names of
    master merchant and spy actions seen (listed, logged or on a page) tell them."""
    kinds: Counter[str] = Counter()
    dev_cards: set[str] = set()
    for action in actions_in(seen):
        about = action.get("target") == target or action.get("type") == "take"
        if not about:
            continue
        for pair in (action.get("take"), action.get("cards")):
            if isinstance(pair, list):
                for name, n in Counter(pair).items():
                    kinds[name] = max(kinds[name], n)
        for name in (action.get("card_taken"), action.get("dev_card")):
            if isinstance(name, str):
                dev_cards.add(name)
    return {"kinds": sorted(kinds), "dev_cards": sorted(dev_cards)}


def log_leaks(log: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The entries of ``seat``'s log that name cards a master merchant or spy took although ``seat``
    neither took nor lost them."""
    leaks, target = [], None
    for entry in log:
        action = entry.get("action", {})
        if action.get("card") in ("master_merchant", "spy"):
            target = action.get("target")
        if seat in (entry.get("seat"), target):
            continue
        if any(key in action for key in ("take", "card_taken", "cards", "dev_card")):
            leaks.append(entry)
    return leaks


def test_the_attack_reads_the_hidden_cards_from_a_one_step_listing() -> None:
    """Record format 2 listed the master merchant's pairs and the spy's cards: the attack works there."""
    game = before_the_play(record_format=2)
    table, desk, typed = seated(game)
    seen = channels(game, table, desk, typed, TAKER)
    assert rebuild(seen["legal as_seat"], VICTIM) == truth(game, VICTIM)
    assert rebuild(seen["page"], VICTIM) == truth(game, VICTIM)


@pytest.mark.parametrize("seat", [TAKER, *BYSTANDERS, VICTIM])
def test_before_the_card_is_played_no_seat_rebuilds_the_victims_cards(seat: int) -> None:
    game = before_the_play()
    assert game.record_format == 3 and game.current_seat() == TAKER
    table, desk, typed = seated(game)
    hidden = truth(game, VICTIM)
    assert hidden["kinds"] and hidden["dev_cards"]
    seen = channels(game, table, desk, typed, seat)
    if seat == TAKER:
        assert any(a.get("card") == "master_merchant" for a in seen["legal as_seat"])  # the seat may play it
        assert seen["said to the seat"] and seen["page"]["choices"]
    for channel, value in seen.items():
        if seat != VICTIM and channel != "view_log":  # the logs: log_leaks below
            rebuilt = rebuild(value, VICTIM)
            assert not rebuilt["kinds"] and not rebuilt["dev_cards"], f"seat {seat}'s {channel} tells {rebuilt}"
    for log in (seen["view_log"], seen["scoped record"]["log"], seen["rules serve answers"][0].get("log", [])):
        assert not log_leaks(log, seat)
    assert any(e.get("seat") == TAKER and e["action"]["type"] == "take" for e in seen["view_log"] if "action" in e)  # takes to check
    assert seen["view"]["players"][VICTIM].keys().isdisjoint({"hand", "dev_cards"}) or seat == VICTIM
    record = seen["scoped record"]
    assert "seed" not in record and record["as_seat"] == seat


def test_the_player_sees_the_hand_once_played_and_the_others_never_see_what_moved() -> None:
    game = before_the_play()
    table, desk, typed = seated(game)
    hidden = truth(game, VICTIM)
    assert table.apply({"type": "play", "card": "master_merchant", "target": VICTIM})
    assert game.phase == "take"
    # The player now sees seat 1's hand: its listing and its page, and its prompt names the cards
    mine = channels(game, table, desk, typed, TAKER)
    assert rebuild(mine["legal as_seat"], VICTIM)["kinds"] == hidden["kinds"]
    assert rebuild(mine["page"]["choices"], VICTIM)["kinds"] == hidden["kinds"]
    assert any("master merchant: blue holds" in text for text in mine["said to the seat"])
    # ... and nobody else does, the shared screen included
    for seat in BYSTANDERS:
        seen = channels(game, table, desk, typed, seat)
        assert rebuild(seen, VICTIM) == {"kinds": [], "dev_cards": []}, seat
        assert seen["legal as_seat"] == [] and seen["page"]["choices"] == []
    assert "holds" not in channels(game, table, desk, typed, 0)["shared screen"]
    shared_before = len(table.messages)
    take = game.legal_actions()[0]
    assert table.apply(take)
    # the spy too, on seat 3
    assert table.apply({"type": "play", "card": "spy", "target": 3})
    spied = game.legal_actions()[0]
    assert table.apply(spied)
    said = table.messages[shared_before:]
    words = table.face.action_words(take)
    assert any("takes 2 cards (master merchant)" in text for text in said)
    assert any("takes a development card (spy)" in text for text in said)
    for seat in BYSTANDERS + (VICTIM, TAKER):
        seen = channels(game, table, desk, typed, seat)
        knows_merchant = seat in (TAKER, VICTIM)
        knows_spy = seat in (TAKER, 3)
        log = seen["view_log"]
        assert not log_leaks(log, seat) and not log_leaks(seen["scoped record"]["log"], seat)
        assert (log[-3]["action"].get("cards") == take["cards"]) == knows_merchant, seat
        assert (log[-1]["action"].get("dev_card") == spied["dev_card"]) == knows_spy, seat
        assert rebuild({k: v for k, v in seen.items() if k not in ("page", "view_log")}, VICTIM) == {"kinds": [], "dev_cards": []}
        page_log = "\n".join(seen["page"]["log"])
        assert (words.removeprefix("take ") in page_log) == knows_merchant, (seat, page_log)
        assert words not in seen["shared screen"] and words.removeprefix("take ") not in "\n".join(said)
        if not knows_merchant:
            with pytest.raises(TablelightError):  # the hidden take cannot be replayed into the cards
                replay(seen["scoped record"])
    assert spied["dev_card"].replace("_", " ") not in "\n".join(said)
