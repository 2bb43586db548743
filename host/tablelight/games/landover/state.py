"""The Landover position: plain data, every field listed once (``LandoverState.__slots__``) with what
it holds. The rule modules read and change these fields; nothing else adds one (slots refuse it).

Corners, sides and hexes are map ids; seats are 0-based; ``NOBODY`` (-1) marks no owner. Besides
the fields, this module keeps the derived indexes (land hexes, hexes by number) and the kept lists
(``PositionLists``) that the rules read often: ``cached``, ``level_changed``, ``changed``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from tablelight.core.actions import Action
from tablelight.games.landover.cards import CULTURES, full_decks
from tablelight.games.landover.hexmap import CARD_KINDS, LandoverMap
from tablelight.games.landover.rules import INVENTOR_NUMBERS, NOBODY, PIECE_LIMITS, SETUP, UNLIMITED

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


class Chance(Protocol):
    """The door the rule functions draw chance through: the engine's logged draws (``Game._chance*``),
    so that every outcome is in the log and a replay gives it back."""

    def draw_below(self, kind: str, n: int, **context: Any) -> int: ...

    def draw_die(self, kind: str) -> int: ...

    def draw_permutation(self, kind: str, n: int) -> list[int]: ...


class LandoverState:
    """Everything a Landover game is at one moment (the engine holds one: ``game.pos``)."""

    __slots__ = (
        # The game's frame
        "players",  # number of seats
        "options",  # the resolved options (dict; format 1 records read with FORMAT1_READINGS)
        "record_format",  # the record format the game plays under
        # The map
        "map",  # LandoverMap: geometry and what is printed (never changes)
        "hex_count", "corner_count", "side_count",  # ints: how many hexes, corners, sides
        "terrain",  # per hex: its terrain now ("mystery" until revealed)
        "number",  # per hex: its number token now (None: none); inventor and anarchy move them
        "by_number",  # token -> the producing land hexes with it (derived: index_numbers)
        "land_hexes",  # tuple of the land hexes (not water, not an unexplored mystery; derived)
        "inventor_hexes",  # tuple of the hexes whose numbers the inventor may swap (derived)
        "mystery_left",  # the map's mystery_pool tiles not yet turned over (indices)
        "corner_on_land",  # per corner: it touches a land or mystery hex
        "starting_corner",  # per corner: on land and touching no mystery hex (setup places)
        # Pieces
        "corner_owner",  # per corner: the seat of its village or city, or NOBODY
        "corner_level",  # per corner: 0 empty, VILLAGE 1, CITY 2
        "corner_wall",  # per corner: the city there has a wall
        "corner_metro",  # per corner: the culture index of the metro on that city, or -1
        "side_owner",  # per side: the seat of its road or bridge, or NOBODY
        "side_route",  # per side: 0 empty, ROAD 1, BRIDGE 2
        "settled_corners",  # per hex: its corners with a village or city, in the hex's corner order
        "corners_of",  # per seat: the corners of its villages and cities, in the order built
        "edges_of",  # per seat: the sides of its roads and bridges, in the order built
        "counts",  # per seat: {"village", "city", "road", "bridge", "wall"} -> pieces on the map
        "limits",  # piece name -> how many a seat may have (this game's options)
        # Per seat
        "hands",  # per seat: card counts by card index (resources first, then commodities: hexmap.CARDS)
        "dev_cards",  # per seat: the development cards held, in the order drawn
        "culture",  # per seat: [science, commerce, politics] levels
        "military",  # per seat: military power
        "catapult",  # per seat: the hex of its catapult, or -1
        "vp_cards",  # per seat: victory point cards drawn
        "defender",  # per seat: defender points (barbarians beaten off)
        "routes",  # per seat: the length of its longest route
        "harbor_count",  # per seat: harbors its settlements touch
        "harbor_kinds",  # per seat: set of the resource indices it trades 2:1 by harbor
        "home_islands",  # per seat: set of the islands settled in the setup (or a position's home pieces)
        "explored",  # per seat: set of the islands settled since (island explored points)
        "others",  # per seat: the other seats, in seat order (a tuple, fixed)
        # Shared
        "decks",  # per culture: the development cards left, in order (drawn at random)
        "catapult_at",  # hex -> the seat whose catapult stands there
        "merchant_owner", "merchant_hex",  # who holds the merchant token (or NOBODY) and its hex (-1)
        "metro_owner",  # per culture: the seat holding its metro, or NOBODY
        "metro_locked",  # per culture: the metro's owner reached level 6 (it can no longer be taken)
        "route_holder", "port_holder",  # seats holding longest route and port authority, or NOBODY
        "barbarians",  # the barbarians' track position (0 .. BARBARIAN_TRACK - 1)
        "barbarian_delay",  # barbarian faces still to pass without moving them
        # The turn
        "phase",  # SETUP, ROLL, MAIN, LUCKY, TAKE or OVER
        "seat",  # the seat to act
        "order",  # the seat order (drawn at the start)
        "turn_index",  # index in ``order`` of the seat whose turn it is
        "turns",  # turns played (the turn cap counts them)
        "capped",  # the game ended at the turn cap
        "winner_seats",  # the winner once the game is over by points ([] otherwise)
        "dice",  # this turn's roll: {"white", "red", "event"} ({} before the first)
        "raided",  # a raid (or siege) was made this turn
        "crane",  # a crane was played this turn (the next improvement costs one less)
        "fleet",  # set of card indices tradable 2:1 this turn (merchant fleet)
        "free_routes",  # roads or bridges still free this turn (road building)
        "saved_numbers",  # the tokens before anarchy moved them (a 7 puts them back), or None
        "lucky_raid",  # a lucky 7 catapult is still open this turn (record format 2 on)
        "taking",  # phase take: {"seat", "card", "target"} of the master merchant or spy played, or None
        "setup_steps",  # the setup's (seat, piece) steps in order
        "setup_step",  # index of the setup step to make
        "setup_vertex",  # the corner settled by the last setup step (its road goes there), or -1
        "start_position",  # the JSON position the game started from (position.py), or None
        # Kept between actions, to make the next ones faster
        "kept",  # PositionLists: the kept place and action lists (see cached)
        "points_version",  # counts the actions that can change a seat's points
        "scores_at_version",  # (points_version, scores) worked out at that version, or None
        "drawn",  # the listed action random_action last drew, until the next check takes it, or None
    )

    def __init__(self, players: int, options: Mapping[str, Any], record_format: int, m: LandoverMap) -> None:
        """An empty map before the setup: no pieces, empty hands, full decks, seat order not drawn."""
        self.players = players
        self.options = options
        self.record_format = record_format
        self.map = m
        self.hex_count, self.corner_count, self.side_count = len(m.coords), len(m.vertex_hexes), len(m.edge_kind)
        self.terrain: list[str] = list(m.terrain)
        self.number: list[int | None] = list(m.number)
        self.by_number: dict[int, list[int]] = {}
        self.land_hexes: tuple[int, ...] = ()
        self.inventor_hexes: tuple[int, ...] = ()
        self.mystery_left: list[int] = list(range(len(m.mystery_pool)))
        water = {h for h, terrain in enumerate(self.terrain) if terrain == "water"}
        mystery = {h for h, terrain in enumerate(self.terrain) if terrain == "mystery"}
        self.corner_on_land = [not water.issuperset(hexes) for hexes in m.vertex_hexes]
        self.starting_corner = [
            on_land and mystery.isdisjoint(hexes) for on_land, hexes in zip(self.corner_on_land, m.vertex_hexes)
        ]
        n = players
        self.corner_owner = [NOBODY] * self.corner_count
        self.corner_level = [0] * self.corner_count
        self.corner_wall = [False] * self.corner_count
        self.corner_metro = [-1] * self.corner_count
        self.side_owner = [NOBODY] * self.side_count
        self.side_route = [0] * self.side_count
        self.settled_corners: list[tuple[int, ...]] = [() for _ in range(self.hex_count)]
        self.corners_of: list[list[int]] = [[] for _ in range(n)]
        self.edges_of: list[list[int]] = [[] for _ in range(n)]
        self.counts = [{"village": 0, "city": 0, "road": 0, "bridge": 0, "wall": 0} for _ in range(n)]
        # The text limits walls only (3 per player); Catan's 5 villages and 4 cities are an option.
        self.limits = dict(PIECE_LIMITS)
        if not options["settlement_limits"]:
            self.limits["village"] = self.limits["city"] = UNLIMITED
        if not options["route_limits"]:
            self.limits["road"] = self.limits["bridge"] = UNLIMITED
        self.hands = [[0] * CARD_KINDS for _ in range(n)]
        self.dev_cards: list[list[str]] = [[] for _ in range(n)]
        self.culture = [[0, 0, 0] for _ in range(n)]
        self.military = [0] * n
        self.catapult = [-1] * n
        self.vp_cards = [0] * n
        self.defender = [0] * n
        self.routes = [0] * n
        self.harbor_count = [0] * n
        self.harbor_kinds: list[set[int]] = [set() for _ in range(n)]
        self.home_islands: list[set[int]] = [set() for _ in range(n)]
        self.explored: list[set[int]] = [set() for _ in range(n)]
        self.others = [tuple(s for s in range(n) if s != seat) for seat in range(n)]
        self.decks: list[list[str]] = [list(full_decks()[c]) for c in CULTURES]
        self.catapult_at: dict[int, int] = {}
        self.merchant_owner = NOBODY
        self.merchant_hex = -1
        self.metro_owner = [NOBODY] * 3
        self.metro_locked = [False] * 3
        self.route_holder = NOBODY
        self.port_holder = NOBODY
        self.barbarians = 0
        self.barbarian_delay: int = options["barbarian_delay"]
        self.phase = SETUP
        self.seat = 0
        self.order: list[int] = list(range(n))
        self.turn_index = 0
        self.turns = 0
        self.capped = False
        self.winner_seats: list[int] = []
        self.dice: dict[str, Any] = {}
        self.raided = False
        self.crane = False
        self.fleet: set[int] = set()
        self.free_routes = 0
        self.saved_numbers: list[int | None] | None = None
        self.lucky_raid = False
        self.taking: dict[str, Any] | None = None
        self.setup_steps: list[tuple[int, str]] = []
        self.setup_step = 0
        self.setup_vertex = -1
        self.start_position: dict[str, Any] | None = None
        self.kept = PositionLists(n)
        self.points_version = 0
        self.scores_at_version: tuple[int, list[int]] | None = None
        self.drawn: Action | None = None
        index_terrain(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> LandoverState:
        """A copy for a clone (the search bots look ahead on clones): the map and the fixed tuples are
        shared, everything that changes is copied."""
        import copy

        twin = LandoverState.__new__(LandoverState)
        memo[id(self)] = twin
        for name in LandoverState.__slots__:
            value = getattr(self, name)
            if name not in SHARED:
                value = copy.deepcopy(value, memo)
            setattr(twin, name, value)
        return twin


#: Fields that never change after the setup or only ever hold immutable values: a copy shares them.
SHARED = frozenset(("map", "hex_count", "corner_count", "side_count", "land_hexes", "inventor_hexes",
                    "corner_on_land", "starting_corner", "limits", "others", "drawn", "players", "record_format"))


class PositionLists:
    """The engine's kept lists of places and actions, by what they read (see ``cached``).

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


