"""Every Landover development card: its quantity in the decks and its effect.

Games start from a documented position (``games/landover/position.py``, through ``main_game``):
seat 0 acts, seat 1 (and 2) wait; ``holding`` gives seat 0 its cards."""

from __future__ import annotations

from typing import Any

import pytest

from tablelight.core.errors import IllegalActionError
from tablelight.games.landover.cards import card_table, full_decks
from tablelight.games.landover.engine import CITY, LAND_EDGE, MAIN, ROLL, VILLAGE, Landover

from .helpers import city, end_turn, force, hand, hex_of, inland_corner, land_hexes, main_game, path_from, road, village
from .test_landover_rules import corner_for, dice_for, rejects, roll


def per_seat(players: int, empty: Any, **given: Any) -> list[Any]:
    """A position's per-seat list: ``per_seat(3, {}, s1={"ore": 2})`` gives seat 1 two ore."""
    return [given.get(f"s{seat}", empty) for seat in range(players)]


def holding(*cards: str, players: int = 2, **position: Any) -> Landover:
    """A game where seat 0, to act, holds ``cards`` (other seats' cards may be in ``position``)."""
    dev_cards = position.pop("dev_cards", [[] for _ in range(players)])
    dev_cards[0] = list(cards) + dev_cards[0]
    return main_game(players, position={"dev_cards": dev_cards, **position})


def play(game: Landover, card: str, **fields: object) -> None:
    held = game.pos.dev_cards[game.pos.seat].count(card)
    assert held >= 1, f"{card} is not held"
    game.apply({"type": "play", "card": card, **fields})
    assert game.pos.dev_cards[game.pos.seat].count(card) == held - 1 or game.pos.phase == "take"


def ahead(game: Landover, seat: int) -> None:
    """Give ``seat`` two villages so it has more points than a seat with none."""
    picks = [v for v in range(game.corner_count) if game.pos.corner_on_land[v] and game.far_from_villages(v)][:1]
    village(game, seat, picks[0])
    village(game, seat, next(v for v in range(game.corner_count) if game.pos.corner_on_land[v] and game.far_from_villages(v)))


def test_decks_hold_the_rulebook_quantities() -> None:
    decks = full_decks()
    assert len(decks["commerce"]) == 20 and len(decks["science"]) == 17 and len(decks["politics"]) == 20
    qty = {c["name"]: c["qty"] for d in card_table()["decks"].values() for c in d}
    assert qty["merchant"] == 6 and qty["spy"] == 3 and qty["printer"] == 1 and qty["constitution"] == 1
    assert qty["resource_monopoly"] == 4


def test_played_card_returns_under_its_deck() -> None:
    game = holding("crane")
    before = len(game.pos.decks[0])
    play(game, "crane")
    assert len(game.pos.decks[0]) == before + 1 and game.pos.decks[0][-1] == "crane"


def test_card_not_held_is_refused() -> None:
    game = main_game()
    rejects(game, {"type": "play", "card": "crane"}, "landover.card.not_held")
    rejects(game, {"type": "play", "card": "printer"}, "landover.card.unknown")


# ------------------------------------------------------------------ commerce


def test_commercial_harbor_trades_a_resource_for_a_commodity() -> None:
    game = holding("commercial_harbor", hands=[{"wool": 1}, {}])
    play(game, "commercial_harbor", give="wool", get="coin")
    assert game.pos.hands[game.pos.seat] == hand(coin=1)


def test_master_merchant_takes_two_cards_from_a_player_ahead() -> None:
    game = holding("master_merchant", hands=[{}, {"ore": 2, "wool": 1}])
    me, other = 0, 1
    rejects(game, {"type": "play", "card": "master_merchant", "target": other}, "landover.card.not_ahead")
    ahead(game, other)
    game.apply({"type": "play", "card": "master_merchant", "target": other})
    game.apply({"type": "take", "cards": ["wool", "ore"]})
    assert game.pos.hands[me] == hand(ore=1, wool=1) and game.pos.hands[other] == hand(ore=1)


