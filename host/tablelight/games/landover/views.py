"""What players see: the state, a seat's view and log, the result, the text and read-only queries for faces and bots."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablelight.games.landover.hexmap import CARDS
from tablelight.games.landover.cards import CULTURES, vp_cards
from tablelight.games.landover.rules import (
    BARBARIAN_TRACK,
    BRIDGE,
    CITY,
    CULTURE_INDEX,
    PRIVATE_CHANCE,
    ROAD,
    TWO_STEP_CARDS,
    VILLAGE,
)
from tablelight.games.landover.turns import LandoverTurns


class LandoverViews(LandoverTurns):
    def state(self) -> dict[str, Any]:
        return self._state(None)

    def view(self, seat: int) -> dict[str, Any]:
        self._check_seat(seat)
        return self._state(seat)

    def _state(self, viewer: int | None) -> dict[str, Any]:
        players = []
        for s in range(self.players):
            secret = viewer is not None and viewer != s
            player: dict[str, Any] = {
                "seat": s,
                "vp": self.vp(s),
                "hand_size": self.hand_size(s),
                "dev_count": len(self.dev_cards[s]),
                "culture": dict(zip(CULTURES, self.culture[s])),
                "military": self.military[s],
                "catapult": None if self.catapult[s] < 0 else self.catapult[s],
                "route": self.routes[s],
                "harbors": self.harbor_count[s],
                "vp_cards": self.vp_cards[s],
                "safe_hand": self.safe_hand(s),
            }
            if not secret:
                player["hand"] = dict(zip(CARDS, self.hands[s]))
                player["dev_cards"] = sorted(self.dev_cards[s])
            players.append(player)
        return {
            "game": self.name,
            "phase": self.phase,
            "turn": self.current_seat(),
            "turns": self.turns,
            "order": list(self.order),
            "dice": dict(self.dice),
            "hexes": [
                {"id": h, "terrain": self.terrain[h], "number": self.number[h], "catapult": self.catapult_at.get(h)}
                for h in range(self.hex_count)
            ],
            "pieces": self.pieces(),
            "players": players,
            "barbarians": self.barbarians,
            "barbarian_delay": self.barbarian_delay,
            "lucky_raid": self.lucky_raid,
            "taking": None if self.taking is None else dict(self.taking),
            "merchant": None if self.merchant_owner < 0 else {"seat": self.merchant_owner, "hex": self.merchant_hex},
            "metros": [
                {"culture": CULTURES[c], "seat": None if self.metro_owner[c] < 0 else self.metro_owner[c],
                 "locked": self.metro_locked[c]}
                for c in range(3)
            ],
            "longest_route": None if self.route_holder < 0 else self.route_holder,
            "port_authority": None if self.port_holder < 0 else self.port_holder,
            "decks": {CULTURES[c]: len(self.decks[c]) for c in range(3)},
            "mysteries_left": len(self.mystery_left),
            "scores": self.scores(),
            "winners": self.winners(),
            "turn_cap_reached": self.capped,
        }

    def view_log(self, seat: int) -> list[Mapping[str, Any]]:
        """The log without what ``seat`` may not see: others' dev draws, steals it was not part of, and
        the cards a master merchant or spy took unless ``seat`` took them or lost them (the play and its
        target are public)."""
        self._check_seat(seat)
        out: list[Mapping[str, Any]] = []
        entry: Mapping[str, Any]
        target = None  # of the last master merchant or spy played (a format 3 take follows it)
        for entry in self.log:
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

    def pieces(self) -> dict[str, list[dict[str, int]]]:
        return {
            "roads": [{"seat": self.side_owner[e], "edge": e} for e in range(self.side_count) if self.side_route[e] == ROAD],
            "bridges": [{"seat": self.side_owner[e], "edge": e} for e in range(self.side_count) if self.side_route[e] == BRIDGE],
            "villages": [{"seat": self.corner_owner[v], "vertex": v} for v in range(self.corner_count) if self.corner_level[v] == VILLAGE],
            "cities": [
                {"seat": self.corner_owner[v], "vertex": v, "wall": self.corner_wall[v], "metro": CULTURES[self.corner_metro[v]] if self.corner_metro[v] >= 0 else None}  # type: ignore[dict-item]
                for v in range(self.corner_count)
                if self.corner_level[v] == CITY
            ],
        }

    def result(self) -> dict[str, Any]:
        return {
            "scores": self.scores(),
            "winners": self.winners(),
            "vp": self.scores(),
            "vp_breakdown": [self.vp_breakdown(s) for s in range(self.players)],
            "routes": list(self.routes),
            "longest_route": None if self.route_holder < 0 else self.route_holder,
            "pieces": self.pieces(),
            "turns": self.turns,
            "turn_cap": self.capped,
        }

    def describe(self, color: bool = False) -> str:
        seat = self.current_seat()
        who = "game over" if seat is None else f"{self.phase}: seat {seat} to act"
        dice = self.dice
        roll = f"; dice {dice['white']}+{dice['red']} {dice['event']}" if dice else ""
        lines = [f"landover turn {self.turns}: {who}{roll}; barbarians {self.barbarians}/{BARBARIAN_TRACK}"]
        for s in range(self.players):
            c = self.counts[s]
            lines.append(
                f"  seat {s}: {self.vp(s)} VP, {counted(c['village'], 'village')}, {counted(c['city'], 'city', 'cities')}, "
                f"{c['road']}+{c['bridge']} roads+bridges, military {self.military[s]}, "
                f"culture {self.culture[s]}, hand {self.hand_size(s)}, dev {len(self.dev_cards[s])}"
            )
        return "\n".join(lines)

    def describe_result(self) -> str:
        if self.capped:
            return f"turn cap reached after {self.turns} turns: no winner; scores {self.scores()}"
        return super().describe_result()

    def producing_hexes(self) -> list[int]:
        """Hexes that produce on this turn's roll: none before the roll, on a 7, or once the game is over."""
        if self.phase not in ("main", "lucky_raid") or not self.dice:
            return []
        total = self.dice["white"] + self.dice["red"]
        return [] if total == 7 else [h for h in self.by_number.get(total, ()) if h not in self.catapult_at]

    def corner_piece(self, v: int) -> str | None:
        """``"village"``, ``"city"`` or None: what stands on corner ``v`` (its owner is ``corner_owner[v]``)."""
        return {VILLAGE: "village", CITY: "city"}.get(self.corner_level[v])

    def side_piece(self, e: int) -> str | None:
        """``"road"``, ``"bridge"`` or None: what lies on side ``e`` (its owner is ``side_owner[e]``)."""
        return {ROAD: "road", BRIDGE: "bridge"}.get(self.side_route[e])

    def pieces_left(self, seat: int, piece: str) -> int:
        """How many more of ``piece`` ("village", "road"...) ``seat`` may build under this game's limits."""
        return self.limits[piece] - self.counts[seat][piece]

    def village_corners(self, seat: int) -> list[int]:
        """The corners where ``seat`` may build a village now (the rules' own listing)."""
        return list(self._village_corners(seat))

    def far_from_villages(self, v: int) -> bool:
        """Corner ``v`` is free and no neighbouring corner holds a village or city (the distance rule)."""
        return self._distance_ok(v)

    def settled_hexes(self, seat: int) -> list[int]:
        """Land hexes next to one of ``seat``'s villages or cities (where its merchant may stand)."""
        return list(self._settled_hexes(seat))

    def diplomat_targets(self, seat: int, e: int) -> list[int]:
        """Sides where a diplomat may move ``seat``'s road or bridge on side ``e``."""
        return list(self._diplomat_targets(seat, e))

    def metro_cities(self, seat: int, culture: str, level: int) -> list[int] | None:
        """The cities where ``seat`` may put the ``culture`` metro on reaching ``level``; None: that
        level wins it no metro."""
        found = self._metro_choices(seat, CULTURE_INDEX[culture], level)
        return None if found is None else list(found)


def counted(n: int, one: str, many: str = "") -> str:
    """``1 village``, ``2 villages``, ``0 cities``."""
    return f"{n} {one if n == 1 else many or one + 's'}"
