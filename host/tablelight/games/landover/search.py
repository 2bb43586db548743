"""How the search bot searches Landover (see :mod:`tablelight.core.search_bot`).

Short playouts are mostly dice in Landover: they could not tell the greedy bot's move from its
neighbours (docs/lab.md, "Bot strength"). So the search keeps the greedy bot's move and reconsiders
only three kinds of decision where the greedy bot is short-sighted, each by its own lookahead
(:func:`decide`):

* **where to settle** (a village in setup or later): each of the greedy bot's best corners is played
  to the end of the game by the greedy bot for every seat, in the same sampled worlds; the final
  margin in victory points decides, and the greedy corner stands unless another is better by more
  than a standard error;
* **which culture to raise**: one whose next level wins a metro, else the highest one (the greedy
  bot spreads its culture evenly; metros and level-3 abilities go to whoever is high first);
* **before ending the turn**: an action that gains victory points at once in every sampled world
  (a road that takes the longest route, a culture level that wins a metro...).

:func:`determinize` redraws, in a clone, what the bot's seat may not know: the
other seats' resource cards and development cards.
Hand sizes and development card counts are public and stay true. Another
seat's development cards are dealt again from its culture's unseen cards (the
decks plus every other seat's hidden cards of that culture); its resource and
commodity cards keep their number and are redrawn uniformly by kind (a
simplification: a careful player could track part of them from the public
production). While the bot's own master merchant or spy waits for its take (phase ``take``), the
target's hand or development cards are what the bot sees, and stay. Dice and draws to come are the
bot's own generator's.
"""

from __future__ import annotations

import math
from typing import Any

from tablelight.core.game import Action
from tablelight.core.rng import Rng
from tablelight.core.search_bot import lookahead_copy, tuning
from tablelight.games.landover.bots import GreedyBot
from tablelight.games.landover.cards import CULTURES, card_culture

#: The board's geometry never changes in a game: lookahead copies share it (most of a copy's cost).
SHARED = ("map",)
#: How many of the greedy bot's best actions the search weighs (a turn lists dozens of trades and roads).
WIDTH = 6
#: Worlds sampled to check that an action gains victory points before the turn ends.
GRAB_WORLDS = 2
#: Actions a full-game playout may take before it is cut off (greedy games last about 300).
SETTLE_PLAYOUT = 600


def candidates(game: Any, actions: list[Action], policy: Any) -> list[Action]:
    """The greedy bot's best few actions."""
    if not hasattr(policy, "ranked"):
        return actions
    return policy.ranked(game)[:WIDTH]


def decide(bot: Any, game: Any, seat: int, options: list[Action], first: Action) -> Action:
    """The greedy bot's choice ``first``, reconsidered where it is short-sighted (module docstring)."""
    if not game.is_legal(first):
        return options[0]  # chosen in a sampled world: a take of cards the real target does not hold
    if first["type"] == "end_turn":
        grab = victory_grab(bot, game, seat)
        return first if grab is None else grab
    if first["type"] == "improve" and "culture" in first:
        return focused_culture(game, seat, [first] + [a for a in options if a["type"] == "improve" and "culture" in a])
    if first["type"] == "build" and first["piece"] == "village":
        corners = [first] + [a for a in options if a != first and a["type"] == "build" and a["piece"] == "village"]
        return first if len(corners) == 1 else settle_choice(bot, game, seat, corners)
    return first


def victory_grab(bot: Any, game: Any, seat: int) -> Action | None:
    """Before ending its turn: an action that gains victory points at once (a road that takes the
    longest route, a culture level that wins a metro...), which the greedy bot's scores do not see;
    None if there is none. The gain must hold in every sampled world."""
    shared = tuning(game).shared
    worlds = [bot.sample_world(game, seat, determinize) for _ in range(GRAB_WORLDS)]
    now = game.vp(seat)
    best, best_gain = None, 0
    for action in game.legal_actions():
        if action["type"] in ("end_turn", "trade", "play"):
            continue
        gains = []
        for world in worlds:
            if not world.is_legal(action):
                break
            trial = lookahead_copy(world, shared)
            trial.apply(action)
            gains.append(trial.vp(seat) - now)
        if len(gains) == len(worlds) and min(gains) > best_gain:
            best, best_gain = action, min(gains)
    return best


