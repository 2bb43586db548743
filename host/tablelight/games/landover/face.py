"""Landover at a lit board: the archipelago map lit hex by hex, and the keys of a person.

**Layout** (``hardware/layouts/landover.json``, made by :func:`generate_layout` from the
built-in ``archipelago`` map and checked by :class:`LandoverLayout`): one LED and one key
per land hex (mystery hexes included), one LED per land corner, one LED per side of the
map (land, coast and water: every road and bridge shows), a key without an LED on 27 of
the 36 water hexes (``sea``: every water side is a side of one of them, see
:func:`sea_key_hexes`), four turn LEDs (with keys: they choose a player), the barbarian
track (7 LEDs), the white and red dice (6 LEDs each, with keys: the alchemist's numbers),
the event die (1 LED) and the merchant LED. Buttons: road, bridge, village, city, wall,
military, science, commerce, politics, trade, raid, catapult (remove one), card, end
turn, confirm, cancel, and one key per card kind (wool ... coin). 348 LEDs, 92 keys:
more than 255 LEDs need wide LED numbers (protocol 1's ``CAP_WIDE``, firmware 1.1.0 or
later, up to 760 LEDs); the keys are a 10 x 10 matrix, all 20 free pins of the Feather.

**Look** (:meth:`LandoverFace.pixels`):

* hexes glow dimly in their terrain's colour (mystery: faint violet); after this turn's
  roll the hexes that produce light up at full brightness; a hex under a catapult
  blinks in the catapult owner's colour; the merchant's hex pulses in its owner's colour;
* corners: a village in its owner's colour at 35 %, a city at full brightness (with a
  city wall: in a pale, whitened owner colour), a metro city pulsing; sides: a road in its
  owner's colour at half brightness, a bridge in a pale owner colour;
* the turn LED of the seat to act pulses, the others glow dimly (the winners' blink at the
  end); the barbarian track lights one LED per step taken; the white and red dice light as
  many LEDs as they show; the event LED shows the event face (barbarian orange, science
  green, commerce yellow, politics blue); the merchant LED its owner's colour;
* while a person chooses, the places still possible pulse in their colour, the one
  picked by cycling blinks and the ones chosen shine; a refused press flashes white.

**Input** (:meth:`LandoverFace.press`): a button chooses what to do (build type,
military, a culture, trade, raid, catapult, card, end turn); then the action's places
and values: a hex key picks a hex, or cycles through the corners or sides of that hex
that are still possible (the picked one blinks; a sea key cycles through the sides of its
water hex, so bridges on open water are chosen that way); a side key (a layout may give
sides keys; this one does not) picks its side; a turn key a
player; a card-kind key a resource or commodity; a die key a number; the card key
cycles through the cards one can play (and, for the spy, the cards to take); confirm
takes the blinking pick and applies the action once it is complete. Setup and the lucky
raid need no button; before the roll, confirm rolls (or card + dice keys + confirm plays
the alchemist). Cancel drops everything chosen. Every choice narrows the engine's own
legal actions, and the action applied is one of them (``Game.apply`` checks it again);
a refused press changes nothing and says why (the engine's reason where it has one).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tablelight.core.errors import IllegalActionError, SetupError
from tablelight.core.game import Action, LogEntry
from tablelight.table.face import BLINK, OFF, PULSE, SOLID, Outcome, Pixel, light_turns, scaled
from tablelight.table.layout import LayoutError, check_layout_data, whole

if TYPE_CHECKING:
    from tablelight.games.landover.board import LandoverMap
    from tablelight.games.landover.engine import Landover

#: Seat colours, as on the Farlander board: red, blue, green, yellow.
SEAT_COLORS: tuple[tuple[int, int, int], ...] = ((255, 0, 0), (0, 60, 255), (0, 200, 0), (255, 170, 0))
SEAT_NAMES = ("red", "blue", "green", "yellow")
TERRAIN_COLORS: dict[str, tuple[int, int, int]] = {
    "sheep": (140, 255, 60),
    "forest": (0, 120, 30),
    "mountain": (130, 130, 170),
    "field": (255, 220, 0),
    "hills": (210, 70, 10),
    "gold": (255, 150, 0),
    "mystery": (120, 0, 200),
}
EVENT_COLORS: dict[str, tuple[int, int, int]] = {
    "barbarian": (255, 80, 0),
    "science": (0, 200, 0),
    "commerce": (255, 200, 0),
    "politics": (0, 80, 255),
}
WHITE = (255, 255, 255)
HEX_LEVEL = 0.2
VILLAGE_LEVEL = 0.35
ROAD_LEVEL = 0.5
BRIDGE_LEVEL = 0.5
CANDIDATE_LEVEL = 0.6
BARBARIAN_ON: Pixel = (255, 80, 0, SOLID)
BARBARIAN_OFF: Pixel = (12, 4, 0, SOLID)
WHITE_DIE: Pixel = (200, 200, 200, SOLID)
RED_DIE: Pixel = (255, 0, 0, SOLID)
FLASH: Pixel = (255, 255, 255, BLINK)
MAP_NAME = "archipelago"
LAYOUT_ID = "landover"
BARBARIAN_STEPS = 7
DIE_FACES = 6
KINDS = ("wool", "wood", "ore", "wheat", "clay", "cloth", "paper", "coin")
BUILD_PIECES = ("road", "bridge", "village", "city", "wall")
CULTURE_BUTTONS = ("science", "commerce", "politics")
#: Buttons that choose what to do, then confirm and cancel.
MODE_BUTTONS = BUILD_PIECES + ("military",) + CULTURE_BUTTONS + ("trade", "raid", "catapult", "card", "end_turn")
BUTTONS = MODE_BUTTONS + ("confirm", "cancel")
#: Action fields a person chooses, in the order they are asked for, and what chooses them.
FIELD_KINDS: dict[str, str] = {
    "vertex": "corner",
    "city": "corner",
    "edge": "side",
    "to": "side",
    "hex": "hex",
    "hexes": "hexes",
    "target": "seat",
    "give": "kind",
    "get": "kind",
    "kind": "kind",
    "take": "kinds",
    "card_taken": "name",
    "white": "white",
    "red": "red",
}
FIXED_FIELDS = ("type", "piece", "culture", "card")
FIELD_WORDS = {
    "vertex": "corner", "city": "city for the metro", "edge": "side", "to": "side to move it to", "hex": "hex",
    "hexes": "two hexes", "target": "player (turn keys)", "give": "card to give", "get": "card to get",
    "kind": "card kind", "take": "cards to take", "card_taken": "card to take (card key)", "white": "white die",
    "red": "red die",
}
#: Engine rules that say why a whole kind of action is impossible (not one place).
GENERAL_RULES = (
    "landover.cost.", "landover.build.no_pieces", "landover.military.", "landover.culture.max",
    "landover.raid.once_per_turn", "landover.action.wrong_phase", "landover.card.",
)



def pale(color: tuple[int, int, int]) -> tuple[int, int, int]:
    """A colour mixed half with white (bridges, walled cities)."""
    return ((color[0] + 255) // 2, (color[1] + 255) // 2, (color[2] + 255) // 2)


@dataclass(frozen=True)
class DiceRoll:
    """A roll for the board to animate locally (``BoardSession.dice(leds, values, color=...)``):
    the white die's six LEDs then the red die's, landing on the logged values."""

    leds: list[int]
    values: list[int]
    color: tuple[int, int, int]


# ------------------------------------------------------------------------------ the layout


class LandoverLayout:
    """The Landover sections of a layout, checked (see the module docstring)."""

    def __init__(self, data: dict[str, Any], source: str = "layout") -> None:
        check_layout_data(data, source)
        leds, keys = data["leds"], data["keys"]
        self.leds = leds
        self.data = data
        board = data.get("map")
        if not isinstance(board, dict) or not isinstance(board.get("coords"), list):
            raise LayoutError(f"{source}: missing map (the map's name and the [q, r] of every hex the board is built for)")
        self.map_name = str(board.get("name", ""))
        self.coords = [tuple(c) for c in board["coords"] if isinstance(c, list) and len(c) == 2]
        if len(self.coords) != len(board["coords"]):
            raise LayoutError(f"{source}: map coords must be [q, r] pairs")
        used_leds: list[int] = []
        #: key -> (role, value): ("hex", h), ("side", e), ("seat", s), ("white"|"red", n), ("kind", name), (button, 0).
        self.roles: dict[int, tuple[str, Any]] = {}
        self.hex_led: dict[int, int] = {}
        for item in self._list(data, "hexes", source):
            h = whole(item.get("hex"), f"{source}: hexes hex", len(self.coords))
            self.hex_led[h] = whole(item.get("led"), f"{source}: hex {h} led", leds)
            self._role(whole(item.get("key"), f"{source}: hex {h} key", keys), ("hex", h), source)
        #: Water hexes with a key and no LED (they pick the sides around them); optional.
        self.sea_key: dict[int, int] = {}
        for item in self._list(data, "sea", source) if "sea" in data else []:
            h = whole(item.get("hex"), f"{source}: sea hex", len(self.coords))
            if h in self.hex_led:
                raise LayoutError(f"{source}: hex {h} is listed in both hexes and sea")
            self.sea_key[h] = whole(item.get("key"), f"{source}: sea hex {h} key", keys)
            self._role(self.sea_key[h], ("hex", h), source)
        self.corner_led: dict[int, int] = {}
        for item in self._list(data, "corners", source):
            v = whole(item.get("vertex"), f"{source}: corners vertex", 100_000)
            self.corner_led[v] = whole(item.get("led"), f"{source}: corner {v} led", leds)
        self.side_led: dict[int, int] = {}
        for item in self._list(data, "sides", source):
            e = whole(item.get("edge"), f"{source}: sides edge", 100_000)
            self.side_led[e] = whole(item.get("led"), f"{source}: side {e} led", leds)
            if "key" in item:
                self._role(whole(item["key"], f"{source}: side {e} key", keys), ("side", e), source)
        turn = self._list(data, "turn", source)
        if len(turn) != 4:
            raise LayoutError(f"{source}: turn must list 4 seats (an LED and a key each)")
        self.turn_leds: list[int] = []
        for seat, item in enumerate(turn):
            self.turn_leds.append(whole(item.get("led"), f"{source}: turn {seat} led", leds))
            self._role(whole(item.get("key"), f"{source}: turn {seat} key", keys), ("seat", seat), source)
        barbarians = data.get("barbarian_leds")
        if not isinstance(barbarians, list) or len(barbarians) != BARBARIAN_STEPS:
            raise LayoutError(f"{source}: barbarian_leds must list {BARBARIAN_STEPS} LEDs (the track)")
        self.barbarian_leds = [whole(led, f"{source}: barbarian LED", leds) for led in barbarians]
        dice = data.get("dice")
        if not isinstance(dice, dict):
            raise LayoutError(f"{source}: missing dice (white, red: leds and keys; event_led)")
        self.die_leds: dict[str, list[int]] = {}
        for die in ("white", "red"):
            part = dice.get(die)
            if not isinstance(part, dict) or not isinstance(part.get("leds"), list) or not isinstance(part.get("keys"), list):
                raise LayoutError(f"{source}: dice {die} needs leds and keys")
            if len(part["leds"]) != DIE_FACES or len(part["keys"]) != DIE_FACES:
                raise LayoutError(f"{source}: dice {die} needs {DIE_FACES} LEDs and {DIE_FACES} keys")
            self.die_leds[die] = [whole(led, f"{source}: {die} die LED", leds) for led in part["leds"]]
            for value, key in enumerate(part["keys"], start=1):
                self._role(whole(key, f"{source}: {die} die key", keys), (die, value), source)
        self.event_led = whole(dice.get("event_led"), f"{source}: dice event_led", leds)
        self.merchant_led = whole(data.get("merchant_led"), f"{source}: merchant_led", leds)
        kinds = data.get("kind_keys")
        if not isinstance(kinds, dict) or sorted(kinds) != sorted(KINDS):
            raise LayoutError(f"{source}: kind_keys must map {', '.join(KINDS)} to keys")
        for name in KINDS:
            self._role(whole(kinds[name], f"{source}: kind key {name}", keys), ("kind", name), source)
        buttons = data.get("buttons")
        if not isinstance(buttons, dict):
            raise LayoutError(f"{source}: buttons must map {', '.join(BUTTONS)} to keys")
        for name in BUTTONS:
            if name not in buttons:
                raise LayoutError(f"{source}: no {name} button")
            self._role(whole(buttons[name], f"{source}: button {name}", keys), (name, 0), source)
        used_leds = (
            list(self.hex_led.values()) + list(self.corner_led.values()) + list(self.side_led.values())
            + self.turn_leds + self.barbarian_leds + self.die_leds["white"] + self.die_leds["red"]
            + [self.event_led, self.merchant_led]
        )
        if len(set(used_leds)) != len(used_leds):
            raise LayoutError(f"{source}: an LED is given two roles")

    @staticmethod
    def _list(data: dict[str, Any], name: str, source: str) -> list[dict[str, Any]]:
        items = data.get(name)
        if not isinstance(items, list) or any(not isinstance(item, dict) for item in items):
            raise LayoutError(f"{source}: {name} must be a list of objects")
        return items

    def _role(self, key: int, role: tuple[str, Any], source: str) -> None:
        if key in self.roles:
            raise LayoutError(f"{source}: key {key} is given two roles")
        self.roles[key] = role

    @property
    def keyed_hexes(self) -> list[int]:
        """Every hex with a key: the land hexes, then the water hexes of ``sea``."""
        return list(self.hex_led) + list(self.sea_key)

    def key_of(self, role: str, value: Any = 0) -> int:
        """The key with ``role``: ``key_of("hex", 13)``, ``key_of("village")``, ``key_of("kind", "ore")``."""
        for key, found in self.roles.items():
            if found == (role, value):
                return key
        raise KeyError(f"no key for {role} {value!r} on this board")


# --------------------------------------------------------------------------- the face


class LandoverFace:
    """Landover's :class:`~tablelight.table.face.GameFace`; see the module docstring."""

    default_layout = LAYOUT_ID
    seat_names = SEAT_NAMES

    def __init__(self, game: Landover, layout_data: dict[str, Any]) -> None:
        self.game = game
        source = f"layout {layout_data.get('id')!r}" if isinstance(layout_data, dict) else "layout"
        self.layout = LandoverLayout(layout_data, source)
        m = game.map
        land = sorted(h for h, island in enumerate(m.hex_island) if island >= 0)
        if list(game.map.coords) != self.layout.coords or land != sorted(self.layout.hex_led):
            raise SetupError(
                f"the {self.layout.data['id']} board is built for the {self.layout.map_name} map; this game's map "
                f"({game.map.name}) has other hexes: play with --map-name {self.layout.map_name} and no --map file"
            )
        far = [v for v in self.layout.corner_led if v >= game.nv] + [e for e in self.layout.side_led if e >= game.ne]
        if far:
            raise SetupError(f"the {self.layout.data['id']} layout names corners or sides the map does not have: {far[:5]}")
        #: Per hex: its corners and sides that have an LED, in turning order.
        self.hex_corners = [[v for v in m.hex_vertices[h] if v in self.layout.corner_led] for h in range(game.nh)]
        self.hex_sides: list[list[int]] = []
        edge_of = {frozenset(ends): e for e, ends in enumerate(m.edge_vertices)}
        for h in range(game.nh):
            corners = m.hex_vertices[h]
            sides = [edge_of[frozenset((corners[k - 1], corners[k]))] for k in range(6)]
            self.hex_sides.append([e for e in sides if e in self.layout.side_led])
        self.reset()

    # ------------------------------------------------------------------ choosing

    def reset(self) -> None:
        #: The engine's legal actions during one press, look or prompt (the game cannot change meanwhile).
        self._legal: list[Action] | None = None
        self.mode: str | None = None
        self.card: str | None = None
        self.chosen: dict[str, Any] = {}
        self.tentative: tuple[str, Any] | None = None

    def _implied_mode(self) -> str | None:
        """The mode a phase sets by itself: setup pieces and the lucky raid need no button."""
        phase = self.game.phase
        if phase == "setup":
            return "setup"
        if phase == "lucky_raid":
            return "raid"
        return None

    def _mode(self) -> str | None:
        return self.mode if self.mode is not None else self._implied_mode()

    def _in_mode(self, action: Action, mode: str | None, card: str | None) -> bool:
        kind = action["type"]
        if mode == "setup":
            return True
        if mode in BUILD_PIECES:
            return kind == "build" and action["piece"] == mode
        if mode in CULTURE_BUTTONS:
            return kind == "improve" and action["culture"] == mode
        if mode == "raid":
            return kind in ("raid", "lucky_raid")
        if mode == "catapult":
            return kind == "remove_catapult"
        if mode == "card":
            return kind == "play" and action["card"] == card
        return kind == mode  # military, trade, end_turn

    def mode_actions(self, mode: str | None = None, card: str | None = None) -> list[Action]:
        """The engine's legal actions of a mode (default: the mode chosen now)."""
        if self.game.current_seat() is None:
            return []
        if mode is None:
            mode, card = self._mode(), self.card
        if mode is None:
            return []
        return [a for a in self.legal_actions() if self._in_mode(a, mode, card)]

    def legal_actions(self) -> list[Action]:
        return self._legal if self._legal is not None else self.game.legal_actions()

    def _with_legal(self, work: Any) -> Any:
        """Run ``work()`` with the legal actions listed once (a press asks for them many times)."""
        if self._legal is not None or self.game.current_seat() is None:
            return work()
        self._legal = self.game.legal_actions()
        try:
            return work()
        finally:
            self._legal = None

    @staticmethod
    def _matches(action: Action, chosen: dict[str, Any]) -> bool:
        for name, value in chosen.items():
            have = action.get(name)
            if isinstance(value, list):
                if not isinstance(have, list) or any(have.count(x) < value.count(x) for x in value):
                    return False
            elif have != value:
                return False
        return True

    def candidates(self) -> list[Action]:
        """Legal actions that agree with everything chosen so far."""
        return [a for a in self.mode_actions() if self._matches(a, self.chosen)]

    @staticmethod
    def fields(actions: list[Action]) -> list[str]:
        """The fields a person chooses for these actions, in the order they are asked for."""
        if not actions:
            return []
        return [name for name in FIELD_KINDS if name in actions[0]]

    def _complete(self, name: str, actions: list[Action]) -> bool:
        value = self.chosen.get(name)
        if value is None:
            return False
        if isinstance(value, list):
            return any(sorted(a[name]) == sorted(value) for a in actions)
        return True

    def open_field(self, kind: str | None = None) -> str | None:
        """The first field still to choose (of ``kind`` when given; ``"position"``: hex, corner or side)."""
        actions = self.candidates()
        for name in self.fields(actions):
            if self._complete(name, actions):
                continue
            slot = FIELD_KINDS[name]
            if kind is None or slot == kind or (kind == "position" and slot in ("corner", "side", "hex", "hexes")):
                return name
        return None

    def options(self, name: str) -> list[Any]:
        """The values ``name`` may still take (list fields: the single items that may be added)."""
        out: list[Any] = []
        for action in self.candidates():
            value = action[name]
            if isinstance(value, list):
                rest = list(value)
                for x in self.chosen.get(name, []):
                    rest.remove(x)
                out += [x for x in rest if x not in out]
            elif value not in out:
                out.append(value)
        return out

    # ----------------------------------------------------------------- reasons

    def problem(self, action: Action) -> str | None:
        """The engine's reason why ``action`` is not legal now, or None (validation only)."""
        try:
            self.game.check(action)
        except IllegalActionError as error:
            return error.message
        return None

    def _mode_problem(self, mode: str) -> str:
        """Why a mode has no legal action: the engine's reason when it is a general one."""
        game = self.game
        probes: dict[str, Action] = {
            "road": {"type": "build", "piece": "road", "edge": 0},
            "bridge": {"type": "build", "piece": "bridge", "edge": 0},
            "village": {"type": "build", "piece": "village", "vertex": 0},
            "city": {"type": "build", "piece": "city", "vertex": 0},
            "wall": {"type": "build", "piece": "wall", "vertex": 0},
            "military": {"type": "military"},
            "raid": {"type": "raid", "hex": 0},
            "catapult": {"type": "remove_catapult", "hex": 0},
            "end_turn": {"type": "end_turn"},
            "trade": {"type": "trade", "give": "wool", "get": "wood"},
        }
        for name in CULTURE_BUTTONS:
            probes[name] = {"type": "improve", "culture": name}
        probe = probes.get(mode)
        if probe is not None:
            try:
                game.check(probe)
            except IllegalActionError as error:
                if error.rule.startswith(GENERAL_RULES):
                    return error.message
        words = {
            "road": "no side where you may build a road now",
            "bridge": "no side where you may build a bridge now",
            "village": "no corner where you may build a village now",
            "city": "no village of yours to make a city now",
            "wall": "no city of yours without a wall",
            "trade": "nothing to trade: a trade takes 3 of one card (2 at your harbors, merchant, bank)",
            "raid": "no hex you may raid now",
            "catapult": "no catapult to remove (it costs 1 military power)",
        }
        return words.get(mode, f"{mode.replace('_', ' ')} is not possible now")

    def _place_problem(self, name: str, values: list[Any]) -> str:
        """The engine's reason why none of ``values`` fits field ``name`` now."""
        actions = self.candidates()
        if not actions or not values:
            return f"no {FIELD_WORDS[name]} there"
        for value in values:
            probe = dict(actions[0])
            probe.update(self.chosen)
            probe[name] = [value] if isinstance(actions[0][name], list) else value
            reason = self.problem(probe)
            if reason is not None:
                return reason
        return f"no {FIELD_WORDS[name]} there fits what you chose"

    # ------------------------------------------------------------------- input

    def press(self, key: int) -> Outcome:
        outcome: Outcome = self._with_legal(lambda: self._press(key))
        return outcome

    def _press(self, key: int) -> Outcome:
        game = self.game
        seat = game.current_seat()
        if seat is None:
            return Outcome("the game is over", refused=True)
        role = self.layout.roles.get(key)
        if role is None:
            return Outcome(f"key {key} does nothing on the Landover board", refused=True)
        name, value = role
        if name == "cancel":
            had = self.mode is not None or bool(self.chosen) or self.tentative is not None
            self.reset()
            return Outcome("choice dropped" if had else "nothing to cancel")
        if name == "confirm":
            return self._confirm(seat)
        if name in MODE_BUTTONS:
            return self._choose_mode(seat, name)
        if game.phase == "roll" and self.mode is None and name in ("white", "red"):
            cards = self._playable_cards()
            if "alchemist" in cards:
                self.mode, self.card = "card", "alchemist"
        kind = {"hex": "position", "side": "side", "seat": "seat", "kind": "kind", "white": "white", "red": "red"}[name]
        if self._mode() is None:
            if name == "seat":
                return Outcome(self._seat_words(value))
            if name == "hex":
                return Outcome(f"{self._hex_words(value)}. {self._what_now(seat)}")
            return Outcome(f"choose what to do first: {self._what_now(seat)}", refused=True)
        field = self.open_field(kind)
        if field is None and name == "kind":
            field = self.open_field("kinds")
        if field is None:
            if name == "seat":
                return Outcome(self._seat_words(value))
            return Outcome(f"this key chooses nothing now: {self._next_words()}", refused=True, flash=self._flash_key(name, value))
        slot = FIELD_KINDS[field]
        if slot in ("corner", "side") and name == "hex":
            return self._cycle(field, value)
        if slot == "side":
            return self._pick_side(field, value)
        return self._choose_value(field, value, self._flash_key(name, value))

    def _flash_key(self, role: str, value: Any) -> list[Any]:
        layout = self.layout
        if role == "hex":
            if value in layout.hex_led:
                return [layout.hex_led[value]]
            return [layout.side_led[e] for e in self.hex_sides[value]]  # a sea key: its hex's outline
        if role == "side":
            return [layout.side_led[value]]
        if role == "seat":
            return [layout.turn_leds[value]]
        if role in ("white", "red"):
            return [layout.die_leds[role][value - 1]]
        return []

    def _playable_cards(self) -> list[str]:
        cards: list[str] = []
        for action in self.legal_actions():
            if action["type"] == "play" and action["card"] not in cards:
                cards.append(action["card"])
        return cards

    def _choose_mode(self, seat: int, mode: str) -> Outcome:
        game = self.game
        phase = game.phase
        if phase == "setup":
            step = self.mode_actions("setup")
            piece = step[0]["piece"] if step else "?"
            if mode != piece:
                return Outcome(f"setup: place a {piece} now (press a hex, then confirm)", refused=True)
            return Outcome(f"setup: press a hex to pick the corner or side for your {piece}, then confirm")
        if phase == "lucky_raid" and mode != "raid":
            return Outcome("lucky 7: press the hex to raid, then confirm", refused=True)
        if phase == "roll" and mode != "card":
            return Outcome("roll first: press confirm to roll (or card to play the alchemist)", refused=True)
        if mode == "card":
            cards = self._playable_cards()
            if not cards:
                held = sorted(set(game.devs[seat]))
                note = f" (you hold {', '.join(held)})" if held else ""
                return Outcome(f"no development card you can play now{note}", refused=True)
            if self.mode == "card" and (self.chosen or self.tentative is not None):
                field = self.open_field("name")
                if field is None:
                    return Outcome(f"card: {self._next_words()} (cancel to choose another card)", refused=True)
                names = self.options(field)
                current = self.tentative[1] if self.tentative is not None and self.tentative[0] == field else None
                pick = names[(names.index(current) + 1) % len(names)] if current in names else names[0]
                self.tentative = (field, pick)
                return Outcome(f"take {pick.replace('_', ' ')}? confirm to take it, card again for the next ({len(names)})")
            if self.mode == "card" and self.card in cards:
                card = cards[(cards.index(self.card) + 1) % len(cards)]
            else:
                card = cards[0]
            self.mode, self.card, self.chosen, self.tentative = "card", card, {}, None
            others = f"; card again for the next ({len(cards)} playable)" if len(cards) > 1 else ""
            return Outcome(f"play {card.replace('_', ' ')}: {self._next_words()}{others}")
        if self.mode == mode and mode == "end_turn":
            return self._confirm(seat)
        actions = self.mode_actions(mode)
        if not actions:
            return Outcome(self._mode_problem(mode), refused=True, flash=[self.layout.turn_leds[seat]])
        self.mode, self.card, self.chosen, self.tentative = mode, None, {}, None
        if mode == "end_turn":
            return Outcome("press confirm (or end turn again) to end your turn")
        return Outcome(f"{mode.replace('_', ' ')}: {self._next_words()}")

    def _cycle(self, field: str, h: int) -> Outcome:
        """A hex key on a corner or side field: pick the next possible one around that hex."""
        slot = FIELD_KINDS[field]
        around = self.hex_corners[h] if slot == "corner" else self.hex_sides[h]
        possible = self.options(field)
        here = [x for x in around if x in possible]
        if not here:
            unlit = [x for x in possible if x not in (self.layout.corner_led if slot == "corner" else self.layout.side_led)]
            extra = f" (the board has no light for {slot}s {unlit[:5]})" if unlit and slot == "side" else ""
            reason = self._place_problem(field, around)
            return Outcome(f"no {FIELD_WORDS[field]} around hex {h}: {reason}{extra}", refused=True,
                           flash=self._flash_key("hex", h))
        current = self.tentative[1] if self.tentative is not None and self.tentative[0] == field else None
        pick = here[(here.index(current) + 1) % len(here)] if current in here else here[0]
        self.tentative = (field, pick)
        more = f" ({len(here)} around this hex: press it again for the next)" if len(here) > 1 else ""
        return Outcome(f"{FIELD_WORDS[field]} {pick}{more}: confirm to take it")

    def _pick_side(self, field: str, e: int) -> Outcome:
        if e not in self.options(field):
            return Outcome(self._place_problem(field, [e]), refused=True, flash=[self.layout.side_led[e]])
        self.tentative = (field, e)
        return Outcome(f"{FIELD_WORDS[field]} {e}: confirm to take it")

    def _choose_value(self, field: str, value: Any, flash: list[Any]) -> Outcome:
        possible = self.options(field)
        if isinstance(self.candidates()[0][field], list):
            if value not in possible:
                return Outcome(self._place_problem(field, [value]), refused=True, flash=flash)
            self.chosen[field] = list(self.chosen.get(field, [])) + [value]
        else:
            if value not in possible:
                return Outcome(self._place_problem(field, [value]), refused=True, flash=flash)
            self.chosen[field] = value
        self.tentative = None
        return Outcome(f"{FIELD_WORDS[field]}: {self._value_words(field, self.chosen[field])}; {self._next_words()}")

    def _confirm(self, seat: int) -> Outcome:
        game = self.game
        if self._mode() is None:
            if game.phase == "roll":
                return Outcome("roll", action={"type": "roll"})
            return Outcome(f"nothing to confirm: {self._what_now(seat)}", refused=True)
        locked = ""
        if self.tentative is not None:
            field, value = self.tentative
            self.chosen[field] = value
            self.tentative = None
            locked = f"{FIELD_WORDS[field]} {self._value_words(field, value)} chosen"
        actions = self.candidates()
        if not actions:
            return Outcome(f"that is not possible any more: {self._what_now(seat)}", refused=True)
        if self.open_field() is not None:
            if locked:
                return Outcome(f"{locked}; {self._next_words()}")
            return Outcome(f"not complete yet: {self._next_words()}", refused=True)
        action = next((a for a in actions if all(self._same(a[n], self.chosen[n]) for n in self.fields([a]))), None)
        if action is None:  # pragma: no cover - complete fields always name one legal action
            return Outcome(f"not complete yet: {self._next_words()}", refused=True)
        return Outcome(self.describe_action(action), action=dict(action))

    @staticmethod
    def _same(have: Any, chosen: Any) -> bool:
        if isinstance(have, list):
            return isinstance(chosen, list) and sorted(have) == sorted(chosen)
        return bool(have == chosen)

    # -------------------------------------------------------------------- look

    def pixels(self, flashing: Collection[Any] = ()) -> list[Pixel]:
        pixels: list[Pixel] = self._with_legal(lambda: self._pixels(flashing))
        return pixels

    def _pixels(self, flashing: Collection[Any]) -> list[Pixel]:
        game, layout = self.game, self.layout
        pixels: list[Pixel] = [OFF] * layout.leds
        seat = game.current_seat()
        producing = self.producing_hexes()
        for h, led in layout.hex_led.items():
            terrain = game.terrain[h]
            color = TERRAIN_COLORS.get(terrain, (0, 0, 0))
            look = scaled(color, HEX_LEVEL)
            if h == game.merchant_hex and game.merchant_owner >= 0:
                look = scaled(SEAT_COLORS[game.merchant_owner], 1.0, PULSE)
            if h in producing:
                look = scaled(color, 1.0)
            if h in game.catapult_at:
                look = scaled(SEAT_COLORS[game.catapult_at[h]], 1.0, BLINK)
            pixels[led] = look
        for v, led in layout.corner_led.items():
            owner = game.vo[v]
            if owner < 0:
                continue
            if game.vl[v] == 1:
                pixels[led] = scaled(SEAT_COLORS[owner], VILLAGE_LEVEL)
            else:
                color = pale(SEAT_COLORS[owner]) if game.vwall[v] else SEAT_COLORS[owner]
                pixels[led] = scaled(color, 1.0, PULSE if game.vmetro[v] >= 0 else SOLID)
        for e, led in layout.side_led.items():
            owner = game.eo[e]
            if owner < 0:
                continue
            if game.ep[e] == 1:
                pixels[led] = scaled(SEAT_COLORS[owner], ROAD_LEVEL)
            else:
                pixels[led] = scaled(pale(SEAT_COLORS[owner]), BRIDGE_LEVEL)
        light_turns(pixels, layout.turn_leds[: game.players], SEAT_COLORS, seat, set(game.winners()))
        for step, led in enumerate(layout.barbarian_leds):
            pixels[led] = BARBARIAN_ON if step < game.barbarians else BARBARIAN_OFF
        dice = game.dice
        if dice:
            for die, look in (("white", WHITE_DIE), ("red", RED_DIE)):
                for n, led in enumerate(layout.die_leds[die]):
                    pixels[led] = look if n < dice[die] else OFF
            pixels[layout.event_led] = scaled(EVENT_COLORS[dice["event"]], 1.0)
        if game.merchant_owner >= 0:
            pixels[layout.merchant_led] = scaled(SEAT_COLORS[game.merchant_owner], 1.0)
        if seat is not None:
            self._show_choice(pixels, seat)
        for led in flashing:
            if isinstance(led, int) and 0 <= led < layout.leds:
                pixels[led] = FLASH
        return pixels

    def producing_hexes(self) -> set[int]:
        """Hexes that produced on this turn's roll (none before the roll, on a 7 or once the game is over)."""
        game = self.game
        if game.phase not in ("main", "lucky_raid") or not game.dice:
            return set()
        total = game.dice["white"] + game.dice["red"]
        if total == 7:
            return set()
        return {h for h in game.by_number.get(total, ()) if h not in game.catapult_at}

    def _leds_of(self, field: str, value: Any) -> list[int]:
        layout = self.layout
        slot = FIELD_KINDS[field]
        values = value if isinstance(value, list) else [value]
        found: list[int | None] = []
        for x in values:
            if slot == "corner":
                found.append(layout.corner_led.get(x))
            elif slot == "side":
                found.append(layout.side_led.get(x))
            elif slot in ("hex", "hexes"):
                found.append(layout.hex_led.get(x))
            elif slot == "seat":
                found.append(layout.turn_leds[x])
            elif slot in ("white", "red"):
                found.append(layout.die_leds[slot][x - 1])
        return [led for led in found if led is not None]

    def _show_choice(self, pixels: list[Pixel], seat: int) -> None:
        if self._mode() is None:
            return
        color = SEAT_COLORS[seat]
        field = self.open_field()
        if field is not None:
            for value in self.options(field):
                for led in self._leds_of(field, value):
                    pixels[led] = scaled(color, CANDIDATE_LEVEL, PULSE)
        for name, value in self.chosen.items():
            for led in self._leds_of(name, value):
                pixels[led] = scaled(color, 1.0)
        if self.tentative is not None:
            for led in self._leds_of(*self.tentative):
                pixels[led] = scaled(color, 1.0, BLINK)

    def dice_rolls(self, entries: Sequence[LogEntry]) -> list[DiceRoll]:
        """The white and red dice rolled among new log ``entries`` (the alchemist's chosen numbers are not rolled)."""
        rolls: list[DiceRoll] = []
        entries = list(entries)
        for index, entry in enumerate(entries[:-1]):
            after = entries[index + 1]
            if entry.get("chance") == "white_die" and after.get("chance") == "red_die":
                leds = self.layout.die_leds["white"] + self.layout.die_leds["red"]
                rolls.append(DiceRoll(leds, [int(entry["value"]), int(after["value"])], WHITE))
        return rolls

    # ------------------------------------------------------------------- words

    def _hex_words(self, h: int) -> str:
        game = self.game
        terrain, number = game.terrain[h], game.number[h]
        text = f"hex {h}: {terrain}" + (f" {number}" if number is not None else "")
        if h in game.catapult_at:
            text += f", catapult of {SEAT_NAMES[game.catapult_at[h]]}"
        if h == game.merchant_hex and game.merchant_owner >= 0:
            text += f", merchant of {SEAT_NAMES[game.merchant_owner]}"
        return text

    def _seat_words(self, s: int) -> str:
        game = self.game
        if s >= game.players:
            return f"no {SEAT_NAMES[s]} player in this game"
        return (
            f"{SEAT_NAMES[s]}: {game.vp(s)} points, {game.hand_size(s)} cards, {len(game.devs[s])} development cards, "
            f"military {game.military[s]}, culture {game.culture[s]}"
        )

    def _value_words(self, field: str, value: Any) -> str:
        if FIELD_KINDS[field] == "seat":
            return SEAT_NAMES[value]
        if isinstance(value, list):
            return ", ".join(str(x) for x in value)
        return str(value)

    def _next_words(self) -> str:
        field = self.open_field()
        if field is None:
            return "press confirm"
        slot = FIELD_KINDS[field]
        how = {
            "corner": "press a hex next to it (again for the next one), then confirm",
            "side": "press a hex next to it (for a water side a sea key; again for the next one), then confirm",
            "hex": "press the hex",
            "hexes": "press the hexes",
            "seat": "press the player's turn light",
            "kind": "press a card-kind key",
            "kinds": "press card-kind keys",
            "name": "press card to go through them, then confirm",
            "white": "press a white die light",
            "red": "press a red die light",
        }[slot]
        options = self.options(field)
        shown = ", ".join(self._value_words(field, x) if slot == "seat" else str(x) for x in options[:8])
        more = " ..." if len(options) > 8 else ""
        return f"choose the {FIELD_WORDS[field]}: {how} ({shown}{more})"

    def _what_now(self, seat: int) -> str:
        game = self.game
        phase = game.phase
        if phase == "setup":
            piece = self.mode_actions("setup")[0]["piece"]
            return f"place your {piece}: press a hex next to the {'side' if piece == 'road' else 'corner'} (again for the next), then confirm"
        if phase == "roll":
            return "press confirm to roll, or card to play the alchemist (then the white and red numbers, confirm)"
        if phase == "lucky_raid":
            return "lucky 7: press the hex to raid (any revealed land hex without a catapult), then confirm"
        playable = bool(self._playable_cards())
        possible = [m for m in MODE_BUTTONS if (playable if m == "card" else bool(self.mode_actions(m)))]
        return "press " + ", ".join(m.replace("_", " ") for m in possible)

    def prompt(self, seat: int) -> str:
        text: str = self._with_legal(lambda: self._prompt(seat))
        return text

    def _prompt(self, seat: int) -> str:
        game = self.game
        hand = ", ".join(f"{n} {name}" for name, n in zip(KINDS, game.res[seat]) if n)
        status = f"{game.vp(seat)} points; hand: {hand or 'empty'}"
        if self._mode() is not None and (self.chosen or self.mode is not None):
            return f"{status}. {self._next_words()}"
        return f"{status}. {self._what_now(seat)}"

    def led_labels(self) -> dict[int, str]:
        """LED -> hex number, for the terminal drawing: the words "hex 12" point at a light."""
        return {led: str(h) for h, led in self.layout.hex_led.items()}

    def flash_for(self, action: Action) -> list[Any]:
        layout = self.layout
        leds: list[int] = []
        for name in ("vertex", "city", "edge", "to", "hex"):
            value = action.get(name)
            if not isinstance(value, int) or isinstance(value, bool):
                continue
            for led in self._leds_of(name, value) if self._known(name, value) else []:
                leds.append(led)
        if leds:
            return leds
        seat = self.game.current_seat()
        return [] if seat is None else [layout.turn_leds[seat]]

    def _known(self, name: str, value: int) -> bool:
        slot = FIELD_KINDS[name]
        table = {"corner": self.layout.corner_led, "side": self.layout.side_led, "hex": self.layout.hex_led}[slot]
        return value in table

    def describe_action(self, action: Action) -> str:
        kind = action.get("type")
        if kind == "build":
            where = f"corner {action['vertex']}" if "vertex" in action else f"side {action.get('edge')}"
            return f"builds a {action.get('piece')} on {where}"
        if kind == "improve":
            metro = f" and wins the metro on corner {action['city']}" if "city" in action else ""
            return f"improves {action.get('culture')}{metro}"
        if kind == "trade":
            return f"trades {action.get('give')} for {action.get('get')}"
        if kind in ("raid", "lucky_raid"):
            return f"raids hex {action.get('hex')}" + (" (lucky 7)" if kind == "lucky_raid" else "")
        if kind == "remove_catapult":
            return f"removes the catapult from hex {action.get('hex')}"
        if kind == "military":
            return "buys military power"
        if kind == "end_turn":
            return "ends the turn"
        if kind == "roll":
            return "rolls"
        if kind == "play":
            card = str(action.get("card", "")).replace("_", " ")
            details = {k: v for k, v in action.items() if k not in ("type", "card", "take", "card_taken")}
            if "target" in details:
                details["target"] = SEAT_NAMES[details["target"]] if isinstance(details["target"], int) and 0 <= details["target"] < 4 else details["target"]
            extra = " (" + ", ".join(f"{k} {v}" for k, v in details.items()) + ")" if details else ""
            return f"plays {card}{extra}"
        return str(action)


