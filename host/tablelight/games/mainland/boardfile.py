"""Reading a finished Mainland board for the scoring assistant.

Two formats (documented in docs/rules/mainland.md):

* JSON: a list of tiles ``[{"x": 0, "y": 0, "clan": 1, "item": "wheat"}, ...]``, or an
  object with that list under ``"board"``, or a game record (its ``result.board``).
* Text: one line per row of tiles, tiles separated by spaces; a tile is the clan
  number followed by a two-letter item code (``1wh`` is clan 1's wheat) and ``.``
  is the empty space. ``#`` starts a comment. ``tablelight selfplay --show``
  prints boards in this format.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.core.inputs import InputError, parse_json
from tablelight.games.mainland.data import ITEM, ITEM_NAMES
from tablelight.core.fields import is_whole

Board = dict[tuple[int, int], tuple[int, int]]

ITEM_CODES: dict[str, str] = {
    "plain": "pl",
    "forest": "fo",
    "mountain": "mo",
    "wheat": "wh",
    "wood": "wo",
    "gold": "go",
    "temple": "te",
    "camp": "ca",
    "village": "vi",
    "tower": "to",
    "warrior": "wa",
    "rider": "ri",
    "castle": "cs",
}
CODE_ITEMS = {code: name for name, code in ITEM_CODES.items()}
assert set(ITEM_CODES) == set(ITEM_NAMES[1:]), "every item needs a text code"

MAX_CLANS = 4
MAX_SIDE = 64


class BoardFileError(SetupError):
    """A board file that cannot be read; the message says where and why."""


def parse_board(text: str, source: str = "board") -> Board:
    """A board from the text of a JSON or text board file."""
    stripped = text.lstrip()
    if stripped.startswith(("[", "{")):
        try:
            data = parse_json(text, source)
        except InputError as error:
            raise BoardFileError(str(error)) from None
        return board_from_json(data, source)
    return board_from_text(text, source)


def board_from_json(data: Any, source: str = "board") -> Board:
    if isinstance(data, dict):
        if isinstance(data.get("result"), dict) and "board" in data["result"]:
            data = data["result"]["board"]
        elif "board" in data:
            data = data["board"]
        else:
            raise BoardFileError(f"{source}: a JSON board is a list of tiles or an object with a 'board' list")
    if not isinstance(data, list):
        raise BoardFileError(f"{source}: the board must be a list of tiles like {{\"x\": 0, \"y\": 0, \"clan\": 1, \"item\": \"wheat\"}}")
    board: Board = {}
    for number, tile in enumerate(data):
        where = f"{source}: tile {number}"
        if not isinstance(tile, dict):
            raise BoardFileError(f"{where} is not an object: {tile!r}")
        extra = set(tile) - {"x", "y", "clan", "item"}
        missing = {"x", "y", "clan", "item"} - set(tile)
        if missing or extra:
            raise BoardFileError(f"{where} must have exactly x, y, clan and item; got {sorted(tile)}")
        x, y, clan, item = tile["x"], tile["y"], tile["clan"], tile["item"]
        for name, value, high in (("x", x, MAX_SIDE), ("y", y, MAX_SIDE), ("clan", clan, MAX_CLANS)):
            if not is_whole(value) or not 0 <= value < high:
                raise BoardFileError(f"{where}: {name} must be a whole number 0-{high - 1}, got {value!r}")
        if item not in ITEM or item == "empty":
            raise BoardFileError(f"{where}: unknown item {item!r}; items are {', '.join(ITEM_NAMES[1:])}")
        if (x, y) in board:
            raise BoardFileError(f"{where}: tile ({x}, {y}) is listed twice")
        board[(x, y)] = (clan, ITEM[item])
    return board


def board_from_text(text: str, source: str = "board") -> Board:
    board: Board = {}
    y = 0
    for line_number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if y >= MAX_SIDE:
            raise BoardFileError(f"{source}: more than {MAX_SIDE} rows")
        tokens = line.split()
        if len(tokens) > MAX_SIDE:
            raise BoardFileError(f"{source}: line {line_number} has {len(tokens)} tiles, at most {MAX_SIDE}")
        for x, token in enumerate(tokens):
            if set(token) == {"."}:
                continue
            clan_text, code = token[:-2], token[-2:]
            # isdecimal, and short: int() of a long digit run is slow, and past 4300 digits an error
            if not (clan_text.isdecimal() and len(clan_text) <= 2) or int(clan_text) >= MAX_CLANS or code not in CODE_ITEMS:
                raise BoardFileError(
                    f"{source}: line {line_number}, tile {x + 1}: {token[:20]!r} is not a tile; write the clan (0-3) "
                    f"and an item code ({', '.join(f'{c}={n}' for c, n in CODE_ITEMS.items())}), or '.' for empty"
                )
            board[(x, y)] = (int(clan_text), ITEM[CODE_ITEMS[code]])
        y += 1
    return board


_COLORS = ("\033[32m", "\033[36m", "\033[33m", "\033[31m")  # green, frozen, sand, arid
_RESET = "\033[0m"


def board_text(cells: Mapping[tuple[int, int], tuple[int, int]], size: int, color: bool = False) -> str:
    """The board in the text format of docs/rules/mainland.md (``0vi`` = clan 0's village, ``.`` empty).

    With ``color`` each tile gets its clan's ANSI colour (the text is then no longer a board file).
    """
    rows = []
    for y in range(size):
        row = []
        for x in range(size):
            if (x, y) in cells:
                clan, item = cells[(x, y)]
                token = f"{clan}{ITEM_CODES[ITEM_NAMES[item]]}"
                row.append(f"{_COLORS[clan % 4]}{token}{_RESET}" if color else token)
            else:
                row.append("  .")
        rows.append(" ".join(row))
    return "\n".join(rows)
