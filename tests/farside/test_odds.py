"""Exact odds against hand-computed values and against an independent, seeded Monte Carlo run.

The simulator below plays the rules die by die with :mod:`random` and shares no
code with :mod:`tablelight.games.farside.odds`. Each probability must lie within
4.5 standard errors of the simulated frequency (sqrt(p(1-p)/N)).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from tablelight.core.errors import SetupError
from tablelight.games.farside.odds import (
    AttackSpec,
    Target,
    attack_odds,
    combined_fails,
    group_odds,
    melee_rerolls,
    weapon_attack,
)

TRIALS = 12000


# ------------------------------------------------------------ hand-computed


def test_single_die_by_hand() -> None:
    odds = attack_odds(AttackSpec(1, 4, 1), Target(defense=4))
    assert odds.damage == {0: Fraction(3, 4), 1: Fraction(1, 4)}
    assert odds.removed == 0
    assert attack_odds(AttackSpec(1, 4, 1), Target(defense=4, damage=2)).removed == Fraction(1, 4)


def test_anchor_ten_attacks_three_up_four_up_three_up() -> None:
    odds = attack_odds(AttackSpec(10, 3, 1), Target(defense=3, cover=4))
    assert odds.damage[0] == Fraction(8, 9) ** 10
    assert odds.mean_damage == Fraction(10, 9)
    assert sum(odds.damage.values()) == 1


def test_size_ignores_failed_defence_rolls() -> None:
    # 3 impact tokens that always fail (defence 7: no roll saves) -> 3, 2, 1 damage for sizes 1, 2, 3.
    for size, damage in ((1, 3), (2, 2), (3, 1)):
        odds = attack_odds(AttackSpec(1, 2, 3), Target(defense=7, size=size))
        assert odds.damage == {0: Fraction(1, 6), damage: Fraction(5, 6)}


def test_rerolls_by_hand() -> None:
    # 1 die at 4+: r1 hits with 1/2 + 1/6 * 1/2 = 7/12; rF with 1/2 + 1/2 * 1/2 = 3/4.
    assert attack_odds(AttackSpec(1, 4, 1, rerolls=("r1",)), Target(defense=7)).damage[1] == Fraction(7, 12)
    assert attack_odds(AttackSpec(1, 4, 1, rerolls=("rF",)), Target(defense=7)).damage[1] == Fraction(3, 4)
    # rA with one die: reroll a miss (below the mean 1/2), so it equals rF.
    assert attack_odds(AttackSpec(1, 4, 1, rerolls=("rA",)), Target(defense=7)).damage[1] == Fraction(3, 4)


def test_cover_and_camouflage() -> None:
    assert Target(defense=4).cover_save is None
    assert Target(defense=4, cover=4, cover_bonus=1).cover_save == 3
    assert Target(defense=4, cover_bonus=1).cover_save == 6  # simple camouflage without cover: 6+
    assert Target(defense=4, cover_bonus=2).cover_save == 5  # advanced: 5+
    assert Target(defense=4, cover=3, cover_bonus=2).cover_save == 2  # never better than 2+
    odds = attack_odds(AttackSpec(1, 2, 1), Target(defense=7, cover=4, cover_bonus=1))
    assert odds.damage[1] == Fraction(5, 6) * Fraction(2, 6)


def test_exploding_and_masterly_by_hand() -> None:
    # 1 die at 6+, exploding: a six then a six (1/36), a six then a miss (5/36).
    odds = attack_odds(AttackSpec(1, 6, 1, exploding=True), Target(defense=7))
    assert odds.successes == {0: Fraction(5, 6), 1: Fraction(5, 36), 2: Fraction(1, 36)}
    # Masterly: a six inflicts double impact (2 x 2 tokens), a 4 or 5 inflicts 2.
    odds = attack_odds(AttackSpec(1, 4, 2, masterly=True), Target(defense=7))
    assert odds.impact == {0: Fraction(1, 2), 2: Fraction(1, 3), 4: Fraction(1, 6)}


def test_devastating_combines_failed_dice() -> None:
    def counts(*faces: int) -> tuple[int, ...]:
        c = Counter(faces)
        return tuple(c[f] for f in range(1, 7))

    assert combined_fails(counts(1, 2, 3), 5) == 1  # the rulebook: 2+3 make a 5
    assert combined_fails(counts(1, 2, 3), 6) == 1  # or all three make a 6
    assert combined_fails(counts(2, 2, 3, 3), 4) == 2
    assert combined_fails(counts(1, 1, 1, 1), 4) == 1
    assert combined_fails(counts(3, 3, 3, 1, 1, 1), 4) == 3
    assert combined_fails(counts(1, 1), 4) == 0
    # 2 dice at 6+: one six (10/36), or two fails summing to 6 or more (15 of the 25 pairs).
    odds = attack_odds(AttackSpec(2, 6, 1, devastating=True), Target(defense=7))
    assert odds.successes[2] == Fraction(1, 36)
    assert odds.successes[1] == Fraction(10, 36) + Fraction(sum(1 for a in range(1, 6) for b in range(1, 6) if a + b >= 6), 36)


def test_evade_and_single_model_groups_by_hand() -> None:
    # one impact token at defence 4+: a fail (1/2) is rerolled, so damage 1 with 1/4
    odds = attack_odds(AttackSpec(1, 2, 1), Target(defense=4, evade=True))
    assert odds.damage[1] == Fraction(5, 6) * Fraction(1, 4)
    spec, target = AttackSpec(4, 4, "D6"), Target(defense=4, cover=5, damage=1)
    single = attack_odds(spec, target).removed
    for mode in ("blast", "kone"):
        assert group_odds(spec, [target], mode).removed_each == [single]
    # Lance (FS-59): the line ignores the cover the obstacles give: as the attack without cover.
    uncovered = attack_odds(spec, Target(defense=4, damage=1)).removed
    assert group_odds(spec, [target], "lance").removed_each == [uncovered] and uncovered > single


def test_melee_rerolls_against_damaged_targets() -> None:
    assert melee_rerolls(0) == ()
    assert melee_rerolls(1) == ("rA",)
    assert melee_rerolls(2, personal_weapon=True) == ("rF", "r1")


def test_weapon_profiles_and_range_bands() -> None:
    rifle = weapon_attack("Assault Rifle", 35, 4, focused=True)
    assert (rifle.dice, rifle.rerolls, rifle.twice) == (3, ("rF",), False)
    assert weapon_attack("Assault Rifle", 10, 4, targets=3).attack == 6  # rapid fire split: 4+ -> 6+
    pistol = weapon_attack("Pistol", 15, 4)
    assert (pistol.dice, pistol.twice) == (3, True)  # a pistol's quick shot counts as focused
    with pytest.raises(SetupError, match="cannot shoot at 15 cm"):
        weapon_attack("Battle Cannon", 15, 4, focused=True)
    with pytest.raises(SetupError, match="only be fired with a focused shot"):
        weapon_attack("Light Machine Gun", 15, 4)
    with pytest.raises(SetupError, match="no rapid fire"):
        weapon_attack("Gun", 15, 4, targets=2)
    launcher = weapon_attack("Grenade Launcher", 50, 3, focused=True, upgrades=["Exploding Ammo"])
    assert (launcher.dice, launcher.impact, launcher.rerolls, launcher.exploding) == (1, "D6", ("r1",), True)


def test_bad_inputs_are_clear_errors() -> None:
    with pytest.raises(SetupError, match="attack dice"):
        AttackSpec(-1, 4)
    with pytest.raises(SetupError, match="impact"):
        AttackSpec(2, 4, "D8")
    with pytest.raises(SetupError, match="reroll"):
        AttackSpec(2, 4, 1, rerolls=("r2",))
    with pytest.raises(SetupError, match="size"):
        Target(defense=4, size=4)
    with pytest.raises(SetupError, match="damage tokens"):
        Target(defense=4, damage=3)
    with pytest.raises(SetupError, match="up to 20 dice"):
        AttackSpec(21, 4, devastating=True)


# ------------------------------------------------------------ Monte Carlo


def sim_attack(rng: random.Random, spec: AttackSpec, reroll: str | None, mean_value: float) -> tuple[int, int]:
    """One attack roll: (successes, masterly sixes); the rA policy rerolls below ``mean_value``."""

    def roll() -> tuple[int, int]:
        faces = []
        for _ in range(spec.dice):
            face = rng.randint(1, 6)
            if reroll == "r1" and face == 1 or reroll == "rF" and face < spec.attack:
                face = rng.randint(1, 6)
            faces.append(face)
        if spec.exploding:
            faces += [rng.randint(1, 6) for face in list(faces) if face == 6]
        hits = [f for f in faces if f >= spec.attack]
        sixes = sum(1 for f in hits if f == 6) if spec.masterly else 0
        extra = brute_groups(sorted(f for f in faces if f < spec.attack), spec.attack) if spec.devastating else 0
        return len(hits) - sixes + extra, sixes

    first = roll()
    if reroll == "rA" and first[0] + 2 * first[1] < mean_value:
        return roll()
    return first


def brute_groups(fails: list[int], need: int) -> int:
    if not fails:
        return 0
    head, rest = fails[0], fails[1:]
    best = brute_groups(rest, need)
    for mask in range(1 << len(rest)):
        chosen = [rest[i] for i in range(len(rest)) if mask >> i & 1]
        if head + sum(chosen) >= need:
            left = [rest[i] for i in range(len(rest)) if not mask >> i & 1]
            best = max(best, 1 + brute_groups(left, need))
    return best


def sim_damage(rng: random.Random, hits: tuple[int, int], spec: AttackSpec, target: Target, save: int | None) -> int:
    tokens = 0
    for doubled in [False] * hits[0] + [True] * hits[1]:
        if save is not None and rng.randint(1, 6) >= save:
            continue
        impact = rng.randint(1, 6) if spec.impact_is_d6 else int(spec.impact)
        tokens += 2 * impact if doubled else impact
    fails = sum(1 for _ in range(tokens) if rng.randint(1, 6) < target.defense)
    if target.evade:
        # Evade: reroll the whole defence roll when its damage is above the average roll's
        ignored = target.size - 1
        p_fail = (target.defense - 1) / 6
        mean = sum(math.comb(tokens, f) * p_fail**f * (1 - p_fail) ** (tokens - f) * max(0, f - ignored) for f in range(tokens + 1))
        if max(0, fails - ignored) > mean + 1e-12:
            fails = sum(1 for _ in range(tokens) if rng.randint(1, 6) < target.defense)
    return max(0, fails - (target.size - 1))


def assert_close(exact: dict[int, Fraction], counts: Counter[int], trials: int) -> None:
    for key in set(exact) | set(counts):
        p = float(exact.get(key, 0))
        seen = counts.get(key, 0) / trials
        error = math.sqrt(max(p * (1 - p), 1e-12) / trials)
        assert abs(seen - p) <= 4.5 * error + 1e-9, (key, p, seen, error)


CASES = [
    (AttackSpec(10, 3, 1), Target(defense=3, cover=4), None, 0.0),
    (AttackSpec(6, 4, 2, rerolls=("rF",)), Target(defense=4, size=2, damage=1), "rF", 0.0),
    (AttackSpec(5, 4, "D6", rerolls=("r1",)), Target(defense=5, size=3, cover=5), "r1", 0.0),
    (AttackSpec(4, 5, 1, rerolls=("rA",)), Target(defense=4, damage=2), "rA", 4 / 3),
    (AttackSpec(5, 4, 1, exploding=True, devastating=True), Target(defense=4, cover_bonus=1), None, 0.0),
    (AttackSpec(4, 4, 2, masterly=True, rerolls=("rA",)), Target(defense=5, size=2, damage=1), "rA", 4 * (2 / 6 + 2 * 1 / 6)),
    (AttackSpec(2, 3, 1, twice=True), Target(defense=5, cover=6), None, 0.0),
    (AttackSpec(3, 7, 1, devastating=True, rerolls=("rF",)), Target(defense=4), "rF", 0.0),
    (AttackSpec(5, 3, "D6"), Target(defense=4, size=2, evade=True), None, 0.0),
]


@pytest.mark.parametrize(("spec", "target", "reroll", "mean_value"), CASES)
def test_exact_odds_agree_with_monte_carlo(spec: AttackSpec, target: Target, reroll: str | None, mean_value: float) -> None:
    exact = attack_odds(spec, target)
    assert exact.reroll_used == reroll
    assert sum(exact.damage.values()) == 1
    rng = random.Random(20261121)
    damage: Counter[int] = Counter()
    removed = 0
    for _ in range(TRIALS):
        rolls = [sim_attack(rng, spec, reroll, mean_value) for _ in range(2 if spec.twice else 1)]
        hits = (sum(r[0] for r in rolls), sum(r[1] for r in rolls))
        inflicted = sim_damage(rng, hits, spec, target, target.cover_save)
        damage[inflicted] += 1
        removed += target.damage + inflicted >= 3
    assert_close(exact.damage, damage, TRIALS)
    assert_close({1: exact.removed}, Counter({1: removed}), TRIALS)


@pytest.mark.parametrize("mode", ["blast", "kone", "lance"])
def test_group_odds_agree_with_monte_carlo(mode: str) -> None:
    spec = AttackSpec(3, 4, "D6")
    targets = [Target(defense=4, cover=4), Target(defense=5, size=2, cover=4, damage=1), Target(defense=3, cover=4, damage=2)]
    exact = group_odds(spec, targets, mode)
    assert sum(exact.models_removed.values()) == 1
    rng = random.Random(7)
    counts: Counter[int] = Counter()
    each = [0, 0, 0]
    for _ in range(TRIALS):
        hits = sim_attack(rng, spec, None, 0.0)
        if mode == "blast":  # one set of cover saves for the target model, shared by all
            kept = sum(1 for _ in range(hits[0]) if rng.randint(1, 6) < 4)
            results = [sim_damage(rng, (kept, 0), spec, t, None) for t in targets]
        elif mode == "lance":  # every model on the line takes the roll, no cover saves from obstacles
            results = [sim_damage(rng, hits, spec, t, None) for t in targets]
        else:
            results = [sim_damage(rng, hits, spec, t, t.cover_save) for t in targets]
        gone = [t.damage + r >= 3 for t, r in zip(targets, results)]
        counts[sum(gone)] += 1
        for i, g in enumerate(gone):
            each[i] += g
    assert_close(exact.models_removed, counts, TRIALS)
    for i in range(3):
        assert_close({1: exact.removed_each[i]}, Counter({1: each[i]}), TRIALS)


def test_thinning_is_exactly_the_binomial_of_every_outcome() -> None:
    """The fast thinning the odds use gives the same weights and denominator as binding a binomial."""
    from tablelight.games.farside.dist import Dist, binomial, thinned, thinned_pairs

    counts = Dist({0: 5, 2: 7, 3: 0, 6: 11}, 23)
    for p in (0, 1, 4, 6):
        slow = counts.bind(lambda k: binomial(k, p, 6))
        fast = thinned(counts, p, 6)
        assert (fast.weights, fast.denom) == (slow.weights, slow.denom)
    pairs = Dist({(0, 0): 1, (3, 1): 4, (2, 2): 2}, 7)
    slow_pairs = pairs.bind(lambda k: binomial(k[0], 2, 6).bind(lambda x: binomial(k[1], 2, 6).map(lambda y: (x, y))))
    fast_pairs = thinned_pairs(pairs, 2, 6)
    assert fast_pairs.fractions() == slow_pairs.fractions() and fast_pairs.denom == slow_pairs.denom
