"""The Landover rules engine (a Settlers-like game with culture, barbarians and islands).

The engine is thin: it holds the position (``self.pos``, a ``state.LandoverState``: plain data,
every field listed once) and calls the rule modules, each a set of functions over the position,
importing only the ones below it: ``state`` -> ``places`` (where pieces may go) -> ``kept`` (the
kept place lists) -> ``scoring`` -> ``pieces`` (putting and taking pieces) -> ``production`` ->
``raids`` (the 7, raids, the barbarians) -> ``dice`` (the roll) -> ``validation`` -> ``trading`` ->
``plays`` (development cards) -> ``setup`` -> ``listing`` -> ``checking`` -> ``turns`` -> ``views``
-> ``position`` (JSON positions). What faces, drawings and bots read is the read API of
``reads.LandoverReads``, which this class extends. Every die, card draw and random pick goes
through ``Game._chance*`` (the rule functions draw through this class's ``draw_*``) and is in the
log. Rule decisions and the reasons for them are in ``docs/rules/landover.md``.

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

from collections.abc import Mapping
from typing import Any

from tablelight.core.actions import ActionEntry, ChanceEntry, FrozenList
from tablelight.core.errors import SetupError
from tablelight.core.game import Action
from tablelight.core.options import OptionSpec
from tablelight.core.rng import Rng
from tablelight.games.landover.checking import check
from tablelight.games.landover.hexmap import LAND_EDGE, WATER_EDGE, LandoverMap, builtin_map, deal_numbers, map_from_json, random_map
from tablelight.games.landover.listing import legal_actions, main_actions
from tablelight.games.landover.pieces import place_catapult, put_edge, put_settlement, upgrade
from tablelight.games.landover.position import position_of, read_position, start_from
from tablelight.games.landover.reads import LandoverReads
from tablelight.games.landover.rules import BRIDGE, CITY, LUCKY, MAIN, MAP_SALT, OVER, ROAD, ROLL, SETUP, VILLAGE
from tablelight.games.landover.scoring import scores
from tablelight.games.landover.setup import plan_setup
from tablelight.games.landover.state import LandoverState
from tablelight.games.landover.turns import perform
from tablelight.games.landover.views import describe_position, pieces_on_map, result_of, state_of, view_log_of, winners

#: Log entries that recur, made once and shared by every game (immutable values, as the listed
#: actions are): a seat's action by the seat and the action value, and an outcome drawn with no
#: context (the dice) by its kind and value. Each build of an entry costs four times a lookup.
_ACTION_ENTRIES: dict[tuple[int, int], ActionEntry] = {}
_CHANCE_ENTRIES: dict[tuple[str, int], ChanceEntry] = {}
#: The most entries kept: listings also make actions of their own (a metro's cities...), so the
#: actions' entries are forgotten at this many.
KEPT_ENTRIES = 4096


def chance_entry(kind: str, value: int) -> ChanceEntry:
    """The log entry of outcome ``value`` of a ``kind`` drawn with no context, made once and shared."""
    entry = _CHANCE_ENTRIES.get((kind, value))
    if entry is None:
        if len(_CHANCE_ENTRIES) >= KEPT_ENTRIES:
            _CHANCE_ENTRIES.clear()
        entry = _CHANCE_ENTRIES[(kind, value)] = ChanceEntry(chance=kind, value=value)
    return entry


#: The class, and the piece and phase names callers have always imported from here.
__all__ = [
    "BRIDGE", "CITY", "LAND_EDGE", "LUCKY", "MAIN", "OVER", "ROAD", "ROLL", "SETUP", "VILLAGE", "WATER_EDGE",
    "Landover",
]

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


class Landover(LandoverReads):
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

    # ------------------------------------------------------------------ the rules contract

    def _setup(self, setup: Mapping[str, Any] | None) -> None:
        for option, least in (("target", 1), ("turn_cap", 1), ("barbarian_delay", 0)):
            if self.options[option] < least:
                raise SetupError(f"option {option!r} must be at least {least}, got {self.options[option]}")
        if self.record_format < 2:
            self.options.update(FORMAT1_READINGS)
        p = self.pos = LandoverState(self.players, self.options, self.record_format, self._map_of(setup))
        # Each settlement takes its corner and blocks at most three more: with this many
        # starting corners no seat can ever be left without a legal setup place.
        needed = 4 * (2 * self.players - 1) + 1
        if sum(p.starting_corner) < needed:
            raise SetupError(
                f"map {p.map.name!r} has {sum(p.starting_corner)} starting corners; "
                f"{self.players} players need at least {needed}"
            )
        if setup and "position" in setup:
            p.start_position = read_position(setup["position"], p)
        if p.start_position and "order" in p.start_position:
            order = list(p.start_position["order"])
        else:
            order = self._chance_permutation("seat_order", self.players)
        plan_setup(p, order)
        if p.start_position is not None:
            start_from(p, self, p.start_position)

    def _map_of(self, setup: Mapping[str, Any] | None) -> LandoverMap:
        """The setup's map, or the options': a random one, or a built-in one (its numbers dealt from the seed)."""
        if setup and "map" in setup:
            return map_from_json(setup["map"])
        if self.options["map_name"] == "random":
            return random_map(Rng(self.seed ^ MAP_SALT))
        m = builtin_map(self.options["map_name"])
        if self.options["map_numbers"] == "random":
            m = deal_numbers(m, Rng(self.seed ^ NUMBER_SALT))
        return m

    def setup_record(self) -> dict[str, Any]:
        if self.pos.start_position is not None:
            return {"map": self.pos.map.to_json(), "position": self.pos.start_position}
        return {"map": self.pos.map.to_json()}

    def current_seat(self) -> int | None:
        return None if self.pos.phase == OVER else self.pos.seat

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act (immutable values: lists that depend only on the
        board are kept between calls until the board changes, and shared)."""
        return legal_actions(self.pos)

    def random_action(self, rng: Rng) -> Action:
        """A uniformly random action of the full legal listing (immutable: the listed value itself).

        The next check of this very value (immutable, so unchanged) takes it without checking it
        again, as Farlander does: the listing is made by the same placement and payment rules the
        check uses, for this very position. Anything else, an equal copy too, is checked in full.
        """
        p = self.pos
        listed = rng.choice(main_actions(p, p.seat) if p.phase == MAIN else legal_actions(p))
        p.drawn = listed
        return listed

    def apply(self, action: Action | Mapping[str, Any], seat: int | None = None) -> None:
        """:meth:`Game.apply`; the action :meth:`random_action` just drew (the listed value itself,
        before anything else changed the game) goes the short way: the checks it would pass written
        out (the game is not over, it is the drawn action, no outcome was entered at the table)."""
        p = self.pos
        if action is p.drawn and seat is None and not self._chance_entered and p.phase != OVER:
            p.drawn = None
            key = (p.seat, id(action))  # the entry holds the action: its id names no other while kept
            entry = _ACTION_ENTRIES.get(key)
            if entry is None:
                if len(_ACTION_ENTRIES) >= KEPT_ENTRIES:
                    _ACTION_ENTRIES.clear()
                entry = _ACTION_ENTRIES[key] = ActionEntry(seat=p.seat, action=action)
            self.log.append(entry)
            perform(p, self, action)
            return
        super().apply(action, seat)

    def _check(self, action: Action) -> Action:
        p = self.pos
        drawn = p.drawn
        if drawn is not None:
            # One check consumes the drawn action, whatever it is: the position may change next.
            p.drawn = None
            if action is drawn:
                return drawn  # immutable: the listed value is the normal form
        return check(p, action)

    def _perform(self, action: Action) -> None:
        perform(self.pos, self, action)

    def scores(self) -> list[int]:
        return scores(self.pos)

    def winners(self) -> list[int]:
        return winners(self.pos)

    def state(self) -> dict[str, Any]:
        return state_of(self.pos, None)

    def view(self, seat: int) -> dict[str, Any]:
        self._check_seat(seat)
        return state_of(self.pos, seat)

    def view_log(self, seat: int) -> list[Mapping[str, Any]]:
        """The log without what ``seat`` may not see: others' dev draws, steals it was not part of, and
        the cards a master merchant or spy took unless ``seat`` took them or lost them."""
        self._check_seat(seat)
        return view_log_of(self.log, seat)

    def pieces(self) -> dict[str, list[dict[str, int]]]:
        """Every piece on the map: roads, bridges, villages, cities (with walls and metros), with their seats."""
        return pieces_on_map(self.pos)

    def result(self) -> dict[str, Any]:
        return result_of(self.pos)

    def describe(self, color: bool = False) -> str:
        return describe_position(self.pos)

    def describe_result(self) -> str:
        if self.pos.capped:
            return f"turn cap reached after {self.pos.turns} turns: no winner; scores {self.scores()}"
        return super().describe_result()

    # The door the rule functions draw chance through (state.Chance): the contract's logged draws.

    def draw_below(self, kind: str, n: int, **context: Any) -> int:
        if not self._forced_chance:  # live play: Game._chance_below's first case written out
            value = self.rng.below(n)
            self.log.append(ChanceEntry.make(kind, value, context) if context else chance_entry(kind, value))
            return value
        return self._chance_below(kind, n, **context)

    def draw_die(self, kind: str) -> int:
        if not self._forced_chance:  # live play: Game._chance_die's first case written out (three a turn)
            value = self.rng.below(6) + 1
            entry = _CHANCE_ENTRIES.get((kind, value))  # chance_entry(kind, value), written out: three a turn
            self.log.append(entry if entry is not None else chance_entry(kind, value))
            return value
        return self._chance_die(kind)

    def draw_permutation(self, kind: str, n: int) -> list[int]:
        if not self._forced_chance:  # live play: Game._chance_permutation's first case, the order frozen as it is (whole numbers)
            order = list(range(n))
            self.rng.shuffle(order)
            self.log.append(ChanceEntry(chance=kind, value=FrozenList(order)))
            return order
        return self._chance_permutation(kind, n)

    def position(self) -> dict[str, Any]:
        """The position now, as a game's setup takes it: ``Landover(n, options, seed, setup={"map": m,
        "position": p})`` starts a game that lists, shows and scores the same (see ``position.py``).
        It names every seat's cards: a secret, as the state is."""
        return position_of(self.pos)

    # Positions set up outside the rules (tests and puzzles), as Mainland.set_tile does: the log
    # does not hold these changes, so a game changed with them no longer replays.

    def put_piece(self, seat: int, piece: str, where: int, home: bool = True) -> None:
        """Put ``seat``'s ``piece`` ("village", "city", "road" or "bridge") on corner or side ``where``
        with all that follows (routes, harbors, islands, mystery hexes revealed); a city on the seat's
        own village replaces it. ``home``: a settlement's islands are home islands (as in the setup)."""
        p = self.pos
        if piece in ("road", "bridge"):
            put_edge(p, self, seat, where, ROAD if piece == "road" else BRIDGE)
        elif piece == "city" and p.corner_owner[where] == seat and p.corner_level[where] == VILLAGE:
            upgrade(p, self, seat, where)
        elif piece in ("village", "city"):
            put_settlement(p, seat, where, VILLAGE if piece == "village" else CITY, setup=home)
        else:
            raise SetupError(f"put_piece puts a village, city, road or bridge, not {piece!r}")

    def put_catapult(self, seat: int, h: int) -> None:
        """Put ``seat``'s catapult on hex ``h`` (taking it from where it stood)."""
        place_catapult(self.pos, seat, h)
