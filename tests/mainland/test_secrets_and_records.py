"""Secret hands and decks, legal-move listing, records, replay and undo."""

from __future__ import annotations

import json

import pytest

from tablelight.core.errors import RecordError
from tablelight.core.record import replay
from tablelight.core.registry import new_game
from tablelight.core.rng import Rng
from tablelight.games.mainland.bots import GreedyBot, OwnScore
from tablelight.games.mainland.engine import ROTATIONS, Mainland

from tests.mainland.helpers import started


def play_out(game: Mainland, seed: int, bots: str = "greedy") -> Mainland:
    players = [GreedyBot(seed * 10 + s) if bots == "greedy" else None for s in range(game.players)]
    rng = Rng(seed)
    while not game.is_over():
        seat = game.current_seat()
        assert seat is not None
        bot = players[seat]
        game.apply(bot.choose(game) if bot else game.random_action(rng), seat=seat)
    return game


def test_a_seat_sees_only_its_own_hand_and_nobody_sees_deck_order() -> None:
    game = started(3, seed=2)
    game.apply({"type": "replace", "card": game.hands[0][0]})
    for seat in range(3):
        view = game.view(seat)
        assert view["hand"] == game.hands[seat]
        text = json.dumps(view)
        assert "decks" not in view and "hands" not in view
        for other in range(3):
            if other != seat:
                assert not any(f'"{card}"' in text for card in game.hands[other] if card not in game.hands[seat])
        assert view["deck_sizes"] == [len(d) for d in game.decks]
        log = game.view_log(seat)
        assert len(log) == len(game.log)
        shuffles = [e for e in log if e.get("chance") == "shuffle"]
        assert len(shuffles) == 3 and all(e["value"] is None and e["hidden"] for e in shuffles)
        replaced = log[-1]["action"]
        assert replaced["type"] == "replace"
        assert replaced["card"] == (game.log[-1]["action"]["card"] if seat == 0 else None)
    assert game.log[0]["value"] is not None, "the full log keeps the shuffles for replay"


def test_listing_equals_every_action_the_checker_accepts() -> None:
    game = Mainland(2, seed=11)
    rng = Rng(5)
    checked = 0
    while not game.is_over() and checked < 6:
        seat = game.current_seat()
        if game.camp_placed[seat] and len(game.log) > 12:
            listed = {json.dumps(a, sort_keys=True) for a in game.legal_actions() if a["type"] == "place"}
            accepted = set()
            for card in set(game.hands[seat]):
                for y in range(-1, game.size):
                    for x in range(-1, game.size):
                        for rotation in range(4):
                            action = {"type": "place", "card": card, "x": x, "y": y, "rotation": rotation}
                            if game.is_legal(action):
                                accepted.add(json.dumps(game.check(action), sort_keys=True))
            assert listed == accepted
            checked += 1
        game.apply(GreedyBot(len(game.log)).choose(game) if rng.below(2) else game.random_action(rng))
    assert checked == 6


def test_every_listed_action_is_accepted() -> None:
    game = Mainland(4, seed=3)
    rng = Rng(1)
    for _ in range(60):
        if game.is_over():
            break
        for action in game.legal_actions():
            assert game.is_legal(action), action
        game.apply(game.random_action(rng))


def test_greedy_score_forecast_matches_real_scoring() -> None:
    game = Mainland(3, seed=8)
    rng = Rng(2)
    compared = 0
    while not game.is_over():
        seat = game.current_seat()
        placements = game.placements()
        if placements and game.camp_placed[seat]:
            own = OwnScore(game, seat)
            for card, x, y, rotation in (rng.choice(placements) for _ in range(4)):
                after = game.clone()
                after.apply({"type": "place", "card": card, "x": x, "y": y, "rotation": rotation})
                assert own.after(y * (game.size - 1) + x, ROTATIONS[card][rotation]) == after.scores()[seat]
                compared += 1
        game.apply(GreedyBot(len(game.log)).choose(game))
    assert compared > 50


def test_record_result_and_replay() -> None:
    game = play_out(Mainland(3, seed=21), 21)
    record = json.loads(game.save())
    result = record["result"]
    assert set(result) >= {"board", "scores", "breakdown", "winners"}
    assert result["scores"] == game.scores() and result["winners"] == game.winners()
    assert [b["total"] for b in result["breakdown"]] == result["scores"]
    for part in result["breakdown"]:
        assert part["total"] == part["mainland_tiles"] + part["mainland_items"] + part["minor_items"]
        assert part["mainland_tiles"] == (part["territories"][0] if part["territories"] else 0)
    names = {"wheat", "wood", "gold", "temple", "camp", "village", "tower", "warrior", "rider", "castle", "plain", "forest", "mountain"}
    assert all(set(t) == {"x", "y", "clan", "item"} and t["item"] in names for t in result["board"])
    assert len(result["board"]) == len({(t["x"], t["y"]) for t in result["board"]})
    again = replay(record)
    assert again.result() == result and again.state() == game.state()