def focused_culture(game: Any, seat: int, improves: list[Action]) -> Action:
    """Which culture to raise: one whose next level wins a metro, else the highest one (the first
    listed among equals: the greedy bot's). The greedy bot spreads its culture evenly (the lowest
    first); metros (2 points each) and the level-3 abilities go to the seat high first."""

    def merit(action: Action) -> tuple[bool, int]:
        level = game.culture(seat)[action["culture"]]
        return game.metro_cities(seat, action["culture"], level + 1) is not None, level

    return max(improves, key=merit)


def settle_choice(bot: Any, game: Any, seat: int, corners: list[Action]) -> Action:
    """Where to put a village (``corners[0]`` is the greedy bot's): each candidate played to the end
    of the game by the greedy bot for every seat, in the same sampled worlds (the bot's budget / 2,
    at least 2); the final margin in victory points decides. The greedy corner stands unless
    another's margin is better, world by world, by more than a standard error."""
    shared = tuning(game).shared
    seeds = [bot.rng.below(2**31) for _ in range(max(2, bot.iterations // 2))]
    worlds = [bot.sample_world(game, seat, determinize) for _ in seeds]
    margins: list[list[float | None]] = []
    for action in corners:
        row: list[float | None] = []
        for world, seed in zip(worlds, seeds):
            if not world.is_legal(action):
                row.append(None)  # legal only in the real game, not in this sampled world
                continue
            trial = lookahead_copy(world, shared)
            trial.apply(action)
            player = GreedyBot(seed)  # the same player in this world for every candidate
            for _ in range(SETTLE_PLAYOUT):
                if trial.is_over():
                    break
                trial.apply(player.choose(trial))
            scores = trial.scores()
            row.append(scores[seat] - max(v for s, v in enumerate(scores) if s != seat))
        margins.append(row)
    best, best_gain = 0, 0.0
    for number in range(1, len(corners)):
        gains = [m - b for m, b in zip(margins[number], margins[0]) if m is not None and b is not None]
        if len(gains) < 2:
            continue
        mean = sum(gains) / len(gains)
        spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (len(gains) - 1))
        if mean > spread / math.sqrt(len(gains)) and mean > best_gain:
            best, best_gain = number, mean
    return corners[best]


def determinize(game: Any, seat: int, rng: Rng) -> None:
    others = [s for s in range(game.players) if s != seat]
    # While its master merchant or spy waits for the take, ``seat`` sees the target's cards: they stay.
    taking = game.taking()
    if taking is not None and taking["seat"] != seat:
        taking = None
    # The one place outside the rule modules that writes the position: the redrawn secrets.
    p = game.pos
    seen_hand = taking["target"] if taking is not None and taking["card"] == "master_merchant" else None
    seen_devs = taking["target"] if taking is not None and taking["card"] == "spy" else None
    culture_of = card_culture()
    for number, culture in enumerate(CULTURES):
        held = {s: [c for c in p.dev_cards[s] if culture_of[c] == culture] for s in others if s != seen_devs}
        pool = list(p.decks[number]) + [card for cards in held.values() for card in cards]
        rng.shuffle(pool)
        for s in held:
            keep = [c for c in p.dev_cards[s] if culture_of[c] != culture]
            count = len(held[s])
            p.dev_cards[s] = keep + pool[:count]
            pool = pool[count:]
        p.decks[number] = pool
    for s in others:
        if s == seen_hand:
            continue
        total = sum(p.hands[s])
        redrawn = [0] * len(p.hands[s])
        for _ in range(total):
            redrawn[rng.below(len(redrawn))] += 1
        p.hands[s] = redrawn
