"""The Farlander rules engine.

Two phases. **Distribution**: in turn, each player puts one unit into an empty
territory or one of their own holding fewer than five. **Action**: in turn, each
player must conquer one enemy territory when they can: the attacker's strength
is the sum of its units in all territories bordering the target, and it wins
when that is greater than the defender's units (+1 for a garrison). The attacker
then moves 1-5 units into the target from its bordering territories, each of
which keeps at least one unit. The game ends when no player can conquer; each
territory is worth 1 point (2 with a garrison when garrisons are on).

Actions::

    {"type": "place", "territory": "a1"}
    {"type": "conquer", "target": "c3", "moves": {"a1": 2, "b2": 1}}

Players never send ``skip``: a seat that cannot act is skipped by the engine and
the skip is logged with ``"auto": true``. Rule decisions are in
``docs/rules/farlander.md``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from tablelight.core.actions import ActionEntry, FrozenDict
from tablelight.core.errors import MalformedActionError, RuleViolationError
from tablelight.core.fields import NOBODY, is_whole
from tablelight.core.game import Action, Game
from tablelight.core.options import OptionSpec
from tablelight.core.rng import Rng
from tablelight.games.farlander.board_text import SEAT_MARKS, board_text
from tablelight.games.farlander.map import FarlanderMap, build_map, map_from_json, map_layout, random_placement
from tablelight.games.farlander.position import position_json, read_position

UNITS_PER_PLAYER = {2: 36, 3: 24, 4: 18}
MAX_UNITS = 5
MAX_MOVE_IN = 5
DISTRIBUTION = "distribution"
ACTION = "action"
OVER = "over"
#: Keeps the map generator apart from the game generator, so that a loaded map
#: and a generated one leave the game's chance draws the same.
_MAP_SALT = 0x6D6170


@functools.lru_cache(maxsize=4096)  # sources hold 1-4 spare units each: few tuples recur all game
def _ways_table(availables: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """ways[p][total]: the choices (none moved included) for sources p.. after ``total`` units."""
    ways = [(1,) * (MAX_MOVE_IN + 1)]
    for available in reversed(availables):
        after = ways[0]
        ways.insert(0, tuple(
            after[total] + sum(after[total + c] for c in range(1, min(available, MAX_MOVE_IN - total) + 1))
            for total in range(MAX_MOVE_IN + 1)
        ))
    return tuple(ways)


class MoveWays:
    """The ways to move units into a target, in :meth:`Farlander.move_options` order, counted
    without listing them: a random game draws one by its number (the same one the list holds there)."""

    def __init__(self, spare: list[tuple[str, int]]) -> None:
        self.spare = spare = sorted(spare)
        self.ways = _ways_table(tuple([available for _, available in spare]))
        #: How many ways there are (moving nothing is not one).
        self.count = self.ways[0][0] - 1

    def nth(self, k: int) -> dict[str, int]:
        """The ``k``-th way (0-based), as ``move_options(...)[k]`` would give it."""
        return _nth_way(self.spare, self.ways, k)


def _nth_way(spare: list[tuple[str, int]], ways: tuple[tuple[int, ...], ...], k: int) -> dict[str, int]:
    """:meth:`MoveWays.nth` for the sorted ``spare`` units and their :func:`_ways_table`."""
    j, total, chosen = k + 1, 0, {}  # + 1: the listing order starts with moving nothing, left out
    for position, (source, available) in enumerate(spare):
        after = ways[position + 1]
        if j < after[total]:
            continue
        j -= after[total]
        for count in range(1, min(available, MAX_MOVE_IN - total) + 1):
            if j < after[total + count]:
                chosen[source] = count
                total += count
                break
            j -= after[total + count]
    return chosen


class Farlander(Game):
    name = "farlander"
    own_bots = {"strong": "tablelight.games.farlander.bots:StrongBot"}
    min_players = 2
    max_players = 4
    option_specs = (
        OptionSpec(
            "garrisons",
            bool,
            lambda players: players >= 3,
            "garrisons add 1 to the defender and score 2 (default: on for 3-4 players)",
        ),
        OptionSpec(
            "claim_empty",
            bool,
            False,
            "in the action phase a territory left empty may be taken like an enemy one (default: off)",
        ),
    )

    # ------------------------------------------------------------------ setup

    def _setup(self, setup: Mapping[str, Any] | None) -> None:
        #: The map (built on first read when the game made it from a placement; see ``map``).
        self._map: FarlanderMap | None = None
        #: The tiles' (design, turn) by slot of a map the game made itself (None: the setup gave the map).
        self._placement: list[tuple[int, int]] | None = None
        if setup and "map" in setup:
            self._map = map_from_json(setup["map"])
            layout = [((t.id, t.tile, t.garrison, t.edges), t.neighbors) for t in self._map.territories]
        else:
            self._placement = random_placement(Rng(self.seed ^ _MAP_SALT))
            layout = map_layout(self._placement)
        self.ids: list[str] = [entry[0] for entry, _ in layout]
        self.index: dict[str, int] = {tid: i for i, tid in enumerate(self.ids)}
        index = self.index
        self.neighbors: tuple[tuple[int, ...], ...] = tuple([
            tuple([index[n] for n in neighbors]) for _, neighbors in layout
        ])
        #: Whether each territory has a garrison (whether or not the option counts them).
        self.garrison: tuple[bool, ...] = tuple([entry[2] for entry, _ in layout])
        garrisons_on = self.options["garrisons"]
        self.defense_bonus: tuple[int, ...] = tuple([int(garrisons_on and g) for g in self.garrison])
        count = len(self.ids)
        self.owner: list[int] = [NOBODY] * count
        self.units: list[int] = [0] * count
        self.reserve: list[int] = [UNITS_PER_PLAYER[self.players]] * self.players
        self.phase = DISTRIBUTION
        # Per-seat answers of placements() and targets(), cleared whenever the board changes.
        self._placements: dict[int, list[int]] = {}
        self._targets: dict[int, list[int]] = {}
        #: _reach's counts per seat, once asked for (None: count afresh).
        self._reach_tables: list[tuple[list[int], list[int]]] | None = None
        #: The normal form of the action random_action last gave, until the board changes.
        self._issued: Action | None = None
        #: Each territory's place action, made when first listed (immutable values, shared).
        self._place_actions: list[Action | None] = [None] * count
        #: The position the game started from, when its setup gave one (see ``position.py``).
        self.start_position: dict[str, Any] | None = None
        if setup and "position" in setup:
            self._start_from(setup["position"])
            return
        self.turn = self._chance_below("first_player", self.players, phase=DISTRIBUTION)
        self._settle_turn(self.turn)

    @property
    def map(self) -> FarlanderMap:
        """The map: territories with their drawing (tiles, edges, anchors). A game that made its own
        map from a placement builds it when first read: random games that nobody draws never do."""
        if self._map is None:
            assert self._placement is not None
            self._map = build_map(self._placement)
        return self._map

    def _start_from(self, data: Any) -> None:
        start = read_position(data, self.index, self.players, MAX_UNITS, UNITS_PER_PLAYER[self.players])
        for t, (seat, units) in start.holdings.items():
            self.owner[t], self.units[t] = seat, units
        self.reserve = list(start.reserve)
        self.phase, self.turn = start.phase, start.turn
        self.start_position = self.position()
        self._settle_turn(start.turn)  # a seat that cannot act is skipped, as in play

    def setup_record(self) -> dict[str, Any]:
        if self.start_position is not None:
            return {"map": self.map.to_json(), "position": self.start_position}
        return {"map": self.map.to_json()}

    def position(self) -> dict[str, Any]:
        """The position now, as a game's setup takes it: ``Farlander(..., setup={"map": m, "position": p})``
        starts a game here (see ``games/farlander/position.py``)."""
        return position_json(self.phase, self.turn, self.reserve, self.ids, self.owner, self.units)

    # ---------------------------------------------------------------- queries

    def current_seat(self) -> int | None:
        return None if self.phase == OVER else self.turn

    def is_over(self) -> bool:
        return self.phase == OVER

    def place_action(self, t: int) -> Action:
        """The action placing a unit into territory ``t`` (one value per territory, made once)."""
        action = self._place_actions[t]
        if action is None:
            action = self._place_actions[t] = Action({"type": "place", "territory": self.ids[t]})
        return action

    def placements(self, seat: int) -> list[int]:
        """Territory indices where ``seat`` may place a unit now: the one test for placing."""
        cached = self._placements.get(seat)
        if cached is not None:
            return cached
        if self.reserve[seat] <= 0:
            found: list[int] = []
        else:
            owner, units = self.owner, self.units
            found = [t for t in range(len(owner)) if (owner[t] == NOBODY or owner[t] == seat) and units[t] < MAX_UNITS]
        self._placements[seat] = found
        return found

    def can_place(self, seat: int) -> bool:
        return bool(self.placements(seat))

    def targets(self, seat: int) -> list[int]:
        """Territory indices ``seat`` may conquer now."""
        cached = self._targets.get(seat)
        if cached is None:
            strength, senders = self._reach(seat)
            owners, units, bonus = self.owner, self.units, self.defense_bonus
            claim_empty = self.options["claim_empty"]
            cached = self._targets[seat] = [
                t for t, owner in enumerate(owners)
                if owner != seat and (owner != NOBODY or claim_empty) and senders[t]
                and strength[t] > units[t] + bonus[t]
            ]
        return cached

    def can_conquer(self, seat: int) -> bool:
        return bool(self.targets(seat))

    def strength(self, seat: int, target: int) -> int:
        """Units of ``seat`` in territories bordering ``target``."""
        owner, units = self.owner, self.units
        return sum(units[n] for n in self.neighbors[target] if owner[n] == seat)

    def defense(self, target: int) -> int:
        return self.units[target] + self.defense_bonus[target]

    def spare_units(self, seat: int, target: int) -> dict[int, int]:
        """Bordering territories of ``seat`` and how many units each can send (all but one)."""
        owner, units = self.owner, self.units
        return {n: units[n] - 1 for n in self.neighbors[target] if owner[n] == seat and units[n] > 1}

    def legal_actions(self) -> list[Action]:
        seat = self.current_seat()
        if seat is None:
            return []
        if self.phase == DISTRIBUTION:
            return [self.place_action(t) for t in self.placements(seat)]
        actions = []
        for target in self.targets(seat):
            for moves in self.move_options(seat, target):
                actions.append(Action({"type": "conquer", "target": self.ids[target], "moves": FrozenDict(moves)}))
        return actions

    def move_options(self, seat: int, target: int) -> list[dict[str, int]]:
        """Every way to move 1-5 units into ``target`` (ids sorted, zero counts left out)."""
        spare = sorted(self.spare_units(seat, target).items(), key=lambda item: self.ids[item[0]])
        options: list[dict[str, int]] = []

        def extend(position: int, chosen: list[tuple[int, int]], total: int) -> None:
            if position == len(spare):
                if total > 0:
                    options.append({self.ids[t]: n for t, n in chosen})
                return
            source, available = spare[position]
            extend(position + 1, chosen, total)
            for count in range(1, min(available, MAX_MOVE_IN - total) + 1):
                chosen.append((source, count))
                extend(position + 1, chosen, total + count)
                chosen.pop()

        extend(0, [], 0)
        return options

    def random_action(self, rng: Rng) -> Action:
        """A random target, then a random way to move in (cheaper than listing every action)."""
        seat = self.turn
        if self.phase == DISTRIBUTION:
            found = self._placements.get(seat)
            if found is None:
                found = self.placements(seat)
            t = found[rng.below(len(found))]
            action = self._place_actions[t]
            if action is None:
                action = self._place_actions[t] = Action({"type": "place", "territory": self.ids[t]})
            self._issued = action
            return action
        target = rng.choice(self.targets(seat))
        # MoveWays(...).nth(rng.below(count)) written out (a conquest in three of a random game's four steps)
        ids, owner, units = self.ids, self.owner, self.units
        spare = sorted([(ids[n], units[n] - 1) for n in self.neighbors[target] if owner[n] == seat and units[n] > 1])
        ways = _ways_table(tuple([available for _, available in spare]))
        moves = _nth_way(spare, ways, rng.below(ways[0][0] - 1))
        self._issued = Action({"type": "conquer", "target": self.ids[target], "moves": FrozenDict(moves)})
        return self._issued

    def move_ways(self, seat: int, target: int) -> MoveWays:
        """The ways to move units into ``target``, counted (see :class:`MoveWays`)."""
        ids, owner, units = self.ids, self.owner, self.units
        return MoveWays([(ids[n], units[n] - 1) for n in self.neighbors[target] if owner[n] == seat and units[n] > 1])

    def scores(self) -> list[int]:
        points = [0] * self.players
        garrison_points = self.options["garrisons"]
        for t, owner in enumerate(self.owner):
            if owner != NOBODY:
                points[owner] += 2 if garrison_points and self.garrison[t] else 1
        return points

    def state(self) -> dict[str, Any]:
        return {
            "game": self.name,
            "phase": self.phase,
            "turn": self.current_seat(),
            "reserve": list(self.reserve),
            "territories": {
                tid: {"owner": None if self.owner[t] == NOBODY else self.owner[t], "units": self.units[t]}
                for t, tid in enumerate(self.ids)
            },
            "scores": self.scores(),
            "winners": self.winners(),
        }

    # -------------------------------------------------------------- the rules

    def _place_problem(self, seat: int, t: int) -> tuple[str, str]:
        """Why ``seat`` may not place into ``t``, for a territory :meth:`placements` left out."""
        if self.reserve[seat] <= 0:
            return ("farlander.distribution.no_units_left", f"seat {seat} has no units left to place")
        owner = self.owner[t]
        if owner != NOBODY and owner != seat:
            return (
                "farlander.distribution.enemy_territory",
                f"{self.ids[t]} is held by seat {owner}: place only into empty or own territories",
            )
        return ("farlander.distribution.territory_full", f"{self.ids[t]} already holds {MAX_UNITS} units")

    def _reach(self, seat: int) -> tuple[list[int], list[int]]:
        """Per territory: the units of ``seat`` bordering it, and how many of those territories can
        send units (hold more than one). Counted for every seat at once when first asked, then kept
        up to date conquest by conquest (:meth:`_move_reach`) until the board changes otherwise."""
        tables = self._reach_tables
        if tables is None:
            tables = self._reach_tables = [self._count_reach(s) for s in range(self.players)]
        return tables[seat]

    def _count_reach(self, seat: int) -> tuple[list[int], list[int]]:
        """:meth:`_reach` counted afresh: one pass over the seat's territories."""
        owners, units, neighbors = self.owner, self.units, self.neighbors
        strength = [0] * len(owners)
        senders = [0] * len(owners)
        for n, owner in enumerate(owners):
            if owner == seat:
                count = units[n]
                for t in neighbors[n]:
                    strength[t] += count
                    if count > 1:
                        senders[t] += 1
        return strength, senders

    def _move_reach(self, n: int, owner: int, units: int, sign: int) -> None:
        """Add (``sign`` 1) or take away (-1) territory ``n`` held by ``owner`` with ``units`` in the
        kept :meth:`_reach` counts."""
        if owner == NOBODY or self._reach_tables is None:
            return
        strength, senders = self._reach_tables[owner]
        step, sends = sign * units, units > 1
        for t in self.neighbors[n]:
            strength[t] += step
            if sends:
                senders[t] += sign

    def _target_refusal(self, seat: int, t: int) -> RuleViolationError:
        """Why ``seat`` may not conquer ``t`` (one not among :meth:`targets`, the one test), in words."""
        name, owner = self.ids[t], self.owner[t]
        strength, _ = self._reach(seat)
        if owner == seat:
            return RuleViolationError("farlander.conquer.own_territory", f"{name} is already yours")
        if owner == NOBODY and not self.options["claim_empty"]:
            return RuleViolationError(
                "farlander.conquer.empty_territory",
                f"{name} is empty: only enemy territories can be conquered (option claim_empty)",
            )
        if strength[t] == 0:
            return RuleViolationError("farlander.conquer.not_bordering", f"none of your territories borders {name}")
        if strength[t] <= self.defense(t):
            garrison = " (garrison +1)" if self.defense_bonus[t] else ""
            return RuleViolationError(
                "farlander.conquer.too_weak",
                f"your strength {strength[t]} must be greater than {name}'s defence {self.defense(t)}{garrison}",
            )
        return RuleViolationError(
            "farlander.conquer.no_units_to_move",
            f"every bordering territory of yours holds a single unit: none can move into {name}",
        )

    def _territory(self, action: Action, key: str) -> int:
        tid = action.get(key)
        if not isinstance(tid, str) or tid not in self.index:
            raise MalformedActionError(
                "farlander.action.unknown_territory", f"{key} must be a territory id of this map, got {tid!r}"
            )
        return self.index[tid]

    def apply(self, action: Action | Mapping[str, Any], seat: int | None = None) -> None:
        """:meth:`Game.apply`; the action :meth:`random_action` just gave (the value itself, before
        anything else changed the game) goes the short way: the checks it would pass written out
        (the game is not over, it is the issued action, no outcome was entered at the table)."""
        if action is self._issued and seat is None and not self._chance_entered and self.phase != OVER:
            self.log.append(ActionEntry(seat=self.turn, action=action))
            self._perform(action)
            return
        super().apply(action, seat)

    def _is_issued(self, action: Action) -> bool:
        """Whether ``action`` is the very value :meth:`random_action` gave for this position (drawn
        from :meth:`placements` or :meth:`targets` and :class:`MoveWays`, so legal, and immutable, so
        unchanged since): then checking it again can be skipped. Anything else takes the full check."""
        return self._issued is not None and action is self._issued

    def _check(self, action: Action) -> Action:
        if self._is_issued(action):
            return action
        seat = self.turn
        kind = action.get("type")
        expected = "place" if self.phase == DISTRIBUTION else "conquer"
        if kind not in ("place", "conquer"):
            raise MalformedActionError(
                "farlander.action.unknown_type", f"unknown action type {kind!r}; now expected {expected!r}"
            )
        if kind != expected:
            raise RuleViolationError(
                "farlander.action.wrong_phase", f"{kind!r} is not allowed in the {self.phase} phase"
            )
        if kind == "place":
            extra = set(action) - {"type", "territory"}
            if extra:
                raise MalformedActionError("farlander.action.unknown_field", f"unexpected field(s): {sorted(extra)}")
            t = self._territory(action, "territory")
            if t not in self.placements(seat):
                raise RuleViolationError(*self._place_problem(seat, t))
            return self.place_action(t)
        extra = set(action) - {"type", "target", "moves"}
        if extra:
            raise MalformedActionError("farlander.action.unknown_field", f"unexpected field(s): {sorted(extra)}")
        target = self._territory(action, "target")
        if target not in self.targets(seat):
            raise self._target_refusal(seat, target)
        moves = action.get("moves")
        if not isinstance(moves, dict):
            raise MalformedActionError(
                "farlander.conquer.moves_shape", 'moves must be an object of territory id -> units, like {"a1": 2}'
            )
        spare = self.spare_units(seat, target)
        normal: dict[int, int] = {}
        for tid, count in moves.items():
            if not isinstance(tid, str) or tid not in self.index:
                raise MalformedActionError(
                    "farlander.action.unknown_territory", f"moves names unknown territory {tid!r}"
                )
            if not is_whole(count) or count < 0:
                raise MalformedActionError(
                    "farlander.conquer.moves_shape", f"moves[{tid!r}] must be a whole number >= 0, got {count!r}"
                )
            source = self.index[tid]
            if count == 0:
                continue
            if self.owner[source] != seat or source not in self.neighbors[target]:
                raise RuleViolationError(
                    "farlander.conquer.move_source",
                    f"units can only come from your territories bordering {self.ids[target]}; {tid} is not one",
                )
            if count > spare.get(source, 0):
                raise RuleViolationError(
                    "farlander.conquer.source_emptied",
                    f"{tid} holds {self.units[source]}: it can send at most {self.units[source] - 1} "
                    "(every territory keeps at least one unit)",
                )
            normal[source] = count
        total = sum(normal.values())
        if not 1 <= total <= MAX_MOVE_IN:
            raise RuleViolationError(
                "farlander.conquer.move_count", f"move 1-{MAX_MOVE_IN} units into the target, not {total}"
            )
        ordered = sorted(normal.items(), key=lambda item: self.ids[item[0]])
        return Action({"type": "conquer", "target": self.ids[target], "moves": FrozenDict({self.ids[t]: n for t, n in ordered})})

    def _perform(self, action: Action) -> None:
        self._issued = None
        seat = self.turn
        if action["type"] == "place":
            t = self.index[action["territory"]]
            self.owner[t] = seat
            self.units[t] += 1
            self.reserve[seat] -= 1
            self._placed(seat, t)
        else:
            self._placements.clear()
            self._targets.clear()
            owners, units = self.owner, self.units
            target = self.index[action["target"]]
            self._move_reach(target, owners[target], units[target], -1)
            moved = 0
            tables = self._reach_tables
            for tid, count in action["moves"].items():
                source = self.index[tid]
                units[source] -= count
                moved += count
                if tables is not None:  # the source's neighbours lose count units, and a sender when one is left
                    strength, senders = tables[seat]
                    stops_sending = units[source] == 1
                    for t in self.neighbors[source]:
                        strength[t] -= count
                        if stops_sending:
                            senders[t] -= 1
            owners[target] = seat
            units[target] = moved
            self._move_reach(target, seat, moved, 1)
        self._settle_turn((seat + 1) % self.players)

    def _placed(self, seat: int, t: int) -> None:
        """Keep the cached placements after ``seat`` placed into ``t``: in the distribution phase they
        only shrink (owners only appear, units only grow, reserves only fall), so only ``t`` can leave."""
        self._targets.clear()
        self._reach_tables = None
        placements = self._placements
        full = self.units[t] >= MAX_UNITS
        for other, found in placements.items():
            if other == seat:  # t stays the placer's unless full
                if self.reserve[seat] <= 0:
                    placements[other] = []
                    continue
                if not full:
                    continue
            if t in found:  # held by another seat now, or full
                kept = placements[other] = found.copy()  # a new list: callers may hold the old one
                kept.remove(t)

    def _can_act(self, seat: int) -> bool:
        if self.phase == DISTRIBUTION:
            return self.can_place(seat)
        return self.can_conquer(seat)

    def _settle_turn(self, start: int) -> None:
        """Give the turn to the first seat from ``start`` on that can act.

        Seats that cannot act are skipped (logged, except for a seat that has
        simply placed all its units). When nobody can act the phase ends: the
        action phase starts with a random first player, or the game is over.
        """
        # The usual case first: the next seat plays (its placements kept, as they mostly are).
        if ((self._placements.get(start) or self.placements(start)) if self.phase == DISTRIBUTION
                else self.targets(start)):
            self.turn = start
            return
        while True:
            skipped: list[int] = []
            for step in range(self.players):
                seat = (start + step) % self.players
                if self._can_act(seat):
                    for idle in skipped:
                        if self.phase == ACTION or self.reserve[idle] > 0:
                            self._log_auto(idle, Action({"type": "skip"}))
                    self.turn = seat
                    return
                skipped.append(seat)
            if self.phase == DISTRIBUTION:
                self.phase = ACTION
                start = self._chance_below("first_player", self.players, phase=ACTION)
                continue
            self.phase = OVER
            return

    def describe(self, color: bool = False) -> str:
        seat = self.current_seat()
        status = "game over" if seat is None else f"{self.phase} phase, seat {seat} ({SEAT_MARKS[seat]}) to act"
        reserve = " ".join(f"{SEAT_MARKS[s]}:{n}" for s, n in enumerate(self.reserve))
        return board_text(self.map, self.ids, self.owner, self.units,
                          f"{status}; units in hand {reserve}; points {self.scores()}", color)
