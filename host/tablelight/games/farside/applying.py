"""Carrying out a checked action, and the dice it waits for (host, table or press)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablelight.core.game import Action
from tablelight.games.farside.rounds import FarsideRounds
from tablelight.games.farside.state import MELEE, OVER, SECRETS, deployment_width


class FarsideApplying(FarsideRounds):
    def _setup(self, setup: Mapping[str, Any] | None) -> None:
        """The state (see FarsideState), then the host's first rolls (dice = host)."""
        super()._setup(setup)
        self._advance()

    def _advance(self) -> None:
        """Make the host's rolls until a player has to act (dice = host)."""
        while self.pending is not None and self.options["dice"] == "host" and self.phase != OVER:
            self._host_roll(self.pending)

    def _host_roll(self, pending: dict[str, Any]) -> None:
        """Roll the pending dice with the game's generator (logged) and resolve them."""
        context = {k: v for k, v in pending.items() if k not in ("roll", "dice", "sides", "count_fails")}
        values = [self._chance_die(pending["roll"], pending["sides"], **context) for _ in range(pending["dice"])]
        if pending["count_fails"]:
            self._resolve_roll(pending, fails=self.defense_fails(pending["model"], values))
        else:
            self._resolve_roll(pending, values=values)

    def _perform(self, action: Action) -> None:
        kind = action["type"]
        seat = self.current_seat()
        assert seat is not None
        if kind != "manoeuvre":
            self.chosen_open = False  # the round has begun: The Chosen can no longer be named
        if self.evade_offer is not None:
            self._perform_evade(action)
            self._check_wipeout()
            self._advance()
            return
        if kind == "roll":
            pending = self.pending
            assert pending is not None
            if self.options["dice"] == "press":
                self._host_roll(pending)
            elif pending["count_fails"]:
                self._resolve_roll(pending, fails=action["fails"])
            else:
                self._resolve_roll(pending, values=action["dice"])
        elif kind == "secret":
            self.secrets[seat] = {k: action[k] for k in ("primary", "stratagem", "team_size")}
            self._fire(f"primary:{action['primary']}")
            self._fire(f"stratagem:{action['stratagem']}")
            if seat == 1:
                self._start_round()
        elif kind == "command":
            self._choose_command(seat, action["die"], action.get("chosen"))
        elif kind in ("activate", "pile_in"):
            self._activate(seat, action)
        elif kind == "failed":
            self._resolve_failure(action["choice"])
        elif kind == "impact":
            self.models[action["model"]]["impact"] += action["tokens"]
        elif kind == "secure":
            self.action_points[seat] -= 1
            holder = self.secured.get(action["zone"])
            self.secured[action["zone"]] = seat
            if holder is not None:
                self._fire("secure:takeover")
                if self.takeover_moves_point():
                    self.objectives[holder]["secure"] -= 1  # "to receive a point instead": the zone's point moves
            self._award(seat, "secure")
        elif kind == "break_through":
            self._leave(action["model"])
            self._count_breakthrough(seat)
        elif kind == "loot":
            self._leave(action["model"])
            self.loot_left -= 1
            self._award(seat, "loot")
        elif kind == "manoeuvre":
            self._manoeuvre(action)
        elif kind == "regenerate":
            self._regenerate(action["model"])
        elif kind == "dead_zone":
            self._dead_zone(action["model"])
        elif kind == "announce_end":
            self.end_announced = seat  # the current round is completed, then the game ends
        elif kind == "end_turn":
            self.group = None
            self.action_points[seat] = 0
            self.phase = MELEE
            self.melee_seat = self.active
        elif kind == "done":
            self.group = None
            if self.melee_seat == self.active:
                self.melee_seat = 1 - self.active
            else:
                self._start_impact()
        self._check_wipeout()
        self._advance()

    def _resolve_roll(self, pending: dict[str, Any], values: list[int] | None = None, fails: int = 0) -> None:
        self.pending = None
        kind, seat = pending["roll"], pending["seat"]
        if kind == "setup":
            assert values is not None
            self.setup_rolls[seat] = values[0]
            if seat == 0:
                self._request_roll("setup", 1, 1, 6)
            elif self.setup_rolls[0] == self.setup_rolls[1]:
                self.setup_rolls = [None, None]
                self._request_roll("setup", 0, 1, 6)
            else:
                self.placer = 0 if (self.setup_rolls[0] or 0) > (self.setup_rolls[1] or 0) else 1
                self._request_roll("secure_zones", self.placer, 2, 3)
        elif kind == "secure_zones":
            assert values is not None and self.placer is not None
            self.secure_zones = sum(values)
            self._request_roll("loot_tokens", self.placer, 2, 3)
        elif kind == "loot_tokens":
            assert values is not None and self.placer is not None
            self.loot_tokens = self.loot_left = sum(values)
            mode = self.options["deployment"]
            if mode == "roll_each":
                self._request_roll("deployment", 1 - self.placer, 1, 6)
            elif mode == "roll_shared":
                self._request_roll("deployment", self.placer, 1, 6)
            else:
                self.deployment = [int(mode), int(mode)]
                self.phase = SECRETS
        elif kind == "deployment":
            assert values is not None and self.placer is not None
            width = deployment_width(values[0])
            if self.options["deployment"] == "roll_shared":
                self.deployment = [width, width]
            else:
                self.deployment[seat] = width
                if self.deployment[self.placer] is None:
                    self._request_roll("deployment", self.placer, 1, 6)
                    return
            self.phase = SECRETS
        elif kind == "command":
            assert values is not None
            self.command_dice[seat] = list(values)
            if seat == 0:
                self._request_roll("command", 1, 2, 6, round=self.round)
            elif sum(self.command_dice[0]) == sum(self.command_dice[1]):
                self.command_dice = [[], []]
                self._request_roll("command", 0, 2, 6, round=self.round)
            else:
                self.chooser = 0 if sum(self.command_dice[0]) < sum(self.command_dice[1]) else 1
        elif kind == "activation":
            assert values is not None and self.group is not None
            self.group["roll"] = values[0]
            self._judge(pending["model"])
        elif kind == "regeneration":
            assert values is not None
            self._regenerated(pending["model"], values[0])
        elif kind == "dead_zone":
            assert values is not None
            self._dead_zone_rolled(pending["model"], values[0])
        elif kind == "defense":
            if self._may_evade(pending, fails):
                self._fire("evade:offered")
                self.evade_offer = {"model": pending["model"], "fails": fails}
                return
            self._defend(pending["model"], fails)
            self._next_defense()
