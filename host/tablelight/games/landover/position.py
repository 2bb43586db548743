"""A Landover starting position: a game can start from one (``setup={"position": ...}``, with
``"map"`` when it is not the options' map) instead of from the setup phase. Rule tests and puzzles
build their positions this way; the position is kept in the record (``setup_record``), so replay,
undo and save work. Every field is optional::

    {"order": [0, 1],               seat order (default: drawn by chance, as a game does)
     "phase": "main",               "main" (default) or "roll"
     "seat": 0,                     the seat to act (default: the first in the order)
     "dice": {"white": 1, "red": 2, "event": "barbarian"},   this turn's roll (main phase)
     "raided": false,               the seat has raided this turn
     "pieces": [{"seat": 0, "piece": "village", "at": 12, "home": true}, ...],
     "metros": {"science": 12},     culture -> the city that holds its metro
     "hands": [{"wool": 1}, {}],    per seat: card -> count (resources and commodities)
     "dev_cards": [["spy"], []],    per seat: development cards held
     "culture": [{"science": 3}, {}],   per seat: culture levels
     "military": [0, 0], "vp_cards": [0, 0],   per seat
     "barbarians": 0}               the barbarians' track position

``pieces`` are put in order with all that follows (routes, harbors, islands, mysteries revealed by
chance): ``piece`` is village, city, road, bridge (``at`` a side) or wall (on the seat's city); a
city on the seat's own village replaces it; ``home`` (default true): a settlement's islands are
home islands, as in the setup (false: settling them counts as exploring). Villages, cities and
routes are not checked against the distance rule or the piece limits: a puzzle may need any
position. The decks stay full (held cards are not taken out of them).

``read_position`` checks the JSON and raises one SetupError naming the field; ``start_from``
puts the game there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tablelight.core.errors import SetupError
from tablelight.core.fields import is_whole, is_whole_in
from tablelight.games.landover.cards import CULTURES, card_culture
from tablelight.games.landover.hexmap import CARDS
from tablelight.games.landover.rules import (
    BARBARIAN_TRACK,
    BRIDGE,
    CITY,
    EVENT_FACES,
    MAIN,
    MAX_CULTURE,
    NOBODY,
    ROAD,
    ROLL,
    VILLAGE,
)

if TYPE_CHECKING:
    from tablelight.games.landover.engine import Landover
    from tablelight.games.landover.state import LandoverState

KEYS = ("order", "phase", "seat", "dice", "raided", "pieces", "metros", "hands", "dev_cards", "culture",
        "military", "vp_cards", "barbarians")
PHASES = (MAIN, ROLL)
PIECES = ("village", "city", "road", "bridge", "wall")
PIECE_KEYS = {"seat", "piece", "at", "home"}
MOST_CARDS = 99


def read_position(data: Any, game: LandoverState) -> dict[str, Any]:
    """Check a position against ``game`` (its seats and map) and return it with its defaults filled
    in, except ``order`` (drawn when absent). SetupError names the field."""
    if not isinstance(data, dict):
        raise SetupError("a Landover position is a JSON object (see games/landover/position.py)")
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise SetupError(f"position: unknown field {unknown[0]!r} (fields: {', '.join(KEYS)})")
    n = game.players
    seats = f"a seat 0-{n - 1}"
    out: dict[str, Any] = {}
    if "order" in data:
        order = data["order"]
        if not isinstance(order, list) or sorted(o for o in order if is_whole(o)) != list(range(n)):
            raise SetupError(f"position: order must list the seats 0-{n - 1} once each, not {order!r}")
        out["order"] = list(order)
    phase = data.get("phase", MAIN)
    if phase not in PHASES:
        raise SetupError(f"position: phase must be main or roll, not {phase!r}")
    out["phase"] = phase
    if "seat" in data and not is_whole_in(data["seat"], 0, n - 1):
        raise SetupError(f"position: seat must be {seats}, not {data['seat']!r}")
    if "seat" in data:
        out["seat"] = data["seat"]
    dice = data.get("dice", {})
    if dice and (
        not isinstance(dice, dict) or set(dice) != {"white", "red", "event"}
        or not is_whole_in(dice["white"], 1, 6) or not is_whole_in(dice["red"], 1, 6)
        or dice["event"] not in EVENT_FACES
    ):
        raise SetupError(f"position: dice must be {{'white': 1-6, 'red': 1-6, 'event': face}}, not {dice!r}")
    if dice and phase == ROLL:
        raise SetupError("position: dice are this turn's roll; in the roll phase there is none yet")
    out["dice"] = dict(dice)
    raided = data.get("raided", False)
    if not isinstance(raided, bool):
        raise SetupError(f"position: raided must be true or false, not {raided!r}")
    out["raided"] = raided
    out["pieces"] = [_read_piece(i, piece, game) for i, piece in enumerate(_listed(data, "pieces"))]
    out["metros"] = _read_metros(data.get("metros", {}), out["pieces"])
    out["hands"] = _per_seat(data, "hands", n, {}, lambda v: _read_counts(v, CARDS, MOST_CARDS))
    culture_of = card_culture()
    out["dev_cards"] = _per_seat(
        data, "dev_cards", n, [],
        lambda v: list(v) if isinstance(v, list) and all(c in culture_of for c in v) else None,
    )
    out["culture"] = _per_seat(data, "culture", n, {}, lambda v: _read_counts(v, CULTURES, MAX_CULTURE))
    for field, most in (("military", 99), ("vp_cards", 99)):
        out[field] = _per_seat(data, field, n, 0, lambda v, most=most: v if is_whole_in(v, 0, most) else None)
    barbarians = data.get("barbarians", 0)
    if not is_whole_in(barbarians, 0, BARBARIAN_TRACK - 1):
        raise SetupError(f"position: barbarians must be 0-{BARBARIAN_TRACK - 1}, not {barbarians!r}")
    out["barbarians"] = barbarians
    return out


def _listed(data: dict[str, Any], field: str) -> list[Any]:
    value = data.get(field, [])
    if not isinstance(value, list):
        raise SetupError(f"position: {field} must be a list, not {value!r}")
    return value


def _per_seat(data: dict[str, Any], field: str, n: int, empty: Any, read: Any) -> list[Any]:
    """A list with one entry per seat, each checked by ``read`` (None: not valid)."""
    value = data.get(field)
    if value is None:
        return [empty] * n
    if not isinstance(value, list) or len(value) != n:
        raise SetupError(f"position: {field} must list one entry per seat ({n}), not {value!r}")
    out = []
    for seat, item in enumerate(value):
        checked = read(item)
        if checked is None:
            raise SetupError(f"position: {field} of seat {seat} is not valid: {item!r}")
        out.append(checked)
    return out


def _read_counts(value: Any, names: tuple[str, ...], most: int) -> dict[str, int] | None:
    if not isinstance(value, dict) or not all(k in names and is_whole_in(c, 0, most) for k, c in value.items()):
        return None
    return {name: value[name] for name in names if value.get(name)}


def _read_piece(i: int, piece: Any, game: LandoverState) -> dict[str, Any]:
    where = f"position: pieces[{i}]"
    if not isinstance(piece, dict) or not {"seat", "piece", "at"} <= set(piece) or set(piece) - PIECE_KEYS:
        raise SetupError(f"{where} must be {{'seat', 'piece', 'at'[, 'home']}}, not {piece!r}")
    if not is_whole_in(piece["seat"], 0, game.players - 1):
        raise SetupError(f"{where}: seat must be a seat 0-{game.players - 1}, not {piece['seat']!r}")
    kind = piece["piece"]
    if kind not in PIECES:
        raise SetupError(f"{where}: piece must be one of {', '.join(PIECES)}, not {kind!r}")
    count = game.side_count if kind in ("road", "bridge") else game.corner_count
    if not is_whole_in(piece["at"], 0, count - 1):
        place = "side" if kind in ("road", "bridge") else "corner"
        raise SetupError(f"{where}: at must be a {place} 0-{count - 1}, not {piece['at']!r}")
    home = piece.get("home", True)
    if not isinstance(home, bool):
        raise SetupError(f"{where}: home must be true or false, not {home!r}")
    return {"seat": piece["seat"], "piece": kind, "at": piece["at"], "home": home}


def _read_metros(metros: Any, pieces: list[dict[str, Any]]) -> dict[str, int]:
    if not isinstance(metros, dict) or set(metros) - set(CULTURES):
        raise SetupError(f"position: metros must map cultures ({', '.join(CULTURES)}) to cities, not {metros!r}")
    cities = {p["at"] for p in pieces if p["piece"] == "city"}
    for culture, v in metros.items():
        if v not in cities:
            raise SetupError(f"position: the {culture} metro must stand on a city of the pieces, not {v!r}")
    if len(set(metros.values())) != len(metros):
        raise SetupError("position: one city holds at most one metro")
    return dict(metros)


def start_from(game: Landover, position: dict[str, Any]) -> None:
    """Put ``game`` (just set up, with its order) at a position ``read_position`` checked."""
    for piece in position["pieces"]:
        _put(game, piece)
    for culture, v in position["metros"].items():
        c = CULTURES.index(culture)
        game.corner_metro[v] = c
        game.metro_owner[c] = game.corner_owner[v]
    n = game.players
    for seat in range(n):
        game.hands[seat] = [position["hands"][seat].get(name, 0) for name in CARDS]
        game.dev_cards[seat] = list(position["dev_cards"][seat])
        game.culture[seat] = [position["culture"][seat].get(name, 0) for name in CULTURES]
        game.military[seat] = position["military"][seat]
        game.vp_cards[seat] = position["vp_cards"][seat]
        for c, level in enumerate(game.culture[seat]):
            if level == MAX_CULTURE and game.metro_owner[c] == seat:
                game.metro_locked[c] = True
    game.barbarians = position["barbarians"]
    game.phase = position["phase"]
    game.seat = position.get("seat", game.order[0])
    game.turn_index = game.order.index(game.seat)
    game.dice = dict(position["dice"])
    game.raided = position["raided"]
    game.setup_steps = []
    game._changed()


def _put(game: Landover, piece: dict[str, Any]) -> None:
    seat, kind, at = piece["seat"], piece["piece"], piece["at"]
    if kind in ("road", "bridge"):
        if game.side_owner[at] != NOBODY:
            raise SetupError(f"position: side {at} holds two routes")
        game._put_edge(seat, at, ROAD if kind == "road" else BRIDGE)
    elif kind == "wall":
        if game.corner_owner[at] != seat or game.corner_level[at] != CITY or game.corner_wall[at]:
            raise SetupError(f"position: a wall goes on one of the seat's own cities, without a wall (corner {at})")
        game.corner_wall[at] = True
        game.counts[seat]["wall"] += 1
    elif kind == "city" and game.corner_owner[at] == seat and game.corner_level[at] == VILLAGE:
        game._upgrade(seat, at)
    elif game.corner_owner[at] != NOBODY:
        raise SetupError(f"position: corner {at} holds two settlements")
    else:
        game._put_settlement(seat, at, VILLAGE if kind == "village" else CITY, setup=piece["home"])
