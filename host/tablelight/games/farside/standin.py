"""The bots' stand-in attack roll: what a model's profile (attack value, weapons) gives at a table
the bots do not see.

The tracker keeps the books of a fight played with miniatures; the tactician stands in for the
table's shooting and melee with this roll. A model whose army gives its profile (``attack``,
``shooting`` and ``melee`` weapon names, as ``tablelight farside game --roster`` and the demo
armies do) attacks with the rulebook's weapon tables: a range band drawn at random (the bots know
no distances), the weapon of its profile with the most expected impact there, one die per attack
die of the band (or of the melee weapon for its size), a success at the attack value or more,
impact tokens per success (a number or a D6 each). A focused shot (a complex action) applies the
weapon's focused effect (``2x`` two rolls, ``r1``, ``rF``, ``rA`` rerolls; ``F`` weapons fire only
focused); a quick shot (a simple action) has none, except a pistol's, which counts as focused. A
melee attack (an assault: a charge of up to 10 cm, so only in the 10 cm band) is a complex action. Not stood in: cover saves, blast and kone groups,
rapid-fire splits, weapon upgrades. A model without a profile (older records) rolls ``2 + size``
dice (``1 + size`` for a simple action) hitting on 4+, the earlier stand-in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tablelight.core.rng import Rng
from tablelight.games.farside.state import MAX_IMPACT_PER_ACTION
from tablelight.games.farside.tables import RANGE_BANDS, find_melee, find_shooting

#: The earlier stand-in, for models without a profile: attack dice hit on this face or higher.
HIT_ON = 4


@dataclass(frozen=True)
class StandInAttack:
    name: str
    dice: int
    impact: int | str  # impact tokens per success, or "D6"
    effect: str | None = None  # the focused effect applied: "2x", "r1", "rF" or "rA"

    def expected(self, attack: int) -> float:
        """Mean impact tokens at attack value ``attack`` (rerolls left out: they only break ties)."""
        per_success = 3.5 if self.impact == "D6" else float(self.impact)
        rolls = 2 if self.effect == "2x" else 1
        return rolls * self.dice * (7 - attack) / 6 * per_success


def attacks(model: Mapping[str, Any], kind: str, band: str, melee: bool = True) -> list[StandInAttack]:
    """The attacks model's profile allows with a ``kind`` ("simple"/"complex") action at range ``band``
    (with ``melee``, an assault's melee weapons too when the enemy is within 10 cm)."""
    found = []
    for name in model.get("shooting", ()):
        weapon = find_shooting(name)
        dice = weapon.dice.get(band) if weapon is not None else None
        if weapon is None or not dice or model["size"] < weapon.min_size:
            continue
        focused = kind == "complex" or weapon.name == "Pistol"  # a pistol's quick shot counts as focused
        if weapon.focused_shot == "F" and not focused:
            continue
        effect = weapon.focused_shot if focused and weapon.focused_shot != "F" else None
        found.append(StandInAttack(weapon.name, dice, weapon.impact, effect))
    if melee and kind == "complex" and band == RANGE_BANDS[0]:  # an assault (a charge of up to 10 cm)
        for name in model.get("melee", ()) or ("None",):
            profile = find_melee(name, model["size"])
            if profile is not None:
                found.append(StandInAttack(profile.name, profile.attack_dice, profile.impact))
    return found


def melee_attacks(model: Mapping[str, Any]) -> list[StandInAttack]:
    """The melee weapons of the model's profile (bare hands without one): what it fights back with."""
    found = []
    for name in model.get("melee", ()) or ("None",):
        profile = find_melee(name, model["size"])
        if profile is not None:
            found.append(StandInAttack(profile.name, profile.attack_dice, profile.impact))
    return found


def can_snipe(model: Mapping[str, Any]) -> bool:
    """Whether the model has a weapon for Sniper: a focused shot over 30 cm (infinite range)."""
    return "attack" not in model or bool(attacks(model, "complex", "inf", melee=False))


def roll_attack(
    model: Mapping[str, Any], kind: str, rng: Rng, counts: Callable[[int], int], band: str | None = None, melee: bool = True,
) -> int:
    """The impact tokens of one stand-in attack of ``model`` (``counts`` turns a face into the face
    it counts as: The Chosen's ones are sixes). ``band`` None draws one; ``melee`` allows an assault;
    ``band = "melee"`` fights back in a melee with the melee weapons only."""
    if "attack" not in model:
        dice = (2 if kind == "complex" else 1) + model["size"]
        return sum(1 for _ in range(dice) if counts(rng.between(1, 6)) >= HIT_ON)
    value = int(model["attack"])
    options = melee_attacks(model) if band == "melee" else attacks(model, kind, band or rng.choice(RANGE_BANDS), melee)
    if not options:
        return 0
    best = max(options, key=lambda option: option.expected(value))
    successes = sum(_successes(best, value, rng, counts) for _ in range(2 if best.effect == "2x" else 1))
    impact = sum(rng.between(1, 6) for _ in range(successes)) if best.impact == "D6" else successes * int(best.impact)
    return min(impact, MAX_IMPACT_PER_ACTION)


def _successes(attack: StandInAttack, value: int, rng: Rng, counts: Callable[[int], int]) -> int:
    faces = [counts(rng.between(1, 6)) for _ in range(attack.dice)]
    if attack.effect == "r1":
        faces = [counts(rng.between(1, 6)) if face == 1 else face for face in faces]
    elif attack.effect == "rF":
        faces = [counts(rng.between(1, 6)) if face < value else face for face in faces]
    elif attack.effect == "rA" and sum(face >= value for face in faces) < attack.dice * (7 - value) / 6:
        faces = [counts(rng.between(1, 6)) for _ in faces]  # below the mean: the whole roll again
    return sum(1 for face in faces if face >= value)
