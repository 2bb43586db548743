"""Scoring: victory points, the titles (longest route, port authority), the safe hand, the military cap and the win."""

from __future__ import annotations

from tablelight.games.landover.rules import BASE_SAFE_HAND, MILITARY_CAP, NOBODY, OVER, POLITICS
from tablelight.games.landover.state import LandoverState


def vp_breakdown(p: LandoverState, seat: int) -> dict[str, int]:
    c = p.counts[seat]
    metros = sum(1 for owner in p.metro_owner if owner == seat)
    explored = len(p.explored[seat])
    if not p.options["explorer_each_island"]:
        explored = min(explored, 1)
    return {
        "villages": c["village"],
        "cities": 2 * c["city"],
        "metros": 2 * metros,
        "longest_route": 2 if p.route_holder == seat else 0,
        "port_authority": 2 if p.port_holder == seat else 0,
        "island_explored": explored,
        "merchant": 1 if p.merchant_owner == seat else 0,
        "vp_cards": p.vp_cards[seat],
        "defender": p.defender[seat],
    }


def vp(p: LandoverState, seat: int) -> int:
    c = p.counts[seat]
    points = c["village"] + 2 * c["city"] + p.vp_cards[seat] + p.defender[seat]
    explored = p.explored[seat]
    if explored:
        points += len(explored) if p.options["explorer_each_island"] else 1
    if seat in p.metro_owner:
        points += 2 * p.metro_owner.count(seat)
    if p.route_holder == seat:
        points += 2
    if p.port_holder == seat:
        points += 2
    if p.merchant_owner == seat:
        points += 1
    return points


def scores(p: LandoverState) -> list[int]:
    return [vp(p, s) for s in range(p.players)]


def kept_scores(p: LandoverState) -> list[int]:
    """:meth:`scores`, kept until an action that can change points (``points_version``)."""
    kept = p.scores_at_version
    if kept is None or kept[0] != p.points_version:
        kept = p.scores_at_version = (p.points_version, scores(p))
    return kept[1]


def hand_size(p: LandoverState, seat: int) -> int:
    return sum(p.hands[seat])


def safe_hand(p: LandoverState, seat: int) -> int:
    return BASE_SAFE_HAND + 2 * p.counts[seat]["wall"]


def military_cap(p: LandoverState, seat: int) -> int:
    return 10**6 if p.culture[seat][POLITICS] >= 3 else MILITARY_CAP


def award(p: LandoverState, holder: int, values: list[int], minimum: int) -> int:
    """Longest route / port authority: keep it until beaten by one; a tie for a lost title sets it aside."""
    best = max(values)
    if holder != NOBODY and values[holder] >= best and values[holder] >= minimum:
        return holder
    if best < minimum:
        return NOBODY
    leaders = [s for s, value in enumerate(values) if value == best]
    return leaders[0] if len(leaders) == 1 else NOBODY


def check_win(p: LandoverState, seat: int) -> bool:
    if p.phase != OVER and vp(p, seat) >= p.options["target"]:
        p.winner_seats = [seat]
        p.phase = OVER
        return True
    return False
