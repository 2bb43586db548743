"""How the search bot searches Farlander (see :mod:`tablelight.core.search_bot`).

Farlander has no secret, so nothing is redrawn. A conquest can be made with
many ways of moving units in, so the search looks only at the strong bot's
best few actions, and a playout cut off before the end is valued by the strong
bot's own position measure (points held, discounted where a neighbour
out-numbers the defence), which sees more than the score.
"""

from __future__ import annotations

import math
from typing import Any

from tablelight.core.game import Action
from tablelight.games.farlander.bots import Holdings
from tablelight.games.farlander.bots import evaluate as position_value
from tablelight.games.farlander.reads import FarlanderReads

#: How many of the strong bot's best actions the search weighs at each decision.
WIDTH = 6
#: Position value (in territories) worth most of a win.
SCALE = 4.0


def candidates(game: Any, actions: list[Action], policy: Any) -> list[Action]:
    return policy.ranked(game)[:WIDTH] if hasattr(policy, "ranked") else actions


def evaluate(game: Any) -> list[float]:
    board = Holdings(FarlanderReads(game))
    return [0.5 + 0.5 * math.tanh(position_value(board, seat) / SCALE) for seat in range(game.players)]
