"""The legal actions of the seat to act, from the same placement and payment rules the checks use."""

from __future__ import annotations

from typing import Any

from tablelight.core.game import Action
from tablelight.core.rng import Rng
from tablelight.games.landover.cards import CULTURES
from tablelight.games.landover.rules import (
    BRIDGE,
    COMMERCE,
    CULTURE_COMMODITY,
    END_TURN,
    FIXED_PLAYS,
    IMPROVE,
    LUCKY,
    MAIN,
    MAX_CULTURE,
    MILITARY,
    MILITARY_CAP,
    POLITICS,
    ROAD,
    ROLL,
    ROLL_CHOICES,
    ROLL_ONLY,
    SCIENCE,
    SETUP,
    TAKE,
    TRADES,
    VILLAGE,
    build_action,
    hex_action,
)
from tablelight.games.landover.places import (
    improve_cost,
    lucky_hexes,
    metro_choices,
    own_corners,
    raid_plays,
    route_edges,
    village_corners,
    wall_corners,
)
from tablelight.games.landover.plays import PLAY_LISTERS, take_actions
from tablelight.games.landover.setup import setup_actions
from tablelight.games.landover.state import LandoverState
from tablelight.games.landover.trading import trade_rate


def random_action(p: LandoverState, rng: Rng) -> Action:
    """A uniformly random action of the full legal listing (immutable: the listed value itself).

    The next check of this very value (immutable, so unchanged) takes it without checking it
    again, as Farlander does: the listing is made by the same placement and payment rules the
    check uses, for this very position. Anything else, an equal copy too, is checked in full.
    """
    listed = rng.choice(legal_actions(p))
    p.drawn = listed
    return listed


def legal_actions(p: LandoverState) -> list[Action]:
    """Every legal action of the seat to act (immutable values: lists that depend only on the
    board are kept between calls until the board changes, and shared)."""
    phase = p.phase
    seat = p.seat
    if phase == MAIN:
        return main_actions(p, seat)
    if phase == SETUP:
        return setup_actions(p)
    if phase == ROLL:
        return list(ROLL_CHOICES if "alchemist" in p.dev_cards[seat] else ROLL_ONLY)
    if phase == LUCKY:
        return [hex_action("lucky_raid", h) for h in lucky_hexes(p)]
    if phase == TAKE:
        return take_actions(p)
    return []




#: Each card's plays: the fixed ones (a tuple) or the function that lists them, in one look-up.
CARD_PLAYS: dict[str, Any] = {**PLAY_LISTERS, **FIXED_PLAYS}


def main_actions(p: LandoverState, seat: int) -> list[Action]:
    actions: list[Action] = [END_TURN]
    hand = p.hands[seat]
    counts = p.counts[seat]
    limits = p.limits
    free = p.free_routes > 0
    wool, wood, ore, wheat, clay, cloth, paper, coin = hand  # in card order (rules.WOOL ... COIN)
    # The builds are kept with the seat's lists (build_actions makes them when they are not).
    built = p.kept.seats[seat].get
    if (free or (wood and clay)) and counts["road"] < limits["road"]:
        actions += built(("build", "road")) or build_actions(p, seat, "road")
    if (free or (wood and wool)) and counts["bridge"] < limits["bridge"]:
        actions += built(("build", "bridge")) or build_actions(p, seat, "bridge")
    if clay and wood and wool and wheat and counts["village"] < limits["village"]:
        actions += built(("build", "village")) or build_actions(p, seat, "village")
    if ore >= 3 and wheat >= 2 and counts["city"] < limits["city"]:
        actions += built(("build", "city")) or build_actions(p, seat, "city")
    if clay >= 2 and counts["wall"] < limits["wall"]:
        kept = p.kept.own[seat]  # an OWN_PIECES list, read without _cached (no closure each listing)
        walls = kept.get(("walls", seat))
        if walls is None:
            walls = kept[("walls", seat)] = [build_action("wall", "vertex", v) for v in wall_corners(p, seat)]
        actions += walls
    military = p.military[seat]
    if wool and wheat and (military < MILITARY_CAP or p.culture[seat][POLITICS] >= 3):  # scoring.military_cap
        actions.append(MILITARY)
    # An improvement costs level + 1 of its commodity, which ``have > level`` says is paid (a crane
    # takes one off: add_improvement asks the exact cost then). Written out: every listing asks.
    crane = p.crane
    science, commerce, politics = p.culture[seat]
    if (crane or paper > science) and science < MAX_CULTURE:
        add_improvement(p, actions, seat, SCIENCE, science)
    if (crane or cloth > commerce) and commerce < MAX_CULTURE:
        add_improvement(p, actions, seat, COMMERCE, commerce)
    if (crane or coin > politics) and politics < MAX_CULTURE:
        add_improvement(p, actions, seat, POLITICS, politics)
    if max(hand) >= 2:  # a trade takes 2 or more of a kind
        # A plain loop: picking the kinds in C (compress over map of ``(2).__le__``) cost twice as much,
        # a call through a slot wrapper for every kind.
        for give, count in enumerate(hand):
            # A rate is 2 or 3: three cards always pay it, two only when the rate is 2.
            if count >= 3 or (count == 2 and trade_rate(p, seat, give) == 2):
                actions += TRADES[give]
    if p.lucky_raid:  # listed before the paid raids: a raid key takes the free one first
        actions += [hex_action("lucky_raid", h) for h in lucky_hexes(p)]
    if military >= 1:
        if not p.raided:
            actions += raid_plays(p, seat)
        if p.catapult_at:  # most often none stands: no list to make
            actions += [hex_action("remove_catapult", h) for h in sorted(p.catapult_at)]
    held = p.dev_cards[seat]
    if held:
        for card in sorted(set(held)) if len(held) > 1 else held:
            # A card's plays: fixed (a tuple), or its lister's (plays.py).
            plays = CARD_PLAYS[card]
            actions += plays if plays.__class__ is tuple else plays(p, seat)
    return actions


def add_improvement(p: LandoverState, actions: list[Action], seat: int, c: int, level: int) -> None:
    """List the improvement of culture ``c`` from ``level`` if paid (the crane's exact cost), with
    the cities its metro may go on when it wins one."""
    if p.crane and p.hands[seat][CULTURE_COMMODITY[c]] < improve_cost(p, level):
        return
    cities = metro_choices(p, seat, c, level + 1)
    if cities is None:
        actions.append(IMPROVE[c])
    else:
        actions += [Action({"type": "improve", "culture": CULTURES[c], "city": v}) for v in cities]


def build_actions(p: LandoverState, seat: int, piece: str) -> list[Action]:
    """The builds of ``piece`` (road, bridge, village, city) on every place the rules allow, kept
    with the seat's other lists (they read only the pieces near the seat's own)."""
    kept = p.kept.seats[seat]
    found = kept.get(("build", piece))
    if found is None:
        if piece == "road" or piece == "bridge":
            places = route_edges(p, seat, ROAD if piece == "road" else BRIDGE)
            found = [build_action(piece, "edge", e) for e in places]
        else:
            places = village_corners(p, seat) if piece == "village" else own_corners(p, seat, VILLAGE)
            found = [build_action(piece, "vertex", v) for v in places]
        kept[("build", piece)] = found
    return found
