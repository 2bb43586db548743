"""Mainland's own picture (:meth:`MainlandFace.drawing`): the placed cards, and a seat's own hand.

**The board** (every page): the cards in the order they were laid (the public log), each tile in
its landscape's colour with a two-letter code (``pl`` plain, ``vi`` village; the legend names the
codes shown), each card outlined in its clan's colour and line pattern (solid, dashed, dotted,
dash-dot), so colour is never the only sign; the clans' camps are the ``ca`` tiles. The picture
is cropped to the cards in play and two tiles around them (where a card can go); a thick line
marks the board's limit where the crop reaches it.

**A seat's own drawing** adds its hand as card pictures (tap one to choose it) and, while that
seat acts with a card chosen, the card's four turns (tap one to choose it) and dots where the
middle of the card can go (tap one to choose the spot). These are secret (the hand, where it
fits), so the shared page (``seat`` None) never has them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from tablelight.core.fields import is_action_entry
from tablelight.games.mainland.boardfile import ITEM_CODES
from tablelight.games.mainland.data import CARDS, ITEM_NAMES, rotated
from tablelight.table.drawing import DIM_INK, INK, MIN_TEXT, PAGE_WIDTH, document, fmt, marks, text, turn_line

if TYPE_CHECKING:
    from tablelight.core.game import Action, Game
    from tablelight.games.mainland.reads import MainlandReads

CLAN_FILLS = ("#2fb344", "#45a8ff", "#f2b600", "#e5533a")
CLAN_NAMES = ("green", "frozen", "sand", "arid")
#: Each clan's outline pattern (stroke-dasharray), so a clan shows without its colour.
CLAN_DASHES = ("", "7 4", "2 3", "9 3 2 3")
CLAN_PATTERN_WORDS = ("solid", "dashed", "dotted", "dash-dot")
ITEM_FILLS = {
    "plain": "#a9c25a", "forest": "#2d6e34", "mountain": "#7d838c", "wheat": "#e2bf3f", "wood": "#8a5a2e",
    "gold": "#e8901c", "temple": "#9b8ac4", "camp": "#d8d2c4", "village": "#c98d5b", "tower": "#8d7065",
    "warrior": "#c4574f", "rider": "#a54d9a", "castle": "#5d7686",
}
EMPTY_FILL = "#2a2f36"
GRID = "#3b424c"
LIMIT = "#d0d4da"
MARGIN = 12.0
MOST_CELL = 52.0
#: The smallest tile (page units): a two-letter code of MIN_TEXT fits in it.
LEAST_CELL = 26.0
HAND_CELL = 30.0
#: A card's four tiles, clockwise from the top-left, as (dx, dy).
FOOTPRINT = ((0, 0), (1, 0), (1, 1), (0, 1))


class CardChoice(Protocol):
    """What the drawing reads of the face (:class:`~tablelight.games.mainland.face.MainlandFace`): the
    game, its read API and the card being chosen. A protocol, so the drawing needs no import of the
    face (which imports the drawing)."""

    @property
    def game(self) -> Game: ...

    @property
    def reads(self) -> MainlandReads: ...

    #: The board's cursor (the chosen card's top-left tile), the turn chosen, whether it was chosen,
    #: and the spot a seat's page chose for a hand card.
    @property
    def x(self) -> int: ...

    @property
    def y(self) -> int: ...

    @property
    def rotation(self) -> int: ...

    @property
    def turned(self) -> bool: ...

    @property
    def page_spot(self) -> tuple[int, int] | None: ...

    def chosen(self) -> str | None: ...

    def placing_actions(self) -> list[Action]: ...

    def legal_rotation(self, card: str, rotation: int) -> int | None: ...


def code(item: int) -> str:
    return ITEM_CODES[ITEM_NAMES[item]]


def tile(x: float, y: float, size: float, item: int, *, bare: bool = False) -> str:
    """One tile: its landscape's colour and code. ``bare``: the code's text takes its look from the
    group around it (:data:`TILE_TEXT`), which keeps a board of many cards small."""
    name = ITEM_NAMES[item]
    square = f'<rect x="{fmt(x)}" y="{fmt(y)}" width="{fmt(size)}" height="{fmt(size)}" fill="{ITEM_FILLS[name]}" stroke="none"/>'
    if bare:
        return square + f'<text x="{fmt(x + size / 2)}" y="{fmt(y + size / 2)}">{code(item)}</text>'
    return square + text(x + size / 2, y + size / 2, code(item), tile_text_size(size), weight="600")


def tile_text_size(cell: float) -> float:
    return max(MIN_TEXT, 0.42 * cell)


#: The look of the tiles' codes, given once per card (SVG text inherits it), as text() draws it.
TILE_TEXT = (f'font-weight="500" fill="{INK}" text-anchor="middle" dominant-baseline="central" stroke="#000000" '
             'stroke-linejoin="round" paint-order="stroke"')


def card_picture(x: float, y: float, cell: float, tiles: tuple[int, ...], clan: int, *, pick: dict[str, Any] | None = None,
                 name: str | None = None, css: str = "card", shown: tuple[bool, ...] = (True,) * 4) -> str:
    """A 2x2 card with its top-left tile at (x, y): tiles clockwise from the top-left (those ``shown``:
    not covered by a later card), outlined in the clan's colour and pattern."""
    spots = FOOTPRINT
    parts = [tile(x + dx * cell, y + dy * cell, cell, item, bare=True)
             for (dx, dy), item, visible in zip(spots, tiles, shown) if visible]
    dash = f' stroke-dasharray="{CLAN_DASHES[clan]}"' if CLAN_DASHES[clan] else ""
    parts.append(
        f'<rect class="outline" x="{fmt(x + 1.5)}" y="{fmt(y + 1.5)}" width="{fmt(2 * cell - 3)}" height="{fmt(2 * cell - 3)}" '
        f'fill="none" stroke="{CLAN_FILLS[clan]}" stroke-width="3"{dash}/>'
    )
    faded = ' opacity="0.45"' if "fits-nowhere" in css else ""
    size = tile_text_size(cell)
    look = f' font-size="{fmt(size)}" stroke-width="{fmt(size / 5)}" {TILE_TEXT}'
    return f'<g class="{css}"{marks(pick, name)}{faded}{look}>{"".join(parts)}</g>'


