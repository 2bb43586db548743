"""A search bot for every game: information-set Monte Carlo tree search over the engine's own rules.

The bot knows nothing about any game beyond the contract: it asks the engine
for the legal actions, plays them on clones and reads scores and winners. Each
iteration starts from a *determinization* -- a clone of the game in which
everything the bot's seat cannot see is redrawn at random (other seats' hands,
secrets, deck orders) and the game's random generator is replaced by one of
the bot's own, so future dice and draws are sampled too, never read from the
real seed. Per-game determinizers live next to each engine
(``tablelight.games.<name>.search``); a game without secrets needs only the new
generator.

The tree is shared by all determinizations (single-observer IS-MCTS, Cowling,
Powley and Whitehouse 2012): nodes are keyed by the action's JSON, and a node's
children are chosen among the actions legal in the current determinization by
UCB1, with the reward seen by the seat that chose each action. A playout plays
the game's own fast bot (greedy, strong...; random where a game has none) for
every seat for a bounded number of steps, so a decision is judged by what
follows when everyone then plays sensibly; the first child tried is the fast
bot's own choice, favoured at the root by a progressive bias that fades with
visits, so the search leaves it only for a move that proves better. An unfinished game is valued by each seat's lead in score.
"""

from __future__ import annotations

import importlib
import json
import math
from collections.abc import Callable
from typing import Any

from tablelight.core.game import Action, Game
from tablelight.core.rng import Rng

#: name -> (iterations per decision, playout length in actions).
BUDGETS = {"mcts": (64, 12), "mcts-deep": (256, 24)}
#: game -> "module:function" that hides the other seats' secrets in a clone (see the module docstring).
DETERMINIZERS = {
    "farside": "tablelight.games.farside.search:determinize",
    "landover": "tablelight.games.landover.search:determinize",
    "mainland": "tablelight.games.mainland.search:determinize",
}
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


def determinizer(game: Game) -> Callable[[Game, int, Rng], None] | None:
    target = DETERMINIZERS.get(game.name)
    if target is None:
        return None
    module, _, function = target.partition(":")
    found: Callable[[Game, int, Rng], None] = getattr(importlib.import_module(module), function)
    return found


class SearchBot:
    """Monte Carlo tree search with ``iterations`` playouts per decision (see the module docstring)."""

    def __init__(self, seed: int = 0, iterations: int = 64, playout: int = 12, policy: Any = None) -> None:
        self.rng = Rng(seed)
        self.iterations = iterations
        self.playout = playout
        #: The bot that plays the playouts (anything with ``choose``); None plays random actions.
        self.policy = policy
        #: The root child holding the fast bot's choice during a search.
        self.hint: Node | None = None

    def choose(self, game: Game) -> Action:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = game.current_seat()
        assert seat is not None
        hide = determinizer(game)
        root = Node(None, None)
        self.hint = None
        if self.policy is not None:
            # The fast bot's own choice is the first child: the search starts from it and must beat it.
            first = self.policy.choose(self.sample_world(game, seat, hide))
            self.hint = root.children[action_key(first)] = Node(first, seat)
        for _ in range(self.iterations):
            self._iterate(root, self.sample_world(game, seat, hide))
        # Only actions the real game allows: a determinization may allow more (taking a card that
        # another seat holds only in that sampled world).
        allowed = {action_key(a) for a in legal}
        candidates = [n for key, n in root.children.items() if key in allowed and n.visits]
        if not candidates:
            return self.rng.choice(legal)
        # Most visited wins; on a tie, the fast bot's choice, then the better mean.
        best = max(candidates, key=lambda n: (n.visits, n is self.hint, n.reward / n.visits))
        assert best.action is not None
        return best.action

    def sample_world(self, game: Game, seat: int, hide: Callable[[Game, int, Rng], None] | None) -> Game:
        """A determinization: a clone with the other seats' secrets and the future redrawn."""
        world = game.clone()
        world.rng = self.rng.fork()  # the future is sampled, never read from the game's seed
        if hide is not None:
            hide(world, seat, self.rng)
        return world

    def _iterate(self, root: Node, world: Game) -> None:
        path = [root]
        node = root
        # Selection and expansion among the actions legal in this determinization.
        while not world.is_over():
            mover = world.current_seat()
            actions = world.legal_actions()
            fresh = [a for a in actions if action_key(a) in node.children and node.children[action_key(a)].visits == 0]
            untried = fresh or [a for a in actions if action_key(a) not in node.children]
            if untried:
                action = untried[0] if fresh else self.rng.choice(untried)
                child = node.children.setdefault(action_key(action), Node(action, mover))
                world.apply(action)
                path.append(child)
                break
            log_total = math.log(max(1, node.visits))
            children = [node.children[action_key(a)] for a in actions]
            favoured = self.hint if node is root else None

            def score(c: Node) -> float:
                bias = HINT_BIAS / (1 + c.visits) if c is favoured else 0.0
                return c.reward / c.visits + EXPLORATION * math.sqrt(log_total / c.visits) + bias

            node = max(children, key=score)
            assert node.action is not None
            world.apply(node.action)
            path.append(node)
        # Playout.
        for _ in range(self.playout):
            if world.is_over():
                break
            if self.policy is None:
                world.apply(world.random_action(self.rng))
            else:
                world.apply(self.policy.choose(world))
        rewards = value(world)
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


def make_search_bot(cls: type[Game], name: str, seed: int) -> Any:
    """The search bot ``name`` for game class ``cls``, its playouts played by the game's last own bot."""
    iterations, playout = BUDGETS[name]
    own = [b for b in cls.bot_names() if b not in BUDGETS and b != "random"]
    policy = cls.make_bot(own[-1], seed ^ 0x5EA4C4) if own else None
    return SearchBot(seed, iterations, playout, policy)
