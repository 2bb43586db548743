"""The Landover rules engine (a Settlers-like game with culture, barbarians and islands).

The state is flat and index-based (lists per corner, per side, per seat) so that
listing the legal actions at every step stays fast. Every die, card draw and
random pick goes through ``Game._chance*`` and is in the log. Rule decisions and
the reasons for them are in ``docs/rules/landover.md``.

Actions (corners and sides by their map ids, hexes by hex id)::

    {"type": "build", "piece": "village" | "city" | "wall", "vertex": v}
    {"type": "build", "piece": "road" | "bridge", "edge": e}
    {"type": "military"}                       wool + wheat: +1 military power
    {"type": "improve", "culture": "science"}  (+ "city": v when it wins a metro)
    {"type": "trade", "give": "wool", "get": "ore"}   at the best rate the seat has
    {"type": "raid", "hex": h}                 {"type": "remove_catapult", "hex": h}
    {"type": "play", "card": name, ...}        a development card (fields per card)
    {"type": "roll"}                           only when holding an alchemist
    {"type": "lucky_raid", "hex": h}           after a lucky 7
    {"type": "end_turn"}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablelight.core.errors import MalformedActionError, RuleViolationError, SetupError
from tablelight.core.game import Action, Game, LogEntry
from tablelight.core.options import OptionSpec
from tablelight.core.rng import Rng
from tablelight.games.landover.board import (
    CARDS,
    LAND_EDGE,
    RESOURCES,
    TERRAIN_COMMODITY,
    TERRAIN_RESOURCE,
    WATER_EDGE,
    LandoverMap,
    builtin_map,
    deal_numbers,
    map_from_json,
    random_map,
)
from tablelight.games.landover.cards import CULTURES, card_culture, full_decks, vp_cards
from tablelight.games.landover.plays import card_plays, check_card, play_card
from tablelight.games.landover.routes import route_after, route_length
from tablelight.games.landover.rules import (
    ACTION_TYPES,
    ALLOWED_ACTIONS,
    BARBARIAN_TRACK,
    BASE_SAFE_HAND,
    BRIDGE,
    CARD_INDEX,
    CITY,
    CLAY,
    COMMERCE,
    COSTS,
    CULTURE_COMMODITY,
    CULTURE_INDEX,
    DEV_HAND_LIMIT,
    END_TURN,
    EVENT_FACES,
    IMPROVE,
    LUCKY,
    MAIN,
    MAP_SALT,
    MAX_CULTURE,
    MILITARY,
    MILITARY_CAP,
    NOBODY,
    ORE,
    OVER,
    PIECE_LIMITS,
    POLITICS,
    PORT_MIN,
    PRIVATE_CHANCE,
    ROAD,
    ROLL,
    ROLL_CHOICES,
    ROUTE_MIN,
    SCIENCE,
    SETUP,
    TRADES,
    UNLIMITED,
    VILLAGE,
    WHEAT,
    WOOD,
    WOOL,
)

#: Record format 1 (records written before 2026-11-22) keeps the readings it was written with:
#: these options' old values, the lucky 7 raid as a compulsory step, the win check only at
#: the start of a turn and after an action (not after the automatic roll).
FORMAT1_READINGS = {
    "map_numbers": "fixed",
    "barbarian_losers": "reducible",
    "barbarians_at_zero": "defended",
    "city_resources": "setup",
    "route_limits": True,
}
NUMBER_SALT = 0x4E554D53


class Landover(Game):
    name = "landover"
    min_players = 2
    max_players = 4
    latest_record_format = 2
    option_specs = (
        OptionSpec(
            "map_name", str, "archipelago", "built-in map, or random for a generated one (--map FILE overrides)", ("archipelago", "random")
        ),
        OptionSpec("target", int, 15, "victory points that win (on your own turn)"),
        OptionSpec("turn_cap", int, 1000, "the game ends with no winner after this many turns in all"),
        OptionSpec("barbarian_delay", int, 0, "the first N barbarian faces do not move the barbarians"),
        OptionSpec(
            "settlement_limits",
            bool,
            False,
            "at most 5 villages and 4 cities per player as in Catan (the text sets no limit)",
        ),
        OptionSpec(
            "route_limits",
            bool,
            True,
            "at most 15 roads and 15 bridges per player as in Seafarers (off: no limit, as in the text)",
        ),
        OptionSpec(
            "explorer_each_island",
            bool,
            True,
            "island explored: 1 VP for each new island settled (off: 1 VP once)",
        ),
        OptionSpec(
            "map_numbers", str, "random",
            "number tokens of a built-in map: random (dealt from the seed, the text) or fixed (as printed)",
            ("random", "fixed"),
        ),
        OptionSpec(
            "barbarian_losers", str, "any_city",
            "a lost attack hits the least military among players with any city (any_city, the text; "
            "metros are never reduced) or only among players with a city that can be reduced (reducible)",
            ("any_city", "reducible"),
        ),
        OptionSpec(
            "barbarians_at_zero", str, "defended",
            "with no city on the board: defended (the text: strength 0 never beats the players, so the "
            "defence succeeds with its point, cards and military loss) or no_attack (nothing happens)",
            ("defended", "no_attack"),
        ),
        OptionSpec(
            "city_resources", str, "setup",
            "the resources for each tile type a city touches: for the setup city only, or every_city",
            ("setup", "every_city"),
        ),
    )

    # ================================================================== setup

    def _setup(self, setup: Mapping[str, Any] | None) -> None:
        for option, least in (("target", 1), ("turn_cap", 1), ("barbarian_delay", 0)):
            if self.options[option] < least:
                raise SetupError(f"option {option!r} must be at least {least}, got {self.options[option]}")
        if self.record_format < 2:
            self.options.update(FORMAT1_READINGS)
        if setup and "map" in setup:
            self.map: LandoverMap = map_from_json(setup["map"])
        elif self.options["map_name"] == "random":
            self.map = random_map(Rng(self.seed ^ MAP_SALT))
        else:
            self.map = builtin_map(self.options["map_name"])
            if self.options["map_numbers"] == "random":
                self.map = deal_numbers(self.map, Rng(self.seed ^ NUMBER_SALT))
        m = self.map
        self.nh, self.nv, self.ne = len(m.coords), len(m.vertex_hexes), len(m.edge_kind)
        # Cache keys: _version bumps when pieces or terrain change, the other two when
        # catapults move or number tokens change (the lists that depend on them add them).
        self._version = 0
        self._catapult_version = 0
        self._number_version = 0
        self.terrain: list[str] = list(m.terrain)
        self.number: list[int | None] = list(m.number)
        self.mystery_left: list[int] = list(range(len(m.mystery_pool)))
        self.vertex_land = [any(self.terrain[h] != "water" for h in m.vertex_hexes[v]) for v in range(self.nv)]
        self.starting_corner = [
            self.vertex_land[v] and not any(self.terrain[h] == "mystery" for h in m.vertex_hexes[v])
            for v in range(self.nv)
        ]
        n = self.players
        # Each settlement takes its corner and blocks at most three more: with this many
        # starting corners no seat can ever be left without a legal setup place.
        needed = 4 * (2 * n - 1) + 1
        if sum(self.starting_corner) < needed:
            raise SetupError(
                f"map {m.name!r} has {sum(self.starting_corner)} starting corners; "
                f"{n} players need at least {needed}"
            )
        # The text limits walls only (3 per player); Catan's 5 villages and 4 cities are an option.
        self.limits = dict(PIECE_LIMITS)
        if not self.options["settlement_limits"]:
            self.limits["village"] = self.limits["city"] = UNLIMITED
        if not self.options["route_limits"]:
            self.limits["road"] = self.limits["bridge"] = UNLIMITED
        self.vo = [NOBODY] * self.nv  # corner owner
        self.vl = [0] * self.nv  # 0 empty, 1 village, 2 city
        self.vwall = [False] * self.nv
        self.vmetro = [-1] * self.nv  # culture of the metro on this city, or -1
        self.eo = [NOBODY] * self.ne  # side owner
        self.ep = [0] * self.ne  # 0 empty, 1 road, 2 bridge
        self.res = [[0] * 8 for _ in range(n)]
        self.devs: list[list[str]] = [[] for _ in range(n)]
        self.decks: list[list[str]] = [list(full_decks()[c]) for c in CULTURES]
        self.culture = [[0, 0, 0] for _ in range(n)]
        self.military = [0] * n
        self.catapult = [-1] * n  # hex of each seat's catapult
        self.catapult_at: dict[int, int] = {}  # hex -> seat
        self.merchant_owner = NOBODY
        self.merchant_hex = -1
        self.metro_owner = [NOBODY] * 3
        self.metro_locked = [False] * 3
        self.vp_cards = [0] * n
        self.defender = [0] * n
        self.home_islands: list[set[int]] = [set() for _ in range(n)]
        self.explored: list[set[int]] = [set() for _ in range(n)]
        self.counts = [{"village": 0, "city": 0, "road": 0, "bridge": 0, "wall": 0} for _ in range(n)]
        self.edges_of: list[list[int]] = [[] for _ in range(n)]  # sides with the seat's roads and bridges
        self.corners_of: list[list[int]] = [[] for _ in range(n)]  # corners with its villages and cities
        self.routes = [0] * n
        self.route_holder = NOBODY
        self.harbor_count = [0] * n
        self.harbor_kinds: list[set[int]] = [set() for _ in range(n)]
        self.port_holder = NOBODY
        self.barbarians = 0
        self.barbarian_delay = self.options["barbarian_delay"]
        self.dice: dict[str, Any] = {}
        self.raided = False
        self.crane = False
        self.fleet: set[int] = set()
        self.free_routes = 0
        self.saved_numbers: list[int | None] | None = None
        self.lucky_raid = False  # a lucky 7 raid is still open this turn (record format 2)
        self.turns = 0
        self.capped = False
        self._winners: list[int] = []
        self._cache: dict[tuple[Any, ...], list[Any]] = {}
        self._index_numbers()
        self.order: list[int] = self._chance_permutation("seat_order", n)
        # Setup: villages in order, then cities in reverse order; each followed by a road.
        self.setup_steps: list[tuple[int, str]] = []
        for seat in self.order:
            self.setup_steps += [(seat, "village"), (seat, "road")]
        for seat in reversed(self.order):
            self.setup_steps += [(seat, "city"), (seat, "road")]
        self.setup_step = 0
        self.setup_vertex = -1
        self.phase = SETUP
        self.turn_index = 0
        self.seat = self.order[0]

    def setup_record(self) -> dict[str, Any]:
        return {"map": self.map.to_json()}

    def _index_numbers(self) -> None:
        by_number: dict[int, list[int]] = {}
        for h, number in enumerate(self.number):
            if number is not None and self.terrain[h] not in ("water", "mystery"):
                by_number.setdefault(number, []).append(h)
        self.by_number = by_number
        self._number_version += 1

    # ================================================================ queries

    def current_seat(self) -> int | None:
        return None if self.phase == OVER else self.seat

    def winners(self) -> list[int]:
        return list(self._winners) if self.phase == OVER else []

    def vp_breakdown(self, seat: int) -> dict[str, int]:
        c = self.counts[seat]
        metros = sum(1 for owner in self.metro_owner if owner == seat)
        explored = len(self.explored[seat])
        if not self.options["explorer_each_island"]:
            explored = min(explored, 1)
        return {
            "villages": c["village"],
            "cities": 2 * c["city"],
            "metros": 2 * metros,
            "longest_route": 2 if self.route_holder == seat else 0,
            "port_authority": 2 if self.port_holder == seat else 0,
            "island_explored": explored,
            "merchant": 1 if self.merchant_owner == seat else 0,
            "vp_cards": self.vp_cards[seat],
            "defender": self.defender[seat],
        }

    def vp(self, seat: int) -> int:
        c = self.counts[seat]
        explored = len(self.explored[seat])
        if explored and not self.options["explorer_each_island"]:
            explored = 1
        points = c["village"] + 2 * c["city"] + explored + self.vp_cards[seat] + self.defender[seat]
        for owner in self.metro_owner:
            if owner == seat:
                points += 2
        if self.route_holder == seat:
            points += 2
        if self.port_holder == seat:
            points += 2
        if self.merchant_owner == seat:
            points += 1
        return points

    def scores(self) -> list[int]:
        return [self.vp(s) for s in range(self.players)]

    def hand_size(self, seat: int) -> int:
        return sum(self.res[seat])

    def safe_hand(self, seat: int) -> int:
        return BASE_SAFE_HAND + 2 * self.counts[seat]["wall"]

    def military_cap(self, seat: int) -> int:
        return 10**6 if self.culture[seat][POLITICS] >= 3 else MILITARY_CAP

    def trade_rate(self, seat: int, kind: int) -> int:
        """How many cards of ``kind`` buy one card: 3, or 2 by harbor, merchant, bank or fleet."""
        if kind in self.fleet and seat == self.seat:
            return 2
        if kind < 5:
            if kind in self.harbor_kinds[seat]:
                return 2
            if self.merchant_owner == seat and TERRAIN_RESOURCE.get(self.terrain[self.merchant_hex]) == kind:
                return 2
        elif self.culture[seat][COMMERCE] >= 3:
            return 2
        return 3

    # ======================================================= legal actions

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act. Treat the returned dicts as read-only: lists
        that depend only on the board are kept between calls until the board changes."""
        phase = self.phase
        seat = self.seat
        if phase == MAIN:
            return self._main_actions(seat)
        if phase == SETUP:
            _, step = self.setup_steps[self.setup_step]
            if step == "road":
                return [{"type": "build", "piece": "road", "edge": e} for e in self._setup_roads()]
            return [{"type": "build", "piece": step, "vertex": v} for v in self._setup_corners()]
        if phase == ROLL:
            return list(ROLL_CHOICES)
        if phase == LUCKY:
            return [{"type": "lucky_raid", "hex": h} for h in self._lucky_hexes()]
        return []

    def _main_actions(self, seat: int) -> list[Action]:
        actions: list[Action] = [END_TURN]
        hand = self.res[seat]
        counts = self.counts[seat]
        free = self.free_routes > 0
        cached = self._cached
        if (free or (hand[WOOD] and hand[CLAY])) and counts["road"] < self.limits["road"]:
            actions += cached(
                ("road_actions", seat),
                lambda: [{"type": "build", "piece": "road", "edge": e} for e in self._route_edges(seat, ROAD)],
            )
        if (free or (hand[WOOD] and hand[WOOL])) and counts["bridge"] < self.limits["bridge"]:
            actions += cached(
                ("bridge_actions", seat),
                lambda: [{"type": "build", "piece": "bridge", "edge": e} for e in self._route_edges(seat, BRIDGE)],
            )
        if hand[CLAY] and hand[WOOD] and hand[WOOL] and hand[WHEAT] and counts["village"] < self.limits["village"]:
            actions += cached(
                ("village_actions", seat),
                lambda: [{"type": "build", "piece": "village", "vertex": v} for v in self._village_corners(seat)],
            )
        if hand[ORE] >= 3 and hand[WHEAT] >= 2 and counts["city"] < self.limits["city"]:
            actions += cached(
                ("city_actions", seat),
                lambda: [{"type": "build", "piece": "city", "vertex": v} for v in self._own_corners(seat, VILLAGE)],
            )
        if hand[CLAY] >= 2 and counts["wall"] < self.limits["wall"]:
            actions += [{"type": "build", "piece": "wall", "vertex": v} for v in self._wall_corners(seat)]
        if hand[WOOL] and hand[WHEAT] and self.military[seat] < self.military_cap(seat):
            actions.append(MILITARY)
        crane = self.crane
        for c in range(3):
            level = self.culture[seat][c]
            have = hand[CULTURE_COMMODITY[c]]
            if level < MAX_CULTURE and (have > level or crane) and have >= self._improve_cost(level):
                cities = self._metro_choices(seat, c, level + 1)
                if cities is None:
                    actions.append(IMPROVE[c])
                else:
                    actions += [{"type": "improve", "culture": CULTURES[c], "city": v} for v in cities]
        for give in range(8):
            if hand[give] >= 2 and hand[give] >= self.trade_rate(seat, give):
                actions += TRADES[give]
        if self.lucky_raid:  # listed before the paid raids: a raid key takes the free one first
            actions += [{"type": "lucky_raid", "hex": h} for h in self._lucky_hexes()]
        if self.military[seat] >= 1:
            if not self.raided:
                actions += cached(
                    ("raid_actions", seat, self._catapult_version),
                    lambda: [{"type": "raid", "hex": h} for h in self._raid_hexes(seat)],
                )
            actions += [{"type": "remove_catapult", "hex": h} for h in sorted(self.catapult_at)]
        if self.devs[seat]:
            for card in sorted(set(self.devs[seat])):
                actions += card_plays(self, seat, card)
        return actions

    # ----------------------------------------------------------- placement

    def _cached(self, key: tuple[Any, ...], compute: Any) -> list[Any]:
        full = (self._version,) + key
        found = self._cache.get(full)
        if found is None:
            if len(self._cache) > 64:
                self._cache.clear()
            found = self._cache[full] = compute()
        return found

    def _distance_ok(self, v: int) -> bool:
        vo = self.vo
        if vo[v] != NOBODY:
            return False
        for w in self.map.vertex_neighbors[v]:
            if vo[w] != NOBODY:
                return False
        return True

    def _setup_corners(self) -> list[int]:
        return self._cached(
            ("setup",), lambda: [v for v in range(self.nv) if self.starting_corner[v] and self._distance_ok(v)]
        )

    def _setup_roads(self) -> list[int]:
        v = self.setup_vertex
        return [e for e in self.map.vertex_edges[v] if self.eo[e] == NOBODY and self.map.edge_kind[e] != WATER_EDGE]

    def _edge_problem(self, seat: int, e: int, piece: int) -> tuple[str, str] | None:
        """Why ``seat`` may not put a road (1) or bridge (2) on side ``e``, or None."""
        m = self.map
        kind = m.edge_kind[e]
        name = "road" if piece == ROAD else "bridge"
        if piece == ROAD and kind == WATER_EDGE:
            return ("landover.build.road_on_water", f"side {e} lies between water hexes: only a bridge fits there")
        if piece == BRIDGE and kind == LAND_EDGE:
            return ("landover.build.bridge_on_land", f"side {e} lies between land hexes: only a road fits there")
        if self.eo[e] != NOBODY:
            return ("landover.build.side_taken", f"side {e} already holds a road or bridge")
        eo, ep, vo = self.eo, self.ep, self.vo
        for v in m.edge_vertices[e]:
            if vo[v] == seat:
                return None
            if vo[v] != NOBODY:
                continue  # an opponent's settlement cuts the route
            for f in m.vertex_edges[v]:
                if eo[f] == seat and ep[f] == piece:
                    return None
        return (
            "landover.build.not_connected",
            f"a {name} must join your own {name}s, villages or cities (a road meets a bridge only at your settlement)",
        )

    def _route_edges(self, seat: int, piece: int) -> list[int]:
        def compute() -> list[int]:
            m = self.map
            near: set[int] = set()
            for f in self.edges_of[seat]:
                near.update(m.edge_vertices[f])
            near.update(self.corners_of[seat])
            candidates = sorted({e for v in near for e in m.vertex_edges[v]})
            return [e for e in candidates if self._edge_problem(seat, e, piece) is None]

        return self._cached(("route", seat, piece), compute)

    def _village_problem(self, seat: int, v: int) -> tuple[str, str] | None:
        if not self.vertex_land[v]:
            return ("landover.build.village_at_sea", f"corner {v} touches no land hex")
        if not self._distance_ok(v):
            return ("landover.build.distance", f"corner {v} is taken or next to a village or city (distance rule)")
        for e in self.map.vertex_edges[v]:
            if self.eo[e] == seat:
                return None
        return ("landover.build.village_not_connected", f"corner {v} is not at the end of your road or bridge")

    def _village_corners(self, seat: int) -> list[int]:
        def compute() -> list[int]:
            m = self.map
            near = sorted({v for f in self.edges_of[seat] for v in m.edge_vertices[f]})
            return [v for v in near if self._village_problem(seat, v) is None]

        return self._cached(("village", seat), compute)

    def _own_corners(self, seat: int, level: int) -> list[int]:
        return self._cached(
            ("own", seat, level), lambda: sorted(v for v in self.corners_of[seat] if self.vl[v] == level)
        )

    def _wall_corners(self, seat: int) -> list[int]:
        return [v for v in self._own_corners(seat, CITY) if not self.vwall[v]]

    def _free_cities(self, seat: int) -> list[int]:
        return [v for v in self._own_corners(seat, CITY) if self.vmetro[v] < 0]

    def _improve_cost(self, level: int) -> int:
        return max(0, level + 1 - (1 if self.crane else 0))

    def _metro_choices(self, seat: int, c: int, new_level: int) -> list[int] | None:
        """Cities the metro may go on if reaching ``new_level`` wins it; None if it wins none."""
        owner = self.metro_owner[c]
        if new_level == 4 and owner == NOBODY:
            return self._free_cities(seat)
        if new_level == MAX_CULTURE and owner not in (NOBODY, seat) and not self.metro_locked[c]:
            return self._free_cities(seat)
        return None

    def _land_hex(self, h: int) -> bool:
        return self.terrain[h] not in ("water", "mystery")

    def _raid_hexes(self, seat: int) -> list[int]:
        def compute() -> list[int]:
            hexes = self.map.vertex_hexes
            near = {h for s in range(self.players) if s != seat for v in self.corners_of[s] for h in hexes[v]}
            return sorted(h for h in near if h not in self.catapult_at and self._land_hex(h))

        return self._cached(("raid", seat, self._catapult_version), compute)

    def _lucky_hexes(self) -> list[int]:
        return [h for h in range(self.nh) if self._land_hex(h) and h not in self.catapult_at]

    def _settled_hexes(self, seat: int) -> list[int]:
        """Land hexes next to one of ``seat``'s villages or cities (merchant places)."""
        return self._cached(
            ("settled", seat),
            lambda: sorted(
                {h for v in self.corners_of[seat] for h in self.map.vertex_hexes[v] if self.terrain[h] in TERRAIN_RESOURCE}
            ),
        )

    def _open_end(self, owner: int, e: int) -> bool:
        """True if one end of ``owner``'s side ``e`` leads nowhere (no own piece continues there)."""
        m = self.map
        for v in m.edge_vertices[e]:
            if self.vo[v] == owner:
                continue
            if not any(f != e and self.eo[f] == owner for f in m.vertex_edges[v]):
                return True
        return False

    def _open_edges(self, owner: int) -> list[int]:
        return [e for e in self.edges_of[owner] if self._open_end(owner, e)]

    # ------------------------------------------------------------- cards

    def _diplomat_targets(self, seat: int, e: int) -> list[int]:
        """Sides where ``seat``'s piece on ``e`` may move: where it could be built with it lifted.

        Lifting a piece only matters to sides that touch its ends, so the other sides
        come from the usual building list and only those near ``e`` are checked again.
        """
        piece = self.ep[e]
        m = self.map
        near = {f for v in m.edge_vertices[e] for f in m.vertex_edges[v]}
        far = [f for f in self._route_edges(seat, piece) if f not in near]
        self.eo[e], self.ep[e] = NOBODY, 0
        try:
            close = [f for f in near if f != e and self._edge_problem(seat, f, piece) is None]
        finally:
            self.eo[e], self.ep[e] = seat, piece
        return sorted(far + close)

    # ============================================================ validation

    def _field_int(self, action: Action, key: str, limit: int, what: str) -> int:
        value = action.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < limit:
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
        hand = self.res[seat]
        for kind, n in cost:
            if hand[kind] < n:
                need = " + ".join(f"{k} {CARDS[i]}" for i, k in cost)
                raise self._rule("landover.cost.cannot_afford", f"{what} costs {need}; you have {hand[kind]} {CARDS[kind]}")

    def _check(self, action: Action) -> Action:
        kind = action.get("type")
        phase = self.phase
        seat = self.seat
        allowed = ALLOWED_ACTIONS[phase]
        if not isinstance(kind, str) or kind not in ACTION_TYPES:
            raise MalformedActionError(
                "landover.action.unknown_type", f"unknown action type {kind!r}; now allowed: {', '.join(allowed)}"
            )
        if kind not in allowed:
            raise self._rule("landover.action.wrong_phase", f"{kind!r} is not allowed now ({phase}); allowed: {', '.join(allowed)}")
        if phase == SETUP:
            return self._check_setup(action)
        if kind == "end_turn" or kind == "roll" or kind == "military":
            self._fields(action, ())
            if kind == "military":
                self._check_military(seat)
            return {"type": kind}
        if kind == "build":
            return self._check_build(seat, action)
        if kind == "improve":
            return self._check_improve(seat, action)
        if kind == "trade":
            self._fields(action, ("give", "get"))
            give = CARD_INDEX[self._field_choice(action, "give", CARDS)]
            get = CARD_INDEX[self._field_choice(action, "get", CARDS)]
            if give == get:
                raise self._rule("landover.trade.same_kind", "give and get must be different cards")
            rate = self.trade_rate(seat, give)
            if self.res[seat][give] < rate:
                raise self._rule(
                    "landover.trade.not_enough", f"trading {CARDS[give]} takes {rate}; you have {self.res[seat][give]}"
                )
            return {"type": "trade", "give": CARDS[give], "get": CARDS[get]}
        if kind == "raid" or kind == "lucky_raid" or kind == "remove_catapult":
            self._fields(action, ("hex",))
            h = self._field_int(action, "hex", self.nh, "hex")
            if kind == "raid":
                self._check_raid(seat, h, free=False)
            elif kind == "lucky_raid":
                if phase == MAIN and not self.lucky_raid:
                    raise self._rule("landover.raid.no_lucky_raid", "a lucky 7 raid needs a 7 rolled this turn by the player alone in last place")
                if h not in self._lucky_hexes():
                    raise self._rule("landover.raid.not_a_target", f"hex {h} is water, unexplored or has a catapult")
            else:
                if self.military[seat] < 1:
                    raise self._rule("landover.military.none", "removing a catapult costs 1 military power; you have 0")
                if h not in self.catapult_at:
                    raise self._rule("landover.catapult.none_there", f"hex {h} has no catapult")
            return {"type": kind, "hex": h}
        return self._check_card(seat, action)

    def _check_setup(self, action: Action) -> Action:
        seat, step = self.setup_steps[self.setup_step]
        piece = action.get("piece")
        if piece != step:
            raise self._rule("landover.setup.order", f"seat {seat} places a {step} now, not {piece!r}")
        if step == "road":
            self._fields(action, ("piece", "edge"))
            e = self._field_int(action, "edge", self.ne, "side")
            if e not in self._setup_roads():
                raise self._rule(
                    "landover.setup.road", f"the setup road goes on a free land or coast side of the corner just settled ({self.setup_vertex})"
                )
            return {"type": "build", "piece": "road", "edge": e}
        self._fields(action, ("piece", "vertex"))
        v = self._field_int(action, "vertex", self.nv, "corner")
        if not self.starting_corner[v]:
            raise self._rule("landover.setup.not_starting_corner", f"corner {v} is not a starting corner (land, no mystery hex)")
        if not self._distance_ok(v):
            raise self._rule("landover.build.distance", f"corner {v} is taken or next to a village or city (distance rule)")
        return {"type": "build", "piece": step, "vertex": v}

    def _check_build(self, seat: int, action: Action) -> Action:
        piece = self._field_choice(action, "piece", ("road", "bridge", "village", "city", "wall"))
        if self.counts[seat][piece] >= self.limits[piece]:
            raise self._rule("landover.build.no_pieces", f"you have all {self.limits[piece]} {piece}s on the board")
        if piece in ("road", "bridge"):
            self._fields(action, ("piece", "edge"))
            e = self._field_int(action, "edge", self.ne, "side")
            if self.free_routes <= 0:
                self._pay_problem(seat, COSTS[piece], f"a {piece}")
            problem = self._edge_problem(seat, e, ROAD if piece == "road" else BRIDGE)
            if problem:
                raise self._rule(*problem)
            return {"type": "build", "piece": piece, "edge": e}
        self._fields(action, ("piece", "vertex"))
        v = self._field_int(action, "vertex", self.nv, "corner")
        self._pay_problem(seat, COSTS[piece], f"a {piece}")
        if piece == "village":
            problem = self._village_problem(seat, v)
            if problem:
                raise self._rule(*problem)
        elif piece == "city":
            if self.vo[v] != seat or self.vl[v] != VILLAGE:
                raise self._rule("landover.build.city_needs_village", f"a city replaces one of your villages; corner {v} has none")
        else:
            if self.vo[v] != seat or self.vl[v] != CITY:
                raise self._rule("landover.build.wall_needs_city", f"a city wall goes on one of your cities; corner {v} has none")
            if self.vwall[v]:
                raise self._rule("landover.build.wall_taken", f"the city on corner {v} already has a wall")
        return {"type": "build", "piece": piece, "vertex": v}

    def _check_military(self, seat: int) -> None:
        self._pay_problem(seat, COSTS["military"], "military power")
        if self.military[seat] >= self.military_cap(seat):
            raise self._rule("landover.military.cap", "military power stops at 3 until politics 3 (barracks)")

    def _check_improve(self, seat: int, action: Action) -> Action:
        c = CULTURE_INDEX[self._field_choice(action, "culture", CULTURES)]
        level = self.culture[seat][c]
        if level >= MAX_CULTURE:
            raise self._rule("landover.culture.max", f"{CULTURES[c]} is already at level {MAX_CULTURE}")
        cost = self._improve_cost(level)
        commodity = CULTURE_COMMODITY[c]
        if self.res[seat][commodity] < cost:
            raise self._rule(
                "landover.cost.cannot_afford",
                f"{CULTURES[c]} level {level + 1} costs {cost} {CARDS[commodity]}; you have {self.res[seat][commodity]}",
            )
        cities = self._metro_choices(seat, c, level + 1)
        if cities is None:
            self._fields(action, ("culture",))
            return {"type": "improve", "culture": CULTURES[c]}
        self._fields(action, ("culture", "city"))
        if not cities:
            raise self._rule("landover.culture.metro_needs_city", "this level wins a metro: you need a city without a metro for it")
        v = self._field_int(action, "city", self.nv, "corner")
        if v not in cities:
            raise self._rule("landover.culture.metro_city", f"the metro goes on one of your cities without a metro: {cities}")
        return {"type": "improve", "culture": CULTURES[c], "city": v}

    def _check_raid(self, seat: int, h: int, free: bool) -> None:
        if self.raided:
            raise self._rule("landover.raid.once_per_turn", "only one raid per turn")
        if not free and self.military[seat] < 1:
            raise self._rule("landover.military.none", "a raid costs 1 military power; you have 0")
        if h in self.catapult_at:
            raise self._rule("landover.raid.catapult_there", f"hex {h} already has a catapult")
        if h not in self._raid_hexes(seat):
            raise self._rule("landover.raid.not_a_target", f"hex {h} is not a land hex next to an opponent's village or city")

    def _check_card(self, seat: int, action: Action) -> Action:
        card = action.get("card")
        if not isinstance(card, str) or card not in card_culture() or card in vp_cards():
            raise MalformedActionError("landover.card.unknown", f"unknown development card {card!r}")
        if card not in self.devs[seat]:
            raise self._rule("landover.card.not_held", f"you do not hold {card!r}")
        if self.phase == ROLL and card != "alchemist":
            raise self._rule("landover.card.before_roll", "before the roll only the alchemist may be played (or roll)")
        if card == "alchemist":
            if self.phase != ROLL:
                raise self._rule("landover.card.alchemist_timing", "the alchemist is played before the roll")
            self._fields(action, ("card", "white", "red"))
            dice = []
            for key in ("white", "red"):
                value = action.get(key)
                if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
                    raise MalformedActionError("landover.card.die", f"{key} must be 1-6, got {value!r}")
                dice.append(value)
            return {"type": "play", "card": card, "white": dice[0], "red": dice[1]}
        normal = check_card(self, seat, card, action)
        return normal

    # ============================================================ performing

    def _changed(self) -> None:
        self._version += 1

    def _perform(self, action: Action) -> None:
        seat = self.seat
        kind = action["type"]
        if self.phase == SETUP:
            self._perform_setup(seat, action)
            return
        hand = self.res[seat]
        if kind == "end_turn":
            self._end_turn()
            return
        if kind == "roll":
            self._roll(None)
        elif kind == "build":
            self._perform_build(seat, action)
        elif kind == "military":
            hand[WOOL] -= 1
            hand[WHEAT] -= 1
            self.military[seat] += 1
        elif kind == "improve":
            self._perform_improve(seat, action)
        elif kind == "trade":
            give, get = CARD_INDEX[action["give"]], CARD_INDEX[action["get"]]
            hand[give] -= self.trade_rate(seat, give)
            hand[get] += 1
        elif kind == "raid":
            self.military[seat] -= 1
            self._raid(seat, action["hex"])
        elif kind == "lucky_raid":
            self._place_catapult(seat, action["hex"])
            self._steal_from_settlers(seat, action["hex"])
            self.phase = MAIN
            self.lucky_raid = False
        elif kind == "remove_catapult":
            self.military[seat] -= 1
            self._remove_catapult(action["hex"])
        else:
            play_card(self, seat, action)
        self._check_win(seat)

    def _perform_setup(self, seat: int, action: Action) -> None:
        piece = action["piece"]
        if piece == "road":
            self._put_edge(seat, action["edge"], ROAD)
        else:
            v = action["vertex"]
            self._put_settlement(seat, v, VILLAGE if piece == "village" else CITY, setup=True)
            self.setup_vertex = v
            if piece == "city":
                self._city_resources(seat, v)
        self.setup_step += 1
        if self.setup_step < len(self.setup_steps):
            self.seat = self.setup_steps[self.setup_step][0]
            return
        self.turn_index = 0
        self.seat = self.order[0]
        self._start_turn()

    def _city_resources(self, seat: int, v: int) -> None:
        """One resource per tile type the city at ``v`` touches (gold: a random one)."""
        kinds = sorted({self.terrain[h] for h in self.map.vertex_hexes[v] if self._land_hex(h)})
        for terrain in kinds:
            if terrain == "gold":
                self.res[seat][self._chance_below("gold", 5, seat=seat)] += 1
            else:
                self.res[seat][TERRAIN_RESOURCE[terrain]] += 1

    def _put_settlement(self, seat: int, v: int, level: int, setup: bool = False) -> None:
        self._changed()
        self.vo[v] = seat
        self.vl[v] = level
        self.corners_of[seat].append(v)
        self.counts[seat]["village" if level == VILLAGE else "city"] += 1
        islands = {self.map.hex_island[h] for h in self.map.vertex_hexes[v] if self.map.hex_island[h] >= 0}
        if setup:
            self.home_islands[seat] |= islands
        else:
            for island in islands:
                if island not in self.home_islands[seat] and island not in self.explored[seat]:
                    self.explored[seat].add(island)
        harbor = self.map.vertex_harbor[v]
        if harbor >= 0:
            self._update_harbors(seat)
        # A settlement cuts another player's route only where it passed through (two of
        # their sides meet here), and lengthens its owner's only by joining a road to a bridge.
        sides: dict[int, list[int]] = {}
        for e in self.map.vertex_edges[v]:
            if self.eo[e] != NOBODY:
                sides.setdefault(self.eo[e], []).append(self.ep[e])
        changed = [
            s for s, pieces in sorted(sides.items())
            if (s != seat and len(pieces) >= 2) or (s == seat and len(set(pieces)) == 2)
        ]
        if changed:
            self._update_routes(changed)

    def _update_harbors(self, seat: int) -> None:
        m = self.map
        touched = {m.vertex_harbor[v] for v in self.corners_of[seat] if m.vertex_harbor[v] >= 0}
        self.harbor_count[seat] = len(touched)
        self.harbor_kinds[seat] = {RESOURCES.index(m.harbors[i][2]) for i in touched}
        self.port_holder = self._award(self.port_holder, self.harbor_count, PORT_MIN)

    def _award(self, holder: int, values: list[int], minimum: int) -> int:
        """Longest route / port authority: keep it until beaten by one; a tie for a lost title sets it aside."""
        best = max(values)
        if holder != NOBODY and values[holder] >= best and values[holder] >= minimum:
            return holder
        if best < minimum:
            return NOBODY
        leaders = [s for s, value in enumerate(values) if value == best]
        return leaders[0] if len(leaders) == 1 else NOBODY

    def _put_edge(self, seat: int, e: int, piece: int) -> None:
        self._changed()
        self.eo[e] = seat
        self.ep[e] = piece
        self.edges_of[seat].append(e)
        self.counts[seat]["road" if piece == ROAD else "bridge"] += 1
        for v in self.map.edge_vertices[e]:
            for h in self.map.vertex_hexes[v]:
                if self.terrain[h] == "mystery":
                    self._reveal(h)
        self._update_routes((seat,), added=e)

    def _take_edge(self, e: int) -> None:
        self._changed()
        owner = self.eo[e]
        self.counts[owner]["road" if self.ep[e] == ROAD else "bridge"] -= 1
        self.edges_of[owner].remove(e)
        self.eo[e], self.ep[e] = NOBODY, 0
        self._update_routes((owner,))

    def _reveal(self, h: int) -> None:
        pick = self._chance_below("mystery", len(self.mystery_left), hex=h)
        terrain, number = self.map.mystery_pool[self.mystery_left.pop(pick)]
        self.terrain[h] = terrain
        self.number[h] = number
        if self.saved_numbers is not None:
            self.saved_numbers[h] = number
        self._index_numbers()
        self._changed()

    def _perform_build(self, seat: int, action: Action) -> None:
        piece = action["piece"]
        hand = self.res[seat]
        if piece in ("road", "bridge"):
            if self.free_routes > 0:
                self.free_routes -= 1
            else:
                for kind, n in COSTS[piece]:
                    hand[kind] -= n
            self._put_edge(seat, action["edge"], ROAD if piece == "road" else BRIDGE)
            return
        for kind, n in COSTS[piece]:
            hand[kind] -= n
        v = action["vertex"]
        if piece == "village":
            self._put_settlement(seat, v, VILLAGE)
        elif piece == "city":
            self._upgrade(seat, v)
        else:
            self._changed()
            self.vwall[v] = True
            self.counts[seat]["wall"] += 1

    def _upgrade(self, seat: int, v: int) -> None:
        self._changed()
        self.vl[v] = CITY
        self.counts[seat]["village"] -= 1
        self.counts[seat]["city"] += 1
        if self.options["city_resources"] == "every_city":
            self._city_resources(seat, v)

    def _reduce_city(self, v: int) -> None:
        self._changed()
        owner = self.vo[v]
        self.vl[v] = VILLAGE
        self.counts[owner]["city"] -= 1
        self.counts[owner]["village"] += 1
        if self.vwall[v]:
            self.vwall[v] = False
            self.counts[owner]["wall"] -= 1

    def _perform_improve(self, seat: int, action: Action) -> None:
        c = CULTURE_INDEX[action["culture"]]
        level = self.culture[seat][c]
        self.res[seat][CULTURE_COMMODITY[c]] -= self._improve_cost(level)
        self.crane = False
        level += 1
        self.culture[seat][c] = level
        if "city" in action:
            v = action["city"]
            for u in range(self.nv):
                if self.vmetro[u] == c:
                    self.vmetro[u] = -1
            self.vmetro[v] = c
            self.metro_owner[c] = seat
            self._changed()
        if level == MAX_CULTURE and self.metro_owner[c] == seat:
            self.metro_locked[c] = True

    # ---------------------------------------------------------------- routes

    def _update_routes(self, seats: Any, added: int = -1) -> None:
        """Recompute routes (after ``added``, a side just built by the one seat given, incrementally)."""
        for s in seats:
            self.routes[s] = self._route_after(s, added) if added >= 0 else self.route_length(s)
        self.route_holder = self._award(self.route_holder, self.routes, ROUTE_MIN)

    def _route_after(self, seat: int, e: int) -> int:
        return route_after(self.map, self.eo, self.ep, self.vo, seat, e, self.routes[seat], self.edges_of[seat])

    def route_length(self, seat: int) -> int:
        """Longest route of ``seat`` (see :mod:`tablelight.games.landover.routes`)."""
        return route_length(self.map, self.eo, self.ep, self.vo, seat, self.edges_of[seat])

    # ------------------------------------------------------------------ turns

    def _end_turn(self) -> None:
        self.raided = False
        self.crane = False
        self.fleet = set()
        self.free_routes = 0
        self.lucky_raid = False
        self.turns += 1
        if self.turns >= self.options["turn_cap"]:
            self.capped = True
            self.phase = OVER
            return
        self.turn_index = (self.turn_index + 1) % self.players
        self.seat = self.order[self.turn_index]
        self._start_turn()

    def _start_turn(self) -> None:
        seat = self.seat
        if self._check_win(seat):
            return
        if "alchemist" in self.devs[seat]:
            self.phase = ROLL
            return
        self._roll(None)
        if self.record_format >= 2:
            self._check_win(seat)  # points from the roll itself (a defender point, a VP card)

    def _check_win(self, seat: int) -> bool:
        if self.phase != OVER and self.vp(seat) >= self.options["target"]:
            self._winners = [seat]
            self.phase = OVER
            return True
        return False

    def _roll(self, chosen: tuple[int, int] | None) -> None:
        seat = self.seat
        if chosen is None:
            white = self._chance_die("white_die")
            red = self._chance_die("red_die")
        else:
            white, red = chosen
        event = self._chance_die("event_die")
        self.dice = {"white": white, "red": red, "event": EVENT_FACES[event - 1]}
        self.phase = MAIN
        face = EVENT_FACES[event - 1]
        if face == "barbarian":
            if self.barbarian_delay > 0:
                self.barbarian_delay -= 1
            else:
                self.barbarians += 1
                if self.barbarians >= BARBARIAN_TRACK:
                    self._barbarian_attack()
                    self.barbarians = 0
        else:
            c = CULTURE_INDEX[face]
            for step in range(self.players):
                s = self.order[(self.turn_index + step) % self.players]
                if self.culture[s][c] >= red:
                    self._draw_dev(s, c)
        total = white + red
        if total == 7:
            self._seven(seat)
        else:
            self._produce(total)

    def _draw_dev(self, seat: int, c: int) -> None:
        deck = self.decks[c]
        if not deck or len(self.devs[seat]) >= DEV_HAND_LIMIT:
            return
        card = deck.pop(self._chance_below("dev_card", len(deck), seat=seat, deck=CULTURES[c]))
        if card in vp_cards():
            self.vp_cards[seat] += 1  # played at once, out of the game
        else:
            self.devs[seat].append(card)

    def _produce(self, total: int) -> None:
        got = [False] * self.players
        vo, vl = self.vo, self.vl
        for h in self.by_number.get(total, ()):
            if h in self.catapult_at:
                continue
            terrain = self.terrain[h]
            for v in self.map.hex_vertices[h]:
                owner = vo[v]
                if owner == NOBODY:
                    continue
                hand = self.res[owner]
                got[owner] = True
                city = vl[v] == CITY
                if terrain == "gold":
                    for _ in range(3 if city else 2):
                        hand[self._chance_below("gold", 5, seat=owner)] += 1
                    continue
                kind = TERRAIN_RESOURCE[terrain]
                hand[kind] += 1
                if city:
                    commodity = TERRAIN_COMMODITY.get(terrain)
                    hand[kind if commodity is None else commodity] += 1
        for s in range(self.players):
            if not got[s] and self.culture[s][SCIENCE] >= 3:
                self.res[s][self._chance_below("aqueduct", 5, seat=s)] += 1

    def _seven(self, roller: int) -> None:
        if self.saved_numbers is not None:
            self.number = self.saved_numbers
            self.saved_numbers = None
            self._index_numbers()
        if self.catapult_at:
            self._catapult_version += 1
        self.catapult_at.clear()
        self.catapult = [-1] * self.players
        for step in range(self.players):
            s = self.order[(self.turn_index + step) % self.players]
            size = self.hand_size(s)
            if size > self.safe_hand(s):
                for _ in range(size // 2):
                    self._lose_random_card(s, 8, "discard", seat=s)
        points = self.scores()
        mine = points[roller]
        if all(points[s] > mine for s in range(self.players) if s != roller):
            if self.record_format >= 2:
                self.lucky_raid = bool(self._lucky_hexes())  # "they may place their catapult": optional
            else:
                self.phase = LUCKY

    def _lose_random_card(self, owner: int, kinds: int, chance: str, **context: Any) -> int:
        """Remove one random card of ``owner``'s first ``kinds`` card kinds (5: resources, 8: all); -1 if none."""
        hand = self.res[owner]
        total = sum(hand[:kinds])
        if total == 0:
            return -1
        pick = self._chance_below(chance, total, **context)
        for kind in range(kinds):
            if pick < hand[kind]:
                hand[kind] -= 1
                return kind
            pick -= hand[kind]
        raise AssertionError("unreachable")  # pragma: no cover

    def _steal(self, thief: int, victim: int, kinds: int) -> None:
        kind = self._lose_random_card(victim, kinds, "steal", seat=thief, victim=victim)
        if kind >= 0:
            self.res[thief][kind] += 1

    def _steal_from_settlers(self, seat: int, h: int) -> None:
        """One random resource from each opponent with a village or city on hex ``h``."""
        victims = sorted({self.vo[v] for v in self.map.hex_vertices[h] if self.vo[v] not in (NOBODY, seat)})
        for victim in victims:
            self._steal(seat, victim, 5)

    def _place_catapult(self, seat: int, h: int) -> None:
        old = self.catapult[seat]
        if old >= 0:
            del self.catapult_at[old]
        self.catapult[seat] = h
        self.catapult_at[h] = seat
        self._catapult_version += 1

    def _remove_catapult(self, h: int) -> None:
        owner = self.catapult_at.pop(h)
        self.catapult[owner] = -1
        self._catapult_version += 1

    def _raid(self, seat: int, h: int) -> None:
        self.raided = True
        self._place_catapult(seat, h)
        self._steal_from_settlers(seat, h)

    def _barbarian_attack(self) -> None:
        strength = sum(c["city"] for c in self.counts) + sum(1 for owner in self.metro_owner if owner != NOBODY)
        defence = sum(self.military)
        if strength == 0 and self.options["barbarians_at_zero"] == "no_attack":
            return  # no city on the board: nothing to attack, nothing defended
        if strength > defence:
            if self.options["barbarian_losers"] == "any_city":
                exposed = [s for s in range(self.players) if self.counts[s]["city"]]
            else:
                exposed = [s for s in range(self.players) if self._free_cities(s)]
            if exposed:
                weakest = min(self.military[s] for s in exposed)
                for s in self.order:
                    if s in exposed and self.military[s] == weakest:
                        cities = self._free_cities(s)  # a metro city is never reduced
                        unwalled = [v for v in cities if not self.vwall[v]]
                        pool = unwalled or cities
                        if pool:
                            self._reduce_city(pool[self._chance_below("barbarian_city", len(pool), seat=s)])
            return
        best = max(self.military)
        top = [s for s in self.order if self.military[s] == best]
        if len(top) == 1:
            self.defender[top[0]] += 1
        else:
            for s in top:
                decks = [c for c in range(3) if self.decks[c]]
                if decks and len(self.devs[s]) < DEV_HAND_LIMIT:
                    self._draw_dev(s, decks[self._chance_below("defender_deck", len(decks), seat=s)])
        self.military = [max(0, x - 1) for x in self.military]

    # ------------------------------------------------------------------ cards

    # ================================================================= views

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
                "dev_count": len(self.devs[s]),
                "culture": dict(zip(CULTURES, self.culture[s])),
                "military": self.military[s],
                "catapult": None if self.catapult[s] < 0 else self.catapult[s],
                "route": self.routes[s],
                "harbors": self.harbor_count[s],
                "vp_cards": self.vp_cards[s],
                "safe_hand": self.safe_hand(s),
            }
            if not secret:
                player["hand"] = dict(zip(CARDS, self.res[s]))
                player["dev_cards"] = sorted(self.devs[s])
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
                for h in range(self.nh)
            ],
            "pieces": self.pieces(),
            "players": players,
            "barbarians": self.barbarians,
            "barbarian_delay": self.barbarian_delay,
            "lucky_raid": self.lucky_raid,
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

    def view_log(self, seat: int) -> list[LogEntry]:
        self._check_seat(seat)
        out = []
        for entry in self.log:
            if "chance" in entry:
                involved = PRIVATE_CHANCE.get(entry["chance"])
                if involved is not None and all(entry.get(k) != seat for k in involved):
                    entry = {**entry, "value": None, "hidden": True}
            elif entry["action"].get("card") in ("master_merchant", "spy") and seat not in (
                entry["seat"],
                entry["action"].get("target"),
            ):
                action = {k: v for k, v in entry["action"].items() if k not in ("take", "card_taken")}
                entry = {**entry, "action": action, "hidden": True}
            out.append(entry)
        return out

    def pieces(self) -> dict[str, list[dict[str, int]]]:
        return {
            "roads": [{"seat": self.eo[e], "edge": e} for e in range(self.ne) if self.ep[e] == ROAD],
            "bridges": [{"seat": self.eo[e], "edge": e} for e in range(self.ne) if self.ep[e] == BRIDGE],
            "villages": [{"seat": self.vo[v], "vertex": v} for v in range(self.nv) if self.vl[v] == VILLAGE],
            "cities": [
                {"seat": self.vo[v], "vertex": v, "wall": self.vwall[v], "metro": CULTURES[self.vmetro[v]] if self.vmetro[v] >= 0 else None}  # type: ignore[dict-item]
                for v in range(self.nv)
                if self.vl[v] == CITY
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

    # ================================================================ misc

    def describe(self, color: bool = False) -> str:
        seat = self.current_seat()
        who = "game over" if seat is None else f"{self.phase}: seat {seat} to act"
        dice = self.dice
        roll = f"; dice {dice['white']}+{dice['red']} {dice['event']}" if dice else ""
        lines = [f"landover turn {self.turns}: {who}{roll}; barbarians {self.barbarians}/{BARBARIAN_TRACK}"]
        for s in range(self.players):
            c = self.counts[s]
            lines.append(
                f"  seat {s}: {self.vp(s)} VP, {c['village']} villages, {c['city']} cities, "
                f"{c['road']}+{c['bridge']} roads+bridges, military {self.military[s]}, "
                f"culture {self.culture[s]}, hand {self.hand_size(s)}, dev {len(self.devs[s])}"
            )
        return "\n".join(lines)

    def describe_result(self) -> str:
        if self.capped:
            return f"turn cap reached after {self.turns} turns: no winner; scores {self.scores()}"
        return super().describe_result()

    @classmethod
    def bot_names(cls) -> list[str]:
        return [*super().bot_names(), "greedy"]

    @classmethod
    def make_bot(cls, name: str, seed: int = 0) -> Any:
        if name == "greedy":
            from tablelight.games.landover.bots import GreedyBot

            return GreedyBot(seed)
        return super().make_bot(name, seed)

    # ------------------------------------------------- public read-only queries (faces, bots)

    def producing_hexes(self) -> list[int]:
        """Hexes that produce on this turn's roll: none before the roll, on a 7, or once the game is over."""
        if self.phase not in ("main", "lucky_raid") or not self.dice:
            return []
        total = self.dice["white"] + self.dice["red"]
        return [] if total == 7 else [h for h in self.by_number.get(total, ()) if h not in self.catapult_at]

    def corner_piece(self, v: int) -> str | None:
        """``"village"``, ``"city"`` or None: what stands on corner ``v`` (its owner is ``vo[v]``)."""
        return {VILLAGE: "village", CITY: "city"}.get(self.vl[v])

    def side_piece(self, e: int) -> str | None:
        """``"road"``, ``"bridge"`` or None: what lies on side ``e`` (its owner is ``eo[e]``)."""
        return {ROAD: "road", BRIDGE: "bridge"}.get(self.ep[e])

    def pieces_left(self, seat: int, piece: str) -> int:
        """How many more of ``piece`` ("village", "road"...) ``seat`` may build under this game's limits."""
        return self.limits[piece] - self.counts[seat][piece]

    def village_corners(self, seat: int) -> list[int]:
        """The corners where ``seat`` may build a village now (the rules' own listing)."""
        return list(self._village_corners(seat))

    def far_from_villages(self, v: int) -> bool:
        """Corner ``v`` is free and no neighbouring corner holds a village or city (the distance rule)."""
        return self._distance_ok(v)
