"""What players see: the state, a seat's view and log (the other seat's secret missions hidden until
the end), the text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tablelight.core.game import LogEntry
from tablelight.games.farside.missions import scores, total_objectives, victory_points
from tablelight.games.farside.state import ACTION, IMPACT, MELEE, OVER, FarsideState, current_seat, on_table


def winners(p: FarsideState) -> list[int]:
    """The seats with the most victory points once the game is over (ties share the win)."""
    if current_seat(p) is not None:
        return []
    points = scores(p)
    best = max(points)
    return [seat for seat, score in enumerate(points) if score == best]


def state_of(p: FarsideState) -> dict[str, Any]:
    """The whole state as JSON (no secret hidden): copies, so a caller cannot change the game through it."""
    return {
        "game": "farside",
        "phase": p.phase,
        "round": p.round,
        "turn": current_seat(p),
        "active": p.active if p.phase in (ACTION, MELEE, IMPACT) else None,
        "first_player": p.first,
        "pending_roll": dict(p.pending) if p.pending else None,
        "failed_activation": dict(p.failed) if p.failed else None,
        "evade_offer": dict(p.evade_offer) if p.evade_offer else None,
        "setup": {
            "rolls": list(p.setup_rolls), "placer": p.placer, "secure_zones": p.secure_zones,
            "loot_tokens": p.loot_tokens, "deployment_cm": list(p.deployment),
        },
        "command": {
            "dice": [list(d) for d in p.command_dice],
            "command_die": list(p.command_die),
            "manoeuvre_die": list(p.manoeuvre_die),
            "manoeuvre_used": list(p.manoeuvre_used),
            "action_points": list(p.action_points),
        },
        "armies": [a["name"] for a in p.armies],
        # copies, the profile's lists (weapons, rules) too: a caller cannot change the game through them
        "models": {mid: {k: list(v) if isinstance(v, list) else v for k, v in m.items()} for mid, m in p.models.items()},
        "secrets": [dict(s) if s else None for s in p.secrets],
        "team_size": [s["team_size"] if s else None for s in p.secrets],
        "objectives": [dict(o) for o in p.objectives],
        "objective_total": total_objectives(p),
        "secured": {str(z): s for z, s in sorted(p.secured.items())},
        "loot_left": p.loot_left,
        "broken_through": list(p.broken_through),
        "losses": list(p.losses),
        "victory_points": victory_points(p) if p.phase == OVER else None,
        "scores": scores(p),
        "winners": winners(p),
        "end_reason": p.end_reason,
        "end_announced": p.end_announced,
    }


def view_of(p: FarsideState, seat: int) -> dict[str, Any]:
    """The state as ``seat`` sees it: the other seat's secret shows its team size only, until the end."""
    state = state_of(p)
    if p.phase != OVER:
        other = 1 - seat
        if state["secrets"][other] is not None:
            state["secrets"][other] = {"team_size": state["secrets"][other]["team_size"]}
    return state


def view_log_of(p: FarsideState, log: Sequence[LogEntry], seat: int) -> list[Mapping[str, Any]]:
    """The log as ``seat`` sees it: the other seat's secret action shows its team size only, until the end."""
    if p.phase == OVER:
        return list(log)
    hidden: list[Mapping[str, Any]] = []
    entry: Mapping[str, Any]
    for entry in log:
        action = entry.get("action")
        if action and action.get("type") == "secret" and entry.get("seat") != seat:
            entry = {**entry, "action": {"type": "secret", "team_size": action["team_size"]}}
        hidden.append(entry)
    return hidden


def describe_position(p: FarsideState) -> str:
    """The game as text for terminals: the round, each seat's dice, points, objectives and models."""
    seat_now = current_seat(p)
    lines = [f"farside: round {p.round}, {p.phase} phase"
             + (f", seat {seat_now} to act" if seat_now is not None else f" ({p.end_reason})")]
    if p.pending:
        lines.append(f"  waiting for seat {p.pending['seat']}'s {p.pending['roll']} roll ({p.pending['dice']} dice)")
    for seat in (0, 1):
        ap = p.action_points[seat]
        if p.command_die[seat]:
            dice = f"command die {p.command_die[seat]}, manoeuvre die {p.manoeuvre_die[seat]}"
        elif p.command_dice[seat]:
            dice = f"rolled {p.command_dice[seat]} (sum {sum(p.command_dice[seat])})"
        else:
            dice = "no command dice yet"
        objectives = ", ".join(f"{m} {n}" for m, n in p.objectives[seat].items() if n) or "none"
        lines.append(f"  seat {seat} ({p.armies[seat]['name']}): {dice}, {ap} action points; objectives: {objectives}")
        for mid in on_table(p, seat):
            m = p.models[mid]
            marks = f" damage {m['damage']}" * bool(m["damage"]) + f" impact {m['impact']}" * bool(m["impact"])
            lines.append(f"    {mid} {m['name']}{marks}{' (activated)' if m['activated'] else ''}")
    lines.append(f"  objectives {total_objectives(p)}/{p.options['objective_limit']}, loot left {p.loot_left}")
    return "\n".join(lines)
