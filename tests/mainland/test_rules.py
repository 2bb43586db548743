"""Every Mainland rule: camps, placement, overlay, requirements, turns, tokens and the end."""

from __future__ import annotations

import copy

import pytest

from tablelight.core.errors import GameOverError, MalformedActionError, RuleViolationError, SetupError
from tablelight.games.mainland.engine import HAND_SIZE, TOKENS, Mainland

from tests.mainland.helpers import give, place, started, tiles


def snapshot(game: Mainland) -> tuple[object, ...]:
    return (copy.deepcopy(game.state()), len(game.log), copy.deepcopy(game.counts))


def rejected(game: Mainland, action: dict[str, object], rule: str, kind: type = RuleViolationError) -> None:
    before = snapshot(game)
    with pytest.raises(kind) as caught:
        game.apply(action)
    assert caught.value.rule == rule, caught.value.message
    assert snapshot(game) == before, "a rejected action changed the game"


# ---------------------------------------------------------------- setup and camps


def test_setup_deals_five_cards_six_tokens_and_seat_zero_starts() -> None:
    game = Mainland(3, seed=4)
    assert game.current_seat() == 0
    assert game.tokens == [TOKENS] * 3 == [6, 6, 6]
    assert [len(h) for h in game.hands] == [HAND_SIZE] * 3
    assert [len(d) for d in game.decks] == [31] * 3
    shuffles = [e for e in game.log if e.get("chance") == "shuffle"]
    assert [e["seat"] for e in shuffles] == [0, 1, 2]
    assert all(sorted(e["value"]) == list(range(36)) for e in shuffles)
    assert "camp" not in game.hands[0] + game.decks[0]


def test_board_limits_per_player_count_and_option() -> None:
    assert [Mainland(n).size for n in (2, 3, 4)] == [12, 14, 16]
    assert Mainland(2, {"board_size": 9}).size == 9


def test_first_card_is_the_camp_anywhere_inside_the_limit() -> None:
    game = Mainland(2)
    actions = game.legal_actions()
    assert {a["card"] for a in actions} == {"camp"}
    assert len(actions) == 11 * 11 * 4  # every position, every rotation
    card = game.hands[0][0]
    rejected(game, place(card, 3, 3), "mainland.camp.first")
    rejected(game, {"type": "pass"}, "mainland.camp.first")
    rejected(game, {"type": "gather"}, "mainland.camp.first")
    rejected(game, {"type": "replace", "card": card}, "mainland.camp.first")
    rejected(game, place("camp", 11, 0), "mainland.place.limit")
    game.apply(place("camp", 10, 10, 3))
    assert game.cell(10, 10) == (0, game.top_item[10 * 12 + 10]) and game.cell(11, 11)[0] == 0
    assert game.current_seat() == 1 and len(game.hands[0]) == HAND_SIZE


def test_camps_must_not_overlap_but_may_touch() -> None:
    game = Mainland(2)
    game.apply(place("camp", 4, 4))
    rejected(game, place("camp", 5, 5), "mainland.place.camp_overlap")
    assert not any(a["x"] in (3, 4, 5) and a["y"] in (3, 4, 5) for a in game.legal_actions())
    game.apply(place("camp", 6, 4))
    assert game.current_seat() == 0
    rejected(game, place("camp", 0, 0), "mainland.camp.once")


# ---------------------------------------------------------------- placement rules


def test_a_legal_card_overlaps_play_and_empty_space_and_obeys_overlay() -> None:
    game = started()
    give(game, 0, "land1")  # wheat plain / forest wood
    game.apply(place("land1", 1, 0))  # wheat on the camp's plain, forest on its forest
    assert game.cell(1, 0)[0] == 0 and game.cell(2, 1)[0] == 0
    assert [game.cell(x, y)[1] for x, y in ((1, 0), (2, 0), (2, 1), (1, 1))] == [4, 1, 5, 2]
    assert "land1" not in game.hands[0] and len(game.hands[0]) == HAND_SIZE
    assert game.current_seat() == 1