def test_merchant_token_gives_a_point_and_a_two_to_one_rate() -> None:
    game = holding("merchant", dev_cards=[[], ["merchant"]])
    me, other = 0, 1
    sheep = hex_of(game, "sheep")
    village(game, me, corner_for(game, sheep))
    assert game.trade_rate(me, 0) == 3
    play(game, "merchant", hex=sheep)
    assert game.pos.merchant_owner == me and game.trade_rate(me, 0) == 2 and game.vp_breakdown(me)["merchant"] == 1
    far = hex_of(game, "mountain")
    rejects(game, {"type": "play", "card": "merchant", "hex": far}, "landover.card.not_held")
    # Another player taking the token takes the point; only on a hex it has settled.
    field = hex_of(game, "field")
    village(game, other, corner_for(game, field))
    roll(game, 1, 1)
    assert game.pos.seat == other and game.pos.phase == MAIN
    unsettled = next(h for h in land_hexes(game) if h not in game.settled_hexes(other))
    rejects(game, {"type": "play", "card": "merchant", "hex": unsettled}, "landover.card.merchant_hex")
    play(game, "merchant", hex=field)
    assert game.pos.merchant_owner == other and game.vp_breakdown(me)["merchant"] == 0


def test_merchant_fleet_gives_two_to_one_for_this_turn_only() -> None:
    game = holding("merchant_fleet")
    me = game.pos.seat
    play(game, "merchant_fleet", kind="paper")
    assert game.trade_rate(me, 6) == 2
    force(game, ("white_die", 1), ("red_die", 1), ("event_die", 4))
    end_turn(game)
    assert game.trade_rate(me, 6) == 3


def test_resource_monopoly_takes_up_to_two_from_each() -> None:
    game = holding("resource_monopoly", players=3, hands=per_seat(3, {}, s1={"ore": 5}, s2={"ore": 1}))
    me, others = 0, [1, 2]
    play(game, "resource_monopoly", kind="ore")
    assert game.pos.hands[me] == hand(ore=3) and game.pos.hands[others[0]] == hand(ore=3) and game.pos.hands[others[1]] == hand()


def test_commodity_monopoly_takes_one_from_each() -> None:
    game = holding("commodity_monopoly", players=3, hands=per_seat(3, {}, s1={"cloth": 3}, s2={"cloth": 1}))
    me, others = 0, [1, 2]
    play(game, "commodity_monopoly", kind="cloth")
    assert game.pos.hands[me] == hand(cloth=2) and game.pos.hands[others[0]] == hand(cloth=2)


def test_famine_makes_players_ahead_discard_two_random_resources() -> None:
    game = holding("famine", players=3, hands=per_seat(3, {}, s1={"wool": 1, "ore": 3, "coin": 4}, s2={"wool": 3}))
    a, b = 1, 2
    ahead(game, a)
    force(game, ("famine", 0), ("famine", 0))
    play(game, "famine")
    assert game.pos.hands[a] == hand(ore=2, coin=4) and game.pos.hands[b] == hand(wool=3)


# ------------------------------------------------------------------- science


def test_alchemist_chooses_both_dice_before_the_roll() -> None:
    game = holding(dev_cards=[[], ["alchemist"]])
    me, other = game.pos.order
    sheep = hex_of(game, "sheep")
    village(game, other, corner_for(game, sheep))
    game.apply({"type": "end_turn"})
    assert game.pos.phase == ROLL
    white, red = dice_for(game.pos.number[sheep])  # type: ignore[arg-type]
    force(game, ("event_die", 4))
    game.apply({"type": "play", "card": "alchemist", "white": white, "red": red})
    assert game.pos.phase == MAIN and game.pos.dice["white"] == white and game.pos.hands[other][0] == 1
    assert game.pos.dev_cards[other] == []
    assert not any(e.get("chance") == "white_die" for e in game.log[-3:])


def test_alchemist_only_before_the_roll() -> None:
    game = holding("alchemist")
    rejects(game, {"type": "play", "card": "alchemist", "white": 3, "red": 3}, "landover.card.alchemist_timing")


def test_crane_makes_the_next_improvement_one_cheaper() -> None:
    game = holding("crane", culture=[{"politics": 1}, {}], hands=[{"coin": 1}, {}])
    me = game.pos.seat
    rejects(game, {"type": "improve", "culture": "politics"}, "landover.cost.cannot_afford")
    play(game, "crane")
    game.apply({"type": "improve", "culture": "politics"})
    assert game.pos.culture[me][2] == 2 and game.pos.hands[me] == hand() and not game.pos.crane


