"""The benchmark's two sides must give the same answer (skipped where icepool is not installed)."""

from __future__ import annotations

import pytest

from tablelight.games.farside.bench import QUESTIONS, ours, with_icepool


@pytest.mark.parametrize("question", QUESTIONS, ids=[q.label for q in QUESTIONS])
def test_icepool_and_ours_agree(question: object) -> None:
    pytest.importorskip("icepool")
    assert ours(question) == with_icepool(question)  # type: ignore[arg-type]
