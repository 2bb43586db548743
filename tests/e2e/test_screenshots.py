"""End-to-end tests take screenshots in their tmp folder; docs/img changes only when asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from . import helpers
from .helpers import keep_screenshot


def test_a_screenshot_stays_in_tmp_unless_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = tmp_path / "docs-img"
    docs.mkdir()
    monkeypatch.setattr(helpers, "DOCS_IMG", docs)
    shot = tmp_path / "shot.png"
    shot.write_bytes(b"\x89PNG picture")
    assert keep_screenshot(shot, "seat-page.png", environ={}) is None
    assert keep_screenshot(shot, "seat-page.png", environ={"TABLELIGHT_UPDATE_SCREENSHOTS": "0"}) is None
    assert list(docs.iterdir()) == []
    kept = keep_screenshot(shot, "seat-page.png", environ={"TABLELIGHT_UPDATE_SCREENSHOTS": "1"})
    assert kept == docs / "seat-page.png" and kept.read_bytes() == b"\x89PNG picture"