def test_inventor_swaps_two_allowed_number_tokens() -> None:
    game = holding("inventor", "inventor")
    swappable = [h for h in range(game.hex_count) if game.pos.number[h] in (3, 4, 5, 9, 10, 11)]
    a, b = swappable[0], next(h for h in swappable if game.pos.number[h] != game.pos.number[swappable[0]])
    na, nb = game.pos.number[a], game.pos.number[b]
    play(game, "inventor", hexes=[b, a])
    assert game.pos.number[a] == nb and game.pos.number[b] == na and a in game.pos.by_number[nb]  # type: ignore[index]
    six = next(h for h in range(game.hex_count) if game.pos.number[h] in (6, 8))
    rejects(game, {"type": "play", "card": "inventor", "hexes": [a, six]}, "landover.card.inventor_number")


@pytest.mark.parametrize("card, terrain, kind", [("irrigation", "field", 3), ("mining", "mountain", 2)])
def test_irrigation_and_mining_give_two_per_settlement_on_the_terrain(card: str, terrain: str, kind: int) -> None:
    game = holding(card)
    me = game.pos.seat
    corners = [v for v in range(game.corner_count) if any(game.pos.terrain[h] == terrain for h in game.map.vertex_hexes[v])]
    first = corners[0]
    village(game, me, first)
    second = next(v for v in corners if game.far_from_villages(v))
    city(game, me, second)
    play(game, card)
    assert game.pos.hands[me][kind] == 4


def test_medicine_builds_a_city_for_two_ore_and_a_wheat() -> None:
    game = holding("medicine", hands=[{"ore": 2, "wheat": 1}, {}])
    me = game.pos.seat
    v = inland_corner(game)
    village(game, me, v)
    play(game, "medicine", vertex=v)
    assert game.pos.corner_level[v] == CITY and game.pos.hands[me] == hand()


@pytest.mark.parametrize("card, deck", [("printer", 0), ("constitution", 2)])
def test_vp_cards_are_played_at_once_and_never_held(card: str, deck: int) -> None:
    # at the gate of this deck's culture with a red 1, only ``me`` (level 1 there) draws
    at_gate = [{("science", "commerce", "politics")[deck]: 1}, {}]
    game = main_game(position={"culture": at_gate})
    me = game.pos.seat
    gate = 4 + deck  # event die 4, 5, 6: the science, commerce, politics gates
    index = game.pos.decks[deck].index(card)
    force(game, ("white_die", 1), ("red_die", 1), ("event_die", gate), ("dev_card", index))
    end_turn(game)
    assert game.pos.vp_cards[me] == 1 and game.pos.dev_cards[me] == [] and card not in game.pos.decks[deck]
    assert [e["seat"] for e in game.log if e.get("chance") == "dev_card"] == [me]
    full = holding(*["spy"] * 5, culture=at_gate)
    before = len(full.pos.decks[deck])
    force(full, ("white_die", 1), ("red_die", 1), ("event_die", gate))
    end_turn(full)  # a full hand: nothing drawn
    assert len(full.pos.decks[deck]) == before and full.undrawn_chance() is None


def test_road_building_gives_two_free_roads_or_bridges() -> None:
    game = holding("road_building")
    me = game.pos.seat
    v = inland_corner(game)
    village(game, me, v)
    play(game, "road_building")
    path = path_from(game, v, 3, (LAND_EDGE,))
    game.apply({"type": "build", "piece": "road", "edge": path[0]})
    game.apply({"type": "build", "piece": "road", "edge": path[1]})
    assert game.pos.counts[me]["road"] == 2 and game.pos.free_routes == 0
    rejects(game, {"type": "build", "piece": "road", "edge": path[2]}, "landover.cost.cannot_afford")


def test_military_card_raises_military_power_within_the_cap() -> None:
    game = holding("military")
    me = game.pos.seat
    play(game, "military")
    assert game.pos.military[me] == 1
    capped = holding("military", military=[3, 0])
    assert {"type": "play", "card": "military"} not in capped.legal_actions()
    rejects(capped, {"type": "play", "card": "military"}, "landover.military.cap")


# ------------------------------------------------------------------ politics


