"""Landover rules, one behaviour per test, on the built-in archipelago map."""

from __future__ import annotations

import pytest

from tablelight.core.errors import (
    IllegalActionError,
    ImpossibleChanceError,
    MalformedActionError,
    RuleViolationError,
    SetupError,
)
from tablelight.core.rng import Rng
from tablelight.games.landover.engine import CITY, LUCKY, MAIN, OVER, ROLL, VILLAGE, Landover

from .helpers import (
    WATER_EDGE,
    city,
    end_turn,
    force,
    hand,
    hex_of,
    inland_corner,
    main_game,
    path_from,
    pieces,
    road,
    snapshot,
    village,
)


def rejects(game: Landover, action: dict, rule: str) -> None:
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as caught:
        game.apply(action)
    assert caught.value.rule == rule, caught.value.message
    assert snapshot(game) == before, "an illegal action changed the game"


def corner_for(game: Landover, h: int) -> int:
    """A corner of hex ``h`` where no other hex shares its number (so production is exact)."""
    for v in game.map.hex_vertices[h]:
        if all(o == h or game.pos.number[o] != game.pos.number[h] for o in game.map.vertex_hexes[v]):
            return v
    raise AssertionError("no clean corner")


def roll(game: Landover, white: int, red: int, event: int = 4) -> None:
    """End the turn; the next seat's roll comes out as given (event 4: the science gate)."""
    force(game, ("white_die", white), ("red_die", red), ("event_die", event))
    end_turn(game)


def dice_for(total: int) -> tuple[int, int]:
    return (total - 6, 6) if total > 7 else (1, total - 1)


# ---------------------------------------------------------------------- setup


def test_setup_order_is_a_logged_permutation_and_cities_come_back_in_reverse() -> None:
    game = Landover(3, None, 11)
    assert game.log[0]["chance"] == "seat_order"
    order = game.pos.order
    assert sorted(order) == [0, 1, 2] and game.log[0]["value"] == order
    expected = [(s, p) for s in order for p in ("village", "road")]
    expected += [(s, p) for s in reversed(order) for p in ("city", "road")]
    assert game.pos.setup_steps == expected
    while game.pos.phase == "setup":
        seat = game.current_seat()
        game.apply(game.legal_actions()[0], seat=seat)
    for s in range(3):
        assert game.pos.counts[s]["village"] == 1 and game.pos.counts[s]["city"] == 1 and game.pos.counts[s]["road"] == 2


def test_setup_city_yields_one_resource_per_tile_type() -> None:
    game = Landover(2, None, 3)
    while game.pos.setup_steps[game.pos.setup_step][1] != "city":
        game.apply(game.legal_actions()[0])
    seat = game.current_seat()
    assert seat is not None
    v = next(
        int(a["vertex"]) for a in game.legal_actions()
        if len({game.pos.terrain[h] for h in game.map.vertex_hexes[a["vertex"]] if game.pos.terrain[h] != "water"}) >= 2
        and "gold" not in {game.pos.terrain[h] for h in game.map.vertex_hexes[a["vertex"]]}
    )
    kinds = {game.pos.terrain[h] for h in game.map.vertex_hexes[v] if game.pos.terrain[h] != "water"}
    before = sum(game.pos.hands[seat])
    game.apply({"type": "build", "piece": "city", "vertex": v})
    assert sum(game.pos.hands[seat]) - before == len(kinds)


def test_setup_distance_rule_and_starting_corners() -> None:
    game = Landover(2, None, 0)
    listed = {a["vertex"] for a in game.legal_actions()}
    for v in listed:
        assert not any(game.pos.terrain[h] == "mystery" for h in game.map.vertex_hexes[v])
        assert any(game.pos.terrain[h] != "water" for h in game.map.vertex_hexes[v])
    mystery_corner = next(v for v in range(game.corner_count) if any(game.pos.terrain[h] == "mystery" for h in game.map.vertex_hexes[v]))
    rejects(game, {"type": "build", "piece": "village", "vertex": mystery_corner}, "landover.setup.not_starting_corner")
    v = inland_corner(game)
    game.apply({"type": "build", "piece": "village", "vertex": v})
    edge = game.legal_actions()[0]["edge"]
    assert v in game.map.edge_vertices[edge]
    game.apply(game.legal_actions()[0])
    for w in game.map.vertex_neighbors[v]:
        assert w not in {a["vertex"] for a in game.legal_actions()}
        rejects(game, {"type": "build", "piece": "village", "vertex": w}, "landover.build.distance")


