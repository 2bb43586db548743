"""Carrying out a checked action, and the turn order: the turn's start (the roll phase, or before record
format 4 the automatic roll), the turn cap."""

from __future__ import annotations

from tablelight.core.game import Action
from tablelight.games.landover.rules import (
    BRIDGE,
    COSTS,
    CULTURE_COMMODITY,
    CULTURE_INDEX,
    MAIN,
    MAX_CULTURE,
    OVER,
    ROAD,
    ROLL,
    ROLL_EVERY_TURN_FORMAT,
    SETUP,
    VILLAGE,
    WHEAT,
    WOOL,
)
from tablelight.games.landover.dice import roll
from tablelight.games.landover.pieces import place_catapult, put_edge, put_settlement, remove_catapult, upgrade
from tablelight.games.landover.places import improve_cost
from tablelight.games.landover.plays import perform_take, play_card
from tablelight.games.landover.raids import raid, steal_from_settlers
from tablelight.games.landover.scoring import check_win
from tablelight.games.landover.setup import place_setup_piece
from tablelight.games.landover.state import Chance, LandoverState
from tablelight.games.landover.trading import trade


#: Actions that change no seat's points. From record format 2 on the seat's points were checked
#: after the roll and after each of its actions, so these need no new check (format 1 checked after
#: every action, and a point from the roll was only seen then).
POINTLESS_ACTIONS = frozenset(("trade", "military", "raid", "lucky_raid", "remove_catapult", "take"))


#: Card plays that change no seat's points either (not the raze: its victim loses a point; the
#: vandal and diplomat move titles; the merchant, medicine and alchemist give points).
POINTLESS_PLAYS = frozenset((
    "crane", "irrigation", "mining", "road_building", "famine", "wedding", "anarchy", "inventor",
    "merchant_fleet", "resource_monopoly", "commodity_monopoly", "commercial_harbor", "military",
    "siege", "bishop", "deserter", "spy", "master_merchant",
))


def perform(p: LandoverState, chance: Chance, action: Action) -> None:
    seat = p.seat
    kind = action["type"]
    pointless = kind in POINTLESS_ACTIONS or (kind == "play" and action["card"] in POINTLESS_PLAYS)
    if not pointless:
        p.points_version += 1
    if p.phase == SETUP:
        if place_setup_piece(p, chance, seat, action):
            start_turn(p, chance)
        return
    if kind == "end_turn":
        end_turn(p, chance)
        return
    # The commonest first (random games: end_turn, trade, play, build).
    if kind == "trade":
        trade(p, seat, action)
    elif kind == "play":
        play_card(p, chance, seat, action)
    elif kind == "build":
        perform_build(p, chance, seat, action)
    elif kind == "roll":
        roll(p, chance, None)
    elif kind == "military":
        hand = p.hands[seat]
        hand[WOOL] -= 1
        hand[WHEAT] -= 1
        p.military[seat] += 1
    elif kind == "improve":
        perform_improve(p, seat, action)
    elif kind == "raid":
        p.military[seat] -= 1
        raid(p, chance, seat, action["hex"])
    elif kind == "lucky_raid":
        place_catapult(p, seat, action["hex"])
        steal_from_settlers(p, chance, seat, action["hex"])
        p.phase = MAIN
        p.lucky_raid = False
    elif kind == "remove_catapult":
        p.military[seat] -= 1
        remove_catapult(p, action["hex"])
    else:  # take
        perform_take(p, seat, action)
    if not pointless or p.record_format < 2:
        check_win(p, seat)


def perform_build(p: LandoverState, chance: Chance, seat: int, action: Action) -> None:
    piece = action["piece"]
    hand = p.hands[seat]
    if piece in ("road", "bridge"):
        if p.free_routes > 0:
            p.free_routes -= 1
        else:
            for kind, n in COSTS[piece]:
                hand[kind] -= n
        put_edge(p, chance, seat, action["edge"], ROAD if piece == "road" else BRIDGE)
        return
    for kind, n in COSTS[piece]:
        hand[kind] -= n
    v = action["vertex"]
    if piece == "village":
        put_settlement(p, seat, v, VILLAGE)
    elif piece == "city":
        upgrade(p, chance, seat, v)
    else:
        p.kept.own[seat].pop(("walls", seat), None)  # the only kept list that reads walls
        p.corner_wall[v] = True
        p.counts[seat]["wall"] += 1


def perform_improve(p: LandoverState, seat: int, action: Action) -> None:
    c = CULTURE_INDEX[action["culture"]]
    level = p.culture[seat][c]
    p.hands[seat][CULTURE_COMMODITY[c]] -= improve_cost(p, level)
    p.crane = False
    level += 1
    p.culture[seat][c] = level
    if "city" in action:
        v = action["city"]
        for u in range(p.corner_count):
            if p.corner_metro[u] == c:
                p.corner_metro[u] = -1
        p.corner_metro[v] = c
        p.metro_owner[c] = seat  # no kept list reads metros
    if level == MAX_CULTURE and p.metro_owner[c] == seat:
        p.metro_locked[c] = True


def end_turn(p: LandoverState, chance: Chance) -> None:
    p.raided = False
    p.crane = False
    if p.fleet:
        p.fleet = set()
    p.free_routes = 0
    p.lucky_raid = False
    p.turns += 1
    if p.turns >= p.options["turn_cap"]:
        p.capped = True
        p.phase = OVER
        return
    p.turn_index = (p.turn_index + 1) % p.players
    p.seat = p.order[p.turn_index]
    start_turn(p, chance)


def start_turn(p: LandoverState, chance: Chance) -> None:
    seat = p.seat
    if check_win(p, seat):
        return
    if p.record_format >= ROLL_EVERY_TURN_FORMAT or "alchemist" in p.dev_cards[seat]:
        p.phase = ROLL  # format 4 on: every seat, so the wait tells nothing of the hand
        return
    # A roll gives points only as a defender point or a VP card (it takes some away by
    # reducing a city): the seat's points were below the target just now.
    gained = p.defender[seat] + p.vp_cards[seat]
    roll(p, chance, None)
    if p.record_format >= 2 and p.defender[seat] + p.vp_cards[seat] > gained:
        check_win(p, seat)  # points from the roll itself
