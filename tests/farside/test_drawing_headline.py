"""The Farside drawing's headline fits a phone's width: a long one goes on two lines, never cut."""

import re

from tablelight.games.farside.drawing import MARGIN, WIDTH, headline
from tablelight.games.farside.engine import FarsideEncounter
from tablelight.table.face import make_face


def test_the_headline_wraps_to_the_drawings_width_and_keeps_every_word():
    face = make_face(FarsideEncounter(2, {}, seed=1))
    said = headline(face)
    assert len(said) > 50, said  # before round 1, secret missions: one line would not fit
    svg = face.drawing(0)
    bold = re.findall(r'<text [^>]*font-size="14"[^>]*font-weight="bold"[^>]*>([^<]*)</text>', svg)
    lines = []
    while len(" ".join(lines)) < len(said):  # the drawing's first bold lines are the headline's
        lines.append(bold[len(lines)])
    assert " ".join(lines) == said
    for line in lines:  # a bold sans-serif at 14 units is at most 0.64 em a character on average
        assert len(line) * 0.64 * 14 <= WIDTH - 2 * MARGIN, line