def test_bad_actions_get_clear_errors_and_change_nothing() -> None:
    game = main_game()
    rejects(game, {"type": "fly"}, "landover.action.unknown_type")
    rejects(game, {"type": ["end_turn"]}, "landover.action.unknown_type")
    rejects(game, {"type": "play", "card": ["spy"]}, "landover.card.unknown")
    rejects(game, {"type": "trade", "give": {"a": 1}, "get": "ore"}, "landover.action.bad_give")
    rejects(game, {"type": "lucky_raid", "hex": 3}, "landover.raid.no_lucky_raid")
    rejects(game, {"type": "build", "piece": "village", "vertex": 10**6}, "landover.action.bad_vertex")
    rejects(game, {"type": "build", "piece": "castle", "vertex": 1}, "landover.action.bad_piece")
    rejects(game, {"type": "end_turn", "extra": 1}, "landover.action.unknown_field")
    with pytest.raises(MalformedActionError):
        game.apply(["end_turn"])  # type: ignore[arg-type]


def test_listed_actions_are_exactly_the_legal_ones() -> None:
    """Every listed action passes the checks; every build the checks accept is listed."""
    game = Landover(2, {"turn_cap": 60}, 4)
    rng = Rng(9)
    step = 0
    while not game.is_over():
        listed = game.legal_actions()
        assert listed and all(game.is_legal(a) for a in listed)
        if step % 7 == 0:
            keys = {str(sorted(a.items())) for a in listed if a["type"] == "build"}
            for piece in ("village", "city", "wall"):
                for v in range(game.corner_count):
                    a = {"type": "build", "piece": piece, "vertex": v}
                    assert game.is_legal(a) == (str(sorted(a.items())) in keys), a
            for piece in ("road", "bridge"):
                for e in range(game.side_count):
                    a = {"type": "build", "piece": piece, "edge": e}
                    assert game.is_legal(a) == (str(sorted(a.items())) in keys), a
        game.apply(game.random_action(rng))
        step += 1
    assert game.pos.capped or game.winners()



@pytest.mark.parametrize("seed", [1, 5])  # both join two parts of a network along the way
def test_routes_kept_after_each_action_equal_a_full_search(seed: int) -> None:
    """Routes are updated by shortcuts as sides come and go (a walk from the new end, from both
    ends of a join, a search that stops at the old length); a full search agrees after every action."""
    game = Landover(4, {"turn_cap": 300}, seed)
    rng = Rng(seed)
    longest = 0
    while not game.is_over():
        game.apply(game.random_action(rng))
        for seat in range(4):
            assert game.pos.routes[seat] == game.route_length(seat), (len(game.log), seat)
        longest = max(longest, *game.pos.routes)
    assert longest >= 5


def test_the_drawn_action_vouches_once_and_only_for_itself() -> None:
    """random_action's pick skips its second check only when it comes back unchanged, value for
    value and type for type; anything else, or anything after another check, is checked in full."""
    game = Landover(2, None, 3)
    rng = Rng(3)
    seen = 0
    while seen < 40 and not game.is_over():
        action = game.random_action(rng)
        for key, value in action.items():
            if type(value) is int:
                seen += 1
                bent = {**action, key: True if value == 1 else float(value)}
                with pytest.raises(MalformedActionError):
                    game.check(bent)  # refused in full: the drawn action vouched for the first check only
                action = game.random_action(rng)  # drawn again (same position, so a legal action)
                break
        assert not game.is_legal({**action, "extra": 1})
        game.apply(action)
    assert seen >= 40


