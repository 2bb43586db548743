"""Checking an action: its fields, its phase, its cost and its place; returns the normal form."""

from __future__ import annotations

from tablelight.core.fields import is_whole_in
from tablelight.core.errors import MalformedActionError
from tablelight.core.game import Action
from tablelight.games.landover.hexmap import CARDS
from tablelight.games.landover.cards import CULTURES, card_culture, vp_cards
from tablelight.games.landover.rules import (
    ACTION_TYPES,
    ALLOWED_ACTIONS,
    BRIDGE,
    CITY,
    COSTS,
    CULTURE_COMMODITY,
    CULTURE_INDEX,
    MAIN,
    MAX_CULTURE,
    ROAD,
    ROLL,
    SETUP,
    TAKE,
    VILLAGE,
    build_action,
    hex_action,
)
from tablelight.games.landover.places import edge_problem, improve_cost, lucky_hexes, metro_choices, village_problem
from tablelight.games.landover.plays import check_card_play, check_take
from tablelight.games.landover.setup import check_setup
from tablelight.games.landover.state import LandoverState
from tablelight.games.landover.trading import check_trade
from tablelight.games.landover.validation import check_military, check_raid, field_choice, field_int, fields, pay_problem, rule


def check(p: LandoverState, action: Action) -> Action:
    drawn = p.drawn
    if drawn is not None:
        # One check consumes the drawn action, whatever it is: the position may change next.
        p.drawn = None
        if action is drawn:
            return drawn  # immutable: the listed value is the normal form
    kind = action.get("type")
    phase = p.phase
    seat = p.seat
    allowed = ALLOWED_ACTIONS[phase]
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise MalformedActionError(
            "landover.action.unknown_type", f"unknown action type {kind!r}; now allowed: {', '.join(allowed)}"
        )
    if kind not in allowed:
        raise rule("landover.action.wrong_phase", f"{kind!r} is not allowed now ({phase}); allowed: {', '.join(allowed)}")
    if phase == SETUP:
        return check_setup(p, action)
    if phase == TAKE:
        return check_take(p, action)
    if kind == "end_turn" or kind == "roll" or kind == "military":
        fields(action, ())
        if kind == "military":
            check_military(p, seat)
        return action  # {"type": kind} and nothing else: already its normal form
    if kind == "build":
        return check_build(p, seat, action)
    if kind == "improve":
        return check_improve(p, seat, action)
    if kind == "trade":
        return check_trade(p, seat, action)
    if kind == "raid" or kind == "lucky_raid" or kind == "remove_catapult":
        fields(action, ("hex",))
        h = field_int(action, "hex", p.hex_count, "hex")
        if kind == "raid":
            check_raid(p, seat, h, free=False)
        elif kind == "lucky_raid":
            if phase == MAIN and not p.lucky_raid:
                raise rule("landover.raid.no_lucky_raid", "a lucky 7 raid needs a 7 rolled this turn by the player alone in last place")
            if h not in lucky_hexes(p):
                raise rule("landover.raid.not_a_target", f"hex {h} is water, unexplored or has a catapult")
        else:
            if p.military[seat] < 1:
                raise rule("landover.military.none", "removing a catapult costs 1 military power; you have 0")
            if h not in p.catapult_at:
                raise rule("landover.catapult.none_there", f"hex {h} has no catapult")
        return hex_action(kind, h)
    return check_card(p, seat, action)


def check_build(p: LandoverState, seat: int, action: Action) -> Action:
    piece = field_choice(action, "piece", ("road", "bridge", "village", "city", "wall"))
    if p.counts[seat][piece] >= p.limits[piece]:
        raise rule("landover.build.no_pieces", f"you have all {p.limits[piece]} {piece}s on the board")
    if piece in ("road", "bridge"):
        fields(action, ("piece", "edge"))
        e = field_int(action, "edge", p.side_count, "side")
        if p.free_routes <= 0:
            pay_problem(p, seat, COSTS[piece], f"a {piece}")
        problem = edge_problem(p, seat, e, ROAD if piece == "road" else BRIDGE)
        if problem:
            raise rule(*problem)
        return build_action(piece, "edge", e)
    fields(action, ("piece", "vertex"))
    v = field_int(action, "vertex", p.corner_count, "corner")
    pay_problem(p, seat, COSTS[piece], f"a {piece}")
    if piece == "village":
        problem = village_problem(p, seat, v)
        if problem:
            raise rule(*problem)
    elif piece == "city":
        if p.corner_owner[v] != seat or p.corner_level[v] != VILLAGE:
            raise rule("landover.build.city_needs_village", f"a city replaces one of your villages; corner {v} has none")
    else:
        if p.corner_owner[v] != seat or p.corner_level[v] != CITY:
            raise rule("landover.build.wall_needs_city", f"a city wall goes on one of your cities; corner {v} has none")
        if p.corner_wall[v]:
            raise rule("landover.build.wall_taken", f"the city on corner {v} already has a wall")
    return build_action(piece, "vertex", v)


def check_improve(p: LandoverState, seat: int, action: Action) -> Action:
    c = CULTURE_INDEX[field_choice(action, "culture", CULTURES)]
    level = p.culture[seat][c]
    if level >= MAX_CULTURE:
        raise rule("landover.culture.max", f"{CULTURES[c]} is already at level {MAX_CULTURE}")
    cost = improve_cost(p, level)
    commodity = CULTURE_COMMODITY[c]
    if p.hands[seat][commodity] < cost:
        raise rule(
            "landover.cost.cannot_afford",
            f"{CULTURES[c]} level {level + 1} costs {cost} {CARDS[commodity]}; you have {p.hands[seat][commodity]}",
        )
    cities = metro_choices(p, seat, c, level + 1)
    if cities is None:
        fields(action, ("culture",))
        return Action({"type": "improve", "culture": CULTURES[c]})
    fields(action, ("culture", "city"))
    if not cities:
        raise rule("landover.culture.metro_needs_city", "this level wins a metro: you need a city without a metro for it")
    v = field_int(action, "city", p.corner_count, "corner")
    if v not in cities:
        raise rule("landover.culture.metro_city", f"the metro goes on one of your cities without a metro: {cities}")
    return Action({"type": "improve", "culture": CULTURES[c], "city": v})


def check_card(p: LandoverState, seat: int, action: Action) -> Action:
    card = action.get("card")
    if not isinstance(card, str) or card not in card_culture() or card in vp_cards():
        raise MalformedActionError("landover.card.unknown", f"unknown development card {card!r}")
    if card not in p.dev_cards[seat]:
        raise rule("landover.card.not_held", f"you do not hold {card!r}")
    if p.phase == ROLL and card != "alchemist":
        raise rule("landover.card.before_roll", "before the roll only the alchemist may be played (or roll)")
    if card == "alchemist":
        if p.phase != ROLL:
            raise rule("landover.card.alchemist_timing", "the alchemist is played before the roll")
        fields(action, ("card", "white", "red"))
        dice = []
        for key in ("white", "red"):
            value = action.get(key)
            if not is_whole_in(value, 1, 6):
                raise MalformedActionError("landover.card.die", f"{key} must be 1-6, got {value!r}")
            dice.append(value)
        return Action({"type": "play", "card": card, "white": dice[0], "red": dice[1]})
    normal = check_card_play(p, seat, card, action)
    return normal
