"""What players see: the state, a seat's view and log, the result and the text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablelight.core.actions import LogEntry

from tablelight.games.landover.hexmap import CARDS
from tablelight.games.landover.cards import CULTURES
from tablelight.games.landover.rules import (
    BARBARIAN_TRACK,
    BRIDGE,
    CITY,
    OVER,
    PRIVATE_CHANCE,
    ROAD,
    TWO_STEP_CARDS,
    VILLAGE,
)
from tablelight.games.landover.scoring import hand_size, safe_hand, scores, vp, vp_breakdown
from tablelight.games.landover.state import LandoverState


def winners(p: LandoverState) -> list[int]:
    """The winners once the game is over ([] before, and at the turn cap)."""
    return list(p.winner_seats) if p.phase == OVER else []


def state_of(p: LandoverState, viewer: int | None) -> dict[str, Any]:
    """The state as ``viewer`` sees it (None: everything; a seat: others' hands and cards hidden)."""
    players = []
    for s in range(p.players):
        secret = viewer is not None and viewer != s
        player: dict[str, Any] = {
            "seat": s,
            "vp": vp(p, s),
            "hand_size": hand_size(p, s),
            "dev_count": len(p.dev_cards[s]),
            "culture": dict(zip(CULTURES, p.culture[s])),
            "military": p.military[s],
            "catapult": None if p.catapult[s] < 0 else p.catapult[s],
            "route": p.routes[s],
            "harbors": p.harbor_count[s],
            "vp_cards": p.vp_cards[s],
            "safe_hand": safe_hand(p, s),
        }
        if not secret:
            player["hand"] = dict(zip(CARDS, p.hands[s]))
            player["dev_cards"] = sorted(p.dev_cards[s])
        players.append(player)
    return {
        "game": "landover",
        "phase": p.phase,
        "turn": None if p.phase == OVER else p.seat,
        "turns": p.turns,
        "order": list(p.order),
        "dice": dict(p.dice),
        "hexes": [
            {"id": h, "terrain": p.terrain[h], "number": p.number[h], "catapult": p.catapult_at.get(h)}
            for h in range(p.hex_count)
        ],
        "pieces": pieces_on_map(p),
        "players": players,
        "barbarians": p.barbarians,
        "barbarian_delay": p.barbarian_delay,
        "lucky_raid": p.lucky_raid,
        "taking": None if p.taking is None else dict(p.taking),
        "merchant": None if p.merchant_owner < 0 else {"seat": p.merchant_owner, "hex": p.merchant_hex},
        "metros": [
            {"culture": CULTURES[c], "seat": None if p.metro_owner[c] < 0 else p.metro_owner[c],
             "locked": p.metro_locked[c]}
            for c in range(3)
        ],
        "longest_route": None if p.route_holder < 0 else p.route_holder,
        "port_authority": None if p.port_holder < 0 else p.port_holder,
        "decks": {CULTURES[c]: len(p.decks[c]) for c in range(3)},
        "mysteries_left": len(p.mystery_left),
        "scores": scores(p),
        "winners": winners(p),
        "turn_cap_reached": p.capped,
    }


def view_log_of(log: list[LogEntry], seat: int) -> list[Mapping[str, Any]]:
    """The log without what ``seat`` may not see: others' dev draws, steals it was not part of, and
    the cards a master merchant or spy took unless ``seat`` took them or lost them (the play and its
    target are public)."""
    out: list[Mapping[str, Any]] = []
    entry: Mapping[str, Any]
    target = None  # of the last master merchant or spy played (a format 3 take follows it)
    for entry in log:
        if "chance" in entry:
            involved = PRIVATE_CHANCE.get(entry["chance"])
            if involved is not None and all(entry.get(k) != seat for k in involved):
                entry = {**entry, "value": None, "hidden": True}
            out.append(entry)
            continue
        action = entry["action"]
        if action.get("card") in TWO_STEP_CARDS:
            target = action.get("target")
            if seat not in (entry["seat"], target) and ("take" in action or "card_taken" in action):
                entry = {**entry, "action": {k: v for k, v in action.items() if k not in ("take", "card_taken")}, "hidden": True}
        elif action.get("type") == "take" and seat not in (entry["seat"], target):
            entry = {**entry, "action": {"type": "take"}, "hidden": True}
        out.append(entry)
    return out


def pieces_on_map(p: LandoverState) -> dict[str, list[dict[str, int]]]:
    return {
        "roads": [{"seat": p.side_owner[e], "edge": e} for e in range(p.side_count) if p.side_route[e] == ROAD],
        "bridges": [{"seat": p.side_owner[e], "edge": e} for e in range(p.side_count) if p.side_route[e] == BRIDGE],
        "villages": [{"seat": p.corner_owner[v], "vertex": v} for v in range(p.corner_count) if p.corner_level[v] == VILLAGE],
        "cities": [
            {"seat": p.corner_owner[v], "vertex": v, "wall": p.corner_wall[v], "metro": CULTURES[p.corner_metro[v]] if p.corner_metro[v] >= 0 else None}  # type: ignore[dict-item]
            for v in range(p.corner_count)
            if p.corner_level[v] == CITY
        ],
    }


def result_of(p: LandoverState) -> dict[str, Any]:
    return {
        "scores": scores(p),
        "winners": winners(p),
        "vp": scores(p),
        "vp_breakdown": [vp_breakdown(p, s) for s in range(p.players)],
        "routes": list(p.routes),
        "longest_route": None if p.route_holder < 0 else p.route_holder,
        "pieces": pieces_on_map(p),
        "turns": p.turns,
        "turn_cap": p.capped,
    }


def describe_position(p: LandoverState) -> str:
    seat = None if p.phase == OVER else p.seat
    who = "game over" if seat is None else f"{p.phase}: seat {seat} to act"
    dice = p.dice
    roll = f"; dice {dice['white']}+{dice['red']} {dice['event']}" if dice else ""
    lines = [f"landover turn {p.turns}: {who}{roll}; barbarians {p.barbarians}/{BARBARIAN_TRACK}"]
    for s in range(p.players):
        c = p.counts[s]
        lines.append(
            f"  seat {s}: {vp(p, s)} VP, {counted(c['village'], 'village')}, {counted(c['city'], 'city', 'cities')}, "
            f"{c['road']}+{c['bridge']} roads+bridges, military {p.military[s]}, "
            f"culture {p.culture[s]}, hand {hand_size(p, s)}, dev {len(p.dev_cards[s])}"
        )
    return "\n".join(lines)


def counted(n: int, one: str, many: str = "") -> str:
    """``1 village``, ``2 villages``, ``0 cities``."""
    return f"{n} {one if n == 1 else many or one + 's'}"