def index_terrain(p: LandoverState) -> None:
    """After a terrain changed (a mystery revealed): the land hexes (not water, not an unexplored
    mystery), then their numbers."""
    p.land_hexes = tuple(h for h, terrain in enumerate(p.terrain) if terrain not in ("water", "mystery"))
    index_numbers(p)


def index_numbers(p: LandoverState) -> None:
    """After a number token changed: the land hexes of each number, and the hexes whose numbers
    the inventor may swap."""
    by_number: dict[int, list[int]] = {}
    number = p.number
    for h in p.land_hexes:
        token = number[h]
        if token is not None:
            by_number.setdefault(token, []).append(h)
    p.by_number = by_number
    p.inventor_hexes = tuple(sorted(h for n in INVENTOR_NUMBERS for h in by_number.get(n, ())))


def cached(p: LandoverState, key: tuple[Any, ...], compute: Any) -> Any:
    """``compute()``, kept until the position changes in a way that can change it (see PositionLists)."""
    kind = key[0]
    lists = p.kept
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


def level_changed(p: LandoverState, owner: int) -> None:
    """A village of ``owner``'s became a city or a city a village (its wall gone): routes, village
    places, raid places and the like read where settlements are, not their level, so only the lists
    that read levels go (the seat's settlements by level, its walls, the cities it may build)."""
    p.kept.own[owner].clear()
    p.kept.seats[owner].pop(("build", "city"), None)


def changed(p: LandoverState) -> None:
    """Pieces or terrain changed anywhere: forget every position list."""
    p.kept.board.clear()
    for cache in p.kept.seats + p.kept.own:
        cache.clear()
