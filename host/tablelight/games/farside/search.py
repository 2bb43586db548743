"""How the search bot searches Farside Encounter (see :mod:`tablelight.core.search_bot`).

:func:`determinize` redraws what the bot may not know: the enemy's primary
objective and stratagem (the team size is announced, so it stays; the two
missions are drawn with the weights the tactician notes its own by).

The engine keeps the books of a fight played with miniatures, and it trusts
what players record. A search free to record anything would "win" by writing
down impact tokens no dice gave. So the search plays the table the tactician
(:mod:`tablelight.games.farside.bots`) stands in for, and chooses only what a
player chooses there: its secret, its command die, which model acts and how,
missions, its own manoeuvres, failed activations and Evade, within the
stand-in table's limits (:func:`tablelight.games.farside.bots.table_allows`: no
impact but what the dice gave, no free group activations, a model leaves the
table only once it got there). What the table decides is the tactician's roll:
after an attack, the impact tokens are the ones its stand-in attack dice give
(drawn from the search's own generator in a sampled world), never a choice.
Without these limits the search "wins" in round one by taking every model off
the table.
"""

from __future__ import annotations

import math
from typing import Any

from tablelight.core.game import Action
from tablelight.core.rng import Rng
from tablelight.games.farside.bots import STRATAGEM_WEIGHTS, primary_weights, table_allows, weighted
from tablelight.games.farside.engine import FarsideEncounter

#: Secrets the search weighs: these primaries with each team size below, and the tactician's stratagem.
PRIMARIES = ("loot", "breakthrough", "secure", "destruction")
TEAM_SIZES = (1, 2)
#: Victory points a cut-off playout credits per model still on the table (less per damage token).
PER_MODEL = 0.5
#: Lead in (estimated) victory points worth most of a win.
SCALE = 3.0


def determinize(game: FarsideEncounter, seat: int, rng: Rng) -> None:
    """The enemy's secret drawn as players note one (the tactician's weights for the table), not
    uniformly over the eight missions: a belief that martyr or grand slam is as likely a primary as
    loot or secure misjudged the seat that noted its secret first (issue 34, docs/lab.md)."""
    other = 1 - seat
    if game.secrets[other] is not None and game.phase != "over":
        primary = weighted(rng, primary_weights(game))
        game.suppose_secret(other, primary, weighted(rng, STRATAGEM_WEIGHTS))


def candidates(game: FarsideEncounter, actions: list[Action], policy: Any) -> list[Action]:
    """The choices of a player at the stand-in table (see the module docstring)."""
    if policy is None:
        return actions
    choice = policy.choose(game)
    if choice.get("type") in ("impact", "roll"):
        return [choice]  # the table's dice decided
    seat = game.current_seat()
    assert seat is not None  # the search asks only while the game goes on
    if game.phase == "secrets":
        stratagem = choice.get("stratagem")
        return [a for a in actions
                if a["primary"] in PRIMARIES and a["stratagem"] == stratagem and a["team_size"] in TEAM_SIZES] or [choice]
    return [a for a in actions if table_allows(game, a, seat)]


def evaluate(game: FarsideEncounter) -> list[float]:
    """A cut-off playout's value: the lead in victory points (by the sampled secrets) and in models left."""
    worth = [float(points) for points in game.victory_points()]
    for model in game.models.values():
        if model["status"] == "table":
            worth[model["owner"]] += PER_MODEL * (3 - model["damage"]) / 3
    lead = (worth[0] - worth[1]) / SCALE
    return [0.5 + 0.5 * math.tanh(lead), 0.5 - 0.5 * math.tanh(lead)]