def placed_cards(face: CardChoice) -> list[tuple[int, str, int, int, int]]:
    """(clan, card, x, y, rotation) of every card laid, in order (the public log)."""
    found = []
    for entry in face.game.log:
        if is_action_entry(entry) and entry["action"].get("type") == "place":
            action = entry["action"]
            found.append((entry["seat"], action["card"], action["x"], action["y"], action["rotation"]))
    return found


def crop(face: CardChoice, extra: list[tuple[int, int]]) -> tuple[int, int, int]:
    """The square of the board to draw (left, top, side in tiles): the cards in play and two tiles
    around them (where a card can go), the cells of ``extra`` too, at least 6 tiles."""
    size = face.reads.size
    cells = list(face.reads.board_cells()) + extra
    if not cells:
        return 0, 0, size
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    left, right = max(0, min(xs) - 2), min(size - 1, max(xs) + 2)
    top, bottom = max(0, min(ys) - 2), min(size - 1, max(ys) + 2)
    side = min(size, max(6, right - left + 1, bottom - top + 1))
    left = max(0, min(left - (side - (right - left + 1)) // 2, size - side))
    top = max(0, min(top - (side - (bottom - top + 1)) // 2, size - side))
    return left, top, side


def draw(face: CardChoice, seat: int | None) -> str:
    reads = face.reads
    acting = reads.current_seat()
    mine = seat is not None and acting == seat
    chosen = face.chosen() if mine else None
    spots = spot_picks(face, chosen) if chosen is not None else []
    left, top, side = crop(face, [(x + dx, y + dy) for (x, y), _ in spots for dx in (0, 1) for dy in (0, 1)])
    # a tile keeps room for its code at a readable size: a board too wide for the page scrolls sideways
    cell = max(LEAST_CELL, min(MOST_CELL, (PAGE_WIDTH - 2 * MARGIN) / side))
    width = max(PAGE_WIDTH, side * cell + 2 * MARGIN)
    ox = (width - side * cell) / 2 - left * cell
    oy = 36.0 - top * cell
    body = [turn_line(18, None if acting is None else CLAN_FILLS[acting], heading(face))]
    used: set[int] = set()
    body.append(board_ground(face, left, top, side, cell, ox, oy))
    drawn: dict[tuple[int, int], tuple[int, int]] = {}
    laid = placed_cards(face)
    last_on: dict[tuple[int, int], int] = {}  # cell -> the last card laid on it (the one whose tile shows)
    for number, (_, _, x, y, _) in enumerate(laid):
        for dx, dy in FOOTPRINT:
            last_on[(x + dx, y + dy)] = number
    for number, (clan, card, x, y, rotation) in enumerate(laid):
        tiles = rotated(CARDS[card].tiles, rotation)
        for (dx, dy), item in zip(FOOTPRINT, tiles):
            drawn[(x + dx, y + dy)] = (clan, item)
        shown = tuple(last_on[(x + dx, y + dy)] == number for dx, dy in FOOTPRINT)
        used.update(item for item, visible in zip(tiles, shown) if visible)
        body.append(card_picture(ox + x * cell, oy + y * cell, cell, tiles, clan, shown=shown,
                                 name=f"{CLAN_NAMES[clan]} {card} at ({x}, {y})"))
    cells = reads.board_cells()
    for (x, y), (clan, item) in sorted(cells.items()):  # a board set up outside the log (puzzles, tests)
        if drawn.get((x, y)) != (clan, item) and left <= x < left + side and top <= y < top + side:
            used.add(item)
            body.append(tile(ox + x * cell, oy + y * cell, cell, item))
    for (x, y) in drawn:
        if (x, y) not in cells:
            body.append(f'<rect x="{fmt(ox + x * cell)}" y="{fmt(oy + y * cell)}" width="{fmt(cell)}" height="{fmt(cell)}" fill="{EMPTY_FILL}"/>')
    for (x, y), pick in spots:
        cx, cy = ox + (x + 1) * cell, oy + (y + 1) * cell
        body.append(
            f'<g class="spot"{marks(pick, f"spot ({x}, {y})")}>'
            f'<rect x="{fmt(cx - cell / 2)}" y="{fmt(cy - cell / 2)}" width="{fmt(cell)}" height="{fmt(cell)}" fill="#ffffff" fill-opacity="0.01"/>'
            f'<circle cx="{fmt(cx)}" cy="{fmt(cy)}" r="{fmt(max(5.0, cell * 0.22))}" fill="#ffffff" stroke="#000" stroke-width="2"/></g>'
        )
    # where the chosen card would go: the four tiles the LEDs blink, public like them; the seat's own
    # page shows the spot it chose for a hand card instead (the board does not)
    at_x, at_y = face.page_spot if mine and face.page_spot is not None else (face.x, face.y)
    if acting is not None and face.chosen() is not None and left <= at_x < left + side and top <= at_y < top + side:
        body.append(
            f'<rect data-name="the card goes at ({at_x}, {at_y})" x="{fmt(ox + at_x * cell)}" y="{fmt(oy + at_y * cell)}" '
            f'width="{fmt(2 * cell)}" height="{fmt(2 * cell)}" fill="none" stroke="#ffffff" stroke-width="3" '
            'stroke-dasharray="6 4" pointer-events="none"/>'
        )
    below = oy + (top + side) * cell + 12
    if seat is not None and 0 <= seat < reads.players:
        hand_part, below, hand_used = hand(face, seat, below, chosen)
        body.append(hand_part)
        used.update(hand_used)
    legend_part, below = legend(reads.players, used, below)
    body.append(legend_part)
    return document(width, below + 8, body, "Mainland board", least_width=width if width > PAGE_WIDTH else None)


def heading(face: CardChoice) -> str:
    reads = face.reads
    seat = reads.current_seat()
    if seat is None:
        winners = reads.winners()
        return "game over: " + " and ".join(CLAN_NAMES[w] for w in winners) + (" win" if len(winners) > 1 else " wins")
    return f"{CLAN_NAMES[seat]} to act ({reads.tokens(seat)} tokens)"


def board_ground(face: CardChoice, left: int, top: int, side: int, cell: float, ox: float, oy: float) -> str:
    """The empty board under the cards: a faint grid, and the limit where the crop reaches it."""
    size = face.reads.size
    x0, y0, span = ox + left * cell, oy + top * cell, side * cell
    parts = [f'<rect x="{fmt(x0)}" y="{fmt(y0)}" width="{fmt(span)}" height="{fmt(span)}" fill="{EMPTY_FILL}"/>']
    for k in range(1, side):
        parts.append(f'<path d="M{fmt(x0 + k * cell)} {fmt(y0)} v{fmt(span)} M{fmt(x0)} {fmt(y0 + k * cell)} h{fmt(span)}" stroke="{GRID}" stroke-width="1"/>')
    edges = [(left == 0, f"M{fmt(x0)} {fmt(y0)} v{fmt(span)}"), (top == 0, f"M{fmt(x0)} {fmt(y0)} h{fmt(span)}"),
             (left + side == size, f"M{fmt(x0 + span)} {fmt(y0)} v{fmt(span)}"), (top + side == size, f"M{fmt(x0)} {fmt(y0 + span)} h{fmt(span)}")]
    for at_limit, path in edges:
        if at_limit:
            parts.append(f'<path d="{path}" stroke="{LIMIT}" stroke-width="4"/>')
    return f'<g data-name="board" pointer-events="none">{"".join(parts)}</g>'


def spot_picks(face: CardChoice, card: str) -> list[tuple[tuple[int, int], dict[str, Any]]]:
    """Where the middle of ``card`` can go: (top-left tile, the fields tapping there chooses). Turned
    as chosen when a turn is chosen, else in any turn (the page then lists the turns that fit)."""
    seen: dict[tuple[int, int], dict[str, Any]] = {}
    for action in face.placing_actions():
        if action["card"] != card or (face.turned and action["rotation"] != face.legal_rotation(card, face.rotation)):
            continue
        pick: dict[str, Any] = {"type": "place", "card": card, "x": action["x"], "y": action["y"]}
        if face.turned:
            pick["rotation"] = action["rotation"]
        seen[(action["x"], action["y"])] = pick
    return sorted(seen.items())


def hand(face: CardChoice, seat: int, y: float, chosen: str | None) -> tuple[str, float, set[int]]:
    """The seat's hand as card pictures, and the chosen card's four turns: (svg, y below, items shown)."""
    reads = face.reads
    legal = face.game.legal_actions() if reads.current_seat() == seat else []
    placeable = {a["card"] for a in legal if a["type"] == "place"}
    replaceable = {a["card"] for a in legal if a["type"] == "replace"}
    parts = [text(MARGIN, y + 10, "your hand (tap a card to choose it)" if legal else "your hand", 15, anchor="start", weight="600")]
    used: set[int] = set()
    cards = reads.hand(seat)
    if not reads.camp_placed(seat):
        cards = ["camp"] + cards
    y += 24
    per_row = 4 if len(cards) <= 4 else 3  # room for each card's name under it
    row_height = 2 * HAND_CELL + 60
    for i, card in enumerate(cards):
        row, column = divmod(i, per_row)
        x = MARGIN + column * (PAGE_WIDTH - 2 * MARGIN) / per_row + ((PAGE_WIDTH - 2 * MARGIN) / per_row - 2 * HAND_CELL) / 2
        top = y + row * row_height
        kind = "place" if card in placeable or card not in replaceable else "replace"
        fits = card in placeable or not legal
        css = "card hand" + (" chosen" if card == chosen else "") + ("" if fits else " fits-nowhere")
        tiles = CARDS[card].tiles
        used.update(tiles)
        parts.append(card_picture(x, top, HAND_CELL, tiles, seat, pick={"type": kind, "card": card} if legal else None,
                                  name=f"hand {card}", css=css))
        if card == chosen:
            parts.append(f'<rect x="{fmt(x - 4)}" y="{fmt(top - 4)}" width="{fmt(2 * HAND_CELL + 8)}" height="{fmt(2 * HAND_CELL + 8)}" rx="4" fill="none" stroke="#fff" stroke-width="3" pointer-events="none"/>')
        parts.append(text(x + HAND_CELL, top + 2 * HAND_CELL + 14, card, 14, fill=INK if fits else DIM_INK))
        if not fits:
            why = "camp first" if not reads.camp_placed(seat) else "no spot"
            parts.append(text(x + HAND_CELL, top + 2 * HAND_CELL + 32, why, 14, fill=DIM_INK))
    y += row_height * ((len(cards) + per_row - 1) // per_row)
    if chosen is not None:
        parts.append(text(MARGIN, y + 10, f"{chosen}: tap a turn, then a dot", 15, anchor="start", weight="600"))
        y += 24
        width = 2 * HAND_CELL + 8
        for r in range(4):
            x = MARGIN + r * (PAGE_WIDTH - 2 * MARGIN - width) / 3
            listed = face.legal_rotation(chosen, r)
            fits = listed is not None
            css = "card turn" + ("" if fits else " fits-nowhere") + (" chosen" if face.turned and face.rotation == r else "")
            parts.append(card_picture(x, y, HAND_CELL, rotated(CARDS[chosen].tiles, r), seat, css=css,
                                      pick={"type": "place", "card": chosen, "rotation": listed if fits else r},
                                      name=f"{chosen} turned {90 * r} degrees"))
            parts.append(text(x + HAND_CELL, y + 2 * HAND_CELL + 14, f"{90 * r}°" if fits else f"{90 * r}°: no spot", 14,
                              fill=INK if fits else DIM_INK))
        y += 2 * HAND_CELL + 30
    return f'<g data-name="your hand">{"".join(parts)}</g>', y, used


def legend(players: int, used: set[int], y: float) -> tuple[str, float]:
    """The clans (colour, line pattern) and the codes of the landscapes shown."""
    parts = []
    x = MARGIN
    for clan in range(players):
        dash = f' stroke-dasharray="{CLAN_DASHES[clan]}"' if CLAN_DASHES[clan] else ""
        parts.append(f'<path d="M{fmt(x)} {fmt(y + 10)} h26" stroke="{CLAN_FILLS[clan]}" stroke-width="4"{dash}/>')
        parts.append(text(x + 31, y + 10, CLAN_NAMES[clan], 14, anchor="start"))
        x += 40 + 9 * len(CLAN_NAMES[clan])
    y += 26
    shown = [item for item in range(1, len(ITEM_NAMES)) if item in used]
    for i, item in enumerate(shown):
        column, row = i % 3, i // 3
        x, ty = MARGIN + column * 114, y + row * 28
        parts.append(tile(x, ty - 2, 24, item))
        parts.append(text(x + 29, ty + 10, ITEM_NAMES[item], 14, anchor="start"))
    y += 28 * ((len(shown) + 2) // 3)
    return f'<g data-name="legend" pointer-events="none">{"".join(parts)}</g>', y

