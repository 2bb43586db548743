"""The lab's statistics against values computed independently (textbook formulas, worked examples)."""

from __future__ import annotations

import math

import pytest

from tablelight.lab.stats import distribution, proportion, two_proportions, wilson


def test_wilson_matches_worked_example() -> None:
    # Newcombe (1998), Table I: 81 of 263 -> 0.2553 to 0.3662 (Wilson, no continuity correction).
    low, high = wilson(81, 263)
    assert low == pytest.approx(0.2553, abs=1e-4)
    assert high == pytest.approx(0.3662, abs=1e-4)


def test_wilson_stays_inside_zero_one_at_the_edges() -> None:
    low, high = wilson(0, 10)
    assert low == 0.0 and 0.2 < high < 0.35
    low, high = wilson(10, 10)
    assert high == 1.0 and 0.65 < low < 0.8
    assert wilson(0, 0) == (0.0, 1.0)


def test_two_proportions_z_and_p() -> None:
    # 60/100 against 45/100: pooled p 0.525, z = -0.15 / sqrt(0.525*0.475*0.02)
    result = two_proportions(60, 100, 45, 100)
    expected_z = -0.15 / math.sqrt(0.525 * 0.475 * 0.02)
    assert result["z"] == pytest.approx(expected_z, abs=1e-3)
    assert result["p"] == pytest.approx(math.erfc(abs(expected_z) / math.sqrt(2)), abs=1e-5)
    assert result["significant"] is True
    same = two_proportions(30, 100, 30, 100)
    assert same["diff"] == 0 and same["p"] == 1 and same["significant"] is False


def test_proportion_and_distribution() -> None:
    assert proportion(3, 4)["rate"] == 0.75
    d = distribution([1, 2, 3, 4, 100])
    assert d["median"] == 3 and d["min"] == 1 and d["max"] == 100
    assert sum(d["histogram"]["count"]) == 5
    assert d["mean"] == 22.0
