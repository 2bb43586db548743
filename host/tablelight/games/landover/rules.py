"""Landover's fixed numbers: card and culture indices, costs, limits, phases and fixed actions.

Costs are the Catan-family defaults (the rulebook's cost pictures are lost); see
``docs/rules/landover.md`` for each choice.
"""

from __future__ import annotations

import functools
from typing import Any

from tablelight.core.fields import NOBODY  # noqa: F401 (the engine reads it from here)
from tablelight.core.actions import FrozenList
from tablelight.core.game import Action
from tablelight.games.landover.hexmap import CARDS, COMMODITIES, RESOURCES
from tablelight.games.landover.cards import CULTURES

WOOL, WOOD, ORE, WHEAT, CLAY, CLOTH, PAPER, COIN = range(8)
CARD_INDEX = {name: i for i, name in enumerate(CARDS)}
SCIENCE, COMMERCE, POLITICS = range(3)
CULTURE_INDEX = {name: i for i, name in enumerate(CULTURES)}
#: The commodity that pays for each culture: science paper, commerce cloth, politics coin.
CULTURE_COMMODITY = (PAPER, CLOTH, COIN)
MAX_CULTURE = 6
ROAD, BRIDGE = 1, 2
VILLAGE, CITY = 1, 2
#: Catan's and Seafarers' pieces per player (villages and cities only with the settlement_limits option).
PIECE_LIMITS = {"village": 5, "city": 4, "road": 15, "bridge": 15, "wall": 3}
UNLIMITED = 10**9
COSTS: dict[str, tuple[tuple[int, int], ...]] = {
    "road": ((WOOD, 1), (CLAY, 1)),
    "bridge": ((WOOD, 1), (WOOL, 1)),
    "village": ((CLAY, 1), (WOOD, 1), (WOOL, 1), (WHEAT, 1)),
    "city": ((ORE, 3), (WHEAT, 2)),
    "wall": ((CLAY, 2),),
    "military": ((WOOL, 1), (WHEAT, 1)),
    "medicine": ((ORE, 2), (WHEAT, 1)),
}
BASE_SAFE_HAND = 9
BARBARIAN_TRACK = 7
MILITARY_CAP = 3
DEV_HAND_LIMIT = 5
ROUTE_MIN = 5
PORT_MIN = 3
#: Event die faces 1-3 are barbarian ships; 4, 5, 6 are the science, commerce and politics gates.
EVENT_FACES = ("barbarian", "barbarian", "barbarian", "science", "commerce", "politics")
INVENTOR_NUMBERS = frozenset((3, 4, 5, 9, 10, 11))
SETUP, ROLL, MAIN, LUCKY, OVER = "setup", "roll", "main", "lucky_raid", "over"
#: Record format 3: after a master merchant or spy names its target, the player sees that seat's
#: cards and chooses what to take (``{"type": "take", ...}``) before anything else.
TAKE = "take"
#: From this record format on every turn begins in the roll phase (the seat rolls or plays an
#: alchemist); before it only a seat holding an alchemist waited there, which told everyone it held one.
ROLL_EVERY_TURN_FORMAT = 4
#: The cards played in two steps from record format 3 on (target first, then the take).
TWO_STEP_CARDS = ("master_merchant", "spy")
#: Action types each phase accepts, and every type there is.
ALLOWED_ACTIONS: dict[str, tuple[str, ...]] = {
    SETUP: ("build",),
    ROLL: ("roll", "play"),
    MAIN: ("build", "military", "improve", "trade", "raid", "remove_catapult", "play", "lucky_raid", "end_turn"),
    LUCKY: ("lucky_raid",),
    TAKE: ("take",),
}
ACTION_TYPES = frozenset(t for types in ALLOWED_ACTIONS.values() for t in types)
MAP_SALT = 0x4C414E44

#: Chance kinds whose value only the seats named in the entry may see.
PRIVATE_CHANCE = {"dev_card": ("seat",), "steal": ("seat", "victim")}


# Actions that never change, built once and shared by every listing (Action values are immutable).
END_TURN: Action = Action({"type": "end_turn"})
MILITARY: Action = Action({"type": "military"})
IMPROVE: tuple[Action, ...] = tuple(Action({"type": "improve", "culture": name}) for name in CULTURES)
TRADES: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action({"type": "trade", "give": CARDS[give], "get": CARDS[get]}) for get in range(8) if get != give)
    for give in range(8)
)
@functools.cache
def build_action(piece: str, where: str, place: int) -> Action:
    """The build of ``piece`` on edge or vertex ``place`` (``where``), made once and shared."""
    return Action({"type": "build", "piece": piece, where: place})


@functools.cache
def hex_action(kind: str, h: int) -> Action:
    """A raid, lucky raid or catapult removal on hex ``h``, made once and shared."""
    return Action({"type": kind, "hex": h})


@functools.cache
def play_action(card: str, *fields: Any) -> Action:
    """The play of ``card`` with ``fields`` given as name, value pairs (``"hex", 5``), made once and shared."""
    return Action({"type": "play", "card": card, **dict(zip(fields[::2], fields[1::2]))})


@functools.cache
def diplomat_action(e: int, to: int) -> Action:
    """The diplomat's move of the piece on side ``e`` to side ``to``, made once and shared (a listing
    with a diplomat holds a few hundred)."""
    return Action({"type": "play", "card": "diplomat", "edge": e, "to": to})


@functools.cache
def inventor_action(a: int, b: int) -> Action:
    """The inventor's swap of the numbers on hexes ``a`` and ``b``, made once and shared."""
    return Action({"type": "play", "card": "inventor", "hexes": FrozenList((a, b))})


#: Cards whose plays never depend on the position.
FIXED_PLAYS: dict[str, tuple[Action, ...]] = {
    **{
        card: (Action({"type": "play", "card": card}),)
        for card in ("crane", "irrigation", "mining", "road_building", "famine", "wedding", "anarchy")
    },
    "merchant_fleet": tuple(Action({"type": "play", "card": "merchant_fleet", "kind": k}) for k in CARDS),
    "resource_monopoly": tuple(Action({"type": "play", "card": "resource_monopoly", "kind": k}) for k in RESOURCES),
    "commodity_monopoly": tuple(Action({"type": "play", "card": "commodity_monopoly", "kind": k}) for k in COMMODITIES),
}
ROLL_ONLY: tuple[Action, ...] = (Action({"type": "roll"}),)
#: The roll phase's actions of a seat holding an alchemist (the public listing of that phase too).
ROLL_CHOICES: tuple[Action, ...] = ROLL_ONLY + tuple(
    Action({"type": "play", "card": "alchemist", "white": w, "red": r}) for w in range(1, 7) for r in range(1, 7)
)