def test_a_tampered_record_is_rejected_at_the_right_entry() -> None:
    game = play_out(Mainland(2, seed=5), 5)
    record = json.loads(game.save())
    index = next(i for i, e in enumerate(record["log"]) if e.get("action", {}).get("type") == "place" and i > 6)
    record["log"][index]["action"]["x"] = -1
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert caught.value.entry == index
    record = json.loads(game.save())
    record["result"]["scores"][0] += 1
    with pytest.raises(RecordError):
        replay(record)


def test_undo_restores_hand_board_and_deck() -> None:
    game = started(2, seed=9)
    before = game.state()
    game.apply(game.legal_actions()[0])
    assert game.state() != before
    game.undo()
    assert game.state() == before


def test_registered_and_random_games_finish() -> None:
    for players in (2, 3, 4):
        game = play_out(new_game("mainland", players, seed=players), players, bots="random")  # type: ignore[arg-type]
        assert game.is_over() and len(game.winners()) >= 1
        assert all(t == 0 for t in game.tokens)


def test_greedy_beats_random() -> None:
    wins = 0
    for number in range(10):
        game = Mainland(2, seed=100 + number)
        bots = {number % 2: GreedyBot(number), (number + 1) % 2: None}
        rng = Rng(number)
        while not game.is_over():
            seat = game.current_seat()
            bot = bots[seat]
            game.apply(bot.choose(game) if bot else game.random_action(rng))
        wins += (number % 2) in game.winners()
    assert wins >= 8


@pytest.mark.parametrize(
    "action",
    [
        {"type": ["place"]},
        {"type": {"a": 1}},
        {},
        {"type": "place", "card": ["land1"], "x": 0, "y": 0, "rotation": 0},
        {"type": "place", "card": "land1", "x": None, "y": 0, "rotation": 0},
        {"type": "place", "card": "land1", "x": 0, "y": 0, "rotation": -1},
        {"type": "replace", "card": 7},
        {"type": "gather", "extra": 1},
    ],
)
def test_garbage_actions_are_rejected_cleanly(action: dict[str, object]) -> None:
    from tablelight.core.errors import IllegalActionError

    game = started(2, seed=1)
    before = game.state()
    with pytest.raises(IllegalActionError):
        game.apply(action)
    assert game.state() == before


def test_cards_are_conserved_and_counts_match_the_board() -> None:
    from collections import Counter

    from tablelight.games.mainland.data import DECK_IDS

    game = Mainland(3, seed=13)
    rng = Rng(4)
    placed: list[list[str]] = [[] for _ in range(3)]
    while not game.is_over():
        seat = game.current_seat()
        assert seat is not None
        action = GreedyBot(len(game.log)).choose(game) if rng.below(3) else game.random_action(rng)
        game.apply(action)
        if action["type"] == "place" and action["card"] != "camp":
            placed[seat].append(action["card"])
        for clan in range(3):
            cards = game.hands[clan] + game.decks[clan] + game.discards[clan] + placed[clan]
            assert sorted(cards) == sorted(DECK_IDS)
            assert len(game.hands[clan]) <= 5
            visible = Counter(item for (c, item) in game.board_cells().values() if c == clan)
            assert all(game.counts[clan][item] == visible.get(item, 0) for item in range(len(game.counts[clan])))


def test_rules_server_view_hides_hands_and_shuffles() -> None:
    from tablelight.core.serve import RulesServer

    server = RulesServer()
    assert server.handle({"cmd": "new", "game": "mainland", "players": 2, "seed": 4})["ok"]
    answer = server.handle({"cmd": "view", "seat": 1})
    assert answer["ok"] and "hands" not in answer["view"] and len(answer["view"]["hand"]) == 5
    assert all(e["value"] is None for e in answer["log"] if "chance" in e)
    moved = server.handle({"cmd": "bot", "bot": "greedy", "apply": True})
    assert moved["ok"], moved
    bad = server.handle({"cmd": "apply", "action": {"type": "place", "card": "camp", "x": 99, "y": 0, "rotation": 0}})
    assert not bad["ok"] and bad["error"]["rule"] == "mainland.place.limit"