# ------------------------------------------------------------------ the roll


def test_production_village_city_commodities_and_doubles() -> None:
    game = main_game()
    a, b = game.pos.order
    sheep = hex_of(game, "sheep")
    field = hex_of(game, "field")
    v_sheep = corner_for(game, sheep)
    village(game, b, v_sheep)
    roll(game, *dice_for(game.pos.number[sheep]))  # type: ignore[arg-type]
    assert game.pos.hands[b][0] == 1 and game.pos.hands[b][5] == 0  # a village: one wool
    game.put_piece(b, "city", v_sheep)
    force(game, ("white_die", dice_for(game.pos.number[sheep])[0]), ("red_die", dice_for(game.pos.number[sheep])[1]), ("event_die", 4))  # type: ignore[arg-type]
    end_turn(game)
    assert game.pos.hands[b][0] == 1 + 1 and game.pos.hands[b][5] == 1  # a city on sheep: wool and cloth
    wheat_before = game.pos.hands[a][3]
    v_field = corner_for(game, field)
    city(game, a, v_field)
    roll(game, *dice_for(game.pos.number[field]))  # type: ignore[arg-type]
    assert game.pos.hands[a][3] == wheat_before + 2  # a city on a field: two wheat


def test_gold_gives_random_resources_through_logged_chance() -> None:
    game = main_game()
    a, b = game.pos.order
    gold = hex_of(game, "gold")
    v = corner_for(game, gold)
    city(game, b, v)
    force(game, ("white_die", 6), ("red_die", 6), ("event_die", 4), ("gold", 2), ("gold", 2), ("gold", 0))
    end_turn(game)
    assert game.pos.hands[b][2] == 2 and game.pos.hands[b][0] == 1
    assert [e["value"] for e in game.log if e.get("chance") == "gold"] == [2, 2, 0]


def test_catapult_makes_a_hex_dead() -> None:
    game = main_game()
    a, b = game.pos.order
    sheep = hex_of(game, "sheep")
    village(game, b, corner_for(game, sheep))
    game.put_catapult(a, sheep)
    roll(game, *dice_for(game.pos.number[sheep]))  # type: ignore[arg-type]
    assert game.pos.hands[b][0] == 0


def test_aqueduct_gives_a_random_resource_when_nothing_came() -> None:
    game = main_game(position={"culture": [{}, {"science": 3}]})
    a, b = game.pos.order
    force(game, ("white_die", 1), ("red_die", 1), ("event_die", 5), ("aqueduct", 4))
    end_turn(game)
    assert game.pos.hands[b] == hand(clay=1)


def test_culture_gate_gives_dev_cards_up_to_the_red_die_and_the_hand_limit() -> None:
    game = main_game(3, position={
        "culture": [{"commerce": 4}, {"commerce": 3}, {"commerce": 2}],
        "dev_cards": [["spy"] * 5, [], []],  # a full hand: no more cards
    })
    first, second, third = game.pos.order
    force(game, ("white_die", 2), ("red_die", 3), ("event_die", 5), ("dev_card", 0))
    end_turn(game)
    assert len(game.pos.dev_cards[second]) == 1 and game.pos.dev_cards[third] == [] and len(game.pos.dev_cards[first]) == 5
    assert [e["seat"] for e in game.log if e.get("chance") == "dev_card"] == [second]


