"""Farside Encounter drawn for people: the round, the missions and the two armies, as one SVG.

:func:`farside_svg` is what :meth:`FarsideFace.drawing` returns. The picture is 390 units wide
(one unit is one CSS pixel on a 390 px phone, so every font size here is at least 12 there):

* the round, the phase and whose turn it is; each side's command die, manoeuvre die and action
  points left;
* the objective track (one box per accomplished objective up to the limit, red's then blue's, the
  last round marked once it is reached) and each mission's count per side, the zones secured and
  the loot left;
* the two armies side by side, one card per model: its name and id, size, defence and attack, its
  damage tokens (three remove it), its impact tokens, whether it has acted this turn, The Chosen's
  star; lost models and those that left the table faded at the end;
* in a seat's own drawing, its secret mission (primary objective, stratagem, team size); the shared
  drawing shows the team sizes only (public) until the game is over.

Models the seat to act may choose carry ``data-pick`` ``{"model": id}`` (a field of a legal action,
so a tap narrows its choices as :meth:`narrow` takes them); every model carries ``data-name``
(``"model a1"``).
"""

from __future__ import annotations

import html
import json
import math
from typing import Any

from tablelight.games.farside.engine import FarsideEncounter
from tablelight.games.farside.tables import MISSIONS
from tablelight.table.drawing import DIM_INK, INK, document, wrapped
from tablelight.table.face import GameFace
from tablelight.table.result import result_block

WIDTH = 390.0
MARGIN = 6.0
SEAT_FILLS = ("#d7263d", "#1f5fd6")
SEAT_PALE = ("#fbe3e6", "#e2eafb")
SEAT_WORDS = ("red", "blue")
#: The seats' colours for words on the drawing's dark ground (lighter: they read there).
SEAT_INKS = ("#ff7a88", "#8fb0ff")
#: The seats' colours for words in their pale boxes (darker: they read there).
SEAT_TITLES = ("#b3162c", "#1f5fd6")
#: Ink of words on the pale boxes and the white model cards.
DARK = "#111"
COLUMN = (WIDTH - 3 * MARGIN) / 2
CARD_HEIGHT = 62.0
PHASE_WORDS = {"setup": "setup", "secrets": "secret missions", "command": "command phase", "action": "action phase",
               "melee": "melee phase", "impact": "impact phase", "over": "game over"}
#: The headline's size, and the characters a line of it holds (bold is wider than the 0.58 em mean).
HEADLINE_SIZE = 14
HEADLINE_CHARS = int((WIDTH - 2 * MARGIN) / (0.64 * HEADLINE_SIZE))
#: Three damage tokens remove a model.
DAMAGE_LIMIT = 3


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def text(x: float, y: float, words: str, size: int = 12, anchor: str = "start", weight: str = "normal",
         fill: str = INK) -> str:
    """A line of text; light ink for the drawing's dark ground (words in a box or on a card pass ``DARK``)."""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}">{esc(words)}</text>')


def short(words: str, size: int, room: float) -> str:
    """``words`` cut (with an ellipsis) to fit ``room`` units at font ``size`` (a sans-serif's mean width)."""
    fits = max(3, int(room / (0.58 * size)))
    return words if len(words) <= fits else words[: fits - 1] + "…"


def tap_models(face: GameFace, seat: int | None) -> set[str]:
    """The models a tap in ``seat``'s own drawing may choose: those a still-open legal action names."""
    game: FarsideEncounter = face.game
    if seat is None or game.current_seat() != seat:
        return set()
    narrowed = face.candidates()
    actions = game.legal_actions() if narrowed is None else narrowed
    return {a["model"] for a in actions if isinstance(a.get("model"), str)}


def farside_svg(face: GameFace, seat: int | None) -> str:
    """The drawing of ``face``'s game as ``seat`` may see it (see the module docstring)."""
    body: list[str] = []
    y = 18.0
    for line in wrapped(headline(face), HEADLINE_CHARS):  # on two lines where one does not fit a phone's width
        body.append(text(MARGIN, y, line, HEADLINE_SIZE, weight="bold"))
        y += HEADLINE_SIZE + 4
    y -= HEADLINE_SIZE - 4
    game: FarsideEncounter = face.game
    if game.phase == "over":  # the score and why it ended, before the rest
        points = game.victory_points()
        reason = str(game.end_reason).replace("seat 0", "red").replace("seat 1", "blue")
        for line in wrapped(f"Victory points: red {points[0]}, blue {points[1]}. Ended: {reason}.", 54):
            body.append(text(MARGIN, y + 12, line, 13))
            y += 17
        y += 4
    part, y = draw_command(face, y)
    body.append(part)
    part, y = draw_objectives(face, seat, y)
    body.append(part)
    part, y = draw_armies(face, tap_models(face, seat), y)
    body.append(part)
    return document(WIDTH, y + 8, body, "Farside Encounter: the round, missions and armies")


