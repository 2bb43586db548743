"""The setup: the seat order, then villages in that order and cities in reverse, each with a road
(listing, checking and placing them)."""

from __future__ import annotations

from tablelight.core.game import Action
from tablelight.games.landover.pieces import city_resources, put_edge, put_settlement
from tablelight.games.landover.places import distance_ok, setup_corners, setup_roads
from tablelight.games.landover.rules import CITY, ROAD, VILLAGE, build_action
from tablelight.games.landover.state import Chance, LandoverState
from tablelight.games.landover.validation import field_int, fields, rule


def plan_setup(p: LandoverState, order: list[int]) -> None:
    """Seat ``order`` plays first to last: villages in that order, then cities in reverse; each followed by a road."""
    p.order = order
    steps: list[tuple[int, str]] = []
    for seat in order:
        steps += [(seat, "village"), (seat, "road")]
    for seat in reversed(order):
        steps += [(seat, "city"), (seat, "road")]
    p.setup_steps = steps
    p.setup_step = 0
    p.setup_vertex = -1
    p.turn_index = 0
    p.seat = order[0]


def setup_actions(p: LandoverState) -> list[Action]:
    _, step = p.setup_steps[p.setup_step]
    if step == "road":
        return [build_action("road", "edge", e) for e in setup_roads(p)]
    return [build_action(step, "vertex", v) for v in setup_corners(p)]


def check_setup(p: LandoverState, action: Action) -> Action:
    seat, step = p.setup_steps[p.setup_step]
    piece = action.get("piece")
    if piece != step:
        raise rule("landover.setup.order", f"seat {seat} places a {step} now, not {piece!r}")
    if step == "road":
        fields(action, ("piece", "edge"))
        e = field_int(action, "edge", p.side_count, "side")
        if e not in setup_roads(p):
            raise rule(
                "landover.setup.road", f"the setup road goes on a free land or coast side of the corner just settled ({p.setup_vertex})"
            )
        return build_action("road", "edge", e)
    fields(action, ("piece", "vertex"))
    v = field_int(action, "vertex", p.corner_count, "corner")
    if not p.starting_corner[v]:
        raise rule("landover.setup.not_starting_corner", f"corner {v} is not a starting corner (land, no mystery hex)")
    if not distance_ok(p, v):
        raise rule("landover.build.distance", f"corner {v} is taken or next to a village or city (distance rule)")
    return build_action(step, "vertex", v)


def place_setup_piece(p: LandoverState, chance: Chance, seat: int, action: Action) -> bool:
    """Place a checked setup piece (a city gives its resources) and move to the next step; True when
    that was the last step (the first turn starts)."""
    piece = action["piece"]
    if piece == "road":
        put_edge(p, chance, seat, action["edge"], ROAD)
    else:
        v = action["vertex"]
        put_settlement(p, seat, v, VILLAGE if piece == "village" else CITY, setup=True)
        p.setup_vertex = v
        if piece == "city":
            city_resources(p, chance, seat, v)
    p.setup_step += 1
    if p.setup_step < len(p.setup_steps):
        p.seat = p.setup_steps[p.setup_step][0]
        return False
    p.turn_index = 0
    p.seat = p.order[0]
    return True