def test_seven_clears_catapults_halves_big_hands_and_respects_walls() -> None:
    a, b, c = 0, 1, 2
    walled = inland_corner(main_game(3))
    game = main_game(3, position={
        "hands": [{"wool": 12}, {}, {"ore": 11}],
        "pieces": pieces(c, "city", [walled]) + pieces(c, "wall", [walled]),
    })
    game.put_catapult(a, hex_of(game, "sheep"))
    village(game, a, game.map.hex_vertices[hex_of(game, "field")][0])  # b is not last alone: no lucky raid
    village(game, c, game.map.hex_vertices[hex_of(game, "hills")][3])
    village(game, b, next(v for v in range(game.corner_count) if game.pos.corner_on_land[v] and game.far_from_villages(v)))
    force(game, ("white_die", 3), ("red_die", 4), ("event_die", 4))
    force(game, *[("discard", 0)] * 6)
    end_turn(game)
    assert game.pos.catapult_at == {} and game.pos.catapult[a] == -1
    assert game.pos.hands[a] == hand(wool=6)  # 12 > 9: half discarded at random
    assert game.pos.hands[c] == hand(ore=11)  # one wall: safe up to 11
    assert game.pos.phase == MAIN


def test_lucky_seven_raid_for_a_solo_last_roller() -> None:
    game = main_game(position={"hands": [{"wool": 1}, {}]})
    a, b = game.pos.order
    sheep = hex_of(game, "sheep")
    village(game, a, corner_for(game, sheep))
    force(game, ("white_die", 3), ("red_die", 4), ("event_die", 4))
    end_turn(game)
    assert game.pos.phase == MAIN and game.current_seat() == b  # the raid is offered, not forced ("may")
    assert {"type": "lucky_raid", "hex": sheep} in game.legal_actions()
    force(game, ("steal", 0))
    game.apply({"type": "lucky_raid", "hex": sheep})
    assert game.pos.catapult[b] == sheep and game.pos.hands[b][0] == 1 and game.pos.hands[a][0] == 0
    assert game.pos.phase == MAIN and not game.pos.raided
    assert not any(a["type"] == "lucky_raid" for a in game.legal_actions())  # once


# -------------------------------------------------------------- barbarians


def test_barbarians_advance_on_barbarian_faces_and_respect_the_delay_option() -> None:
    game = main_game(barbarian_delay=1)
    roll(game, 1, 1, event=1)
    assert game.pos.barbarians == 0 and game.pos.barbarian_delay == 0
    roll(game, 1, 1, event=2)
    roll(game, 1, 1, event=6)
    assert game.pos.barbarians == 1


def test_barbarian_win_takes_unwalled_cities_of_the_weakest() -> None:
    a, b, c = 0, 1, 2
    board = main_game(3)
    picks: list[int] = []
    for v in range(board.corner_count):
        taken = {w for p in picks for w in (p, *board.map.vertex_neighbors[p])}
        if board.pos.corner_on_land[v] and v not in taken and len(picks) < 4:
            picks.append(v)
    game = main_game(3, position={
        "pieces": pieces(a, "city", picks[:2]) + pieces(a, "wall", [picks[1]])
        + pieces(b, "city", [picks[2]]) + pieces(c, "city", [picks[3]]),
        "military": [0, 0, 1],  # 4 cities against 1: the barbarians win
        "barbarians": 6,
    })
    force(game, ("white_die", 1), ("red_die", 1), ("event_die", 1), ("barbarian_city", 0), ("barbarian_city", 0))
    end_turn(game)
    assert game.pos.corner_level[picks[0]] == VILLAGE and game.pos.corner_level[picks[1]] == CITY  # the unwalled one first
    assert game.pos.corner_level[picks[2]] == VILLAGE and game.pos.corner_level[picks[3]] == CITY  # c had more military
    assert game.pos.barbarians == 0


def test_barbarian_defeat_gives_the_strongest_a_point_and_costs_military() -> None:
    game = main_game(position={"military": [2, 1], "barbarians": 6})
    a, b = game.pos.order
    city(game, a, inland_corner(game))
    roll(game, 1, 1, event=1)
    assert game.pos.defender == [1 if s == a else 0 for s in range(2)]
    assert game.pos.military[a] == 1 and game.pos.military[b] == 0
    assert game.vp_breakdown(a)["defender"] == 1


