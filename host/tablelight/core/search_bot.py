"""A search bot for every game: information-set Monte Carlo tree search over the engine's own rules.

The bot knows nothing about any game beyond the contract: it asks the engine
for the legal actions, plays them on clones and reads scores and winners. Each
iteration starts from a *determinization* -- a clone of the game in which
everything the bot's seat cannot see is redrawn at random (other seats' hands,
secrets, deck orders) and the game's random generator is replaced by one of
the bot's own, so future dice and draws are sampled too, never read from the
real seed. Per-game determinizers live next to each engine, in the module its
registry entry names (:attr:`~tablelight.core.registry.GameEntry.search`); a game
without secrets needs only the new generator.

The tree is shared by all determinizations (single-observer IS-MCTS, Cowling,
Powley and Whitehouse 2012): nodes are keyed by the action's JSON, and a node's
children are chosen among the actions legal in the current determinization by
UCB1, with the reward seen by the seat that chose each action. A playout plays
the game's own fast bot (greedy, strong...; random where a game has none) for
every seat for a bounded number of steps, so a decision is judged by what
follows when everyone then plays sensibly; the first child tried is the fast
bot's own choice, favoured at the root by a progressive bias that fades with
visits, so the search leaves it only for a move that proves better.

A game may tune the search in the module its entry names (``GameEntry(search="mygame.search")``),
all optional:

* ``determinize(game, seat, rng)``: redraw in a clone what ``seat`` cannot see;
* ``candidates(game, actions, policy)``: the actions worth searching among ``actions`` (the
  legal ones), for example the fast bot's best few (progressive widening for wide listings), or
  only what the table's dice decided where an action records an outcome rather than a choice;
* ``evaluate(game)``: each seat's reward in [0, 1] for a playout cut off before the end, when the
  score alone says too little (default: the lead in score, :func:`value`);
* ``PLAYOUT_SHARE``: playouts are this share of the bot's playout length (default 1);
* ``SHARED``: names of attributes fixed for the whole game (a map), which lookahead copies share;
* ``decide(bot, game, seat, candidates, first)``: the game's own choice among the root's
  candidates (``first`` is the fast bot's choice) by lookaheads of its own instead of the tree
  (Landover, where short playouts are mostly dice);
"""

from __future__ import annotations

import copy
import importlib
import json
import math
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from tablelight.core.bots import Steps, finish
from tablelight.core.errors import SetupError
from tablelight.core.game import Action, Game
from tablelight.core.registry import game_entries
from tablelight.core.rng import Rng

G = TypeVar("G", bound=Game)

#: name -> (iterations per decision, playout length in actions).
BUDGETS = {"mcts": (64, 12), "mcts-deep": (256, 24)}
#: The most iterations a ``mcts:N`` name may ask for (and the bound of a ``mcts:Nms`` one).
MAX_ITERATIONS = 100_000
#: The longest a ``mcts:Nms`` bot may think about one move, in milliseconds.
MAX_THINK_MS = 60_000
EXPLORATION = 0.7
#: Progressive bias (Chaslot et al. 2008) towards the fast bot's choice at the root: it fades as
#: that child is visited, so the search leaves the fast bot's move only for one that proves better.
HINT_BIAS = 0.5


class Node:
    __slots__ = ("action", "seat", "visits", "reward", "children")

    def __init__(self, action: Action | None, seat: int | None) -> None:
        self.action = action
        self.seat = seat  # the seat that chose ``action``
        self.visits = 0
        self.reward = 0.0
        self.children: dict[str, Node] = {}


def action_key(action: Action) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


class Tuning:
    """A game's search tuning: the optional functions of its ``search`` module, or the defaults."""

    def __init__(self, game_name: str) -> None:
        # A game made outside the registry (a test's own engine) searches with the defaults.
        entry = game_entries().get(game_name)
        module = importlib.import_module(entry.search) if entry is not None and entry.search else None
        self.determinize: Callable[[Game, int, Rng], None] | None = getattr(module, "determinize", None)
        self.candidates: Callable[[Game, list[Action], Any], list[Action]] | None = getattr(module, "candidates", None)
        self.evaluate: Callable[[Game], list[float]] = getattr(module, "evaluate", None) or value
        #: Playouts in this game are this share of the bot's playout length (cut off sooner where
        #: ``evaluate`` judges a position well, or where the fast bot is slow).
        self.playout_share: float = getattr(module, "PLAYOUT_SHARE", 1.0)
        #: Attributes fixed for the whole game (the board's geometry), shared by lookahead copies.
        self.shared: tuple[str, ...] = getattr(module, "SHARED", ())
        #: The game's own choice among the root's candidates (a lookahead of its own), or None;
        #: ``decide_steps`` is the same as a generator of steps (see :meth:`SearchBot.steps`).
        self.decide: Callable[..., Action] | None = getattr(module, "decide", None)
        self.decide_steps: Callable[..., Steps] | None = getattr(module, "decide_steps", None)


