"""The Landover rules engine (a Settlers-like game with culture, barbarians and islands).

The state is flat and index-based (lists per corner, per side, per seat) so that
listing the legal actions at every step stays fast. Every die, card draw and
random pick goes through ``Game._chance*`` and is in the log. Rule decisions and
the reasons for them are in ``docs/rules/landover.md``.

The class is built as a chain, one job per module, each class extending the one before:
``state`` (the named fields) -> ``places`` (where pieces may go) -> ``scoring`` (points, limits,
rates, the win) -> ``pieces`` (putting and taking pieces) -> ``production`` (the roll, the 7,
raids, barbarians) -> ``validation`` (reading fields) -> ``plays`` (development cards) ->
``listing`` (legal actions) -> ``checking`` -> ``turns`` (applying, turn order) -> ``views``
(state, views, results, read-only queries) -> this module (options, bots).

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
    {"type": "take", "cards": [...]}           after a master merchant (format 3; "dev_card": name after a spy)
    {"type": "end_turn"}
"""

from __future__ import annotations

from typing import Any

from tablelight.core.errors import SetupError
from tablelight.core.options import OptionSpec
from tablelight.games.landover.hexmap import LAND_EDGE, WATER_EDGE
from tablelight.games.landover.position import position_of
from tablelight.games.landover.rules import BRIDGE, CITY, LUCKY, MAIN, OVER, ROAD, ROLL, SETUP, VILLAGE
from tablelight.games.landover.views import LandoverViews

#: The class, and the piece and phase names callers have always imported from here.
__all__ = [
    "BRIDGE", "CITY", "LAND_EDGE", "LUCKY", "MAIN", "OVER", "ROAD", "ROLL", "SETUP", "VILLAGE", "WATER_EDGE",
    "Landover",
]


class Landover(LandoverViews):
    name = "landover"
    min_players = 2
    max_players = 4
    has_secrets = True  # hands and development cards are hidden (view, view_log)
    latest_record_format = 3
    secret_setup = ("position",)  # it names every seat's hand and development cards
    own_bots = {"greedy": "tablelight.games.landover.bots:GreedyBot"}
    # The dice, and a gold hex's or the aqueduct's resource (an index in RESOURCES).
    chance_ranges = {"white_die": (1, 6), "red_die": (1, 6), "event_die": (1, 6), "gold": (0, 4), "aqueduct": (0, 4)}
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

    def position(self) -> dict[str, Any]:
        """The position now, as a game's setup takes it: ``Landover(n, options, seed, setup={"map": m,
        "position": p})`` starts a game that lists, shows and scores the same (see ``position.py``).
        It names every seat's cards: a secret, as the state is."""
        return position_of(self)

    # Positions set up outside the rules (tests and puzzles), as Mainland.set_tile does: the log
    # does not hold these changes, so a game changed with them no longer replays.

    def put_piece(self, seat: int, piece: str, where: int, home: bool = True) -> None:
        """Put ``seat``'s ``piece`` ("village", "city", "road" or "bridge") on corner or side ``where``
        with all that follows (routes, harbors, islands, mystery hexes revealed); a city on the seat's
        own village replaces it. ``home``: a settlement's islands are home islands (as in the setup)."""
        if piece in ("road", "bridge"):
            self._put_edge(seat, where, ROAD if piece == "road" else BRIDGE)
        elif piece == "city" and self.corner_owner[where] == seat and self.corner_level[where] == VILLAGE:
            self._upgrade(seat, where)
        elif piece in ("village", "city"):
            self._put_settlement(seat, where, VILLAGE if piece == "village" else CITY, setup=home)
        else:
            raise SetupError(f"put_piece puts a village, city, road or bridge, not {piece!r}")

    def put_catapult(self, seat: int, h: int) -> None:
        """Put ``seat``'s catapult on hex ``h`` (taking it from where it stood)."""
        self._place_catapult(seat, h)
