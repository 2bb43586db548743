"""Landover's state: the named fields every other part reads, set up from the options and the map.

The engine is a chain of classes, one module each (state, places, scoring, pieces, production,
validation, plays, listing, checking, turns, views, engine); each adds one job to the one before.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.core.game import Game
from tablelight.core.rng import Rng
from tablelight.games.landover.hexmap import (
    CARD_KINDS,
    LandoverMap,
    builtin_map,
    deal_numbers,
    map_from_json,
    random_map,
)
from tablelight.games.landover.cards import CULTURES, full_decks
from tablelight.games.landover.position import read_position, start_from
from tablelight.games.landover.rules import (
    INVENTOR_NUMBERS,
    MAP_SALT,
    NOBODY,
    PIECE_LIMITS,
    SETUP,
    UNLIMITED,
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
#: Cached lists that read only the pieces within one corner of one seat's own (the key's second
#: item is the seat): building routes and villages, diplomat moves. Terrain changes clear them all.
#: (The listing keeps its build actions there too.)
NEAR_SEAT = frozenset(("route", "village", "diplomat"))
#: Cached lists that read only one seat's own pieces (the key's second item is the seat): its
#: settlements by level, the land hexes they touch (merchant places), its sides with an open end and
#: the vandal's plays on them, the walls it may build. Another seat's piece never changes them;
#: terrain changes clear them. (No kept list reads metros; only "walls" reads walls.)
OWN_PIECES = frozenset(("own", "settled", "open", "vandal_target", "walls"))
#: Cached lists whose keys carry everything they read (the hexes whose numbers may swap).
KEYED = frozenset(("inventor",))
#: Board-wide lists that read no side (raid places: settlements, catapults, terrain): a new road or
#: bridge keeps them (a mystery hex it reveals clears every list).
SIDE_PROOF = frozenset(("raid", "raid_actions"))


class LandoverState(Game):
    """The named fields of a Landover game. Corners, sides and hexes are map ids; seats are 0-based;
    ``NOBODY`` (-1) marks no owner. Faces and bots read these fields; only the engine writes them.

    Map and board:
        ``map`` (LandoverMap), ``hex_count``, ``corner_count``, ``side_count``;
        ``terrain[h]``, ``number[h]`` (token or None), ``by_number`` (token -> producing land hexes),
        ``mystery_left`` (unrevealed mystery tiles), ``corner_on_land[v]``, ``starting_corner[v]``.
    Pieces:
        ``corner_owner[v]``, ``corner_level[v]`` (0 empty, VILLAGE 1, CITY 2), ``corner_wall[v]``,
        ``corner_metro[v]`` (culture index of a metro on the city, or -1); ``side_owner[e]``,
        ``side_route[e]`` (0 empty, ROAD 1, BRIDGE 2); per seat ``corners_of``, ``edges_of``,
        ``counts`` (pieces on the board by name) and ``limits`` (per piece name, this game's options).
    Per seat:
        ``hands[seat][kind]`` (card counts: slots below RESOURCE_KINDS are resources, then commodities,
        named by ``hexmap.CARDS``), ``dev_cards`` (development cards held), ``culture[seat][c]`` (levels of
        science, commerce, politics), ``military``, ``catapult`` (hex or -1), ``vp_cards``, ``defender``
        (defender points), ``routes`` (longest route length), ``harbor_count``, ``harbor_kinds``,
        ``home_islands``, ``explored`` (islands settled after setup).
    Shared:
        ``decks`` (per culture), ``catapult_at`` (hex -> seat), ``merchant_owner``/``merchant_hex``,
        ``metro_owner``/``metro_locked`` (per culture), ``route_holder``, ``port_holder``,
        ``barbarians`` (track position), ``barbarian_delay``.
    Turn:
        ``phase``, ``seat`` (to act), ``order`` (seat order), ``turn_index``, ``turns``, ``capped``,
        ``dice`` (this turn's roll), ``raided``, ``crane``, ``fleet`` (card kinds at 2:1 this turn),
        ``free_routes`` (road building), ``saved_numbers`` (tokens before anarchy), ``lucky_raid``,
        ``taking`` (phase ``take``: the card played and its target, ``{"seat", "card", "target"}``);
        setup: ``setup_steps``, ``setup_step``, ``setup_vertex``.
    """

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
        self.hex_count, self.corner_count, self.side_count = len(m.coords), len(m.vertex_hexes), len(m.edge_kind)
        # Set by _index_terrain and _index_numbers: the land hexes, and the hexes whose numbers the
        # inventor may swap (the key of its kept list of plays).
        self._inventor_hexes: tuple[int, ...] = ()
        self._land_hexes: tuple[int, ...] = ()
        self.terrain: list[str] = list(m.terrain)
        self.number: list[int | None] = list(m.number)
        self.mystery_left: list[int] = list(range(len(m.mystery_pool)))
        water = {h for h, terrain in enumerate(self.terrain) if terrain == "water"}
        mystery = {h for h, terrain in enumerate(self.terrain) if terrain == "mystery"}
        self.corner_on_land = [not water.issuperset(hexes) for hexes in m.vertex_hexes]
        self.starting_corner = [
            on_land and mystery.isdisjoint(hexes) for on_land, hexes in zip(self.corner_on_land, m.vertex_hexes)
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
        self.corner_owner = [NOBODY] * self.corner_count
        self.corner_level = [0] * self.corner_count  # 0 empty, 1 village, 2 city
        self.corner_wall = [False] * self.corner_count
        self.corner_metro = [-1] * self.corner_count  # culture of the metro on this city, or -1
        self.side_owner = [NOBODY] * self.side_count
        self.side_route = [0] * self.side_count  # 0 empty, 1 road, 2 bridge
        self.hands = [[0] * CARD_KINDS for _ in range(n)]
        self.dev_cards: list[list[str]] = [[] for _ in range(n)]
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
        # Per hex: its corners with a village or city, in the hex's corner order (production reads them).
        self._settled_corners: list[tuple[int, ...]] = [() for _ in range(self.hex_count)]
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
        self.taking: dict[str, Any] | None = None  # a master merchant or spy waiting for its take (format 3)
        self.turns = 0
        self.capped = False
        self._winners: list[int] = []
        #: Counts the actions that can change a seat's points (see turns.POINTLESS_ACTIONS): what
        #: was worked out from the points stands while it stays.
        self.points_version = 0
        self._scores_at_version: tuple[int, list[int]] | None = None
        self._cache = PositionLists(n)
        self._others = [tuple(s for s in range(n) if s != seat) for seat in range(n)]  # in seat order
        self._index_terrain()
        #: The position the game started from, when its setup gave one (see ``position.py``).
        self.start_position: dict[str, Any] | None = None
        if setup and "position" in setup:
            self.start_position = read_position(setup["position"], self)
        if self.start_position and "order" in self.start_position:
            self.order: list[int] = list(self.start_position["order"])
        else:
            self.order = self._chance_permutation("seat_order", n)
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
        if self.start_position is not None:
            start_from(self, self.start_position)  # type: ignore[arg-type]

    def setup_record(self) -> dict[str, Any]:
        if self.start_position is not None:
            return {"map": self.map.to_json(), "position": self.start_position}
        return {"map": self.map.to_json()}

    def _index_terrain(self) -> None:
        """After a terrain changed (a mystery revealed): the land hexes (not water, not an unexplored
        mystery), then their numbers."""
        self._land_hexes = tuple(h for h, terrain in enumerate(self.terrain) if terrain not in ("water", "mystery"))
        self._index_numbers()

    def _index_numbers(self) -> None:
        """After a number token changed: the land hexes of each number, and the hexes whose numbers
        the inventor may swap."""
        by_number: dict[int, list[int]] = {}
        number = self.number
        for h in self._land_hexes:
            token = number[h]
            if token is not None:
                by_number.setdefault(token, []).append(h)
        self.by_number = by_number
        self._inventor_hexes = tuple(sorted(h for n in INVENTOR_NUMBERS for h in by_number.get(n, ())))

    def _cached(self, key: tuple[Any, ...], compute: Any) -> list[Any]:
        """``compute()``, kept until the position changes in a way that can change it (see PositionLists)."""
        kind = key[0]
        lists = self._cache
        if kind in NEAR_SEAT:
            cache = lists.seats[key[1]]
        elif kind in OWN_PIECES:
            cache = lists.own[key[1]]
        elif kind in KEYED:
            cache = lists.keyed
            if len(cache) > 16:
                cache.clear()
        else:
            cache = lists.board
            if len(cache) > 64:
                cache.clear()
        found = cache.get(key)
        if found is None:
            found = cache[key] = compute()
        return found

    def _level_changed(self, owner: int) -> None:
        """A village of ``owner``'s became a city or a city a village (its wall gone): routes, village
        places, raid places and the like read where settlements are, not their level, so only the lists
        that read levels go (the seat's settlements by level, its walls, the cities it may build)."""
        self._cache.own[owner].clear()
        self._cache.seats[owner].pop(("build", "city"), None)

    def _changed(self) -> None:
        """Pieces or terrain changed anywhere: forget every position list."""
        self._cache.board.clear()
        for cache in self._cache.seats + self._cache.own:
            cache.clear()


class PositionLists:
    """The engine's kept lists of places and actions, by what they read (see ``_cached``).

    ``seats[s]`` holds the NEAR_SEAT lists of seat ``s``: they read only the sides and corners within
    one corner of the seat's own pieces (``near[s]``: the corners its pieces touch and their
    neighbours), so a piece placed or taken elsewhere keeps them. ``own[s]`` holds the OWN_PIECES
    lists of seat ``s``, kept until a piece of its own changes. ``keyed`` holds lists whose keys
    carry everything they read. ``board`` holds the rest, forgotten at any change of pieces.
    """

    __slots__ = ("board", "keyed", "seats", "own", "near")

    def __init__(self, players: int) -> None:
        self.board: dict[tuple[Any, ...], list[Any]] = {}
        self.keyed: dict[tuple[Any, ...], list[Any]] = {}
        self.seats: list[dict[tuple[Any, ...], list[Any]]] = [{} for _ in range(players)]
        self.own: list[dict[tuple[Any, ...], list[Any]]] = [{} for _ in range(players)]
        self.near: list[set[int]] = [set() for _ in range(players)]