def tuning(game: Game) -> Tuning:
    found = TUNINGS.get(game.name)
    if found is None:
        found = TUNINGS[game.name] = Tuning(game.name)
    return found


TUNINGS: dict[str, Tuning] = {}


class SearchBot:
    """Monte Carlo tree search with ``iterations`` playouts per decision (see the module docstring)."""

    def __init__(self, seed: int = 0, iterations: int = 64, playout: int = 12, policy: Any = None,
                 think_ms: int | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.rng = Rng(seed)
        self.iterations = iterations
        self.playout = playout
        #: Milliseconds a decision may take (then its iterations are as many as fit, so the choice
        #: depends on the machine's speed); None: exactly ``iterations``, the same choice everywhere.
        self.think_ms = think_ms
        self.clock = clock
        self._deadline: float | None = None
        #: The bot that plays the playouts (anything with ``choose``); None plays random actions.
        self.policy = policy
        #: The root child holding the fast bot's choice during a search.
        self.hint: Node | None = None

    def choose(self, game: Game) -> Action:
        return finish(self.steps(game))

    def think(self, game: Game) -> Steps:
        """:meth:`choose` a step at a time, on a copy of ``game`` (the caller's game may move on
        between steps: see :class:`~tablelight.core.bots.Thinking`). The same action as :meth:`choose`."""
        return self.steps(lookahead_copy(game, tuning(game).shared))

    def out_of_time(self) -> bool:
        """The time budget (``think_ms``) of the decision under way is spent."""
        return self._deadline is not None and self.clock() >= self._deadline

    def steps(self, game: Game) -> Steps:
        """The search as a generator: it yields often (about every playout action) and returns the
        action. Iterations stop at :attr:`iterations`, or once :attr:`think_ms` is spent (at least one)."""
        self._deadline = None if self.think_ms is None else self.clock() + self.think_ms / 1000
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = game.current_seat()
        assert seat is not None
        tune = tuning(game)
        root_world = self.sample_world(game, seat, tune.determinize)
        considered = self._candidates(root_world, tune)
        # Only actions the real game allows: a determinization may allow more (taking a card that
        # another seat holds only in that sampled world).
        allowed = {action_key(a) for a in legal}
        real = [a for a in considered if action_key(a) in allowed]
        if len(real) == 1:
            return real[0]  # nothing to weigh (one candidate, or the table's dice decided)
        if tune.decide is not None and real:
            first = self.policy.choose(root_world) if self.policy is not None else real[0]
            if tune.decide_steps is not None:
                return (yield from tune.decide_steps(self, game, seat, real, first))
            return tune.decide(self, game, seat, real, first)
        root = Node(None, None)
        self.hint = None
        if self.policy is not None:
            # The fast bot's own choice is the first child: the search starts from it and must beat it.
            first = self.policy.choose(root_world)
            self.hint = root.children[action_key(first)] = Node(first, seat)
        for done in range(self.iterations):
            if done and self.out_of_time():
                break
            yield
            yield from self._iterate(root, self.sample_world(game, seat, tune.determinize), tune)
        candidates = [n for key, n in root.children.items() if key in allowed and n.visits]
        if not candidates:
            return real[0] if real else self.rng.choice(legal)
        # Most visited wins; on a tie, the fast bot's choice, then the better mean.
        best = max(candidates, key=lambda n: (n.visits, n is self.hint, n.reward / n.visits))
        assert best.action is not None
        return best.action

    def sample_world(self, game: Game, seat: int, hide: Callable[[Game, int, Rng], None] | None) -> Game:
        """A determinization: a clone with the other seats' secrets and the future redrawn."""
        world = lookahead_copy(game, tuning(game).shared)
        world.rng = self.rng.fork()  # the future is sampled, never read from the game's seed
        if hide is not None:
            hide(world, seat, self.rng)
        return world

    def _playout(self, world: Game, tune: Tuning) -> Iterator[None]:
        for _ in range(max(1, round(self.playout * tune.playout_share))):
            if world.is_over():
                break
            yield
            if self.policy is None:
                world.apply(world.random_action(self.rng))
            else:
                world.apply(self.policy.choose(world))

    def _candidates(self, world: Game, tune: Tuning) -> list[Action]:
        actions = world.legal_actions()
        if tune.candidates is None or len(actions) <= 1:
            return actions
        return tune.candidates(world, actions, self.policy) or actions

    def _iterate(self, root: Node, world: Game, tune: Tuning) -> Iterator[None]:
        path = [root]
        node = root
        # Selection and expansion among the candidate actions of this determinization.
        while not world.is_over():
            yield
            mover = world.current_seat()
            actions = self._candidates(world, tune)
            keys = [action_key(a) for a in actions]
            fresh = [a for a, k in zip(actions, keys) if k in node.children and node.children[k].visits == 0]
            untried = fresh or [a for a, k in zip(actions, keys) if k not in node.children]
            if untried:
                action = untried[0] if fresh else self.rng.choice(untried)
                child = node.children.setdefault(action_key(action), Node(action, mover))
                world.apply(action)
                path.append(child)
                break
            log_total = math.log(max(1, node.visits))
            children = [node.children[k] for k in keys]
            favoured = self.hint if node is root else None

            def score(c: Node) -> float:
                bias = HINT_BIAS / (1 + c.visits) if c is favoured else 0.0
                return c.reward / c.visits + EXPLORATION * math.sqrt(log_total / c.visits) + bias

            node = max(children, key=score)
            assert node.action is not None
            world.apply(node.action)
            path.append(node)
        yield from self._playout(world, tune)
        rewards = value(world) if world.is_over() else tune.evaluate(world)
        for visited in path:
            visited.visits += 1
            if visited.seat is not None:
                visited.reward += rewards[visited.seat]


def value(game: Game) -> list[float]:
    """Each seat's reward in [0, 1]: its share of the win once over, else from its lead in score."""
    if game.is_over():
        winners = game.winners()
        if winners:
            return [1.0 / len(winners) if s in winners else 0.0 for s in range(game.players)]
    scores = game.scores()
    scale = 1.0 + 0.25 * max(abs(s) for s in scores)
    rewards = []
    for seat, score in enumerate(scores):
        best_other = max(s for other, s in enumerate(scores) if other != seat)
        rewards.append(0.5 + 0.5 * math.tanh((score - best_other) / scale))
    return rewards


def lookahead_copy(game: G, shared: tuple[str, ...] = ()) -> G:
    """A clone for looking ahead that shares what never changes instead of copying it.

    Deep-copying the log and the board's geometry is most of the cost of a clone (Landover:
    about 85% after a hundred actions). Log entries are only ever appended, never changed, so the
    copy gets its own list holding the same entries; the attributes named in ``shared`` (the
    game's ``SHARED``: fixed for the whole game) are the same objects. An engine with its own
    ``clone`` keeps it.
    """
    if type(game).clone is not Game.clone:
        return game.clone()
    memo: dict[int, Any] = {id(game.log): list(game.log)}
    for name in shared:
        fixed = getattr(game, name)
        memo[id(fixed)] = fixed
    return copy.deepcopy(game, memo)


def search_budget(name: str) -> tuple[int, int] | None:
    """(iterations, playout) of a search bot name: ``mcts``, ``mcts-deep``, or either with
    ``:N`` for N iterations per decision (``mcts:32``) or ``:Nms`` to think N milliseconds a move
    (``mcts-deep:800ms``: then as many iterations as fit); None for a name that is not a search bot."""
    parsed = parse_search_name(name)
    return None if parsed is None else parsed[:2]


def parse_search_name(name: str) -> tuple[int, int, int | None] | None:
    """(iterations, playout, think_ms or None) of a search bot name (see :func:`search_budget`);
    None for a name that is not a search bot; :class:`SetupError` for a bad budget after ':'."""
    base, colon, budget = name.partition(":")
    if base not in BUDGETS:
        return None
    iterations, playout = BUDGETS[base]
    if not colon:
        return iterations, playout, None
    if budget.endswith("ms"):
        count = budget[:-2]
        if count.isdigit() and 1 <= int(count) <= MAX_THINK_MS:
            return MAX_ITERATIONS, playout, int(count)
    elif budget.isdigit() and 1 <= int(budget) <= MAX_ITERATIONS:
        return int(budget), playout, None
    raise SetupError(f"bot {name!r}: after ':' give the iterations per move, a whole number 1..{MAX_ITERATIONS} ({base}:64), "
                     f"or the milliseconds it may think a move, 1..{MAX_THINK_MS} ({base}:800ms)")


def make_search_bot(cls: type[Game], name: str, seed: int) -> Any:
    """The search bot ``name`` for game class ``cls``, its playouts played by the game's last own bot."""
    parsed = parse_search_name(name)
    assert parsed is not None
    own = [b for b in cls.bot_names() if b not in BUDGETS and b != "random"]
    policy = cls.make_bot(own[-1], seed ^ 0x5EA4C4) if own else None
    iterations, playout, think_ms = parsed
    return SearchBot(seed, iterations, playout, policy, think_ms=think_ms)