def headline(face: GameFace) -> str:
    game: FarsideEncounter = face.game
    now = game.current_seat()
    if now is None:
        return f"Game over after round {game.round}: {result_block(game, face)['headline']}"
    rounds = f"round {game.round}" if game.round else "before round 1"
    return f"Farside, {rounds}, {PHASE_WORDS.get(game.phase, game.phase)}: {SEAT_WORDS[now]} to act"


def draw_command(face: GameFace, y: float) -> tuple[str, float]:
    """Each side's dice and action points, in a box of its colour."""
    game: FarsideEncounter = face.game
    out = []
    for s in (0, 1):
        x = MARGIN + s * (COLUMN + MARGIN)
        out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{COLUMN:.1f}" height="74" rx="6" fill="{SEAT_PALE[s]}" '
                   f'stroke="{SEAT_FILLS[s]}" stroke-width="2"/>')
        active = game.phase in ("action", "melee", "impact") and game.active == s
        out.append(text(x + 8, y + 18, short(f"{SEAT_WORDS[s]}: {game.army_name(s)}", 13, COLUMN - 16), 13,
                        weight="bold", fill=SEAT_TITLES[s]))
        if game.command_die[s] is not None:
            used = game.manoeuvre_used[s]
            dice = [f"command die {game.command_die[s]}", f"manoeuvre {game.manoeuvre_die[s]}" + (f": {used}" if used else "")]
        elif game.command_dice[s]:
            dice = ["rolled " + " and ".join(str(d) for d in game.command_dice[s]), ""]
        else:
            dice = ["no command dice yet", ""]
        for k, line in enumerate(dice):
            out.append(text(x + 8, y + 34 + 16 * k, short(line, 12, COLUMN - 16), 12, fill=DARK))
        points = game.action_points[s]
        out.append(text(x + 8, y + 66, f"action points left: {points}", 12, weight="bold" if active else "normal", fill=DARK))
        if active:  # whose turn: a marker in the box's corner
            out.append(f'<circle cx="{x + COLUMN - 14:.1f}" cy="{y + 14:.1f}" r="7" fill="{SEAT_FILLS[s]}"/>')
    return "".join(out), y + 82


def draw_objectives(face: GameFace, seat: int | None, y: float) -> tuple[str, float]:
    """The objective track, each mission's count per side, zones, loot, and the secret missions as ``seat`` may see them."""
    game: FarsideEncounter = face.game
    limit = game.options["objective_limit"]
    done = [sum(game.objectives[s].values()) for s in (0, 1)]
    total = sum(done)
    last = " (last round)" if total >= limit else ""
    out = [text(MARGIN, y + 14, f"Objectives {total} of {limit}{last}", 14, weight="bold")]
    y += 20
    box = (WIDTH - 2 * MARGIN) / limit
    owners = [0] * done[0] + [1] * done[1]
    for k in range(limit):
        fill = SEAT_FILLS[owners[k]] if k < len(owners) else "#fff"
        out.append(f'<rect x="{MARGIN + k * box:.1f}" y="{y:.1f}" width="{box - 3:.1f}" height="18" rx="3" fill="{fill}" '
                   'stroke="#555"/>')
    y += 24
    out.append(text(MARGIN, y + 12, f"The game ends after the round that reaches {limit}.", 12, fill=DIM_INK))
    y += 22
    out.append(text(MARGIN, y + 12, "mission", 12, weight="bold") + text(250, y + 12, "red", 12, "middle", "bold", SEAT_INKS[0])
               + text(320, y + 12, "blue", 12, "middle", "bold", SEAT_INKS[1]))
    y += 16
    for k, mission in enumerate(MISSIONS):
        if k % 2 == 0:
            out.append(f'<rect x="{MARGIN:.1f}" y="{y + 1:.1f}" width="{WIDTH - 2 * MARGIN:.1f}" height="16" fill="#2c323b"/>')  # every other row banded
        out.append(text(MARGIN + 4, y + 13, mission, 12) + text(250, y + 13, str(game.objectives[0][mission]), 13, "middle", "bold")
                   + text(320, y + 13, str(game.objectives[1][mission]), 13, "middle", "bold"))
        y += 16
    held = [sum(1 for s in game.secured.values() if s == seat_) for seat_ in (0, 1)]
    y += 4
    out.append(text(MARGIN, y + 13, f"Zones secured: red {held[0]}, blue {held[1]} of {game.secure_zones}; "
                                    f"loot left {game.loot_left}", 12))
    y += 18
    for s in (0, 1):
        secret = game.secrets[s]
        if secret is None:
            words = "no secret mission yet"
        elif s == seat or game.phase == "over":
            words = f"primary {secret['primary']}, stratagem {secret['stratagem']}, team size {secret['team_size']}"
        else:
            words = f"secret mission hidden; team size {secret['team_size']}"
        mine = " (yours)" if s == seat else ""
        for line in wrapped(f"{SEAT_WORDS[s]}{mine}: {words}", 56):
            out.append(text(MARGIN, y + 13, line, 12, fill=SEAT_INKS[s]))
            y += 16
    return "".join(out), y + 6


