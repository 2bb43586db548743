"""``tablelight farside bench``: time per odds query, ours against the ``icepool`` library.

Both sides answer the same question, the distribution of damage tokens of an
attack on one model, and must agree exactly (the benchmark checks it). The
icepool side is built from icepool's own operators (``@`` to roll a die a
number of times, ``map`` to continue with another die, ``reroll``). Install
icepool with ``pip install -e '.[bench]'``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.games.farside import dist
from tablelight.games.farside.odds import AttackSpec, Target, attack_odds


@dataclass(frozen=True)
class Question:
    label: str
    spec: AttackSpec
    target: Target


QUESTIONS = (
    # The anchor: 10 attacks hitting on 3+, "wounding" on 4+ (a 4+ cover save), saved on 3+.
    Question("10 dice 3+, cover 4+, defence 3+", AttackSpec(10, 3, 1), Target(defense=3, cover=4)),
    Question("10 dice 4+ rF, impact 2, defence 4+, size 2", AttackSpec(10, 4, 2, rerolls=("rF",)), Target(defense=4, size=2)),
    Question("6 dice 4+ r1, impact D6, cover 5+, defence 4+, size 3", AttackSpec(6, 4, "D6", rerolls=("r1",)), Target(defense=4, size=3, cover=5)),
    Question("30 dice 5+, defence 5+", AttackSpec(30, 5, 1), Target(defense=5)),
)


def _clear_caches() -> None:
    dist.binomial.cache_clear()
    dist.d6_sum.cache_clear()


def ours(question: Question) -> dict[int, Fraction]:
    return attack_odds(question.spec, question.target).damage


def with_icepool(question: Question) -> dict[int, Fraction]:
    import icepool  # type: ignore[import-untyped,import-not-found,unused-ignore]

    spec, target = question.spec, question.target
    die = icepool.d6
    if "r1" in spec.rerolls:
        die = die.reroll([1], depth=1)
    elif "rF" in spec.rerolls:
        die = die.reroll(lambda x: x < spec.attack, depth=1)
    elif spec.rerolls:
        raise SetupError("the icepool side of the benchmark covers r1 and rF rerolls only")
    hits = spec.dice @ die.map(lambda x: 1 if x >= spec.attack else 0)
    save = target.cover_save
    if save is not None:
        through_die = icepool.Die({0: 7 - save, 1: save - 1})
        hits = hits.map(lambda n: n @ through_die)
    impact_die = icepool.d6 if spec.impact_is_d6 else icepool.Die([spec.impact])
    impact = hits.map(lambda n: n @ impact_die)
    fail_die = icepool.Die({1: target.defense - 1, 0: 7 - target.defense})
    fails = impact.map(lambda t: t @ fail_die)
    ignored = target.size - 1
    damage = fails.map(lambda f: max(0, f - ignored))
    return {int(k): Fraction(q, damage.denominator()) for k, q in damage.items() if q}


def _time(run: Callable[[Question], dict[int, Fraction]], question: Question, repeats: int, clear: Callable[[], None]) -> tuple[float, float, dict[int, Fraction]]:
    clear()
    started = time.perf_counter()
    answer = run(question)
    cold = time.perf_counter() - started
    times = []
    for _ in range(repeats):
        clear()
        started = time.perf_counter()
        run(question)
        times.append(time.perf_counter() - started)
    # The median: one query is short, so a busy machine's pauses would swing a mean.
    return cold, statistics.median(times), answer


def run_benchmark(repeats: int = 20) -> dict[str, Any]:
    """Time every question on both sides; raise SetupError when icepool is missing."""
    try:
        import icepool  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        raise SetupError("icepool is not installed: pip install -e '.[bench]' (or pip install icepool)") from None
    rows = []
    for question in QUESTIONS:
        our_cold, our_time, our_answer = _time(ours, question, repeats, _clear_caches)
        ice_cold, ice_time, ice_answer = _time(with_icepool, question, repeats, lambda: None)
        rows.append({
            "question": question.label,
            "ours_ms": round(our_time * 1000, 3),
            "ours_first_ms": round(our_cold * 1000, 3),
            "icepool_ms": round(ice_time * 1000, 3),
            "icepool_first_ms": round(ice_cold * 1000, 3),
            "speedup": round(ice_time / our_time, 1) if our_time else None,
            "same_answer": our_answer == ice_answer,
            "p_no_damage": float(our_answer.get(0, 0)),
        })
    return {"icepool": icepool.__version__, "repeats": repeats, "questions": rows}
