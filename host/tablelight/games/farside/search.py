"""What the search bot may not know in Farside Encounter, redrawn: the enemy's primary objective and stratagem.

:func:`determinize` works on a clone (see :mod:`tablelight.core.search_bot`).
The team size is announced, so it stays; the two missions are drawn uniformly.
"""

from __future__ import annotations

from typing import Any

from tablelight.core.rng import Rng
from tablelight.games.farside.tables import MISSIONS


def determinize(game: Any, seat: int, rng: Rng) -> None:
    other = 1 - seat
    secret = game.secrets[other]
    if secret is not None and game.phase != "over":
        game.secrets[other] = {**secret, "primary": rng.choice(MISSIONS), "stratagem": rng.choice(MISSIONS)}