# ---------------------------------------------------------------------- the generator


def _sides_of(m: LandoverMap, h: int) -> list[int]:
    """The six sides of hex ``h`` in turning order (side k between corners k - 1 and k)."""
    edge_of = {frozenset(ends): e for e, ends in enumerate(m.edge_vertices)}
    corners = m.hex_vertices[h]
    return [edge_of[frozenset((corners[k - 1], corners[k]))] for k in range(6)]


def sea_key_hexes(m: LandoverMap) -> list[int]:
    """The water hexes that get a key: enough that every water side is a side of one of them.

    Every water hex starts with a key; going through them last first, a hex loses its key
    when each of its water sides is also a side of another water hex that keeps one (on the
    archipelago map this leaves 27 of the 36 water hexes, the fewest that cover its 101
    water sides). A person picks a water side by pressing a keyed water hex next to it.
    """
    water = [h for h in range(len(m.coords)) if m.hex_island[h] < 0]
    sides = {h: [e for e in _sides_of(m, h) if m.edge_kind[e] == 1] for h in water}
    keyed = set(water)
    for h in reversed(water):
        others = keyed - {h}
        if all(any(e in sides[o] for o in others) for e in sides[h]):
            keyed.discard(h)
    return sorted(keyed)


def generate_layout(m: LandoverMap) -> dict[str, Any]:
    """The lit board for map ``m`` (``hardware/layouts/landover.json`` is this for the archipelago).

    LED chain: land hexes, land corners, every side (land, coast and water), turn LEDs,
    barbarian track, white die, red die, event die, merchant. Keys: land hexes, the water
    hexes of :func:`sea_key_hexes`, turn LEDs, white and red die LEDs, card kinds, buttons.
    """
    root3 = math.sqrt(3)

    def centre(h: int) -> tuple[float, float]:
        q, r = m.coords[h]
        return root3 * (q + r / 2), 1.5 * r

    corner_at: dict[int, tuple[float, float]] = {}
    for h in range(len(m.coords)):
        cx, cy = centre(h)
        for k, v in enumerate(m.hex_vertices[h]):
            # Corner k of a hex sits between its neighbours k and k + 1 (pointy-top, y down).
            angle = math.radians(-30 - 60 * k)
            corner_at.setdefault(v, (cx + math.cos(angle), cy + math.sin(angle)))
    land_hexes = [h for h in range(len(m.coords)) if m.hex_island[h] >= 0]
    corners = sorted({v for h in land_hexes for v in m.hex_vertices[h]})
    sides = list(range(len(m.edge_kind)))
    sea_hexes = sea_key_hexes(m)
    xs = [x for x, _ in corner_at.values()]
    ys = [y for _, y in corner_at.values()]
    left, top = min(xs) - 0.6, min(ys) - 0.6

    def at(x: float, y: float) -> list[float]:
        return [round(x - left, 4), round(y - top, 4)]

    width = max(xs) - left + 0.6
    leds: list[dict[str, Any]] = []
    drawing: list[dict[str, Any]] = []
    led = key = 0
    hexes_out = []
    for h in land_hexes:
        cx, cy = centre(h)
        points = [at(cx + 0.7 * (corner_at[v][0] - cx), cy + 0.7 * (corner_at[v][1] - cy)) for v in m.hex_vertices[h]]
        hexes_out.append({"hex": h, "led": led, "key": key})
        drawing.append({"led": led, "key": key, "shape": "polygon", "points": points})
        led += 1
        key += 1
    sea_out = []
    sea_buttons = []  # keys without an LED: drawn as buttons in the middle of their water hex
    for h in sea_hexes:
        sea_out.append({"hex": h, "key": key})
        sea_buttons.append({"key": key, "at": at(*centre(h)), "label": "sea"})
        key += 1
    corners_out = []
    corner_shapes = []  # drawn after the sides, so the corners sit on top of them
    for v in corners:
        corners_out.append({"vertex": v, "led": led})
        corner_shapes.append({"led": led, "shape": "circle", "at": at(*corner_at[v]), "r": 0.16})
        led += 1
    sides_out = []
    for e in sides:
        (ax, ay), (bx, by) = (corner_at[v] for v in m.edge_vertices[e])
        dx, dy = bx - ax, by - ay
        nx, ny = -dy * 0.07, dx * 0.07
        p, q = (ax + 0.1 * dx, ay + 0.1 * dy), (ax + 0.9 * dx, ay + 0.9 * dy)
        points = [at(p[0] + nx, p[1] + ny), at(q[0] + nx, q[1] + ny), at(q[0] - nx, q[1] - ny), at(p[0] - nx, p[1] - ny)]
        sides_out.append({"edge": e, "led": led})
        drawing.append({"led": led, "shape": "polygon", "points": points})
        led += 1
    drawing += corner_shapes
    board_leds = led
    # Status column to the right of the map.
    sx = width + 0.6
    turn = []
    for seat in range(4):
        turn.append({"seat": seat, "led": led, "key": key})
        drawing.append({"led": led, "key": key, "shape": "circle", "at": [round(sx + 0.6 * seat, 3), 0.5], "r": 0.22, "label": "turn"})
        led += 1
        key += 1
    barbarians = []
    for step in range(BARBARIAN_STEPS):
        barbarians.append(led)
        drawing.append({"led": led, "shape": "rect", "at": [round(sx + 0.45 * step, 3), 1.2], "size": [0.35, 0.35], "label": "barbarians"})
        led += 1
    dice: dict[str, Any] = {}
    for row, die in enumerate(("white", "red")):
        part: dict[str, list[int]] = {"leds": [], "keys": []}
        for n in range(DIE_FACES):
            part["leds"].append(led)
            part["keys"].append(key)
            drawing.append({"led": led, "key": key, "shape": "circle", "at": [round(sx + 0.45 * n, 3), 2.1 + 0.6 * row], "r": 0.17,
                            "label": f"{die} die"})
            led += 1
            key += 1
        dice[die] = part
    dice["event_led"] = led
    drawing.append({"led": led, "shape": "circle", "at": [round(sx, 3), 3.5], "r": 0.22, "label": "event"})
    led += 1
    merchant_led = led
    drawing.append({"led": led, "shape": "circle", "at": [round(sx + 0.9, 3), 3.5], "r": 0.22, "label": "merchant"})
    led += 1
    buttons: list[dict[str, Any]] = list(sea_buttons)
    kind_keys = {}
    for n, name in enumerate(KINDS):
        kind_keys[name] = key
        buttons.append({"key": key, "at": [round(sx + 0.5 + 1.0 * (n % 4), 3), round(4.4 + 0.5 * (n // 4), 3)], "label": name})
        key += 1
    button_keys = {}
    for n, name in enumerate(BUTTONS):
        button_keys[name] = key
        buttons.append({"key": key, "at": [round(sx + 0.5 + 1.0 * (n % 4), 3), round(5.7 + 0.5 * (n // 4), 3)],
                        "label": name.replace("_", " ")})
        key += 1
    height = max(max(ys) - top + 0.6, 8.0)
    # Terminal picture: the map's LEDs on a character grid (distinct x and y ranked), status in the legend.
    centres: dict[int, tuple[float, float]] = {}
    for item in drawing:
        if item["led"] >= board_leds:
            continue
        if item["shape"] == "polygon":
            pts = item["points"]
            centres[item["led"]] = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
        else:
            centres[item["led"]] = (item["at"][0], item["at"][1])
    column_values = sorted({round(x, 1) for x, _ in centres.values()})
    row_values = sorted({round(y, 1) for _, y in centres.values()})
    cells = {str(n): [2 * column_values.index(round(x, 1)), row_values.index(round(y, 1))] for n, (x, y) in centres.items()}
    # The reference Feather scans at most a 10 x 10 matrix (20 free pins): ten columns, as few rows as fit.
    columns = 10
    rows = -(-key // columns)
    return {
        "id": LAYOUT_ID,
        "about": (
            f"LEDs and keys of the lit Landover board for the built-in '{m.name}' map (made by "
            "tablelight.games.landover.face.generate_layout). One LED and key per land hex (mystery hexes included), "
            "one LED per land corner (villages, cities), one LED per side of the map (land, coast and water: every "
            "road and bridge shows), a key without an LED on the water hexes listed in 'sea' (every water side is "
            "a side of one of them), turn LEDs with keys (they choose a player), the barbarian track, the white and "
            "red dice (keys: the alchemist's numbers), the event die, the merchant LED; buttons and card-kind keys. "
            "Corners and sides are picked by pressing a hex next to them (again for the next). 'map' lists the "
            "[q, r] of every hex of the map the board is built for. More than 255 LEDs: firmware 1.1.0 or later "
            "(wide LED numbers)."
        ),
        "leds": led,
        "keys": key,
        # A 5 V 2 A supply feeds the LED chain (docs/rules/landover.md, "Lit board"): USB is too little.
        "budget_ma": 1800,
        "key_matrix": {"rows": rows, "columns": columns, "note": f"key number = row * {columns} + column on the reference board"},
        "map": {"name": m.name, "coords": [list(c) for c in m.coords]},
        "hexes": hexes_out,
        "sea": sea_out,
        "corners": corners_out,
        "sides": sides_out,
        "turn": turn,
        "barbarian_leds": barbarians,
        "dice": dice,
        "merchant_led": merchant_led,
        "kind_keys": kind_keys,
        "buttons": button_keys,
        "drawing": {
            "width": round(sx + 4.1, 3),
            "height": round(height, 3),
            "leds": drawing,
            "buttons": buttons,
            "grid": {"columns": 2 * len(column_values) + 2, "rows": len(row_values), "cells": cells},
        },
    }