def draw_armies(face: GameFace, tappable: set[str], y: float) -> tuple[str, float]:
    """Both armies side by side: models on the table first, then those lost or gone."""
    game: FarsideEncounter = face.game
    # the legend of the cards: the three circles as a card shows them (two damage tokens here), the star
    out = [damage_circles(MARGIN + 7, y + 8, 2), text(MARGIN + 44, y + 12, "2 damage of 3: the 3rd removes it", 12),
           star(MARGIN + 9, y + 28), text(MARGIN + 44, y + 32, "The Chosen: its rolls of 1 count as 6", 12)]
    y += 42
    if tappable:
        out.append(f'<rect x="{MARGIN:.1f}" y="{y:.1f}" width="24" height="14" rx="3" fill="#fff" stroke="#555" stroke-width="3"/>')
        out.append(text(MARGIN + 44, y + 12, "thick edge: tap the model to choose it", 12))
        y += 22
    bottom = y
    for s in (0, 1):
        x = MARGIN + s * (COLUMN + MARGIN)
        row = y
        out.append(text(x, row + 14, f"{SEAT_WORDS[s]} army", 14, weight="bold", fill=SEAT_INKS[s]))
        row += 20
        models = game.models
        mine = [mid for mid, m in models.items() if m["owner"] == s]
        mine.sort(key=lambda mid: models[mid]["status"] != "table")
        for mid in mine:
            out.append(model_card(face, mid, x, row, mid in tappable))
            row += CARD_HEIGHT + 4
        bottom = max(bottom, row)
    return "".join(out), bottom


def model_card(face: GameFace, mid: str, x: float, y: float, tappable: bool) -> str:
    game: FarsideEncounter = face.game
    model = game.model(mid)
    owner = model["owner"]
    gone = model["status"] != "table"
    pick = f" data-pick='{esc(json.dumps({'model': mid}))}' role=\"button\" class=\"pick\"" if tappable else ""
    opacity = ' opacity="0.45"' if gone else ""
    stroke = f' stroke="{SEAT_FILLS[owner]}" stroke-width="3.5"' if tappable else ' stroke="#999" stroke-width="1"'
    title = esc(f"{mid} ({model['name']})")
    parts = [f'<g data-name="model {mid}"{pick}{opacity}><title>{title}</title>',
             f'<rect x="{x:.1f}" y="{y:.1f}" width="{COLUMN:.1f}" height="{CARD_HEIGHT:.0f}" rx="6" fill="#fff"{stroke}/>']
    chosen = game.chosen[owner] == mid
    name_room = COLUMN - 44 - (22 if chosen else 0)
    parts.append(text(x + 8, y + 17, short(model["name"], 13, name_room), 13, weight="bold", fill=DARK))
    parts.append(text(x + COLUMN - 8, y + 17, mid, 12, "end", fill="#555"))
    if chosen:
        parts.append(star(x + COLUMN - 40, y + 12))
    profile = f"size {model['size']}, def {model['defense']}+" + (f", att {model['attack']}+" if "attack" in model else "")
    parts.append(text(x + 8, y + 34, short(profile, 12, COLUMN - 16), 12, fill=DARK))
    if gone:
        state = "lost" if model["status"] == "lost" else "left the table"
        parts.append(text(x + 8, y + 52, state, 12, weight="bold", fill=DARK))
    else:
        parts.append(damage_circles(x + 13, y + 48, int(model["damage"])))
        notes = []
        if model["activated"]:  # first: it decides what the model may still do this turn
            notes.append("acted")
        if model["impact"]:
            notes.append(f"impact {model['impact']}")
        left = 13 + DAMAGE_LIMIT * 13
        parts.append(text(x + left, y + 52, short(", ".join(notes) or "ready", 12, COLUMN - left - 6), 12,
                          weight="bold" if notes else "normal", fill="#333"))
    parts.append("</g>")
    return "".join(parts)


def damage_circles(x: float, y: float, damage: int) -> str:
    """A model's three damage circles from (x, y): one filled per damage token, empty the room left."""
    out = []
    for k in range(DAMAGE_LIMIT):
        fill = "#b00020" if k < damage else "#fff"
        out.append(f'<circle cx="{x + k * 13:.1f}" cy="{y:.1f}" r="5" fill="{fill}" stroke="#b00020" stroke-width="1.5"/>')
    return "".join(out)


def star(x: float, y: float) -> str:
    """The Chosen's mark: a gold star."""
    corners = []
    for k in range(10):
        radius = 9 if k % 2 == 0 else 4
        angle = -math.pi / 2 + k * math.pi / 5
        corners.append(f"{x + radius * math.cos(angle):.1f},{y + radius * math.sin(angle):.1f}")
    return f'<polygon points="{" ".join(corners)}" fill="#ffc400" stroke="#111"/>'