def test_card_must_overlap_a_card_in_play() -> None:
    game = started()
    give(game, 0, "land1")
    rejected(game, place("land1", 5, 5), "mainland.place.touch")


def test_card_must_overlap_empty_space() -> None:
    game = started()
    give(game, 0, "land1")
    tiles(game, {(5, 5): (1, "plain"), (6, 5): (1, "plain"), (6, 6): (1, "forest"), (5, 6): (1, "forest")})
    rejected(game, place("land1", 5, 5), "mainland.place.empty")


def test_card_must_stay_inside_the_limit() -> None:
    game = started()
    give(game, 0, "land1")
    for x, y in ((11, 0), (0, 11), (-1, 0), (0, -1), (40, 40)):
        rejected(game, place("land1", x, y), "mainland.place.limit")


def test_overlay_is_checked_on_every_tile() -> None:
    game = started()
    give(game, 0, "land1")
    # Rotated once: forest, wheat / wood, plain -> forest would lie on the camp's plain.
    rejected(game, place("land1", 1, 0, 1), "mainland.place.overlay")
    # A camp tile can only be covered by a warrior, rider or castle (seat 1's camp is at (10, 10)).
    rejected(game, place("land1", 9, 9, 0), "mainland.place.overlay")


def test_castle_card_may_lie_entirely_on_cards() -> None:
    game = started()
    give(game, 0, "castle1")  # castle plain / mountain forest
    tiles(game, {(5, 5): (1, "temple"), (6, 5): (1, "wheat"), (6, 6): (1, "wood"), (5, 6): (1, "gold")})
    tiles(game, {(8, 0): (0, "rider")})
    game.apply(place("castle1", 5, 5))
    assert [game.cell(x, y) for x, y in ((5, 5), (6, 5), (6, 6), (5, 6))] == [(0, 13), (0, 1), (0, 2), (0, 3)]


def test_castle_card_still_obeys_overlay_on_its_other_tiles() -> None:
    game = started()
    give(game, 0, "castle1")
    tiles(game, {(5, 5): (1, "castle"), (6, 5): (1, "village"), (6, 6): (1, "wood"), (5, 6): (1, "gold")})
    tiles(game, {(8, 0): (0, "rider")})
    rejected(game, place("castle1", 5, 5), "mainland.place.overlay")


def test_bad_actions_get_specific_errors_and_change_nothing() -> None:
    game = started()
    card = game.hands[0][0]
    rejected(game, {"type": "fly"}, "mainland.action.unknown_type", MalformedActionError)
    rejected(game, {"type": "pass", "card": card}, "mainland.action.unknown_field", MalformedActionError)
    rejected(game, {"type": "place", "card": card}, "mainland.action.missing_field", MalformedActionError)
    rejected(game, place("nonsense", 1, 1), "mainland.action.unknown_card", MalformedActionError)
    rejected(game, place(card, "1", 1), "mainland.action.not_a_number", MalformedActionError)
    rejected(game, place(card, True, 1), "mainland.action.not_a_number", MalformedActionError)
    rejected(game, place(card, 1, 1, 4), "mainland.action.rotation", MalformedActionError)
    other = next(c for c in game.decks[0] if c not in game.hands[0])
    rejected(game, place(other, 1, 0), "mainland.card.not_in_hand")
    rejected(game, {"type": "replace", "card": other}, "mainland.card.not_in_hand")


def test_rotations_giving_the_same_layout_are_one_move() -> None:
    game = started()
    give(game, 0, "land1")
    listed = [a for a in game.legal_actions() if a["type"] == "place"]
    assert len({(a["card"], a["x"], a["y"], a["rotation"]) for a in listed}) == len(listed)


# ---------------------------------------------------------------- turns and tokens


