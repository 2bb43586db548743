"""What players see: the state, a seat's view and log (secrets hidden until the end), the text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablelight.core.game import LogEntry
from tablelight.games.farside.checking import FarsideChecking
from tablelight.games.farside.state import (
    ACTION,
    IMPACT,
    MELEE,
    OVER,
)


class FarsideViews(FarsideChecking):
    def state(self) -> dict[str, Any]:
        return {
            "game": self.name,
            "phase": self.phase,
            "round": self.round,
            "turn": self.current_seat(),
            "active": self.active if self.phase in (ACTION, MELEE, IMPACT) else None,
            "first_player": self.first,
            "pending_roll": dict(self.pending) if self.pending else None,
            "failed_activation": dict(self.failed) if self.failed else None,
            "evade_offer": dict(self.evade_offer) if self.evade_offer else None,
            "setup": {
                "rolls": list(self.setup_rolls), "placer": self.placer, "secure_zones": self.secure_zones,
                "loot_tokens": self.loot_tokens, "deployment_cm": list(self.deployment),
            },
            "command": {
                "dice": [list(d) for d in self.command_dice],
                "command_die": list(self.command_die),
                "manoeuvre_die": list(self.manoeuvre_die),
                "manoeuvre_used": list(self.manoeuvre_used),
                "action_points": list(self.action_points),
            },
            "armies": [a["name"] for a in self.armies],
            # copies, the profile's lists (weapons, rules) too: a caller cannot change the game through them
            "models": {mid: {k: list(v) if isinstance(v, list) else v for k, v in m.items()} for mid, m in self.models.items()},
            "secrets": [dict(s) if s else None for s in self.secrets],
            "team_size": [s["team_size"] if s else None for s in self.secrets],
            "objectives": [dict(o) for o in self.objectives],
            "objective_total": self.total_objectives(),
            "secured": {str(z): s for z, s in sorted(self.secured.items())},
            "loot_left": self.loot_left,
            "broken_through": list(self.broken_through),
            "losses": list(self.losses),
            "victory_points": self.victory_points() if self.phase == OVER else None,
            "scores": self.scores(),
            "winners": self.winners(),
            "end_reason": self.end_reason,
            "end_announced": self.end_announced,
        }

    def view(self, seat: int) -> dict[str, Any]:
        self._check_seat(seat)
        state = self.state()
        if self.phase != OVER:
            other = 1 - seat
            if state["secrets"][other] is not None:
                state["secrets"][other] = {"team_size": state["secrets"][other]["team_size"]}
        return state

    def view_log(self, seat: int) -> list[Mapping[str, Any]]:
        self._check_seat(seat)
        if self.phase == OVER:
            return list(self.log)
        hidden: list[Mapping[str, Any]] = []
        entry: Mapping[str, Any]
        for entry in self.log:
            action = entry.get("action")
            if action and action.get("type") == "secret" and entry.get("seat") != seat:
                entry = {**entry, "action": {"type": "secret", "team_size": action["team_size"]}}
            hidden.append(entry)
        return hidden

    def describe(self, color: bool = False) -> str:
        lines = [f"farside: round {self.round}, {self.phase} phase"
                 + (f", seat {self.current_seat()} to act" if self.current_seat() is not None else f" ({self.end_reason})")]
        if self.pending:
            lines.append(f"  waiting for seat {self.pending['seat']}'s {self.pending['roll']} roll ({self.pending['dice']} dice)")
        for seat in (0, 1):
            ap = self.action_points[seat]
            if self.command_die[seat]:
                dice = f"command die {self.command_die[seat]}, manoeuvre die {self.manoeuvre_die[seat]}"
            elif self.command_dice[seat]:
                dice = f"rolled {self.command_dice[seat]} (sum {sum(self.command_dice[seat])})"
            else:
                dice = "no command dice yet"
            objectives = ", ".join(f"{m} {n}" for m, n in self.objectives[seat].items() if n) or "none"
            lines.append(f"  seat {seat} ({self.armies[seat]['name']}): {dice}, {ap} action points; objectives: {objectives}")
            for mid in self.on_table(seat):
                m = self.models[mid]
                marks = f" damage {m['damage']}" * bool(m["damage"]) + f" impact {m['impact']}" * bool(m["impact"])
                lines.append(f"    {mid} {m['name']}{marks}{' (activated)' if m['activated'] else ''}")
        lines.append(f"  objectives {self.total_objectives()}/{self.options['objective_limit']}, loot left {self.loot_left}")
        return "\n".join(lines)
