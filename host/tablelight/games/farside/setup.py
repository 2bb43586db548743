"""The setup: the options and armies checked (an army over the points level is refused), the roll-off
(again on a tie; the higher places the terrain), 2D3 terrain zones to secure and 2D3 loot tokens, the
deployment zone widths (option ``deployment``), then the secret missions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.games.farside.forces import army_points, checked_armies, default_armies
from tablelight.games.farside.state import SECRETS, FarsideState, request_roll
from tablelight.games.farside.tables import tables

#: The kinds of roll the setup makes, in order.
SETUP_ROLLS = ("setup", "secure_zones", "loot_tokens", "deployment")


def deployment_width(face: int) -> int:
    """The deployment zone width in cm for a rolled D6 face (rulebook table)."""
    for row in tables()["deployment_width"]:
        if face in row["d6"]:
            return int(row["width_cm"])
    raise ValueError(face)


def new_position(record_format: int, options: Mapping[str, Any], setup: Mapping[str, Any] | None) -> FarsideState:
    """The position of a new game, waiting for the roll-off (SetupError names a bad option or army)."""
    if options["objective_limit"] < 1 or options["round_limit"] < 0:
        raise SetupError("objective_limit must be at least 1 and round_limit 0 or more")
    level = options["points_level"]
    if level < 1:
        raise SetupError(f"points_level must be at least 1, got {level}")
    armies = checked_armies(setup["armies"]) if setup and "armies" in setup else default_armies(level)
    if options["points_check"] == "cap" and record_format >= 3:
        for seat, army in enumerate(armies):
            if army_points(army) > level:
                raise SetupError(
                    f"army {seat} ({army['name']}) costs {army_points(army)} points, over the {level}-point level "
                    "(option points_check=record accepts it)"
                )
    p = FarsideState(record_format, options, armies)
    request_roll(p, "setup", 0, 1, 6)  # the roll-off
    return p


def setup_rolled(p: FarsideState, kind: str, seat: int, values: list[int]) -> None:
    """A roll of the setup (``kind`` in SETUP_ROLLS) by ``seat``, and the roll that follows it."""
    if kind == "setup":
        p.setup_rolls[seat] = values[0]
        if seat == 0:
            request_roll(p, "setup", 1, 1, 6)
        elif p.setup_rolls[0] == p.setup_rolls[1]:
            p.setup_rolls = [None, None]
            request_roll(p, "setup", 0, 1, 6)
        else:
            p.placer = 0 if (p.setup_rolls[0] or 0) > (p.setup_rolls[1] or 0) else 1
            request_roll(p, "secure_zones", p.placer, 2, 3)
    elif kind == "secure_zones":
        assert p.placer is not None
        p.secure_zones = sum(values)
        request_roll(p, "loot_tokens", p.placer, 2, 3)
    elif kind == "loot_tokens":
        assert p.placer is not None
        p.loot_tokens = p.loot_left = sum(values)
        mode = p.options["deployment"]
        if mode == "roll_each":
            request_roll(p, "deployment", 1 - p.placer, 1, 6)
        elif mode == "roll_shared":
            request_roll(p, "deployment", p.placer, 1, 6)
        else:
            p.deployment = [int(mode), int(mode)]
            p.phase = SECRETS
    else:  # deployment
        assert p.placer is not None
        width = deployment_width(values[0])
        if p.options["deployment"] == "roll_shared":
            p.deployment = [width, width]
        else:
            p.deployment[seat] = width
            if p.deployment[p.placer] is None:
                request_roll(p, "deployment", p.placer, 1, 6)
                return
        p.phase = SECRETS