def test_siege_raids_without_military_and_steals_from_every_opponent_there() -> None:
    game = holding("siege", players=3, hands=per_seat(3, {}, s1={"wool": 1}, s2={"ore": 1}))
    me, a, b = 0, 1, 2
    h = next(h for h in range(game.hex_count) if game.pos.terrain[h] not in ("water", "mystery") and all(
        game.pos.terrain[x] not in ("water", "mystery") for x in game.map.hex_vertices[h] for x in game.map.vertex_hexes[x]
    ))
    corners = game.map.hex_vertices[h]
    village(game, a, corners[0])
    village(game, b, corners[3])
    force(game, ("steal", 0), ("steal", 0))
    play(game, "siege", hex=h)
    assert game.pos.military[me] == 0 and game.pos.catapult[me] == h and game.pos.hands[me] == hand(wool=1, ore=1)
    assert game.pos.raided


def test_bishop_removes_a_catapult() -> None:
    game = holding("bishop")
    other = 1 - game.pos.seat
    h = hex_of(game, "sheep")
    game.put_catapult(other, h)
    play(game, "bishop", hex=h)
    assert game.pos.catapult_at == {} and game.pos.catapult[other] == -1


def test_deserter_takes_a_military_level() -> None:
    other = 1
    game = holding("deserter")
    rejects(game, {"type": "play", "card": "deserter", "target": other}, "landover.card.no_military")
    game = holding("deserter", military=[0, 2])
    game.apply({"type": "play", "card": "deserter", "target": other})
    assert game.pos.military == [1, 1]


def open_route(game: Landover, seat: int, length: int) -> tuple[int, list[int]]:
    v = inland_corner(game)
    village(game, seat, v)
    path = path_from(game, v, length, (LAND_EDGE,))
    for e in path:
        road(game, seat, e)
    return v, path


def test_vandal_removes_an_opponents_side_at_an_open_end_only() -> None:
    game = holding("vandal")
    other = 1
    v, path = open_route(game, other, 3)
    rejects(game, {"type": "play", "card": "vandal", "edge": path[1]}, "landover.card.vandal_target")
    game.apply({"type": "play", "card": "vandal", "edge": path[2]})
    assert game.pos.side_owner[path[2]] == -1 and game.pos.counts[other]["road"] == 2 and game.pos.routes[other] == 2


def test_diplomat_moves_an_own_side_from_an_open_end() -> None:
    game = holding("diplomat")
    me = game.pos.seat
    v, path = open_route(game, me, 2)
    targets = game.diplomat_targets(me, path[1])
    assert targets and path[1] not in targets
    rejects(game, {"type": "play", "card": "diplomat", "edge": path[0], "to": targets[0]}, "landover.card.diplomat_from")
    game.apply({"type": "play", "card": "diplomat", "edge": path[1], "to": targets[0]})
    assert game.pos.side_owner[path[1]] == -1 and game.pos.side_owner[targets[0]] == me and game.pos.counts[me]["road"] == 2


def test_raze_reduces_an_opponents_city_but_never_a_metro() -> None:
    me, other = 0, 1
    v = inland_corner(main_game())
    walled_city = [{"seat": other, "piece": "city", "at": v}, {"seat": other, "piece": "wall", "at": v}]
    game = holding("raze", pieces=walled_city)
    assert game.pos.corner_wall[v] and game.pos.counts[other]["wall"] == 1
    rejects(game, {"type": "play", "card": "raze", "vertex": v}, "landover.military.none")
    metro = holding("raze", pieces=walled_city, military=[1, 0], metros={"science": v})
    rejects(metro, {"type": "play", "card": "raze", "vertex": v}, "landover.card.raze_metro")
    game = holding("raze", pieces=walled_city, military=[1, 0])
    game.apply({"type": "play", "card": "raze", "vertex": v})
    assert game.pos.corner_level[v] == VILLAGE and not game.pos.corner_wall[v] and game.pos.military[me] == 0 and game.pos.counts[other]["wall"] == 0


def test_spy_takes_a_chosen_dev_card() -> None:
    game = holding("spy", dev_cards=[[], ["bishop", "mining"]])
    me, other = 0, 1
    play(game, "spy", target=other)
    game.apply({"type": "take", "dev_card": "mining"})
    assert game.pos.dev_cards[me] == ["mining"] and game.pos.dev_cards[other] == ["bishop"]


