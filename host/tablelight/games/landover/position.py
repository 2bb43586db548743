"""A Landover position: a game can start from one (``setup={"position": ...}``, with ``"map"`` when
it is not the options' map) instead of from the setup phase, and ``Landover.position()`` writes the
one a game is at (``position_of``). Rule tests and puzzles build their positions this way; the
position is kept in the record (``setup_record``), so replay, undo and save work. Every field is
optional::

    {"order": [0, 1],               seat order (default: drawn by chance, as a game does)
     "phase": "main",               "main" (default), "roll" or "take" (a card waits for its take)
     "seat": 0,                     the seat to act (default: the first in the order)
     "turns": 0,                    turns played so far (the turn cap counts them)
     "dice": {"white": 1, "red": 2, "event": "barbarian"},   the last roll (this turn's after it)
     "raided": false, "crane": false, "fleet": ["wool"], "free_routes": 0, "lucky_raid": false,
                                    this turn's raid, crane, merchant fleet kinds, road building
                                    routes left and lucky 7 catapult still open
     "taking": {"card": "spy", "target": 1},   phase take: the card played and its target
     "pieces": [{"seat": 0, "piece": "village", "at": 12, "home": true}, ...],
     "metros": {"science": 12},     culture -> the city that holds its metro
     "revealed": [{"hex": 30, "tile": 2}],   mystery hexes turned over: the map's mystery_pool tile each shows
     "numbers": [null, 5, ...],     per hex: the tokens now, when inventor or anarchy moved them
     "numbers_before_anarchy": [...],   per hex: the tokens a 7 puts back after anarchy
     "catapults": [null, 14],       per seat: the hex of its catapult
     "merchant": {"seat": 0, "hex": 14},    who holds the merchant token, on which hex
     "longest_route": null, "port_authority": 0,   who holds the title (default: as the pieces give)
     "hands": [{"wool": 1}, {}],    per seat: card -> count (resources and commodities)
     "dev_cards": [["spy"], []],    per seat: development cards held
     "culture": [{"science": 3}, {}],   per seat: culture levels
     "military": [0, 0], "vp_cards": [0, 0], "defender": [0, 0],   per seat
     "decks": {"science": [...]},   per culture: the cards left in its deck, in order (default: full but the cards held)
     "barbarians": 0,               the barbarians' track position
     "barbarian_delay": 0}          barbarian faces still to pass without moving them (default: the option)

``revealed`` tiles are turned over first; then ``pieces`` are put in order with all that follows
(routes, harbors, islands, mysteries revealed by chance): ``piece`` is village, city, road, bridge
(``at`` a side) or wall (on the seat's city); a city on the seat's own village replaces it;
``home`` (default true): a settlement's islands are home islands, as in the setup (false: settling
them counts as exploring). Villages, cities and routes are not checked against the distance rule
or the piece limits: a puzzle may need any position.

``read_position`` checks the JSON and raises one SetupError naming the field; ``start_from``
puts the game there; ``position_of`` reads a game's position back.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.core.fields import is_whole, is_whole_in
from tablelight.games.landover.cards import CULTURES, card_culture, full_decks
from tablelight.games.landover.hexmap import CARDS, TERRAIN_RESOURCE
from tablelight.games.landover.pieces import place_catapult, put_edge, put_settlement, upgrade
from tablelight.games.landover.state import Chance, LandoverState, changed, index_terrain
from tablelight.games.landover.rules import (
    BARBARIAN_TRACK,
    BRIDGE,
    CITY,
    EVENT_FACES,
    MAIN,
    MAX_CULTURE,
    NOBODY,
    PORT_MIN,
    ROAD,
    ROLL,
    ROUTE_MIN,
    TAKE,
    TWO_STEP_CARDS,
    VILLAGE,
)


KEYS = ("order", "phase", "seat", "turns", "dice", "raided", "crane", "fleet", "free_routes", "lucky_raid",
        "taking", "pieces", "metros", "revealed", "numbers", "numbers_before_anarchy", "catapults", "merchant",
        "longest_route", "port_authority", "hands", "dev_cards", "culture", "military", "vp_cards", "defender",
        "decks", "barbarians", "barbarian_delay")
PHASES = (MAIN, ROLL, TAKE)
PIECES = ("village", "city", "road", "bridge", "wall")
PIECE_KEYS = {"seat", "piece", "at", "home"}
MOST = 99  # cards of a kind, military, points: more than any game reaches


def read_position(data: Any, p: LandoverState) -> dict[str, Any]:
    """Check a position against ``game`` (its seats, map and record format) and return it with its
    defaults filled in, except ``order`` (drawn when absent). SetupError names the field."""
    if not isinstance(data, dict):
        raise SetupError("a Landover position is a JSON object (see games/landover/position.py)")
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise SetupError(f"position: unknown field {unknown[0]!r} (fields: {', '.join(KEYS)})")
    n = p.players
    out: dict[str, Any] = {}
    if "order" in data:
        order = data["order"]
        if not isinstance(order, list) or sorted(o for o in order if is_whole(o)) != list(range(n)):
            raise SetupError(f"position: order must list the seats 0-{n - 1} once each, not {order!r}")
        out["order"] = list(order)
    if "seat" in data:
        out["seat"] = _seat(data["seat"], "seat", n)
    out.update(_read_turn(data, p))
    out["pieces"] = [_read_piece(i, piece, p) for i, piece in enumerate(_listed(data, "pieces"))]
    out["metros"] = _read_metros(data.get("metros", {}), out["pieces"])
    out.update(_read_tiles(data, p))
    terrain = list(p.terrain)
    for tile in out["revealed"]:
        terrain[tile["hex"]] = p.map.mystery_pool[tile["tile"]][0]
    out["catapults"] = _per_seat(data, "catapults", n, None, lambda v: v if v is None or (
        is_whole_in(v, 0, p.hex_count - 1) and terrain[v] not in ("water", "mystery")) else False)
    held = [h for h in out["catapults"] if h is not None]
    if len(set(held)) != len(held):
        raise SetupError(f"position: catapults must stand on different hexes, not {data['catapults']!r}")
    out["merchant"] = _read_merchant(data.get("merchant"), out["pieces"], terrain, p)
    for title in ("longest_route", "port_authority"):
        if title in data:
            out[title] = None if data[title] is None else _seat(data[title], title, n, " or null")
    out["hands"] = _per_seat(data, "hands", n, {}, lambda v: _read_counts(v, CARDS, MOST))
    culture_of = card_culture()
    out["dev_cards"] = _per_seat(
        data, "dev_cards", n, [],
        lambda v: list(v) if isinstance(v, list) and all(isinstance(c, str) and c in culture_of for c in v) else None,
    )
    out["culture"] = _per_seat(data, "culture", n, {}, lambda v: _read_counts(v, CULTURES, MAX_CULTURE))
    for field in ("military", "vp_cards", "defender"):
        out[field] = _per_seat(data, field, n, 0, lambda v: v if is_whole_in(v, 0, MOST) else None)
    out["decks"] = _read_decks(data.get("decks", {}), [card for held in out["dev_cards"] for card in held])
    barbarians = data.get("barbarians", 0)
    if not is_whole_in(barbarians, 0, BARBARIAN_TRACK - 1):
        raise SetupError(f"position: barbarians must be 0-{BARBARIAN_TRACK - 1}, not {barbarians!r}")
    out["barbarians"] = barbarians
    delay = data.get("barbarian_delay", p.options["barbarian_delay"])
    if not is_whole(delay) or delay < 0:
        raise SetupError(f"position: barbarian_delay must be a whole number 0 or more, not {delay!r}")
    out["barbarian_delay"] = delay
    return out


def _seat(value: Any, field: str, n: int, more: str = "") -> int:
    if not is_whole_in(value, 0, n - 1):
        raise SetupError(f"position: {field} must be a seat 0-{n - 1}{more}, not {value!r}")
    return value


def _flag(data: dict[str, Any], field: str) -> bool:
    value = data.get(field, False)
    if not isinstance(value, bool):
        raise SetupError(f"position: {field} must be true or false, not {value!r}")
    return value


def _read_turn(data: dict[str, Any], p: LandoverState) -> dict[str, Any]:
    """The phase, the turn count and what this turn has done so far."""
    phase = data.get("phase", MAIN)
    if phase not in PHASES:
        raise SetupError(f"position: phase must be main, roll or take, not {phase!r}")
    if phase == TAKE and p.record_format < 3:
        raise SetupError(f"position: phase take is a step of record format 3, not of format {p.record_format}")
    turns = data.get("turns", 0)
    cap = p.options["turn_cap"]
    if not is_whole_in(turns, 0, cap - 1):
        raise SetupError(f"position: turns must be 0-{cap - 1} (the turn cap ends the p), not {turns!r}")
    dice = data.get("dice", {})
    if dice and (
        not isinstance(dice, dict) or set(dice) != {"white", "red", "event"}
        or not is_whole_in(dice["white"], 1, 6) or not is_whole_in(dice["red"], 1, 6)
        or dice["event"] not in EVENT_FACES
    ):
        raise SetupError(f"position: dice must be {{'white': 1-6, 'red': 1-6, 'event': face}}, not {dice!r}")
    fleet = data.get("fleet", [])
    if not isinstance(fleet, list) or not all(kind in CARDS for kind in fleet) or len(set(fleet)) != len(fleet):
        raise SetupError(f"position: fleet must list card kinds ({', '.join(CARDS)}) once each, not {fleet!r}")
    free_routes = data.get("free_routes", 0)
    if not is_whole_in(free_routes, 0, MOST):
        raise SetupError(f"position: free_routes must be a whole number 0-{MOST}, not {free_routes!r}")
    lucky_raid = _flag(data, "lucky_raid")
    if lucky_raid and (phase != MAIN or not dice or dice["white"] + dice["red"] != 7):
        raise SetupError("position: lucky_raid is open only in the main phase after a 7 (dice)")
    taking = data.get("taking")
    if (taking is not None) != (phase == TAKE):
        raise SetupError("position: taking is given in phase take, and only then")
    if taking is not None:
        if not isinstance(taking, dict) or set(taking) != {"card", "target"} or taking["card"] not in TWO_STEP_CARDS:
            raise SetupError(f"position: taking must be {{'card': master_merchant or spy, 'target': seat}}, not {taking!r}")
        _seat(taking["target"], "taking's target", p.players)
        taking = {"card": taking["card"], "target": taking["target"]}
    return {"phase": phase, "turns": turns, "dice": dict(dice), "raided": _flag(data, "raided"),
            "crane": _flag(data, "crane"), "fleet": list(fleet), "free_routes": free_routes,
            "lucky_raid": lucky_raid, "taking": taking}


def _listed(data: dict[str, Any], field: str) -> list[Any]:
    value = data.get(field, [])
    if not isinstance(value, list):
        raise SetupError(f"position: {field} must be a list, not {value!r}")
    return value


def _per_seat(data: dict[str, Any], field: str, n: int, empty: Any, read: Any) -> list[Any]:
    """A list with one entry per seat, each checked by ``read`` (None, or False where None is a
    valid entry: not valid)."""
    value = data.get(field)
    if value is None:
        return [empty] * n
    if not isinstance(value, list) or len(value) != n:
        raise SetupError(f"position: {field} must list one entry per seat ({n}), not {value!r}")
    out = []
    for seat, item in enumerate(value):
        checked = read(item)
        if checked is False or (checked is None and empty is not None):
            raise SetupError(f"position: {field} of seat {seat} is not valid: {item!r}")
        out.append(checked)
    return out


def _read_counts(value: Any, names: tuple[str, ...], most: int) -> dict[str, int] | None:
    if not isinstance(value, dict) or not all(k in names and is_whole_in(c, 0, most) for k, c in value.items()):
        return None
    return {name: value[name] for name in names if value.get(name)}


def _read_piece(i: int, piece: Any, p: LandoverState) -> dict[str, Any]:
    where = f"position: pieces[{i}]"
    if not isinstance(piece, dict) or not {"seat", "piece", "at"} <= set(piece) or set(piece) - PIECE_KEYS:
        raise SetupError(f"{where} must be {{'seat', 'piece', 'at'[, 'home']}}, not {piece!r}")
    if not is_whole_in(piece["seat"], 0, p.players - 1):
        raise SetupError(f"{where}: seat must be a seat 0-{p.players - 1}, not {piece['seat']!r}")
    kind = piece["piece"]
    if kind not in PIECES:
        raise SetupError(f"{where}: piece must be one of {', '.join(PIECES)}, not {kind!r}")
    count = p.side_count if kind in ("road", "bridge") else p.corner_count
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
        if not is_whole(v) or v not in cities:
            raise SetupError(f"position: the {culture} metro must stand on a city of the pieces, not {v!r}")
    if len(set(metros.values())) != len(metros):
        raise SetupError("position: one city holds at most one metro")
    return dict(metros)


def _read_tiles(data: dict[str, Any], p: LandoverState) -> dict[str, Any]:
    """``revealed``, and the number tokens moved by inventor and anarchy (``numbers``,
    ``numbers_before_anarchy``): the same tokens on the same hexes as the map gives, in another order."""
    m = p.map
    mysteries = [h for h, terrain in enumerate(p.terrain) if terrain == "mystery"]
    revealed = []
    for tile in _listed(data, "revealed"):
        if not (isinstance(tile, dict) and set(tile) == {"hex", "tile"} and is_whole(tile["hex"]) and tile["hex"] in mysteries
                and is_whole_in(tile["tile"], 0, len(m.mystery_pool) - 1)):
            raise SetupError(
                f"position: revealed must list {{'hex': a mystery hex {mysteries}, 'tile': 0-{len(m.mystery_pool) - 1} "
                f"(the map's mystery_pool)}}, not {tile!r}"
            )
        revealed.append({"hex": tile["hex"], "tile": tile["tile"]})
    for key in ("hex", "tile"):
        if len({t[key] for t in revealed}) != len(revealed):
            raise SetupError(f"position: revealed names a {key} twice")
    dealt = list(p.number)
    for tile in revealed:
        dealt[tile["hex"]] = m.mystery_pool[tile["tile"]][1]
    out: dict[str, Any] = {"revealed": revealed}
    for field in ("numbers", "numbers_before_anarchy"):
        numbers = data.get(field)
        if numbers is None:
            continue
        if not isinstance(numbers, list) or len(numbers) != len(dealt) or any(
            (a is None) != (b is None) or not (a is None or is_whole(a)) for a, b in zip(numbers, dealt)
        ) or Counter(numbers) != Counter(dealt):
            raise SetupError(
                f"position: {field} must list one token per hex (null where none): the map's tokens "
                f"(with the revealed tiles') on the same hexes, moved among them, not {numbers!r}"
            )
        out[field] = list(numbers)
    return out


def _read_merchant(merchant: Any, pieces: list[dict[str, Any]], terrain: list[str], p: LandoverState) -> Any:
    if merchant is None:
        return None
    if not isinstance(merchant, dict) or set(merchant) != {"seat", "hex"} or not is_whole_in(
        merchant["seat"], 0, p.players - 1
    ) or not is_whole_in(merchant["hex"], 0, p.hex_count - 1):
        raise SetupError(f"position: merchant must be {{'seat': a seat, 'hex': hex}} or null, not {merchant!r}")
    seat, h = merchant["seat"], merchant["hex"]
    corners = [p["at"] for p in pieces if p["seat"] == seat and p["piece"] in ("village", "city")]
    if not any(h in p.map.vertex_hexes[v] for v in corners) or terrain[h] not in TERRAIN_RESOURCE:
        raise SetupError(f"position: the merchant stands on a resource hex next to its seat's settlement, not on {h!r}")
    return {"seat": seat, "hex": h}


def _read_decks(decks: Any, held: list[str]) -> dict[str, list[str]]:
    """The decks given, each checked; a deck not given is its full deck but the cards the seats hold."""
    full = full_decks()
    if not isinstance(decks, dict) or set(decks) - set(CULTURES):
        raise SetupError(f"position: decks must map cultures ({', '.join(CULTURES)}) to lists of cards, not {decks!r}")
    out = {}
    for culture in CULTURES:
        if culture in decks:
            deck = decks[culture]
        else:
            deck = list(full[culture])
            for card in held:
                if card in deck:
                    deck.remove(card)
        most = Counter(full[culture])
        if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck) or any(
            Counter(deck)[c] > most[c] for c in deck
        ):
            raise SetupError(f"position: the {culture} deck holds cards of its own deck, at most as many as printed, not {deck!r}")
        out[culture] = list(deck)
    return out


def start_from(p: LandoverState, chance: Chance, position: dict[str, Any]) -> None:
    """Put ``game`` (just set up, with its order) at a position ``read_position`` checked."""
    for tile in position["revealed"]:
        h = tile["hex"]
        p.terrain[h], p.number[h] = p.map.mystery_pool[tile["tile"]]
        p.mystery_left.remove(tile["tile"])
    if "numbers" in position:
        p.number = list(position["numbers"])
    p.saved_numbers = list(position["numbers_before_anarchy"]) if "numbers_before_anarchy" in position else None
    index_terrain(p)
    for piece in position["pieces"]:
        _put(p, chance, piece)
    for culture, v in position["metros"].items():
        c = CULTURES.index(culture)
        p.corner_metro[v] = c
        p.metro_owner[c] = p.corner_owner[v]
    for title, values, least in (("longest_route", p.routes, ROUTE_MIN), ("port_authority", p.harbor_count, PORT_MIN)):
        if title in position:
            _award(p, title, position[title], values, least)
    for seat, h in enumerate(position["catapults"]):
        if h is not None:
            place_catapult(p, seat, h)
    if position["merchant"] is not None:
        p.merchant_owner, p.merchant_hex = position["merchant"]["seat"], position["merchant"]["hex"]
    n = p.players
    for seat in range(n):
        p.hands[seat] = [position["hands"][seat].get(name, 0) for name in CARDS]
        p.dev_cards[seat] = list(position["dev_cards"][seat])
        p.culture[seat] = [position["culture"][seat].get(name, 0) for name in CULTURES]
        for field in ("military", "vp_cards", "defender"):
            getattr(p, field)[seat] = position[field][seat]
        for c, level in enumerate(p.culture[seat]):
            if level == MAX_CULTURE and p.metro_owner[c] == seat:
                p.metro_locked[c] = True
    p.decks = [list(position["decks"][culture]) for culture in CULTURES]
    p.barbarians = position["barbarians"]
    p.barbarian_delay = position["barbarian_delay"]
    p.phase = position["phase"]
    p.seat = position.get("seat", p.order[0])
    if position["taking"] is not None:
        if position["taking"]["target"] == p.seat:
            raise SetupError("position: taking's target is another seat than the one to act")
        p.taking = {"seat": p.seat, **position["taking"]}
    p.turn_index = p.order.index(p.seat)
    p.turns = position["turns"]
    p.dice = dict(position["dice"])
    for field in ("raided", "crane", "free_routes", "lucky_raid"):
        setattr(p, field, position[field])
    p.fleet = {CARDS.index(kind) for kind in position["fleet"]}
    p.setup_steps = []
    changed(p)


def _award(p: LandoverState, title: str, holder: int | None, values: list[int], least: int) -> None:
    """Give longest route or port authority to ``holder``: a seat that may hold it (at least ``least``,
    and no seat more), or nobody when no seat leads alone."""
    best = max(values)
    leaders = [s for s, value in enumerate(values) if value == best]
    if holder is None and best >= least and len(leaders) == 1:
        raise SetupError(f"position: {title} is seat {leaders[0]}'s (it alone leads with {best}), not nobody's")
    if holder is not None and (values[holder] < least or values[holder] < best):
        raise SetupError(f"position: seat {holder} cannot hold {title} with {values[holder]} (needs {least} and the most)")
    if title == "longest_route":
        p.route_holder = NOBODY if holder is None else holder
    else:
        p.port_holder = NOBODY if holder is None else holder


def _put(p: LandoverState, chance: Chance, piece: dict[str, Any]) -> None:
    seat, kind, at = piece["seat"], piece["piece"], piece["at"]
    if kind in ("road", "bridge"):
        if p.side_owner[at] != NOBODY:
            raise SetupError(f"position: side {at} holds two routes")
        put_edge(p, chance, seat, at, ROAD if kind == "road" else BRIDGE)
    elif kind == "wall":
        if p.corner_owner[at] != seat or p.corner_level[at] != CITY or p.corner_wall[at]:
            raise SetupError(f"position: a wall goes on one of the seat's own cities, without a wall (corner {at})")
        p.corner_wall[at] = True
        p.counts[seat]["wall"] += 1
    elif kind == "city" and p.corner_owner[at] == seat and p.corner_level[at] == VILLAGE:
        upgrade(p, chance, seat, at)
    elif p.corner_owner[at] != NOBODY:
        raise SetupError(f"position: corner {at} holds two settlements")
    else:
        put_settlement(p, seat, at, VILLAGE if kind == "village" else CITY, setup=piece["home"])


def position_of(p: LandoverState) -> dict[str, Any]:
    """The position ``game`` is at, every field written: a game started from it (on the same map,
    options and record format) lists, shows and scores the same. Between the setup and the end
    only (phase main, roll or take)."""
    if p.phase not in PHASES:
        raise SetupError(f"a Landover position is read in phase main, roll or take, not in phase {p.phase}")
    n = p.players
    out: dict[str, Any] = {
        "order": list(p.order), "phase": p.phase, "seat": p.seat, "turns": p.turns,
        "dice": dict(p.dice), "raided": p.raided, "crane": p.crane,
        "fleet": [CARDS[kind] for kind in sorted(p.fleet)], "free_routes": p.free_routes,
        "lucky_raid": p.lucky_raid,
    }
    if p.taking is not None:
        out["taking"] = {"card": p.taking["card"], "target": p.taking["target"]}
    out["pieces"] = _pieces_of(p)
    out["metros"] = {CULTURES[c]: v for v, c in enumerate(p.corner_metro) if c >= 0}
    out["revealed"], dealt = _revealed_of(p)
    if p.number != dealt:
        out["numbers"] = list(p.number)
    if p.saved_numbers is not None:
        out["numbers_before_anarchy"] = list(p.saved_numbers)
    out["catapults"] = [None if h < 0 else h for h in p.catapult]
    out["merchant"] = None if p.merchant_owner == NOBODY else {"seat": p.merchant_owner, "hex": p.merchant_hex}
    out["longest_route"] = None if p.route_holder == NOBODY else p.route_holder
    out["port_authority"] = None if p.port_holder == NOBODY else p.port_holder
    out["hands"] = [{name: count for name, count in zip(CARDS, p.hands[s]) if count} for s in range(n)]
    out["dev_cards"] = [list(cards) for cards in p.dev_cards]
    out["culture"] = [{name: level for name, level in zip(CULTURES, p.culture[s]) if level} for s in range(n)]
    for field in ("military", "vp_cards", "defender"):
        out[field] = list(getattr(p, field))
    out["decks"] = {culture: list(deck) for culture, deck in zip(CULTURES, p.decks)}
    out["barbarians"] = p.barbarians
    out["barbarian_delay"] = p.barbarian_delay
    return out


def _pieces_of(p: LandoverState) -> list[dict[str, Any]]:
    """Each seat's settlements and sides in the order it holds them, then walls; a settlement is
    ``home`` when its island is one of the seat's home islands (not explored)."""
    m = p.map
    settlements: list[dict[str, Any]] = []
    sides: list[dict[str, Any]] = []
    walls: list[dict[str, Any]] = []
    for seat in range(p.players):
        for v in p.corners_of[seat]:
            islands = {m.hex_island[h] for h in m.vertex_hexes[v] if m.hex_island[h] >= 0}
            piece = "city" if p.corner_level[v] == CITY else "village"
            settlements.append({"seat": seat, "piece": piece, "at": v, "home": islands <= p.home_islands[seat]})
            if p.corner_wall[v]:
                walls.append({"seat": seat, "piece": "wall", "at": v, "home": True})
        for e in p.edges_of[seat]:
            sides.append({"seat": seat, "piece": "road" if p.side_route[e] == ROAD else "bridge", "at": e, "home": True})
    return settlements + sides + walls


def _revealed_of(p: LandoverState) -> tuple[list[dict[str, int]], list[int | None]]:
    """The mystery hexes turned over, each with a used tile of its terrain (preferring one with
    its token now), and the tokens the map and those tiles give."""
    m = p.map
    pool = m.mystery_pool
    used = sorted(set(range(len(pool))) - set(p.mystery_left))
    turned = [h for h, terrain in enumerate(m.terrain) if terrain == "mystery" and p.terrain[h] != "mystery"]
    revealed = []
    dealt = list(m.number)
    for prefer_number in (True, False):
        for h in list(turned):
            tile = next((t for t in used if pool[t][0] == p.terrain[h]
                         and (not prefer_number or pool[t][1] == p.number[h])), None)
            if tile is not None:
                used.remove(tile)
                turned.remove(h)
                revealed.append({"hex": h, "tile": tile})
                dealt[h] = pool[tile][1]
    revealed.sort(key=lambda tile: tile["hex"])
    return revealed, dealt