def test_replace_then_place_in_the_same_turn() -> None:
    game = started()
    old = game.hands[0][0]
    top = game.decks[0][0]
    game.apply({"type": "replace", "card": old})
    assert game.current_seat() == 0 and game.replaced
    assert old in game.discards[0] and old not in game.hands[0] and top in game.hands[0]
    assert len(game.hands[0]) == HAND_SIZE
    kinds = {a["type"] for a in game.legal_actions()}
    assert "replace" not in kinds and "gather" not in kinds and "pass" in kinds
    rejected(game, {"type": "replace", "card": game.hands[0][0]}, "mainland.replace.once")
    rejected(game, {"type": "gather"}, "mainland.gather.start_of_turn")
    game.apply({"type": "pass"})
    assert game.current_seat() == 1 and not game.replaced and game.tokens[0] == TOKENS - 1


def test_no_replace_from_an_empty_deck() -> None:
    game = started()
    game.set_cards(0, game.hands[0], [], game.discards[0] + game.decks[0])
    assert game.decks[0] == []
    assert all(a["type"] != "replace" for a in game.legal_actions())
    rejected(game, {"type": "replace", "card": game.hands[0][0]}, "mainland.replace.empty_deck")


def test_pass_costs_a_token_and_keeps_the_hand() -> None:
    game = started()
    hand = list(game.hands[0])
    game.apply({"type": "pass"})
    assert game.tokens == [TOKENS - 1, TOKENS] and game.hands[0] == hand and game.current_seat() == 1


def test_clan_gathering_reshuffles_every_off_board_card() -> None:
    game = started()
    game.apply({"type": "replace", "card": game.hands[0][0]})
    game.apply({"type": "pass"})
    game.apply({"type": "pass"})  # seat 1
    off_board = sorted(game.hands[0] + game.decks[0] + game.discards[0])
    assert len(game.discards[0]) == 1
    game.apply({"type": "gather"})
    assert game.log[-1]["chance"] == "shuffle" and game.log[-1]["reason"] == "gathering"
    assert game.log[-1]["seat"] == 0 and sorted(game.log[-1]["value"]) == list(range(36))
    assert sorted(game.hands[0] + game.decks[0]) == off_board and game.discards[0] == []
    assert len(game.hands[0]) == HAND_SIZE
    assert game.tokens[0] == TOKENS - 2 and game.current_seat() == 1


def test_clans_without_tokens_stop_and_the_game_ends_when_all_have() -> None:
    game = started(3)
    for _ in range(TOKENS):
        game.apply({"type": "pass"})  # seat 0
        game.apply({"type": "gather"})  # seat 1
        if game.tokens[2] > 1:
            game.apply({"type": "pass"})  # seat 2
    assert game.tokens == [0, 0, 1]
    assert game.current_seat() == 2  # seats 0 and 1 are skipped
    game.apply({"type": "pass"})
    assert game.is_over() and game.current_seat() is None and game.legal_actions() == []
    with pytest.raises(GameOverError):
        game.apply({"type": "pass"})
    result = game.result()
    assert result["scores"] == [6, 6, 6] and result["winners"] == [0, 1, 2]  # camps only: a shared win


def test_placing_draws_back_to_five_until_the_deck_is_empty() -> None:
    game = started()
    others = [card for card in game.hands[0] + game.decks[0] if card != "land1"]
    game.set_cards(0, ["land1"], [], game.discards[0] + others)
    game.apply(place("land1", 1, 0))
    assert game.hands[0] == [] and game.current_seat() == 1
    game.apply({"type": "pass"})
    assert game.placements(0) == []
    assert {a["type"] for a in game.legal_actions()} == {"gather", "pass"}


def test_set_cards_takes_only_the_seats_own_off_board_cards() -> None:
    game = started()
    hand, deck = list(game.hands[0]), list(game.decks[0])
    for bad in ((hand + ["camp"], deck), (hand, deck[1:]), (hand + [deck[0]], deck), (hand[1:], deck)):
        with pytest.raises(SetupError, match="its own off-board cards"):
            game.set_cards(0, *bad)
        assert (game.hands[0], game.decks[0]) == (hand, deck)
