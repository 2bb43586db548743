"""The master merchant and the spy see another seat's hidden cards: only when played (issue 9).

Positions come from a stored greedy game (record format 2, written before the change) cut just
before seat 2 plays its master merchant (it also holds a spy): a record, replayed, is a public
means. Under format 3 playing the card names the target only; the player then chooses what to
take in a pending step (phase ``take``) that lists the target's cards to that seat alone.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tablelight.core.errors import IllegalActionError, RecordError
from tablelight.core.record import replay
from tablelight.core.rng import Rng
from tablelight.core.serve import RulesServer
from tablelight.games.landover.hexmap import CARDS
from tablelight.games.landover.engine import Landover
from tablelight.games.landover.search import determinize

from .stored import MERCHANT_AT, TAKER, before_the_play, old_record, two_steps

def hidden(game: Landover, seat: int) -> dict[str, Any]:
    """What ``seat`` hides: its resource and commodity cards and its development cards."""
    state = game.state()["players"][seat]
    return {"hand": {k: n for k, n in state["hand"].items() if n}, "dev_cards": state["dev_cards"]}


def listed_as(game: Landover, seat: int) -> list[dict[str, Any]]:
    """The legal listing ``rules serve`` gives a client scoped to ``seat``."""
    server = RulesServer()
    assert server.handle({"cmd": "load", "record": game.to_record()})["ok"]
    answer = server.handle({"cmd": "legal", "as_seat": seat})
    assert answer["ok"], answer
    actions: list[dict[str, Any]] = answer["actions"]
    return actions


def test_the_stored_position_is_the_one_the_tests_need() -> None:
    game = before_the_play()
    assert game.current_seat() == TAKER and {"master_merchant", "spy"} <= set(hidden(game, TAKER)["dev_cards"])
    assert hidden(game, 1)["hand"] and hidden(game, 1)["dev_cards"] and game.vp(1) > game.vp(TAKER)


def test_listing_the_legal_actions_does_not_show_another_seats_cards() -> None:
    """Before the fix the listing named every pair of seat 1's hand and each of its dev cards."""
    game = before_the_play()
    plays = [a for a in listed_as(game, TAKER) if a["type"] == "play" and a["card"] in ("master_merchant", "spy")]
    assert plays, "seat 2 may play its master merchant or spy here"
    for action in plays:
        assert set(action) == {"type", "card", "target"}, f"{action} says more than the card and its target"
    targets = {a["target"] for a in plays if a["card"] == "master_merchant"}
    assert targets == {s for s in range(4) if game.vp(s) > game.vp(TAKER) and game.hand_size(s)}
    spied = {a["target"] for a in plays if a["card"] == "spy"}
    assert spied == {s for s in range(4) if s != TAKER and game.view(TAKER)["players"][s]["dev_count"]}
    # What the listing names is the same whatever seat 1 holds: nothing in it is one of its hidden cards
    text = json.dumps(plays)
    assert not any(name in text for name in CARDS)
    assert not any(card in text for card in hidden(game, 1)["dev_cards"] if card not in ("master_merchant", "spy"))


def test_master_merchant_is_played_then_the_player_sees_the_hand_and_takes_two() -> None:
    game = before_the_play()
    mine = list(game.pos.hands[TAKER])
    theirs = list(game.pos.hands[1])
    game.apply({"type": "play", "card": "master_merchant", "target": 1}, seat=TAKER)
    assert game.pos.phase == "take" and game.current_seat() == TAKER
    assert game.state()["taking"] == {"seat": TAKER, "card": "master_merchant", "target": 1}
    listing = game.legal_actions()
    assert listing and all(set(a) == {"type", "cards"} and a["type"] == "take" for a in listing)
    # the pairs seat 1's hand allows, each once
    held = [name for name, n in zip(CARDS, theirs) for _ in range(n)]
    for action in listing:
        assert len(action["cards"]) == 2 and all(action["cards"].count(n) <= held.count(n) for n in action["cards"])
    assert len({json.dumps(a) for a in listing}) == len(listing)
    # nothing else is allowed meanwhile; a pair seat 1 does not hold is refused and changes nothing
    record = game.to_record()
    for wrong in ({"type": "end_turn"}, {"type": "take", "cards": ["gold"]}, {"type": "take", "dev_card": "spy"},
                  {"type": "take", "cards": [n for n in CARDS if n not in held][:2]}):
        with pytest.raises(IllegalActionError):
            game.apply(wrong)
    assert game.to_record() == record
    take = listing[-1]
    game.apply(take)
    assert game.pos.phase == "main" and game.state()["taking"] is None
    for name in take["cards"]:
        k = CARDS.index(name)
        mine[k] += 1
        theirs[k] -= 1
    assert game.pos.hands[TAKER] == mine and game.pos.hands[1] == theirs
    again = replay(game.to_record())
    assert again.state() == game.state() and again.to_record()["format"] == 3


