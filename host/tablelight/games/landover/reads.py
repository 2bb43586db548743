"""Landover's read API: everything a face, a drawing, a bot, the search or the lab reads of a game,
as methods and read-only properties of the engine (as python-chess gives a board ``pieces(...)`` and
``is_check()``). They answer from the position (``game.pos``, a ``LandoverState``) and return values
the caller may keep: numbers, names, tuples, fresh dicts. Nothing here changes the game.

Seats are 0-based, corners, sides and hexes are map ids; "nobody" is ``None``.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from tablelight.core.game import Action, Game
from tablelight.games.landover import listing, places, scoring
from tablelight.games.landover.cards import CULTURES
from tablelight.games.landover.hexmap import CARDS, RESOURCES, LandoverMap
from tablelight.games.landover.rules import BRIDGE, CITY, COSTS, CULTURE_COMMODITY, CULTURE_INDEX, NOBODY, OVER, ROAD, VILLAGE
from tablelight.games.landover.state import LandoverState
from tablelight.games.landover.trading import trade_rate

#: The pieces a seat builds, as ``pieces_of`` names them.
PIECE_NAMES = ("village", "city", "road", "bridge", "wall")


def _seat_or_none(seat: int) -> int | None:
    return None if seat == NOBODY else seat


class LandoverReads(Game):
    """The read API (the engine, ``engine.Landover``, is this class plus the rules' entry points)."""

    pos: LandoverState

    # ------------------------------------------------------------------ the map

    @property
    def map(self) -> LandoverMap:
        """The map: geometry and what is printed on it (fixed for the game)."""
        return self.pos.map

    @property
    def hex_count(self) -> int:
        return self.pos.hex_count

    @property
    def corner_count(self) -> int:
        return self.pos.corner_count

    @property
    def side_count(self) -> int:
        return self.pos.side_count

    def terrain(self, h: int) -> str:
        """Hex ``h``'s terrain now ("mystery" until it is revealed, "water", "forest", ...)."""
        return self.pos.terrain[h]

    def number(self, h: int) -> int | None:
        """Hex ``h``'s number token now (inventor and anarchy move them), or None."""
        return self.pos.number[h]

    def hexes(self) -> list[dict[str, Any]]:
        """Every hex: ``{"id", "terrain", "number", "catapult"}`` (the seat of a catapult there, or None)."""
        p = self.pos
        return [{"id": h, "terrain": p.terrain[h], "number": p.number[h], "catapult": p.catapult_at.get(h)} for h in range(p.hex_count)]

    def land_hexes(self) -> tuple[int, ...]:
        """The hexes that are land now (not water, not an unrevealed mystery)."""
        return self.pos.land_hexes

    def hexes_numbered(self, token: int) -> tuple[int, ...]:
        """The land hexes with number ``token`` now."""
        return tuple(self.pos.by_number.get(token, ()))

    def numbers_before_anarchy(self) -> tuple[int | None, ...] | None:
        """Per hex, the tokens a 7 puts back after an anarchy (None: no anarchy in force)."""
        saved = self.pos.saved_numbers
        return None if saved is None else tuple(saved)

    def producing_hexes(self) -> list[int]:
        """Hexes that produce on this turn's roll: none before the roll, on a 7, or once the game is over."""
        p = self.pos
        if p.phase not in ("main", "lucky_raid") or not p.dice:
            return []
        total = p.dice["white"] + p.dice["red"]
        return [] if total == 7 else [h for h in p.by_number.get(total, ()) if h not in p.catapult_at]

    def catapult_on(self, h: int) -> int | None:
        """The seat whose catapult stands on hex ``h``, or None."""
        return self.pos.catapult_at.get(h)

    def catapults(self) -> dict[int, int]:
        """Hex -> the seat of the catapult there."""
        return dict(self.pos.catapult_at)

    def merchant(self) -> tuple[int, int] | None:
        """(seat, hex) of the merchant token, or None while nobody holds it."""
        p = self.pos
        return None if p.merchant_owner == NOBODY else (p.merchant_owner, p.merchant_hex)

    # ------------------------------------------------------------------ pieces

    def corner_owner(self, v: int) -> int | None:
        """The seat of the village or city on corner ``v``, or None."""
        return _seat_or_none(self.pos.corner_owner[v])

    def corner_piece(self, v: int) -> str | None:
        """``"village"``, ``"city"`` or None: what stands on corner ``v``."""
        return {VILLAGE: "village", CITY: "city"}.get(self.pos.corner_level[v])

    def has_wall(self, v: int) -> bool:
        """The city on corner ``v`` has a city wall."""
        return self.pos.corner_wall[v]

    def metro_on(self, v: int) -> str | None:
        """The culture of the metro on the city at corner ``v``, or None."""
        c = self.pos.corner_metro[v]
        return None if c < 0 else CULTURES[c]

    def corner_on_land(self, v: int) -> bool:
        """Corner ``v`` touches a land (or mystery) hex."""
        return self.pos.corner_on_land[v]

    def side_owner(self, e: int) -> int | None:
        """The seat of the road or bridge on side ``e``, or None."""
        return _seat_or_none(self.pos.side_owner[e])

    def side_piece(self, e: int) -> str | None:
        """``"road"``, ``"bridge"`` or None: what lies on side ``e``."""
        return {ROAD: "road", BRIDGE: "bridge"}.get(self.pos.side_route[e])

    def pieces_of(self, seat: int) -> dict[str, tuple[int, ...]]:
        """``seat``'s pieces on the map: piece name -> its corners (village, city, wall) or sides (road, bridge), in the order built."""
        p = self.pos
        corners, sides = p.corners_of[seat], p.edges_of[seat]
        return {
            "village": tuple(v for v in corners if p.corner_level[v] == VILLAGE),
            "city": tuple(v for v in corners if p.corner_level[v] == CITY),
            "road": tuple(e for e in sides if p.side_route[e] == ROAD),
            "bridge": tuple(e for e in sides if p.side_route[e] == BRIDGE),
            "wall": tuple(v for v in corners if p.corner_wall[v]),
        }

    def settlement_corners(self, seat: int) -> tuple[int, ...]:
        """The corners of ``seat``'s villages and cities, in the order built."""
        return tuple(self.pos.corners_of[seat])

    def route_sides(self, seat: int) -> tuple[int, ...]:
        """The sides of ``seat``'s roads and bridges, in the order built."""
        return tuple(self.pos.edges_of[seat])

    def piece_count(self, seat: int, piece: str) -> int:
        """How many of ``piece`` (see PIECE_NAMES) ``seat`` has on the map."""
        return self.pos.counts[seat][piece]

    def pieces_left(self, seat: int, piece: str) -> int:
        """How many more of ``piece`` ("village", "road"...) ``seat`` may build under this game's limits."""
        return self.pos.limits[piece] - self.pos.counts[seat][piece]

    def settled_islands(self, seat: int) -> tuple[frozenset[int], frozenset[int]]:
        """(home islands, islands explored since the setup) of ``seat``."""
        return frozenset(self.pos.home_islands[seat]), frozenset(self.pos.explored[seat])

    # ------------------------------------------------------------------ seats

    def hand(self, seat: int) -> dict[str, int]:
        """``seat``'s resource and commodity cards: card name -> count, every kind (a secret of the seat's)."""
        return dict(zip(CARDS, self.pos.hands[seat]))

    def hand_size(self, seat: int) -> int:
        return scoring.hand_size(self.pos, seat)

    def dev_cards(self, seat: int) -> tuple[str, ...]:
        """The development cards ``seat`` holds, in the order drawn (a secret of the seat's)."""
        return tuple(self.pos.dev_cards[seat])

    def culture(self, seat: int) -> dict[str, int]:
        """``seat``'s culture levels: science, commerce, politics."""
        return dict(zip(CULTURES, self.pos.culture[seat]))

    def military(self, seat: int) -> int:
        return self.pos.military[seat]

    def military_cap(self, seat: int) -> int:
        """The most military power ``seat`` may hold (no limit from politics 3: a large number)."""
        return scoring.military_cap(self.pos, seat)

    def vp(self, seat: int) -> int:
        """``seat``'s victory points now."""
        return scoring.vp(self.pos, seat)

    def vp_breakdown(self, seat: int) -> dict[str, int]:
        return scoring.vp_breakdown(self.pos, seat)

    def safe_hand(self, seat: int) -> int:
        """The most cards ``seat`` keeps on a 7 (9, +2 per city wall)."""
        return scoring.safe_hand(self.pos, seat)

    def trade_rate(self, seat: int, kind: int) -> int:
        """How many cards of kind ``kind`` (an index in ``hexmap.CARDS``) buy ``seat`` one card now."""
        return trade_rate(self.pos, seat, kind)

    def ports(self, seat: int) -> tuple[int, tuple[str, ...]]:
        """(harbors ``seat``'s settlements touch, the resources it trades 2:1 by harbor)."""
        p = self.pos
        return p.harbor_count[seat], tuple(RESOURCES[k] for k in sorted(p.harbor_kinds[seat]))

    def route_length(self, seat: int) -> int:
        """The length of ``seat``'s longest route."""
        return self.pos.routes[seat]

    def cost(self, piece: str) -> dict[str, int]:
        """What ``piece`` costs ("road", "bridge", "village", "city", "wall", "military", "medicine"): card name -> count."""
        return {CARDS[kind]: n for kind, n in COSTS[piece]}

    def improve_cost(self, seat: int, culture: str) -> tuple[str, int]:
        """(commodity, count) that ``seat``'s next level of ``culture`` costs now (a crane played this turn takes one off)."""
        c = CULTURE_INDEX[culture]
        level = self.pos.culture[seat][c]
        crane = self.pos.crane and self.pos.seat == seat
        return CARDS[CULTURE_COMMODITY[c]], max(0, level + 1 - (1 if crane else 0))

    # ------------------------------------------------------------------ titles and shared things

    def route_holder(self) -> int | None:
        """The seat holding longest route, or None."""
        return _seat_or_none(self.pos.route_holder)

    def port_holder(self) -> int | None:
        """The seat holding port authority, or None."""
        return _seat_or_none(self.pos.port_holder)

    def metro_holder(self, culture: str) -> int | None:
        """The seat holding ``culture``'s metro, or None."""
        return _seat_or_none(self.pos.metro_owner[CULTURE_INDEX[culture]])

    def deck_sizes(self) -> dict[str, int]:
        """Culture -> the development cards left in its deck."""
        return {culture: len(deck) for culture, deck in zip(CULTURES, self.pos.decks)}

    @property
    def barbarians(self) -> int:
        """The barbarians' position on their track (an attack when it reaches the end)."""
        return self.pos.barbarians

    @property
    def barbarian_delay(self) -> int:
        """Barbarian faces still to pass without moving the barbarians."""
        return self.pos.barbarian_delay

    # ------------------------------------------------------------------ the turn

    @property
    def phase(self) -> str:
        """"setup", "roll", "main", "lucky_raid", "take" or "over"."""
        return self.pos.phase

    @property
    def seat(self) -> int:
        """The seat to act (the last one once the game is over; see current_seat)."""
        return self.pos.seat

    @property
    def order(self) -> tuple[int, ...]:
        """The seat order."""
        return tuple(self.pos.order)

    @property
    def turns(self) -> int:
        """Turns played (the turn cap counts them)."""
        return self.pos.turns

    @property
    def capped(self) -> bool:
        """The game ended at the turn cap."""
        return self.pos.capped

    def dice(self) -> dict[str, Any]:
        """This turn's roll ``{"white", "red", "event"}`` ({} before the first)."""
        return dict(self.pos.dice)

    def taking(self) -> dict[str, Any] | None:
        """Phase take: ``{"seat", "card", "target"}`` of the master merchant or spy waiting for its take; else None."""
        taking = self.pos.taking
        return None if taking is None else dict(taking)

    @property
    def crane(self) -> bool:
        """A crane was played this turn (the next improvement costs one less)."""
        return self.pos.crane

    @property
    def free_routes(self) -> int:
        """Roads or bridges still free this turn (road building)."""
        return self.pos.free_routes

    # ------------------------------------------------------------------ places the rules allow

    def village_corners(self, seat: int) -> list[int]:
        """The corners where ``seat`` may build a village now (the rules' own listing)."""
        return list(places.village_corners(self.pos, seat))

    def far_from_villages(self, v: int) -> bool:
        """Corner ``v`` is free and no neighbouring corner holds a village or city (the distance rule)."""
        return places.distance_ok(self.pos, v)

    def settled_hexes(self, seat: int) -> list[int]:
        """Land hexes next to one of ``seat``'s villages or cities (where its merchant may stand)."""
        return list(places.settled_hexes(self.pos, seat))

    def diplomat_targets(self, seat: int, e: int) -> list[int]:
        """Sides where a diplomat may move ``seat``'s road or bridge on side ``e``."""
        return list(places.diplomat_targets(self.pos, seat, e))

    def metro_cities(self, seat: int, culture: str, level: int) -> list[int] | None:
        """The cities where ``seat`` may put the ``culture`` metro on reaching ``level``; None: that
        level wins it no metro."""
        found = places.metro_choices(self.pos, seat, CULTURE_INDEX[culture], level)
        return None if found is None else list(found)

    def actions_if_holding(self, hand: Sequence[int], dev_cards: Sequence[str]) -> list[Action]:
        """The legal actions the seat to act would have if it held ``hand`` (counts by card index, as
        ``hexmap.CARDS``) and ``dev_cards`` instead of its own cards (the game is not changed)."""
        twin = copy.deepcopy(self.pos)
        twin.hands[twin.seat] = list(hand)
        twin.dev_cards[twin.seat] = list(dev_cards)
        return listing.legal_actions(twin)

    def is_over(self) -> bool:
        return self.pos.phase == OVER
