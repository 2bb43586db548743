"""The round's sequence: command dice, turns, the impact phase with its defence rolls and Evade, the end."""

from __future__ import annotations

from typing import Any

from tablelight.core.game import Action
from tablelight.games.farside.models import FarsideModels
from tablelight.games.farside.state import (
    ACTION,
    COMMAND,
    IMPACT,
    ON_TABLE,
    OVER,
)


class FarsideRounds(FarsideModels):
    def _start_round(self) -> None:
        self.round += 1
        self.phase = COMMAND
        self.command_dice = [[], []]
        self.command_die = [None, None]
        self.manoeuvre_die = [None, None]
        self.manoeuvre_used = [None, None]
        self.chosen = [None, None]
        self._request_roll("command", 0, 2, 6, round=self.round)

    def _choose_command(self, seat: int, die: int, chosen: str | None = None) -> None:
        dice = list(self.command_dice[seat])
        dice.remove(die)
        self.command_die[seat] = die
        self.manoeuvre_die[seat] = dice[0]
        if chosen is not None:  # The Chosen named with the command die (a manoeuvre die of 6)
            self.manoeuvre_used[seat] = "The Chosen"
            self._fire("manoeuvre:The Chosen")
            self.chosen[seat] = chosen
        other = 1 - seat
        if self.command_die[other] is None:
            self.chooser = other
            return
        ap = [self.command_die[0] or 0, self.command_die[1] or 0]
        sums = [sum(self.command_dice[0]), sum(self.command_dice[1])]
        if ap[0] != ap[1]:
            self.first = 0 if ap[0] < ap[1] else 1
        else:
            self.first = 0 if sums[0] < sums[1] else 1
        self.chosen_open = True  # the beginning of the round: The Chosen is named now, before any action
        self._start_turn(self.first)

    def _start_turn(self, seat: int) -> None:
        self.phase = ACTION
        self.active = seat
        self.action_points[seat] = self.command_die[seat] or 0
        self.group = None
        self.dead_zone_rolled = []
        for model in self.models.values():
            model["activated"] = False

    def _start_impact(self) -> None:
        self.phase = IMPACT
        self.group = None
        order = [self.active, 1 - self.active]
        self.impact_queue = [
            mid for seat in order for mid in self.on_table(seat) if self.models[mid]["impact"] > 0
        ]
        self._next_defense()

    def _next_defense(self) -> None:
        if self.phase == OVER:
            return
        while self.impact_queue:
            mid = self.impact_queue.pop(0)
            model = self.models[mid]
            if model["status"] == ON_TABLE and model["impact"] > 0:
                self._request_roll("defense", model["owner"], model["impact"], 6, count_fails=True, model=mid)
                return
        self._check_wipeout(impacts_done=True)
        self._end_turn()

    def _may_evade(self, pending: dict[str, Any], fails: int) -> bool:
        """Evade (5+) may reroll a defence roll that would cause damage, once per round per die."""
        if self.record_format < 2 or pending.get("evaded"):
            return False
        model = self.models[pending["model"]]
        owner = model["owner"]
        die = self.manoeuvre_die[owner] or 0
        return fails > model["size"] - 1 and self.manoeuvre_used[owner] is None and die >= 5

    def _perform_evade(self, action: Action) -> None:
        assert self.evade_offer is not None
        mid, fails = self.evade_offer["model"], self.evade_offer["fails"]
        self.evade_offer = None
        if action["type"] == "accept":
            self._fire("evade:roll_kept")
            self._defend(mid, fails)
            self._next_defense()
            return
        model = self.models[mid]
        self.manoeuvre_used[model["owner"]] = "Evade"
        self._fire("manoeuvre:Evade")
        # The new result has to be accepted: the reroll is not offered again.
        self._request_roll("defense", model["owner"], model["impact"], 6, count_fails=True, model=mid, evaded=True)

    def _defend(self, mid: str, fails: int) -> None:
        model = self.models[mid]
        model["impact"] = 0
        model["damage"] += max(0, fails - (model["size"] - 1))
        if model["damage"] >= 3:
            self._lose(mid, killed=True)

    def _end_turn(self) -> None:
        if self.phase == OVER:
            return
        assert self.first is not None
        if self.active == self.first:
            self._start_turn(1 - self.first)
            return
        limit = self.options["round_limit"]
        if self.end_announced is not None:
            self._finish(f"seat {self.end_announced} announced the end; round {self.round} was completed", "announced")
        elif self.total_objectives() >= self.options["objective_limit"] and self.options["game_end"] == "at_limit":
            self._finish(f"{self.total_objectives()} mission objectives accomplished by the end of round {self.round}", "objectives")
        elif limit and self.round >= limit:
            self._finish(f"the round limit ({limit}) was reached", "round_limit")
        else:
            self._start_round()