def test_spy_is_played_then_the_player_sees_the_dev_cards_and_takes_one() -> None:
    game = before_the_play()
    theirs = sorted(game.pos.dev_cards[1])
    game.apply({"type": "play", "card": "spy", "target": 1})
    listing = game.legal_actions()
    assert sorted(a["dev_card"] for a in listing) == sorted(set(theirs)) and all(a["type"] == "take" for a in listing)
    game.apply(listing[0])
    theirs.remove(listing[0]["dev_card"])
    assert sorted(game.pos.dev_cards[1]) == theirs and listing[0]["dev_card"] in game.pos.dev_cards[TAKER]
    assert game.pos.phase == "main"


def test_undo_of_the_take_goes_back_to_the_pending_choice() -> None:
    game = before_the_play()
    game.apply({"type": "play", "card": "spy", "target": 1})
    pending = game.state()
    game.apply(game.legal_actions()[0])
    game.undo()
    assert game.state() == pending
    game.undo()
    assert game.pos.phase == "main" and "spy" in game.pos.dev_cards[TAKER]


def test_bystanders_and_the_shared_log_never_see_what_was_taken() -> None:
    game = before_the_play()
    game.apply({"type": "play", "card": "master_merchant", "target": 1})
    game.apply(game.legal_actions()[0])
    taken = game.log[-1]["action"]["cards"]
    game.apply({"type": "play", "card": "spy", "target": 3})
    game.apply(game.legal_actions()[0])
    spied = game.log[-1]["action"]["dev_card"]
    takes = [i for i, e in enumerate(game.log) if "action" in e and e["action"]["type"] == "take"][-2:]
    for seat in range(4):
        log = game.view_log(seat)
        first, second = log[takes[0]]["action"], log[takes[1]]["action"]
        assert (first.get("cards") == taken) == (seat in (TAKER, 1)), seat
        assert (second.get("dev_card") == spied) == (seat in (TAKER, 3)), seat
        if seat not in (TAKER, 1):
            assert first == {"type": "take"} and log[takes[0]]["hidden"]
    # the plays themselves are public: card and target
    assert game.view_log(0)[takes[0] - 1]["action"] == {"type": "play", "card": "master_merchant", "target": 1}


def test_old_records_with_one_step_plays_replay_exactly_under_the_old_reading() -> None:
    record = old_record()
    assert record["format"] == 2
    game = replay(copy.deepcopy(record))
    assert game.to_record()["format"] == 2 and game.result() == record["result"]
    plays = [e["action"] for e in game.log if "action" in e and e["action"].get("card") in ("master_merchant", "spy")]
    assert len(plays) == 13 and all("take" in a or "card_taken" in a for a in plays)
    # Under the old reading the listing is one step (the old records' actions): kept for them only
    old = before_the_play(record_format=2)
    assert any("take" in a for a in old.legal_actions() if a.get("card") == "master_merchant")
    # The same log read as format 3 is refused at the first one-step play
    now = copy.deepcopy(record)
    now["format"] = 3
    with pytest.raises(RecordError) as refused:
        replay(now)
    assert refused.value.entry == 71


def test_the_old_game_written_in_two_steps_plays_the_same_under_format_3() -> None:
    record = old_record()
    old = replay(copy.deepcopy(record))
    now = copy.deepcopy(record)
    now["format"] = 3
    now["log"] = two_steps(now["log"])
    game = replay(now)
    assert game.result() == old.result() and game.state() == {**old.state(), "taking": None}


def test_bots_play_both_steps_and_the_search_bot_keeps_what_the_card_showed() -> None:
    game = before_the_play()
    bots = [Landover.make_bot("greedy", seat) for seat in range(4)]
    while not game.is_over():
        seat = game.current_seat()
        assert seat is not None
        game.apply(bots[seat].choose(game), seat=seat)
    after = [e["action"] for e in game.log[MERCHANT_AT:] if "action" in e]
    assert sum(a["type"] == "take" for a in after) >= 2 and game.winners()
    # While the take waits, the search bot's redrawn worlds keep the target's cards (the player sees
    # them) and redraw everybody else's
    game = before_the_play()
    game.apply({"type": "play", "card": "master_merchant", "target": 1})
    worlds = []
    for seed in range(3):
        world = game.clone()
        determinize(world, TAKER, Rng(seed))
        assert world.pos.hands[1] == game.pos.hands[1] and world.legal_actions() == game.legal_actions()
        worlds.append((world.pos.hands[0], world.pos.hands[3]))
    assert any(hands != (game.pos.hands[0], game.pos.hands[3]) for hands in worlds)
    assert Landover.make_bot("random", 1).choose(game) in game.legal_actions()
