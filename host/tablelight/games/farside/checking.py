"""The legal actions and the checks of each action type (one table says which check and which phases)."""

from __future__ import annotations

import itertools
from typing import Any

from tablelight.core.actions import FrozenList
from tablelight.core.errors import IllegalActionError, MalformedActionError, RuleViolationError
from tablelight.core.fields import is_whole
from tablelight.core.game import Action
from tablelight.games.farside.tables import MISSIONS, find_manoeuvre, tables
from tablelight.games.farside.applying import FarsideApplying
from tablelight.games.farside.state import (
    ACTION,
    COMMAND,
    MAX_IMPACT_PER_ACTION,
    MANOEUVRE_TARGETS,
    MELEE,
    ON_TABLE,
    SECRETS,
)


#: action type -> (checking method, phases in which it is allowed)
_CHECKS: dict[str, tuple[str, tuple[str, ...]]] = {
    "secret": ("_check_secret", (SECRETS,)),
    "command": ("_check_command", (COMMAND,)),
    "activate": ("_check_activate", (ACTION,)),
    "pile_in": ("_check_activate", (MELEE,)),
    "failed": ("_check_failed", (ACTION, MELEE)),
    "impact": ("_check_impact", (ACTION, MELEE)),
    "secure": ("_check_secure", (ACTION,)),
    "break_through": ("_check_leave", (ACTION,)),
    "loot": ("_check_leave", (ACTION,)),
    "manoeuvre": ("_check_manoeuvre", (ACTION, MELEE)),
    "regenerate": ("_check_regenerate", (ACTION,)),
    "dead_zone": ("_check_dead_zone", (ACTION, MELEE)),
    "announce_end": ("_check_announce", (ACTION, MELEE)),
    "end_turn": ("_check_end", (ACTION,)),
    "done": ("_check_end", (MELEE,)),
}


