"""Choice buttons on a phone keep their words whole (Farside's "breakthrough" was split
"breakthrou gh"): the seat page's stylesheet in a real browser (Debian chromium), 390 px wide."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablelight.games.farside.engine import FarsideEncounter
from tablelight.table.service import Table
from tablelight.web.desk import Desk

CHROMIUM = "/usr/bin/chromium"
STYLE = Path(__file__).resolve().parents[2] / "host" / "tablelight" / "web" / "static" / "style.css"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
sync_api = pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Debian chromium is not installed (scripts/test.sh installs it)", allow_module_level=True)


def step_labels() -> list[str]:
    """Every step label Farside's secret-mission choice shows on a seat's page (its longest words)."""
    game = FarsideEncounter(2, seed=3)
    table = Table(game, ["human", "human"], board_attached=True)
    desk = Desk(table)
    while game.phase != "secrets":
        table.apply(game.legal_actions()[0])
    page = desk.seat(game.current_seat())
    assert page is not None
    return sorted({label for choice in page["choices"] for label in choice["path"]})


def test_step_buttons_never_split_a_word():
    labels = step_labels()
    assert any("breakthrough" in label for label in labels)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_context(**PHONE).new_page()
            page.set_content("<body class='seat-page'><section><div id='choices' class='choices steps'></div></section></body>")
            page.add_style_tag(path=str(STYLE))
            page.evaluate("""labels => {
                const box = document.getElementById('choices');
                labels.forEach(label => {
                    const button = document.createElement('button');
                    button.className = 'choice step';
                    label.split(' ').forEach((word, i) => {
                        const span = document.createElement('span');
                        span.className = 'word';
                        span.textContent = word;
                        if (i) button.append(' ');
                        button.append(span);
                    });
                    box.append(button);
                });
            }""", labels)
            split = page.evaluate("""() => [...document.querySelectorAll('.word')]
                .filter(w => w.getClientRects().length > 1).map(w => w.textContent)""")
            assert split == [], f"words split across lines on a 390 px phone: {split}"
        finally:
            browser.close()
