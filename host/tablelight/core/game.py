"""The contract every rules engine follows.

A :class:`Game` is created from a number of seats, options and a seed. It says
whose turn it is (:meth:`Game.current_seat`), lists the legal actions
(:meth:`Game.legal_actions`) with the same checks that :meth:`Game.apply` uses to
validate one, applies actions, undoes the last one, and reports the end,
scores and winners. Actions are small JSON objects with a ``"type"`` key, so the
same values travel through the command line, ``rules serve`` and records.

Randomness comes only from :attr:`Game.rng`, a seeded :class:`~tablelight.core.rng.Rng`
held in the game, and every chance outcome is written to :attr:`Game.log` as
``{"chance": kind, ..., "value": v}``. Replaying a log feeds those outcomes back
(:mod:`tablelight.core.record`), so a record replays exactly in any process and
also when the outcomes came from physical dice.

Engines implement the hooks marked abstract; everything else is shared.
"""

from __future__ import annotations

import copy
import importlib
import json
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from tablelight.core.actions import Action, ActionEntry, ChanceEntry, LogEntry, parse_log_entry, thaw
from tablelight.core.errors import (
    GameOverError,
    IllegalActionError,
    ImpossibleChanceError,
    MalformedActionError,
    NothingToUndoError,
    NotYourTurnError,
    RecordError,
    SetupError,
)
from tablelight.core.fields import is_chance_entry, is_player_action, is_whole, is_whole_in
from tablelight.core.inputs import SEED_LIMIT
from tablelight.core.options import OptionSpec, resolve_options
from tablelight.core.rng import Rng

__all__ = ["Action", "ActionEntry", "ChanceEntry", "ChanceMismatch", "Game", "LogEntry", "has_secrets"]

V = TypeVar("V")
G = TypeVar("G", bound="Game")

RECORD_FORMAT = 1


class ChanceMismatch(Exception):
    """A logged chance outcome does not fit the draw the engine is making (replay only)."""

    def __init__(self, message: str, entry: ChanceEntry) -> None:
        super().__init__(message)
        self.entry = entry