def test_barbarian_defeat_with_a_tie_gives_each_a_random_dev_card() -> None:
    game = main_game(position={"military": [1, 1], "barbarians": 6})
    a, b = game.pos.order
    city(game, a, inland_corner(game))
    force(game, ("white_die", 1), ("red_die", 1), ("event_die", 1))
    force(game, ("defender_deck", 0), ("dev_card", 0), ("defender_deck", 2), ("dev_card", 0))
    end_turn(game)
    assert game.pos.defender == [0, 0]
    assert game.pos.dev_cards[a] == ["alchemist"] and game.pos.dev_cards[b] == ["siege"]  # decks: science, commerce, politics


# ---------------------------------------------------------- route, points, end


def test_longest_route_from_five_must_be_beaten_by_one_and_can_be_cut() -> None:
    game = main_game()
    a, b = game.pos.order
    start = inland_corner(game)
    village(game, a, start)
    path = path_from(game, start, 7)
    for e in path[:4]:
        road(game, a, e)
    assert game.pos.routes[a] == 4 and game.pos.route_holder == -1
    road(game, a, path[4])
    assert game.pos.routes[a] == 5 and game.pos.route_holder == a and game.vp_breakdown(a)["longest_route"] == 2
    # b builds five elsewhere: a tie does not take it.
    far = max(range(game.corner_count), key=lambda v: (game.pos.corner_on_land[v] and game.far_from_villages(v) and all(game.pos.side_owner[e] == -1 for e in game.map.vertex_edges[v]), v))
    other = path_from(game, far, 6)
    for e in other[:5]:
        road(game, b, e)
    assert game.pos.routes[b] == 5 and game.pos.route_holder == a
    road(game, b, other[5])
    assert game.pos.route_holder == b
    # A village of a in the middle of b's route cuts it.
    middle = game.map.edge_vertices[other[2]]
    cut = next(v for v in middle if v in game.map.edge_vertices[other[3]])
    game.put_piece(a, "village", cut, home=False)
    assert game.pos.routes[b] == 3 and game.pos.route_holder == a


def test_route_counts_no_side_twice_and_forks_count_the_longest_branch() -> None:
    game = main_game()
    seat = game.pos.seat
    v = inland_corner(game)
    path = path_from(game, v, 3)
    for e in path:
        road(game, seat, e)
    fork = next(e for e in game.map.vertex_edges[v] if e not in path and game.map.edge_kind[e] != WATER_EDGE)
    road(game, seat, fork)
    assert game.route_length(seat) == 4


def test_island_explored_point_for_each_new_island() -> None:
    game = main_game()
    seat = game.pos.seat
    home = inland_corner(game)
    village(game, seat, home)
    island_of = {game.map.hex_island[h] for h in game.map.vertex_hexes[home] if game.map.hex_island[h] >= 0}
    other = next(
        v for v in range(game.corner_count)
        if game.pos.corner_on_land[v] and not ({game.map.hex_island[h] for h in game.map.vertex_hexes[v]} & island_of)
        and all(game.pos.terrain[h] != "mystery" for h in game.map.vertex_hexes[v])
    )
    village(game, seat, other, home=False)
    assert game.vp_breakdown(seat)["island_explored"] == 1


def test_winning_at_the_target_on_your_own_turn() -> None:
    game = main_game(target=2, position={"hands": [{"ore": 3, "wheat": 2}, {}]})
    seat = game.pos.seat
    village(game, seat, inland_corner(game))
    game.apply({"type": "build", "piece": "city", "vertex": inland_corner(game)})
    assert game.pos.phase == OVER and game.winners() == [seat] and game.is_over()


def test_turn_cap_ends_with_no_winner_and_says_so() -> None:
    game = main_game(turn_cap=3)
    for _ in range(3):
        force(game, ("white_die", 1), ("red_die", 1), ("event_die", 4))
        end_turn(game)
    assert game.is_over() and game.winners() == [] and game.pos.capped
    result = game.result()
    assert result["turn_cap"] is True and result["winners"] == []
    assert "turn cap" in game.describe_result()


