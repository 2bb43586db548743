"""Reading an action's fields and the checks that ordinary actions and card plays share."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablelight.core.errors import MalformedActionError, RuleViolationError
from tablelight.core.fields import is_whole_in
from tablelight.core.game import Action
from tablelight.games.landover.hexmap import CARDS
from tablelight.games.landover.places import raid_hexes
from tablelight.games.landover.rules import COSTS
from tablelight.games.landover.scoring import military_cap
from tablelight.games.landover.state import LandoverState


def field_int(action: Mapping[str, Any], key: str, limit: int, what: str) -> int:
    value = action.get(key)
    if not is_whole_in(value, 0, limit - 1):
        raise MalformedActionError(
            f"landover.action.bad_{key}", f"{key} must be a {what} id 0-{limit - 1}, got {value!r}"
        )
    return value


def field_choice(action: Action, key: str, choices: tuple[str, ...]) -> str:
    value = action.get(key)
    if value not in choices:
        raise MalformedActionError(
            f"landover.action.bad_{key}", f"{key} must be one of {', '.join(choices)}, got {value!r}"
        )
    return value


def fields(action: Action, allowed: tuple[str, ...]) -> None:
    extra = set(action) - set(allowed) - {"type"}
    if extra:
        raise MalformedActionError("landover.action.unknown_field", f"unexpected field(s): {sorted(extra)}")


def rule(rule_id: str, message: str) -> RuleViolationError:
    return RuleViolationError(rule_id, message)


def pay_problem(p: LandoverState, seat: int, cost: tuple[tuple[int, int], ...], what: str) -> None:
    hand = p.hands[seat]
    for kind, n in cost:
        if hand[kind] < n:
            need = " + ".join(f"{k} {CARDS[i]}" for i, k in cost)
            raise rule("landover.cost.cannot_afford", f"{what} costs {need}; you have {hand[kind]} {CARDS[kind]}")


def check_military(p: LandoverState, seat: int) -> None:
    pay_problem(p, seat, COSTS["military"], "military power")
    if p.military[seat] >= military_cap(p, seat):
        raise rule("landover.military.cap", "military power stops at 3 until politics 3 (barracks)")


def check_raid(p: LandoverState, seat: int, h: int, free: bool) -> None:
    if p.raided:
        raise rule("landover.raid.once_per_turn", "only one raid per turn")
    if not free and p.military[seat] < 1:
        raise rule("landover.military.none", "a raid costs 1 military power; you have 0")
    if h in p.catapult_at:
        raise rule("landover.raid.catapult_there", f"hex {h} already has a catapult")
    if h not in raid_hexes(p, seat):
        raise rule("landover.raid.not_a_target", f"hex {h} is not a land hex next to an opponent's village or city")