class Game(ABC):
    """Base class of the rules engines. See the module docstring for the contract."""

    #: Registry name, also the record's ``"game"`` value.
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    #: The newest record format this engine writes. An engine bumps it when a rule's meaning
    #: changes, and plays records of older formats under the reading they were written with.
    latest_record_format: ClassVar[int] = RECORD_FORMAT
    #: Keys of :meth:`setup_record` that name hidden information (a starting position with every
    #: seat's cards): a seat's own record leaves them out, as it leaves out the seed.
    secret_setup: ClassVar[tuple[str, ...]] = ()
    #: Chance kinds whose outcomes are whole numbers in one range whatever the position (a die's
    #: faces): :meth:`enter_chance` refuses any other value of them at once. The other kinds' ranges
    #: depend on the position when they are drawn (a deck's size), so the draw checks them.
    chance_ranges: ClassVar[Mapping[str, tuple[int, int]]] = {}
    #: True when the game hides something from some seat (hands, draws): it then overrides
    #: :meth:`view` and :meth:`view_log`, and the table gives each human seat a screen of its own.
    has_secrets: ClassVar[bool] = False

    def __init__(
        self,
        players: int,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        *,
        setup: Mapping[str, Any] | None = None,
        chance: Iterable[Mapping[str, Any]] | None = None,
        record_format: int | None = None,
    ) -> None:
        """Create a game.

        ``setup`` carries game-specific fixed data from a record (a map, say);
        without it the engine makes its own from the seed. ``chance`` is a list
        of logged chance entries to use, in order, instead of fresh draws (replay
        and undo use it; so does a table that rolls physical dice). ``record_format``
        is the format of the record being replayed (default :attr:`latest_record_format`):
        engines keep the readings an older format was written with.
        """
        if not is_whole(players):
            raise SetupError(f"players must be a whole number, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise SetupError(
                f"{self.name} is played by {self.min_players}-{self.max_players} players, not {players}"
            )
        if not is_whole(seed):
            raise SetupError(f"seed must be a whole number, got {seed!r}")
        if not 0 <= seed < SEED_LIMIT:  # stored records must read back (core/inputs.py)
            raise SetupError(f"seed must be 0 to 2**63 - 1, got a number of {len(str(abs(seed)))} digits"
                             if abs(seed) >= 10**20 else f"seed must be 0 to 2**63 - 1, got {seed}")
        newest = type(self).latest_record_format
        if record_format is None:
            record_format = newest
        if not is_whole_in(record_format, 1, newest):
            raise SetupError(f"{self.name} records have formats 1-{newest}, not {record_format!r}")
        #: The format the game follows: older records keep the readings they were written with.
        self.record_format = record_format
        self.players = players
        self.options = resolve_options(self.option_specs, players, options)
        self.seed = seed
        self.rng = Rng(seed)
        self.log: list[LogEntry] = []
        self._forced_chance: deque[ChanceEntry] = deque(_chance_entries(chance or ()))
        #: Outcomes entered with enter_chance wait in the queue (see apply).
        self._chance_entered = False
        #: False once a replayed outcome differed from what the seed would give.
        self.chance_matches_seed = True
        self._setup(setup)

    # ------------------------------------------------------------------ hooks

    @abstractmethod
    def _setup(self, setup: Mapping[str, Any] | None) -> None:
        """Build the initial state (from ``setup`` when given) and draw opening chance."""

    @abstractmethod
    def current_seat(self) -> int | None:
        """The seat to act, or ``None`` when the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal action of the current seat (immutable :class:`Action` values), each accepted by :meth:`apply`."""

    @abstractmethod
    def _check(self, action: Action) -> Action:
        """Validate ``action`` (an :class:`Action`) for the current seat and return its normal form
        (``action`` itself when it is already normal; a plain dict is parsed into an Action).

        Raise an :class:`~tablelight.core.errors.IllegalActionError` subclass
        naming the rule. Must not change the game.
        """

    @abstractmethod
    def _perform(self, action: Action) -> None:
        """Carry out a checked action, log chance outcomes and pass the turn."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Points per seat (running totals before the end)."""

    @abstractmethod
    def state(self) -> dict[str, Any]:
        """The whole state as JSON (no secrets hidden)."""

    def setup_record(self) -> dict[str, Any]:
        """Game-specific fixed data for the record (Farlander: the map)."""
        return {}

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see. Games with secrets override this (and set :attr:`has_secrets`)."""
        self._check_seat(seat)
        return self.state()

    def view_log(self, seat: int) -> Sequence[Mapping[str, Any]]:
        """The log as ``seat`` may see it, as JSON objects. Games with secret draws override this
        (hiding a value or a field and marking the entry ``"hidden": true``)."""
        self._check_seat(seat)
        return list(self.log)

    def is_over(self) -> bool:
        return self.current_seat() is None

    def winners(self) -> list[int]:
        """Seats with the highest score once the game is over (ties share the win)."""
        if not self.is_over():
            return []
        scores = self.scores()
        best = max(scores)
        return [seat for seat, score in enumerate(scores) if score == best]

    def result(self) -> dict[str, Any]:
        return {"scores": self.scores(), "winners": self.winners()}

    #: The game's own bots, name -> "module:Class" (the class is made with the bot's seed). They
    #: come after the shared ones in :meth:`bot_names`: put fast ones last, the table's default
    #: bot is the last that can be made.
    own_bots: ClassVar[Mapping[str, str]] = {}

    @classmethod
    def bot_names(cls) -> list[str]:
        """Names accepted by :meth:`make_bot`: the shared bots, then the game's :attr:`own_bots`."""
        return ["random", "mcts", "mcts-deep", *cls.own_bots]

    @classmethod
    def make_bot(cls, name: str, seed: int = 0) -> Any:
        """A bot by name: ``"random"`` and the search bots ``"mcts"``/``"mcts-deep"`` exist for every game."""
        from tablelight.core.bots import RandomBot
        from tablelight.core.search_bot import make_search_bot, search_budget

        if name == "random":
            return RandomBot(seed)
        if search_budget(name) is not None:  # "mcts", "mcts-deep", or either with ":N" iterations
            return make_search_bot(cls, name, seed)
        if name in cls.own_bots:
            module, _, attribute = cls.own_bots[name].partition(":")
            return getattr(importlib.import_module(module), attribute)(seed)
        raise SetupError(f"unknown bot {name!r} for {cls.name}; known bots: {', '.join(cls.bot_names())}")

    def random_action(self, rng: Rng) -> Action:
        """A uniformly random legal action; engines may override with a faster equivalent."""
        return rng.choice(self.legal_actions())

    # -------------------------------------------------------------- text

    def describe(self, color: bool = False) -> str:
        """A short text picture of the game for terminals (ANSI colours when ``color``); engines draw their board."""
        seat = self.current_seat()
        turn = "game over" if seat is None else f"seat {seat} to act"
        return f"{self.name}: {turn}; scores {self.scores()}"

    def describe_entry(self, entry: Mapping[str, Any]) -> str:
        """One log entry (of :attr:`log`, or of a seat's :meth:`view_log`) as a line of text."""
        if is_chance_entry(entry):
            context = ", ".join(f"{k} {v}" for k, v in entry.items() if k not in ("chance", "value"))
            return f"  chance {entry['chance']}{' (' + context + ')' if context else ''}: {entry.get('value')}"
        auto = " (forced)" if entry.get("auto") else ""
        return f"  seat {entry.get('seat')}: {json.dumps(entry['action'])}{auto}"

    def describe_result(self) -> str:
        if not self.is_over():
            return f"not over; scores {self.scores()}"
        winners = self.winners()
        who = "seat " + " and ".join(str(w) for w in winners)
        shared = " (shared)" if len(winners) > 1 else ""
        return f"game over: scores {self.scores()}; winner {who}{shared}"

    # ---------------------------------------------------------------- actions

    def apply(self, action: Action | Mapping[str, Any], seat: int | None = None) -> None:
        """Validate and apply ``action`` for the current seat (or check it is ``seat``'s turn).

        ``action`` is an :class:`Action` (as listed) or a JSON object, parsed once here."""
        current, checked = self._checked(action, seat)
        if self._chance_entered:
            self._apply_with_entered_chance(current, checked)
            return
        self.log.append(ActionEntry(seat=current, action=checked))
        self._perform(checked)

    def _apply_with_entered_chance(self, current: int, checked: Action) -> None:
        """:meth:`apply` while outcomes entered at the table wait: one that its draw cannot give (a
        card beyond the deck, a kind drawn later or never) is refused with ImpossibleChanceError and
        the game as it was before the action; the entered outcomes are dropped, to be entered again."""
        before = self.clone()
        try:
            self.log.append(ActionEntry(seat=current, action=checked))
            self._perform(checked)
        except ChanceMismatch as error:
            self.__dict__.update(before.__dict__)
            self._forced_chance.clear()
            self._chance_entered = False
            raise ImpossibleChanceError(
                "chance.impossible", f"an entered outcome does not fit: {error}; nothing changed, the entered outcomes are dropped"
            ) from None
        if not self._forced_chance:
            self._chance_entered = False

    def check(self, action: Action | Mapping[str, Any], seat: int | None = None) -> Action:
        """Validate ``action`` exactly as :meth:`apply` would, without applying it.

        Returns the action's normal form (the one the log would hold) or raises the
        :class:`~tablelight.core.errors.IllegalActionError` that :meth:`apply` would raise.
        Boards and clients use it to say why a choice is refused before anything changes.
        """
        return self._checked(action, seat)[1]

    def _checked(self, action: Action | Mapping[str, Any], seat: int | None) -> tuple[int, Action]:
        """:meth:`check`, also giving the seat to act (asked once: apply runs this for every action)."""
        if type(action) is not Action:
            action = Action.parse(action)
        current = self.current_seat()
        if current is None:
            raise GameOverError("game.over", "the game is over: no more actions")
        if seat is not None and seat != current:
            raise NotYourTurnError("turn.order", f"it is seat {current}'s turn, not seat {seat}'s")
        checked = self._check(action)
        if type(checked) is not Action:  # an engine that builds its normal form as a plain dict
            checked = Action.parse(checked, f"{self.name}'s normal form of {action!r}")
        return current, checked

    def is_legal(self, action: Action | Mapping[str, Any]) -> bool:
        try:
            self.check(action)
        except IllegalActionError:
            return False
        return True

    def undrawn_chance(self) -> ChanceEntry | None:
        """The first chance outcome handed to the constructor (``chance=``, a replay) that the game
        has not drawn yet, or None: a replay checks that every logged outcome was used."""
        return self._forced_chance[0] if self._forced_chance else None

    def enter_chance(self, kind: str, value: Any) -> None:
        """Queue the outcome of the game's next ``kind`` draw, as a table with physical dice or cards
        enters it (and as tests force a roll): the engine checks it is possible when it draws, logs
        it like any other and a replay of the log gives the same game. A value a ``kind`` of
        :attr:`chance_ranges` can never give is refused here (ImpossibleChanceError), queuing nothing;
        any other that its draw refuses makes :meth:`apply` refuse the action, changing nothing."""
        span = self.chance_ranges.get(kind)
        if span is not None and not is_whole_in(value, *span):
            low, high = span
            raise ImpossibleChanceError(
                "chance.impossible", f"a {kind!r} outcome is a whole number {low}-{high}, not {value!r}"
            )
        self._forced_chance.append(ChanceEntry.make(kind, value, {}))
        self._chance_entered = True

    def _log_auto(self, seat: int, action: Action | Mapping[str, Any]) -> None:
        """Log an action the engine took for a seat that had no choice (a forced skip)."""
        self.log.append(ActionEntry(seat=seat, action=Action.parse(action), auto=True))

    def _check_seat(self, seat: int) -> None:
        if not is_whole(seat) or not 0 <= seat < self.players:
            raise MalformedActionError("seat.range", f"seat must be 0-{self.players - 1}, got {seat!r}")

    # ----------------------------------------------------------------- chance

    def _chance(
        self,
        kind: str,
        draw: Callable[[Rng], V],
        valid: Callable[[Any], bool],
        **context: Any,
    ) -> V:
        """Draw one chance outcome, log it and return it.

        The generator is always advanced, so the state after a replay equals the
        state after live play. When a logged outcome is queued (replay, undo,
        physical dice) it replaces the draw after ``valid`` accepts it.
        """
        value: Any = draw(self.rng)
        if self._forced_chance:
            entry = self._forced_chance.popleft()
            if entry.kind != kind:
                raise ChanceMismatch(f"the engine draws {kind!r} here, the log has {entry.kind!r}", entry)
            forced = entry.value
            if not valid(forced):
                raise ChanceMismatch(f"{forced!r} is not a possible outcome of {kind!r}", entry)
            if forced != value:
                self.chance_matches_seed = False
            value = thaw(forced)  # the engine may change what it is given (a deck it deals from)
        self.log.append(ChanceEntry.make(kind, value, context))
        return value  # the engine's own (mutable) value; the log holds a frozen copy

    def _chance_below(self, kind: str, n: int, **context: Any) -> int:
        """A uniform outcome in ``range(n)`` (who starts, a die face minus one...)."""
        if not self._forced_chance:  # live play, the common case: no queued outcome to check
            value = self.rng.below(n)
            # ChanceEntry.make's first case written out (a hot path: with _chance_die, 0.8% of a Landover game).
            self.log.append(ChanceEntry(chance=kind, value=value) if not context else ChanceEntry.make(kind, value, context))
            return value
        return self._chance(
            kind,
            lambda rng: rng.below(n),
            lambda v: is_whole(v) and 0 <= v < n,
            **context,
        )

    def _chance_die(self, kind: str, sides: int = 6, **context: Any) -> int:
        """One die roll, 1..sides."""
        if not self._forced_chance:  # live play, the common case: no queued outcome to check
            value = self.rng.below(sides) + 1
            # ChanceEntry.make's first case written out: three dice a turn come through here.
            self.log.append(ChanceEntry(chance=kind, value=value) if not context else ChanceEntry.make(kind, value, context))
            return value
        return self._chance(
            kind,
            lambda rng: rng.between(1, sides),
            lambda v: is_whole(v) and 1 <= v <= sides,
            **context,
        )

    def _chance_permutation(self, kind: str, n: int, **context: Any) -> list[int]:
        """A uniformly random order of ``range(n)`` (a shuffle), logged as the list."""
        if not self._forced_chance:  # live play, the common case: no queued outcome to check
            order = list(range(n))
            self.rng.shuffle(order)
            self.log.append(ChanceEntry.make(kind, order, context))  # a frozen copy: the engine may change its own
            return order

        def draw(rng: Rng) -> list[int]:
            order = list(range(n))
            rng.shuffle(order)
            return order

        def valid(v: Any) -> bool:
            # whole numbers first: sorting a list of mixed types raises TypeError
            return isinstance(v, list) and all(is_whole(x) for x in v) and sorted(v) == list(range(n))

        return self._chance(kind, draw, valid, **context)

    # ------------------------------------------------------- undo, save, load

    def undo(self) -> LogEntry:
        """Take back the last player action (and the forced skips and chance after it).

        Returns the undone log entry. The game is rebuilt by replaying the shorter
        log with its own chance outcomes, so the generator state is exactly what it
        was before that action.
        """
        for index in range(len(self.log) - 1, -1, -1):
            entry = self.log[index]
            if is_player_action(entry):
                break
        else:
            raise NothingToUndoError("nothing to undo: no player action has been made yet")
        rebuilt = self._rebuild(self.log[:index])
        self.__dict__.update(rebuilt.__dict__)
        return entry

    def _rebuild(self: G, log: list[LogEntry]) -> G:
        chance = [e for e in log if isinstance(e, ChanceEntry)]
        game = type(self)(
            self.players, self.options, self.seed, setup=self.setup_record() or None, chance=chance,
            record_format=self.record_format,
        )
        for entry in log:
            if is_player_action(entry):
                game.apply(entry["action"], seat=entry["seat"])
        return game

    def clone(self: G) -> G:
        """An independent copy (bots look ahead on clones)."""
        return copy.deepcopy(self)

    def to_record(self) -> dict[str, Any]:
        """The game as a JSON record: header, setup, the full log and, once over, the result."""
        record: dict[str, Any] = {
            "game": self.name,
            "format": self.record_format,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
        }
        record.update(self.setup_record())
        record["log"] = [e.to_json() for e in self.log]
        if self.is_over():
            record["result"] = self.result()
        return record

    def save(self) -> str:
        return json.dumps(self.to_record(), separators=(",", ":"))

    @classmethod
    def load(cls, text: str) -> "Game":
        from tablelight.core.inputs import InputError, parse_json
        from tablelight.core.record import replay

        try:
            record = parse_json(text, "the saved game")
        except InputError as error:
            raise RecordError(str(error)) from None
        return replay(record)


def has_secrets(game: Game | type[Game]) -> bool:
    """True when the game (an engine or its class) hides something from some seat, as it declares."""
    return game.has_secrets


def _chance_entries(entries: Iterable[Mapping[str, Any]]) -> list[ChanceEntry]:
    """Chance outcomes handed to the constructor (a replay, undo, physical dice), parsed once."""
    parsed = []
    for index, entry in enumerate(entries):
        try:
            typed = parse_log_entry(entry, f"chance entry {index}")
        except IllegalActionError as error:
            raise SetupError(error.message) from None
        if not isinstance(typed, ChanceEntry):
            raise SetupError(f"chance entry {index} is an action entry, not a chance outcome: {entry!r}")
        parsed.append(typed)
    return parsed