def test_alchemist_holder_chooses_to_roll() -> None:
    game = main_game(position={"dev_cards": [[], ["alchemist"]]})
    a, b = game.pos.order
    game.apply({"type": "end_turn"})
    assert game.pos.phase == ROLL and game.current_seat() == b
    assert {"type": "roll"} in game.legal_actions() and len(game.legal_actions()) == 37
    rejects(game, {"type": "end_turn"}, "landover.action.wrong_phase")
    game.apply({"type": "roll"})
    assert game.pos.phase in (MAIN, LUCKY) and game.pos.dev_cards[b] == ["alchemist"]


def test_random_games_end_with_a_winner_or_a_reported_cap() -> None:
    for seed in range(2):
        game = Landover(2, {"turn_cap": 200}, seed)
        rng = Rng(seed)
        while not game.is_over():
            game.apply(game.random_action(rng))
        assert game.pos.capped != bool(game.winners())
        if game.winners():
            assert game.vp(game.winners()[0]) >= 15


def test_rule_errors_are_rule_violations() -> None:
    game = main_game()
    with pytest.raises(RuleViolationError):
        game.apply({"type": "military"})


def naive_route(game: Landover, seat: int) -> int:
    """The plain definition: the longest trail from every corner, side by side (a test oracle)."""
    m = game.map
    edges = [e for e in range(game.side_count) if game.pos.side_owner[e] == seat]

    def walk(v: int, piece: int, used: set[int], start: bool) -> int:
        if not start and game.pos.corner_owner[v] not in (-1, seat):
            return 0
        best = 0
        for f in m.vertex_edges[v]:
            if f in used or game.pos.side_owner[f] != seat:
                continue
            if not start and game.pos.side_route[f] != piece and game.pos.corner_owner[v] != seat:
                continue
            a, b = m.edge_vertices[f]
            best = max(best, 1 + walk(b if a == v else a, game.pos.side_route[f], used | {f}, False))
        return best

    corners = {v for e in edges for v in m.edge_vertices[e]}
    return max((walk(v, 0, set(), True) for v in corners), default=0)


def test_route_length_matches_the_plain_definition_in_random_games() -> None:
    checked = 0
    for seed in range(3):
        game = Landover(2, {"turn_cap": 400}, seed)
        rng = Rng(seed)
        steps = 0
        while not game.is_over():
            game.apply(game.random_action(rng))
            steps += 1
            if steps % 50 == 0:
                for s in range(2):
                    if len(game.pos.edges_of[s]) <= 16:
                        assert game.route_length(s) == naive_route(game, s) == game.pos.routes[s]
                        checked += 1
    assert checked > 20


def test_barbarians_never_take_a_metro_city() -> None:
    a, b = 0, 1
    board = main_game()
    v = inland_corner(board)
    city(board, a, v)
    w = next(x for x in range(board.corner_count) if board.pos.corner_on_land[x] and board.far_from_villages(x))
    game = main_game(position={
        "pieces": pieces(a, "city", [v]) + pieces(b, "city", [w]), "metros": {"science": v},
        "military": [0, 0], "barbarians": 6,
    })
    assert game.pos.metro_owner[0] == a
    force(game, ("white_die", 1), ("red_die", 1), ("event_die", 1), ("barbarian_city", 0))
    end_turn(game)
    assert game.pos.corner_level[v] == CITY and game.pos.corner_level[w] == VILLAGE


def test_moving_a_raid_frees_the_old_hex_and_one_catapult_per_hex() -> None:
    game = main_game(3, position={"military": [2, 0, 0]})
    a, b, c = game.pos.order
    v = inland_corner(game)
    village(game, b, v)
    first, second = [h for h in game.map.vertex_hexes[v]][:2]
    game.put_catapult(c, second)
    rejects(game, {"type": "raid", "hex": second}, "landover.raid.catapult_there")
    game.apply({"type": "raid", "hex": first})
    for _ in range(3):  # round the table back to a (no 7: the catapults stay)
        roll(game, 1, 1)
    assert game.pos.seat == a and not game.pos.raided
    third = [h for h in game.map.vertex_hexes[v]][2]
    game.apply({"type": "raid", "hex": third})
    assert game.pos.catapult_at == {second: c, third: a}