def test_wedding_takes_two_random_cards_from_each_player_ahead() -> None:
    game = holding("wedding", players=3, hands=per_seat(3, {}, s1={"coin": 2, "ore": 1}, s2={"coin": 2}))
    me, a, b = 0, 1, 2
    ahead(game, a)
    force(game, ("steal", 0), ("steal", 1))
    play(game, "wedding")
    assert game.pos.hands[me] == hand(ore=1, coin=1) and game.pos.hands[a] == hand(coin=1) and game.pos.hands[b] == hand(coin=2)


def test_anarchy_shuffles_numbers_until_the_next_seven() -> None:
    game = holding("anarchy")
    before = list(game.pos.number)
    numbered = [h for h in range(game.hex_count) if game.pos.number[h] is not None and game.pos.terrain[h] not in ("water", "mystery")]
    order = list(range(len(numbered)))[::-1]
    force(game, ("anarchy", order))
    play(game, "anarchy")
    assert game.pos.number[numbered[0]] == before[numbered[-1]] and game.pos.saved_numbers == before
    force(game, ("white_die", 3), ("red_die", 4), ("event_die", 4))
    end_turn(game)
    if game.pos.phase == "lucky_raid":
        game.apply(game.legal_actions()[0])
    assert game.pos.number == before and game.pos.saved_numbers is None


def test_listed_card_plays_are_accepted() -> None:
    me, others = 0, [1, 2]

    def holding_only(card: str) -> Landover:
        game = holding(
            card, players=3, military=[1, 1, 1], dev_cards=[[], ["spy"], []],
            hands=per_seat(3, {}, s1={"ore": 2, "coin": 1}, s2={"wool": 1}),
        )
        v = inland_corner(game)
        village(game, me, v)
        city(game, others[0], next(w for w in range(game.corner_count) if game.pos.corner_on_land[w] and game.far_from_villages(w)))
        ahead(game, others[1])
        return game

    for card in sorted({c for d in full_decks().values() for c in d} - {"printer", "constitution"}):
        game = holding_only(card)
        for action in game.legal_actions():
            if action["type"] == "play":
                assert game.is_legal(action), action
    with pytest.raises(IllegalActionError):
        game.apply({"type": "play", "card": "spy", "target": me, "card_taken": "spy"})


def test_every_legal_card_play_and_main_action_is_listed() -> None:
    """The other direction of the listing test: what the checks accept, the listing names."""
    from tablelight.core.rng import Rng
    from tablelight.games.landover.hexmap import CARDS

    def key(action: dict) -> str:
        return str(sorted(action.items()))

    game = Landover(3, {"turn_cap": 90}, 6)
    rng = Rng(4)
    step = 0
    checked = 0
    while not game.is_over():
        if game.pos.phase == MAIN and step % 9 == 0:
            # the same position with the acting seat holding six cards that play on hexes, corners and sides
            position = game.position()
            position["dev_cards"][game.pos.seat] = ["merchant", "siege", "bishop", "raze", "vandal", "medicine"]
            held = Landover(3, game.options, game.seed, setup={"map": game.map.to_json(), "position": position})
            listed = {key(a) for a in held.legal_actions()}
            candidates: list[dict] = []
            for h in range(held.hex_count):
                candidates += [{"type": "play", "card": c, "hex": h} for c in ("merchant", "siege", "bishop")]
                candidates += [{"type": "raid", "hex": h}, {"type": "remove_catapult", "hex": h}]
            for v in range(held.corner_count):
                candidates += [{"type": "play", "card": c, "vertex": v} for c in ("raze", "medicine")]
            candidates += [{"type": "play", "card": "vandal", "edge": e} for e in range(held.side_count)]
            candidates += [{"type": "trade", "give": g, "get": k} for g in CARDS for k in CARDS]
            candidates += [{"type": "improve", "culture": c} for c in ("science", "commerce", "politics")]
            candidates += [{"type": "military"}, {"type": "end_turn"}]
            for action in candidates:
                assert held.is_legal(action) == (key(action) in listed), action
                checked += 1
        game.apply(game.random_action(rng))
        step += 1
    assert checked > 1000
