"""The dice: the host rolls (dice = host, or press when the seat sends a roll) through the engine's
logged draws, the table's entered dice, and what each roll decides (the setup's, command dice,
activation, defence with Evade's offer, Regeneration, dead zones)."""

from __future__ import annotations

from typing import Any

from tablelight.games.farside.activation import judge
from tablelight.games.farside.combat import dead_zone_rolled, defend, defense_fails, may_evade, regenerated
from tablelight.games.farside.rounds import command_dice_rolled, next_defense
from tablelight.games.farside.setup import SETUP_ROLLS, setup_rolled
from tablelight.games.farside.state import OVER, Chance, FarsideState, fire

#: The fields of a pending roll that are not its context in the log.
ROLL_FIELDS = ("roll", "dice", "sides", "count_fails")


def advance(p: FarsideState, chance: Chance) -> None:
    """Make the host's rolls until a player has to act (dice = host)."""
    while p.pending is not None and p.options["dice"] == "host" and p.phase != OVER:
        host_roll(p, chance, p.pending)


def host_roll(p: FarsideState, chance: Chance, pending: dict[str, Any]) -> None:
    """Roll the pending dice with the game's generator (logged) and resolve them."""
    context = {k: v for k, v in pending.items() if k not in ROLL_FIELDS}
    values = [chance.draw_die(pending["roll"], pending["sides"], **context) for _ in range(pending["dice"])]
    if pending["count_fails"]:
        resolve_roll(p, pending, fails=defense_fails(p, pending["model"], values))
    else:
        resolve_roll(p, pending, values=values)


def resolve_roll(p: FarsideState, pending: dict[str, Any], values: list[int] | None = None, fails: int = 0) -> None:
    """The roll ``pending`` came out as ``values`` (or, for a defence roll, ``fails`` failed dice)."""
    p.pending = None
    kind, seat = pending["roll"], pending["seat"]
    if kind in SETUP_ROLLS:
        assert values is not None
        setup_rolled(p, kind, seat, values)
    elif kind == "command":
        assert values is not None
        command_dice_rolled(p, seat, values)
    elif kind == "activation":
        assert values is not None and p.group is not None
        p.group["roll"] = values[0]
        judge(p, pending["model"])
    elif kind == "regeneration":
        assert values is not None
        regenerated(p, pending["model"], values[0])
    elif kind == "dead_zone":
        assert values is not None
        dead_zone_rolled(p, pending["model"], values[0])
    elif kind == "defense":
        if may_evade(p, pending, fails):
            fire(p, "evade:offered")
            p.evade_offer = {"model": pending["model"], "fails": fails}
            return
        defend(p, pending["model"], fails)
        next_defense(p)