def test_island_explored_once_when_the_option_is_off() -> None:
    seat = 0
    board = main_game()
    on_island = {}  # island -> a land corner touching that island only
    for v in range(board.corner_count):
        islands = {board.map.hex_island[h] for h in board.map.vertex_hexes[v] if board.map.hex_island[h] >= 0}
        if board.pos.corner_on_land[v] and len(islands) == 1:
            on_island.setdefault(islands.pop(), v)
    settled = [on_island[0], on_island[1]]
    game = main_game(explorer_each_island=False, position={"pieces": pieces(seat, "village", settled, home=False)})
    assert game.pos.explored[seat] == {0, 1}
    assert game.vp_breakdown(seat)["island_explored"] == 1 and game.vp(seat) == 2 + 1  # two villages and one point


def test_junk_actions_always_get_a_rule_error_and_change_nothing() -> None:
    """Every field of every action shape, filled with values of the wrong kind."""
    junk = [None, True, -1, 10**9, 2.5, "x", [], [1, 2], {}, {"a": 1}, ["spy"]]
    shapes = [
        {"type": "build", "piece": "road", "edge": 0},
        {"type": "build", "piece": "village", "vertex": 0},
        {"type": "improve", "culture": "science", "city": 0},
        {"type": "trade", "give": "wool", "get": "ore"},
        {"type": "raid", "hex": 0},
        {"type": "lucky_raid", "hex": 0},
        {"type": "remove_catapult", "hex": 0},
        {"type": "play", "card": "inventor", "hexes": [0, 1]},
        {"type": "play", "card": "master_merchant", "target": 0, "take": ["ore"]},
        {"type": "play", "card": "spy", "target": 0, "card_taken": "spy"},
        {"type": "play", "card": "diplomat", "edge": 0, "to": 1},
        {"type": "play", "card": "alchemist", "white": 1, "red": 1},
    ]
    held = ["inventor", "master_merchant", "spy", "diplomat", "alchemist"]
    # The setup phase (no cards can be held there) and the main phase holding every card with fields.
    for phase_game in (Landover(2, None, 1), main_game(position={"dev_cards": [held, []]})):
        game = phase_game
        before = snapshot(game)
        for shape in shapes:
            for key in shape:
                for value in junk:
                    action = {**shape, key: value}
                    with pytest.raises(IllegalActionError):
                        game.apply(action)
        assert snapshot(game) == before


def test_entered_dice_are_the_roll_and_replay() -> None:
    """Dice entered by the table (enter_chance) are the next roll, logged, and a replay of the
    record (which starts from the setup, not from put pieces) draws them again."""
    from tablelight.core.record import replay

    game = Landover(2, {"map_numbers": "fixed"}, 4)
    while game.pos.phase == "setup":
        game.apply(game.legal_actions()[0])
    while game.pos.phase != "main":
        game.apply(game.legal_actions()[0])
    for kind, value in (("white_die", 5), ("red_die", 1), ("event_die", 2)):
        game.enter_chance(kind, value)
    end_turn(game)
    assert game.pos.dice["white"] + game.pos.dice["red"] == 6
    assert [e["value"] for e in game.log if e.get("chance", "").endswith("_die")][-3:] == [5, 1, 2]
    assert replay(game.to_record()).state() == game.state()
    with pytest.raises(ImpossibleChanceError, match="'white_die' outcome is a whole number 1-6, not 7"):
        game.enter_chance("white_die", 7)  # not a face of a die: refused at once, nothing queued
    assert game.undrawn_chance() is None


def test_put_piece_puts_only_pieces() -> None:
    game = main_game()
    with pytest.raises(SetupError, match="not 'wall'"):
        game.put_piece(game.pos.seat, "wall", 0)
