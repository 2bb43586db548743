"""Reading an action's fields and the checks that ordinary actions and card plays share."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablelight.core.errors import MalformedActionError, RuleViolationError
from tablelight.core.fields import is_whole_in
from tablelight.core.game import Action
from tablelight.games.landover.hexmap import CARDS
from tablelight.games.landover.production import LandoverProduction
from tablelight.games.landover.rules import COSTS


class LandoverValidation(LandoverProduction):
    def _field_int(self, action: Mapping[str, Any], key: str, limit: int, what: str) -> int:
        value = action.get(key)
        if not is_whole_in(value, 0, limit - 1):
            raise MalformedActionError(
                f"landover.action.bad_{key}", f"{key} must be a {what} id 0-{limit - 1}, got {value!r}"
            )
        return value

    def _field_choice(self, action: Action, key: str, choices: tuple[str, ...]) -> str:
        value = action.get(key)
        if value not in choices:
            raise MalformedActionError(
                f"landover.action.bad_{key}", f"{key} must be one of {', '.join(choices)}, got {value!r}"
            )
        return value

    def _fields(self, action: Action, allowed: tuple[str, ...]) -> None:
        extra = set(action) - set(allowed) - {"type"}
        if extra:
            raise MalformedActionError("landover.action.unknown_field", f"unexpected field(s): {sorted(extra)}")

    @staticmethod
    def _rule(rule: str, message: str) -> RuleViolationError:
        return RuleViolationError(rule, message)

    def _pay_problem(self, seat: int, cost: tuple[tuple[int, int], ...], what: str) -> None:
        hand = self.hands[seat]
        for kind, n in cost:
            if hand[kind] < n:
                need = " + ".join(f"{k} {CARDS[i]}" for i, k in cost)
                raise self._rule("landover.cost.cannot_afford", f"{what} costs {need}; you have {hand[kind]} {CARDS[kind]}")

    def _check_military(self, seat: int) -> None:
        self._pay_problem(seat, COSTS["military"], "military power")
        if self.military[seat] >= self.military_cap(seat):
            raise self._rule("landover.military.cap", "military power stops at 3 until politics 3 (barracks)")

    def _check_raid(self, seat: int, h: int, free: bool) -> None:
        if self.raided:
            raise self._rule("landover.raid.once_per_turn", "only one raid per turn")
        if not free and self.military[seat] < 1:
            raise self._rule("landover.military.none", "a raid costs 1 military power; you have 0")
        if h in self.catapult_at:
            raise self._rule("landover.raid.catapult_there", f"hex {h} already has a catapult")
        if h not in self._raid_hexes(seat):
            raise self._rule("landover.raid.not_a_target", f"hex {h} is not a land hex next to an opponent's village or city")