class FarsideChecking(FarsideApplying):
    def legal_actions(self) -> list[Action]:
        seat = self.current_seat()
        if seat is None:
            return []
        candidates: list[Action] = []
        if self.evade_offer is not None:
            mid = self.evade_offer["model"]
            return [Action({"type": "accept", "model": mid}), Action({"type": "manoeuvre", "player": seat, "name": "Evade", "model": mid})]
        if self.pending is not None:
            pending = self.pending
            if self.options["dice"] == "press":
                return [Action({"type": "roll"})]
            if pending["count_fails"]:
                candidates = [Action({"type": "roll", "fails": k}) for k in range(pending["dice"] + 1)]
            else:
                faces = range(1, pending["sides"] + 1)
                candidates = [Action({"type": "roll", "dice": FrozenList(c)}) for c in itertools.combinations_with_replacement(faces, pending["dice"])]
            return candidates
        if self.phase == SECRETS:
            team = len(self.on_table(seat))
            return [
                Action({"type": "secret", "primary": p, "stratagem": s, "team_size": t})
                for p in MISSIONS for s in MISSIONS for t in range(1, team + 1)
            ]
        if self.phase == COMMAND:
            commands = []
            for die in sorted(set(self.command_dice[seat])):
                commands.append(Action({"type": "command", "die": die}))
                if self.record_format >= 4 and self._manoeuvre_die_after(seat, die) == 6:
                    commands += [Action({"type": "command", "die": die, "chosen": mid}) for mid in self.on_table(seat)]
            return commands
        if self.failed is not None:
            failed: list[dict[str, Any]] = [{"type": "failed", "model": self.failed["model"], "choice": c} for c in ("pass", "act", "simple")]
            failed += [{"type": "manoeuvre", "player": seat, "name": "Inspired"}]
            return self._passing(failed)
        own = self.on_table(seat)
        tried: list[dict[str, Any]] = []
        everyone = [mid for mid, m in self.models.items() if m["status"] == ON_TABLE]
        tried += [{"type": "impact", "model": mid, "tokens": n} for mid in everyone for n in range(1, MAX_IMPACT_PER_ACTION + 1)]
        if self.phase == ACTION:
            for mid in own:
                for kind in ("simple", "complex"):
                    tried.append({"type": "activate", "model": mid, "action": kind})
                    tried.append({"type": "activate", "model": mid, "action": kind, "group": True})
                tried.append({"type": "break_through", "model": mid})
                tried.append({"type": "loot", "model": mid})
                tried.append({"type": "regenerate", "model": mid})
            tried += [{"type": "secure", "zone": z} for z in range(1, self.secure_zones + 1)]
            tried.append({"type": "announce_end"})
            tried.append({"type": "end_turn"})
        if self.phase == MELEE:
            tried += [{"type": "pile_in", "model": mid} for mid in own]
            tried.append({"type": "done"})
        if self.phase in (ACTION, MELEE):
            tried += [{"type": "dead_zone", "model": mid} for mid in everyone]
            for player in (0, 1):
                for row in tables()["manoeuvres"]:
                    target = MANOEUVRE_TARGETS.get(row["name"])
                    if target is None:
                        tried.append({"type": "manoeuvre", "player": player, "name": row["name"]})
                    else:
                        tried += [
                            {"type": "manoeuvre", "player": player, "name": row["name"], "model": mid}
                            for mid in self.on_table(player)
                        ]
                        if row["name"] == "Disappear":  # carrying a loot token off the table
                            tried += [
                                {"type": "manoeuvre", "player": player, "name": row["name"], "model": mid, "loot": True}
                                for mid in self.on_table(player)
                            ]
        return self._passing(tried)

    def _passing(self, tried: list[dict[str, Any]]) -> list[Action]:
        """The normal forms of the actions ``tried`` that the checks accept, in order (each equal to
        the one tried, key order too): one check and one immutable value per listed action."""
        passing = []
        for action in tried:
            try:
                passing.append(self._check(action))  # type: ignore[arg-type]
            except IllegalActionError:
                continue
        return passing

    def _check(self, action: Action) -> Action:
        kind = action.get("type")
        seat = self.current_seat()
        assert seat is not None
        if self.evade_offer is not None:
            return self._check_evade(action, seat)
        if kind == "roll" and self.options["dice"] == "host":
            raise RuleViolationError("farside.roll.host", "the host rolls the dice in this game (option dice = host)")
        if self.pending is not None:
            if kind != "roll":
                raise RuleViolationError("farside.roll.pending", f"seat {seat} must first enter the {self.pending['roll']} roll")
            return self._check_roll(action)
        if kind == "roll":
            raise RuleViolationError("farside.roll.none", "no roll is expected now")
        entry = _CHECKS.get(kind) if isinstance(kind, str) else None
        if entry is None or not isinstance(kind, str):
            raise MalformedActionError("farside.action.type", f"unknown action type {kind!r}")
        method, phases = entry
        if self.phase not in phases:
            raise RuleViolationError("farside.phase", f"{kind!r} is not possible in the {self.phase} phase")
        if self.failed is not None and kind not in ("failed", "manoeuvre"):
            raise RuleViolationError("farside.activation.failed_pending",
                                     f"model {self.failed['model']} failed its activation: choose pass or act first")
        checked: Action = getattr(self, method)(action, seat)
        return checked

    def _check_roll(self, action: Action) -> Action:
        pending = self.pending
        assert pending is not None
        if self.options["dice"] == "press":
            if set(action) != {"type"}:
                raise MalformedActionError("farside.roll.press", "the host rolls in this game (dice = press): send {\"type\": \"roll\"} without values")
            return Action({"type": "roll"})
        if pending["count_fails"]:
            fails = self._whole(action.get("fails"), "fails", 0, pending["dice"])
            return Action({"type": "roll", "fails": fails})
        dice = action.get("dice")
        if not isinstance(dice, list) or len(dice) != pending["dice"]:
            raise MalformedActionError("farside.roll.shape", f"enter {pending['dice']} dice as a list, e.g. {{\"dice\": [3, 5]}}")
        values = [self._whole(v, "die", 1, pending["sides"]) for v in dice]
        return Action({"type": "roll", "dice": FrozenList(sorted(values))})

    def _check_secret(self, action: Action, seat: int) -> Action:
        primary, stratagem = action.get("primary"), action.get("stratagem")
        for label, value in (("primary", primary), ("stratagem", stratagem)):
            if value not in MISSIONS:
                raise MalformedActionError("farside.secret.mission", f"{label} must be one of {', '.join(MISSIONS)}, got {value!r}")
        team = self._whole(action.get("team_size"), "team_size", 1, len(self.on_table(seat)))
        return Action({"type": "secret", "primary": primary, "stratagem": stratagem, "team_size": team})

    def _check_command(self, action: Action, seat: int) -> Action:
        die = action.get("die")
        if not is_whole(die) or die not in self.command_dice[seat]:
            raise RuleViolationError("farside.command.die", f"choose one of your dice {self.command_dice[seat]}, got {die!r}")
        if "chosen" not in action:
            return Action({"type": "command", "die": die})
        # The Chosen named with the command die: the beginning of the round, the manoeuvre die known.
        if self.record_format < 4:
            raise RuleViolationError("farside.command.chosen", "records of format 1-3 name The Chosen as a manoeuvre only")
        other = self._manoeuvre_die_after(seat, die)
        if other < 6:
            raise RuleViolationError("farside.manoeuvre.die", f"The Chosen needs a manoeuvre die of 6+; taking {die} leaves {other}")
        mid = self._model(Action({"model": action["chosen"]}), seat)
        return Action({"type": "command", "die": die, "chosen": mid})

    def _manoeuvre_die_after(self, seat: int, die: int) -> int:
        """The manoeuvre die ``seat`` keeps when it takes ``die`` as its command die."""
        dice = list(self.command_dice[seat])
        dice.remove(die)
        return int(dice[0])

    def _check_activate(self, action: Action, seat: int) -> Action:
        mid = self._model(action, seat)
        if self.models[mid]["activated"]:
            raise RuleViolationError("farside.activate.twice", f"model {mid} was already activated this turn")
        if action["type"] == "pile_in":
            if seat != self.active:
                raise RuleViolationError("farside.pile_in.active", "only the active player's units pile in")
            return Action({"type": "pile_in", "model": mid})
        kind = action.get("action")
        if kind not in ("simple", "complex"):
            raise MalformedActionError("farside.activate.kind", f"action must be simple or complex, got {kind!r}")
        group = action.get("group", False)
        if not isinstance(group, bool):
            raise MalformedActionError("farside.activate.group", "group must be true or false")
        if group:
            if self.group is None or self.group.get("pile_in"):
                raise RuleViolationError("farside.activate.no_group", "no group activation is open: activate a first model with an action point")
        elif self.action_points[seat] < 1:
            raise RuleViolationError("farside.activate.no_points", "no action points left this turn")
        if group:
            return Action({"type": "activate", "model": mid, "action": kind, "group": True})
        return Action({"type": "activate", "model": mid, "action": kind})

    def _check_failed(self, action: Action, seat: int) -> Action:
        if self.failed is None:
            raise RuleViolationError("farside.failed.none", "no activation has failed")
        if action.get("model") != self.failed["model"]:
            raise RuleViolationError("farside.failed.model", f"the failed activation is model {self.failed['model']}'s")
        choice = action.get("choice")
        if choice not in ("pass", "act", "simple"):
            raise MalformedActionError("farside.failed.choice", f"choice must be pass, act or simple, got {choice!r}")
        if choice == "simple":
            model = self.models[self.failed["model"]]
            if self.record_format < 2 or model.get("action") != "complex" or self.failed["roll"] < model["damage"]:
                raise RuleViolationError(
                    "farside.failed.simple",
                    f"a simple action instead needs a complex action declared and a roll of at least the damage tokens ({model['damage']})",
                )
        return Action({"type": "failed", "model": self.failed["model"], "choice": choice})

    def _check_impact(self, action: Action, seat: int) -> Action:
        mid = self._model(action)
        tokens = self._whole(action.get("tokens"), "tokens", 1, MAX_IMPACT_PER_ACTION)
        return Action({"type": "impact", "model": mid, "tokens": tokens})

    def _check_secure(self, action: Action, seat: int) -> Action:
        zone = self._whole(action.get("zone"), "zone", 1, max(1, self.secure_zones))
        if zone > self.secure_zones:
            raise RuleViolationError("farside.secure.zone", f"there are {self.secure_zones} terrain zones to secure")
        if self.secured.get(zone) == seat:
            raise RuleViolationError("farside.secure.held", f"zone {zone} is already secured by you")
        if self.action_points[seat] < 1:
            raise RuleViolationError("farside.secure.no_points", "securing costs one action point; none are left")
        return Action({"type": "secure", "zone": zone})

    def _check_leave(self, action: Action, seat: int) -> Action:
        mid = self._model(action, seat)
        if action["type"] == "loot" and self.loot_left < 1:
            raise RuleViolationError("farside.loot.none", "no loot tokens are left on the table")
        return Action({"type": action["type"], "model": mid})

    def _check_manoeuvre(self, action: Action, seat: int) -> Action:
        player = self._whole(action.get("player"), "player", 0, 1)
        name = action.get("name")
        row = find_manoeuvre(name) if isinstance(name, str) else None
        if row is None:
            names = ", ".join(r["name"] for r in tables()["manoeuvres"])
            raise MalformedActionError("farside.manoeuvre.unknown", f"unknown manoeuvre {name!r}; known: {names}")
        if self.manoeuvre_used[player] is not None:
            raise RuleViolationError("farside.manoeuvre.used", f"seat {player} already used the manoeuvre die this round")
        die = self.manoeuvre_die[player] or 0
        if die < row["die"]:
            raise RuleViolationError("farside.manoeuvre.die", f"{row['name']} needs a manoeuvre die of {row['die']}+, seat {player} has {die}")
        checked = Action({"type": "manoeuvre", "player": player, "name": row["name"]})
        if row["name"] == "Inspired":
            if self.failed is None or self.models[self.failed["model"]]["owner"] != player:
                raise RuleViolationError("farside.manoeuvre.inspired", "Inspired rerolls a failed activation roll of your own")
            return checked
        if self.failed is not None:
            raise RuleViolationError("farside.activation.failed_pending", f"model {self.failed['model']} failed its activation: choose pass or act first")
        if row["name"] == "Evade" and self.record_format >= 2:
            raise RuleViolationError("farside.manoeuvre.evade", "Evade rerolls a defence roll: the tracker offers it in the impact phase")
        if row["name"] == "The Chosen" and self.record_format >= 4 and not self.chosen_open:
            raise RuleViolationError(
                "farside.manoeuvre.chosen",
                "The Chosen is named at the beginning of the round: after the command dice, before the first action",
            )
        target = MANOEUVRE_TARGETS.get(row["name"])
        if target is not None:
            mid = self._model(action, player)
            if target == "damaged" and self.models[mid]["damage"] < 1:
                raise RuleViolationError("farside.manoeuvre.cure", f"model {mid} has no damage token to remove")
            checked = checked.replace(model=mid)
            if row["name"] == "Disappear" and "loot" in action:
                return self._check_disappear_loot(checked, action["loot"])
            return checked
        if "model" in action:
            return checked.replace(model=self._model(action))  # recorded for the players' reference
        return checked

    def _check_disappear_loot(self, checked: Action, loot: object) -> Action:
        """Disappear with ``"loot": true``: the model carries a loot token off the table (it scores loot)."""
        if not isinstance(loot, bool):
            raise MalformedActionError("farside.manoeuvre.loot", "loot must be true (the model carries a loot token) or false")
        if not loot:
            return checked
        if self.loot_left < 1:
            raise RuleViolationError("farside.loot.none", "no loot tokens are left on the table")
        return checked.replace(loot=True)

    def _check_regenerate(self, action: Action, seat: int) -> Action:
        """Regeneration: "Simple action: remove one damage token on a roll of 3+" (a special rule)."""
        mid = self._model(action, seat)
        model = self.models[mid]
        if "Regeneration" not in model.get("rules", ()):
            raise RuleViolationError("farside.regenerate.rule", f"model {mid} ({model['name']}) has no Regeneration in its army's rules")
        if not model["activated"] or model.get("action") != "simple":
            raise RuleViolationError(
                "farside.regenerate.simple",
                f"Regeneration is a simple action: activate model {mid} with a simple action first (once a turn)",
            )
        if model["damage"] < 1:
            raise RuleViolationError("farside.regenerate.damage", f"model {mid} has no damage token to remove")
        return Action({"type": "regenerate", "model": mid})

    def _check_dead_zone(self, action: Action, seat: int) -> Action:
        """A model on or across a dead zone rolls once every turn (its owner rolls)."""
        mid = self._model(action)
        if mid in self.dead_zone_rolled:
            raise RuleViolationError("farside.dead_zone.once", f"model {mid} already rolled for a dead zone this turn")
        return Action({"type": "dead_zone", "model": mid})

    def _check_evade(self, action: Action, seat: int) -> Action:
        """After a defence roll that Evade could reroll: keep it or Evade."""
        assert self.evade_offer is not None
        mid = self.evade_offer["model"]
        kind = action.get("type")
        if kind == "accept" or (kind == "manoeuvre" and action.get("name") == "Evade"):
            if action.get("model") != mid:
                raise RuleViolationError("farside.evade.model", f"the defence roll to keep or Evade is model {mid}'s")
            if kind == "accept":
                return Action({"type": "accept", "model": mid})
            if action.get("player") != seat:
                raise RuleViolationError("farside.evade.player", f"Evade uses the manoeuvre die of the model's owner, seat {seat}")
            return Action({"type": "manoeuvre", "player": seat, "name": "Evade", "model": mid})
        raise RuleViolationError(
            "farside.evade.pending",
            f"model {mid} failed {self.evade_offer['fails']} defence dice: keep the roll (accept) or reroll them all (manoeuvre Evade)",
        )

    def _check_announce(self, action: Action, seat: int) -> Action:
        """"The game is continued until one player announces the end" (option game_end = announced),
        once the objective limit is reached; the current round is then completed."""
        if self.options["game_end"] != "announced":
            raise RuleViolationError("farside.announce.option", "the game ends by itself at the objective limit (option game_end = at_limit)")
        if self.total_objectives() < self.options["objective_limit"]:
            raise RuleViolationError(
                "farside.announce.early",
                f"the end can be announced once {self.options['objective_limit']} objectives are accomplished "
                f"({self.total_objectives()} so far)",
            )
        if self.end_announced is not None:
            raise RuleViolationError("farside.announce.twice", f"seat {self.end_announced} already announced the end")
        return Action({"type": "announce_end"})

    def _check_end(self, action: Action, seat: int) -> Action:
        return Action({"type": action["type"]})
