"""Farlander at a lit board: the look of every LED and the input of a person.

**Layout.** ``hardware/layouts/farlander.json``: seven hex tile slots, each with an LED
and a key under each of its six pie slices and one at its centre, plus status LEDs (whose
turn, which phase) and two buttons (confirm, cancel). :func:`parse_layout` checks the
Farlander sections and builds a :class:`BoardLayout`.

**Look** (:func:`render`):

* each territory lights its slices in its owner's colour, brighter with more units
  (1 unit ~30 %, 5 units full); an empty territory stays dark;
* the centre LED of a slot without an interior territory stays dark;
* the turn LED of the seat to act pulses in that seat's colour, the other seats'
  turn LEDs glow dimly in theirs; once the game is over the winners' blink;
* one phase LED (white) shows the distribution or the action phase;
* while a person builds a conquest, the target blinks in the attacker's colour,
  bordering territories that can still send units pulse, and those already sending
  units shine at full brightness;
* a rejected press flashes the territory white (blink) for a moment.

**Input** (:class:`InputMachine`). Distribution phase: pressing a territory places a
unit there at once. Action phase (a conquest is built in steps):

1. press the territory to conquer (the target); it blinks and your bordering
   territories that can send units pulse;
2. press those territories to move units in: each press adds one unit from it;
   a press beyond what it can send (it keeps one) or beyond 5 in all takes its
   units back to 0;
3. press confirm.

Cancel drops the whole conquest being built. Pressing the target again drops it
too; pressing another conquerable territory before any unit is chosen switches
the target. The machine never applies anything: every choice narrows the engine's legal actions
through the shared picker (:mod:`tablelight.table.picker`), and :meth:`InputMachine.press`
returns an :class:`Outcome` holding one of them (for the table to apply), or a message and
the LEDs to flash when a press is refused (the engine's reason where it has one). Refused
presses change nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from tablelight.core.actions import FrozenDict
from tablelight.core.game import Action
from tablelight.games.farlander.engine import MAX_MOVE_IN
from tablelight.games.farlander.reads import FarlanderReads
from tablelight.table.face import (
    BLINK,
    OFF,
    PULSE,
    SEAT_COLORS,
    SEAT_NAMES,
    SOLID,
    GameFace,
    Outcome,
    Pixel,
    flash_over,
    light_turns,
    position_memo,
    scaled,
)
from tablelight.table.layout import LayoutError, check_layout_data, layout_path, read_layout_file, whole
from tablelight.table.picker import Picker, refusal
from tablelight.core.fields import is_whole

if TYPE_CHECKING:
    from tablelight.games.farlander.engine import Farlander

__all__ = [
    "BLINK", "OFF", "PULSE", "SOLID", "SEAT_COLORS", "SEAT_NAMES", "BoardLayout", "FarlanderFace",
    "InputMachine", "LayoutError", "Outcome", "Pixel", "load_layout", "parse_layout", "render", "territory_leds",
]



@dataclass(frozen=True)
class BoardLayout:
    """The LED and key roles of one lit board (see ``hardware/layouts/farlander.json``)."""

    id: str
    leds: int
    keys: int
    #: Per tile slot: the LED under the slice at each edge 0-5.
    edge_leds: tuple[tuple[int, ...], ...]
    #: Per tile slot: the LED at the slot's centre.
    centre_leds: tuple[int, ...]
    edge_keys: tuple[tuple[int, ...], ...]
    centre_keys: tuple[int, ...]
    #: Per seat: the LED that shows that seat's turn.
    turn_leds: tuple[int, ...]
    #: Phase name -> LED.
    phase_leds: dict[str, int]
    confirm_key: int
    cancel_key: int
    #: The parsed file, for drawings (slot centres, where status LEDs and buttons sit).
    data: dict[str, Any] = field(repr=False, compare=False)

    @property
    def slots(self) -> int:
        return len(self.edge_leds)

    def led_of(self, slot: int, edge: int | None) -> int:
        """The LED of a slice (``edge`` 0-5) or of the centre (``edge`` None) of ``slot``."""
        return self.centre_leds[slot] if edge is None else self.edge_leds[slot][edge]

    def leds_of(self, slot: int, edges: tuple[int, ...] | list[int]) -> list[int]:
        """The LEDs a territory covering ``edges`` of ``slot`` lights (no edges: the centre)."""
        if not edges:
            return [self.centre_leds[slot]]
        return [self.edge_leds[slot][edge] for edge in edges]

    def keys_of(self, slot: int, edges: tuple[int, ...] | list[int]) -> list[int]:
        """The keys that select a territory covering ``edges`` of ``slot``."""
        if not edges:
            return [self.centre_keys[slot]]
        return [self.edge_keys[slot][edge] for edge in edges]


def load_layout(name: str = "farlander") -> BoardLayout:
    """Read and check a Farlander layout by id or file path. Raises :class:`LayoutError`."""
    return parse_layout(read_layout_file(name), str(layout_path(name)))


def parse_layout(data: Any, source: str = "layout") -> BoardLayout:
    """Check a parsed Farlander layout document (generic fields too) and build a :class:`BoardLayout`."""
    if not isinstance(data, dict):
        raise LayoutError(f"{source}: a layout is a JSON object")
    try:
        layout_id = data["id"]
        leds = data["leds"]
        keys = data["keys"]
        slots = data["slots"]
        status = data["status_leds"]
        buttons = data["buttons"]
    except KeyError as missing:
        raise LayoutError(f"{source}: missing field {missing}") from None
    if not isinstance(layout_id, str) or not layout_id:
        raise LayoutError(f"{source}: id must be a non-empty string")
    for name, value in (("leds", leds), ("keys", keys)):
        if not is_whole(value) or value <= 0:
            raise LayoutError(f"{source}: {name} must be a positive whole number, got {value!r}")
    if not isinstance(slots, list) or not slots:
        raise LayoutError(f"{source}: slots must be a non-empty list")
    edge_leds: list[tuple[int, ...]] = []
    centre_leds: list[int] = []
    edge_keys: list[tuple[int, ...]] = []
    centre_keys: list[int] = []
    for index, slot in enumerate(slots):
        where = f"{source}: slot {index}"
        if not isinstance(slot, dict) or slot.get("slot") != index:
            raise LayoutError(f"{where} must be an object with \"slot\": {index}")
        for name in ("edge_leds", "edge_keys"):
            if not isinstance(slot.get(name), list) or len(slot[name]) != 6:
                raise LayoutError(f"{where}: {name} must list 6 numbers (edges 0-5)")
        edge_leds.append(tuple(whole(v, f"{where} edge LED", leds) for v in slot["edge_leds"]))
        edge_keys.append(tuple(whole(v, f"{where} edge key", keys) for v in slot["edge_keys"]))
        centre_leds.append(whole(slot.get("centre_led"), f"{where} centre_led", leds))
        centre_keys.append(whole(slot.get("centre_key"), f"{where} centre_key", keys))
    turn: dict[int, int] = {}
    phase: dict[str, int] = {}
    if not isinstance(status, list):
        raise LayoutError(f"{source}: status_leds must be a list")
    for item in status:
        if not isinstance(item, dict):
            raise LayoutError(f"{source}: each status LED is an object")
        led = whole(item.get("led"), f"{source}: status LED", leds)
        if item.get("role") == "turn":
            turn[whole(item.get("seat"), f"{source}: turn LED seat", 16)] = led
        elif item.get("role") == "phase" and isinstance(item.get("phase"), str):
            phase[item["phase"]] = led
        else:
            raise LayoutError(f"{source}: status LED {led} needs role 'turn' (with seat) or 'phase' (with phase)")
    if sorted(turn) != list(range(len(turn))):
        raise LayoutError(f"{source}: turn LEDs must cover seats 0-{len(turn) - 1} once each")
    roles: dict[str, int] = {}
    if not isinstance(buttons, list):
        raise LayoutError(f"{source}: buttons must be a list")
    for item in buttons:
        if not isinstance(item, dict) or not isinstance(item.get("role"), str):
            raise LayoutError(f"{source}: each button is an object with a role")
        roles[item["role"]] = whole(item.get("key"), f"{source}: button {item['role']}", keys)
    for role in ("confirm", "cancel"):
        if role not in roles:
            raise LayoutError(f"{source}: no {role} button")
    all_leds = [led for group in edge_leds for led in group] + centre_leds + list(turn.values()) + list(phase.values())
    if len(set(all_leds)) != len(all_leds):
        raise LayoutError(f"{source}: an LED is given two roles")
    all_keys = [key for group in edge_keys for key in group] + centre_keys + list(roles.values())
    if len(set(all_keys)) != len(all_keys):
        raise LayoutError(f"{source}: a key is given two roles")
    check_layout_data(data, source)
    return BoardLayout(
        id=layout_id,
        leds=leds,
        keys=keys,
        edge_leds=tuple(edge_leds),
        centre_leds=tuple(centre_leds),
        edge_keys=tuple(edge_keys),
        centre_keys=tuple(centre_keys),
        turn_leds=tuple(turn[seat] for seat in range(len(turn))),
        phase_leds=phase,
        confirm_key=roles["confirm"],
        cancel_key=roles["cancel"],
        data=data,
    )


#: Seat colours as in the box: red, blue, green, yellow.
PHASE_COLOR = (160, 160, 160)
#: Brightness of a territory holding 1..5 units.
UNIT_LEVELS = (0.0, 0.3, 0.45, 0.6, 0.8, 1.0)



def territory_leds(game: Farlander, layout: BoardLayout) -> list[list[int]]:
    """Per territory index: the LEDs it lights."""
    return [layout.leds_of(t.tile, t.edges) for t in FarlanderReads(game).map.territories]


def render(
    game: Farlander,
    layout: BoardLayout,
    *,
    target: int | None = None,
    moves: Mapping[int, int] | None = None,
    sources: Collection[int] = (),
    flash: Collection[int] = (),
) -> list[Pixel]:
    """The pixels for ``game`` with an optional conquest being built and LEDs ``flash`` flashing."""
    reads = FarlanderReads(game)
    pixels: list[Pixel] = [OFF] * layout.leds
    leds = territory_leds(game, layout)
    moves = moves or {}
    seat = reads.current_seat()
    for t, (owner, units) in enumerate(zip(reads.owners(), reads.unit_counts())):
        if owner is None or units <= 0:
            look = OFF
        else:
            look = scaled(SEAT_COLORS[owner], UNIT_LEVELS[min(units, len(UNIT_LEVELS) - 1)])
        if seat is not None:
            if t == target:
                look = scaled(SEAT_COLORS[seat], 1.0, BLINK)
            elif moves.get(t, 0) > 0:
                look = scaled(SEAT_COLORS[seat], 1.0)
            elif t in sources:
                look = scaled(SEAT_COLORS[seat], 0.8, PULSE)
        for led in leds[t]:
            pixels[led] = look
    light_turns(pixels, layout.turn_leds[: reads.players], SEAT_COLORS, seat, set(reads.winners()))
    if seat is not None and reads.phase in layout.phase_leds:
        pixels[layout.phase_leds[reads.phase]] = scaled(PHASE_COLOR, 1.0)
    return flash_over(pixels, flash)


class InputMachine:
    """Turns key presses of the seat to act into actions; see the module docstring.

    What is chosen lives in the shared :class:`~tablelight.table.picker.Picker` over the engine's
    legal actions: the territory to place into, or the target and the units moved in (``moves``,
    one item per unit).
    """

    def __init__(self, game: Farlander, layout: BoardLayout) -> None:
        self.game = game
        self.reads = FarlanderReads(game)
        self.layout = layout
        self.key_territory: dict[int, int] = {}
        for index, territory in enumerate(self.reads.map.territories):
            if not 0 <= territory.tile < layout.slots:
                continue
            for key in layout.keys_of(territory.tile, territory.edges):
                self.key_territory[key] = index
        self.picker = Picker(lambda: position_memo(self, "_legal_memo", game.legal_actions), ("territory", "target", "moves"))

    # ----------------------------------------------------------------- queries

    @property
    def target(self) -> int | None:
        """The territory being conquered, once chosen."""
        chosen = self.picker.chosen.get("target")
        return None if chosen is None else self.reads.territory_index(chosen)

    @property
    def moves(self) -> dict[int, int]:
        """Territory -> units it sends into the target, as chosen so far."""
        moves: dict[int, int] = {}
        for tid in self.picker.chosen.get("moves", []):
            t = self.reads.territory_index(tid)
            assert t is not None  # the picker chooses among the legal actions' ids
            moves[t] = moves.get(t, 0) + 1
        return moves

    def leds_of(self, territory: int) -> list[int]:
        """The LEDs ``territory`` lights (what flashes when a choice of it is refused)."""
        place = self.reads.map.territories[territory]
        return self.layout.leds_of(place.tile, place.edges) if 0 <= place.tile < self.layout.slots else []

    def keys_for(self, territory: int) -> list[int]:
        """Every key that selects ``territory`` (the first is a fine one to press)."""
        return sorted(key for key, t in self.key_territory.items() if t == territory)

    def sources(self) -> dict[int, int]:
        """Territories that can send units to the current target -> how many at most."""
        seat = self.reads.current_seat()
        if self.target is None or seat is None:
            return {}
        return self.reads.spare_units(seat, self.target)

    def reset(self) -> None:
        self.picker.reset()

    # ------------------------------------------------------------------ presses

    def press(self, key: int) -> Outcome:
        reads = self.reads
        seat = reads.current_seat()
        if seat is None:
            return Outcome("the game is over", refused=True)
        if key == self.layout.confirm_key:
            return self._confirm()
        if key == self.layout.cancel_key:
            if self.target is None:
                return Outcome("nothing to cancel")
            name = reads.territory_id(self.target)
            self.reset()
            return Outcome(f"conquest of {name} cancelled")
        territory = self.key_territory.get(key)
        if territory is None:
            return Outcome(f"key {key} is not part of any territory on this map", refused=True)
        if reads.phase == "distribution":
            return self._place(territory)
        if self.target is None:
            return self._choose_target(territory)
        if territory == self.target:
            name = reads.territory_id(territory)
            self.reset()
            return Outcome(f"conquest of {name} cancelled")
        sources = self.sources()
        if territory in sources:
            return self._add_unit(territory)
        if not self.moves and territory in reads.targets(seat):
            self.reset()
            return self._choose_target(territory)
        return Outcome(self._source_problem(territory), refused=True, flash=self.leds_of(territory))

    # ----------------------------------------------------------------- helpers

    def _place(self, territory: int) -> Outcome:
        tid = self.reads.territory_id(territory)
        if not self.picker.choose("territory", tid):
            why = refusal(self.game, Action({"type": "place", "territory": tid})) or f"no unit can be placed in {tid}"
            return Outcome(why, refused=True, flash=self.leds_of(territory))
        action = self.picker.action()
        self.reset()  # a placement is one press: nothing stays chosen
        assert action is not None
        return Outcome(f"place a unit in {tid}", action=action)

    def _choose_target(self, territory: int) -> Outcome:
        reads = self.reads
        seat = reads.current_seat()
        assert seat is not None
        if not self.picker.choose("target", reads.territory_id(territory)):
            return Outcome(self._engine_reason(territory), refused=True, flash=self.leds_of(territory))
        sources = ", ".join(f"{reads.territory_id(t)} (up to {n})" for t, n in sorted(self.sources().items()))
        return Outcome(
            f"conquer {reads.territory_id(territory)} (defence {reads.defense(territory)}, your strength "
            f"{reads.strength(seat, territory)}): press {sources} to move units in, then confirm"
        )

    def _engine_reason(self, territory: int) -> str:
        """The engine's own reason why ``territory`` cannot be conquered now: a conquest moving no
        units is never legal, and for a bad target the engine names the target's rule first."""
        reason = refusal(self.game, Action({"type": "conquer", "target": self.reads.territory_id(territory), "moves": FrozenDict()}))
        assert reason is not None, "a conquest moving no units was accepted"
        return reason

    def _add_unit(self, territory: int) -> Outcome:
        reads = self.reads
        assert self.target is not None
        tid = reads.territory_id(territory)
        if self.picker.choose("moves", tid):
            note = f"{tid} sends {self.moves[territory]}"
        else:  # no legal conquest moves one more from there: its units go back to 0
            self.picker.chosen["moves"] = [x for x in self.picker.chosen.get("moves", []) if x != tid]
            note = f"{tid} sends no units now"
        total = sum(self.moves.values())
        return Outcome(f"{note}; {total} of at most {MAX_MOVE_IN} units move into {reads.territory_id(self.target)}")

    def _source_problem(self, territory: int) -> str:
        reads = self.reads
        seat = reads.current_seat()
        assert self.target is not None and seat is not None
        name, target = reads.territory_id(territory), reads.territory_id(self.target)
        if reads.owner(territory) != seat:
            return f"{name} is not yours: units can only come from your territories bordering {target}"
        if territory not in reads.neighbors(self.target):
            return f"{name} does not border {target}"
        return f"{name} holds a single unit: it must keep it and cannot send any to {target}"

    def _confirm(self) -> Outcome:
        reads = self.reads
        if reads.phase == "distribution":
            return Outcome("nothing to confirm: in the distribution phase a press places a unit at once", refused=True)
        if self.target is None:
            return Outcome("nothing to confirm: press a territory to conquer first", refused=True)
        if not self.moves:
            return Outcome(
                f"choose the units to move into {reads.territory_id(self.target)} first: press your bordering territories",
                refused=True,
                flash=self.leds_of(self.target),
            )
        action = self.picker.action()
        assert action is not None  # every consistent choice of units is a whole legal conquest
        return Outcome(f"conquer {action['target']}", action=action)


def _describe_action(action: Action) -> str:
    if action.get("type") == "place":
        return f"places a unit in {action.get('territory')}"
    if action.get("type") == "conquer":
        moves = ", ".join(f"{n} from {tid}" for tid, n in action.get("moves", {}).items())
        return f"conquers {action.get('target')} moving in {moves}"
    if action.get("type") == "skip":
        return "cannot act: skipped"
    return str(action)


class FarlanderFace(GameFace):
    """Farlander's :class:`~tablelight.table.face.GameFace`: :func:`render` and :class:`InputMachine`."""

    default_layout = "farlander"
    seat_names = SEAT_NAMES
    TYPE_WORDS: ClassVar[Mapping[str, str]] = {"place": "place a unit", "conquer": "conquer a territory"}

    def __init__(self, game: Farlander, layout_data: dict[str, Any]) -> None:
        self.game = game
        self.reads = FarlanderReads(game)
        self.layout = parse_layout(layout_data, f"layout {layout_data.get('id')!r}" if isinstance(layout_data, dict) else "layout")
        self.input = InputMachine(game, self.layout)

    def pixels(self, flashing: Collection[int] = ()) -> list[Pixel]:
        return render(
            self.game,
            self.layout,
            target=self.input.target,
            moves=self.input.moves,
            sources=self.input.sources().keys(),
            flash=flashing,
        )

    def press(self, key: int) -> Outcome:
        return self.input.press(key)

    def reset(self) -> None:
        self.input.reset()

    def candidates(self) -> list[Action] | None:
        """The legal actions agreeing with the target and units chosen with keys (None: none chosen)."""
        picker = self.input.picker
        return picker.candidates() if picker.chosen and self.reads.current_seat() is not None else None

    def narrow(self, chosen: dict[str, Any]) -> Outcome:
        """A seat's page chose a target (and perhaps units to move in): the board shows it as chosen."""
        if self.reads.current_seat() is None:
            return Outcome("the game is over", refused=True)
        if not chosen:
            self.reset()
            return Outcome("choice cleared")
        fields = {name: value for name, value in chosen.items() if name != "type"}
        if chosen.get("type") == "place" and "territory" in fields and self.input.picker.agree(fields):
            self.reset()  # a placement is one press on the board: nothing stays chosen there
            return Outcome(f"place a unit in {fields['territory']}: choose it below to confirm")
        if chosen.get("type") != "conquer" or "target" not in fields:
            self.reset()  # too broad for the board to show (or a step back): nothing chosen there
            return Outcome("choose a territory")
        if not self.input.picker.agree(fields):
            return Outcome("no legal action agrees with that choice", refused=True)
        # the page's words: it chooses the units to move in below (the board's keys would press the territories)
        return Outcome(f"conquer {fields['target']}: choose below how many units move in from your bordering territories")

    def prompt(self, seat: int) -> str:
        reads = self.reads
        if reads.phase == "distribution":
            return f"press a territory to place a unit ({reads.reserve(seat)} left)"
        return (
            f"press a territory to conquer ({len(reads.targets(seat))} possible), "
            "then your bordering territories to move units in, then confirm"
        )

    def page_prompt(self, seat: int) -> str:
        """The prompt on ``seat``'s page: it taps the map or a choice, it has no confirm key."""
        reads = self.reads
        if reads.phase == "distribution":
            return f"tap a territory on the map to place a unit ({reads.reserve(seat)} left), or choose it below"
        return (f"choose a territory to conquer ({len(reads.targets(seat))} possible), then the bordering territories "
                "that move units in")

    def place_keys(self) -> dict[str, int]:
        """Territory id -> a key that selects it: what a person types at the terminal."""
        ids = self.reads.territory_ids()
        return {ids[t]: self.input.keys_for(t)[0] for t in range(len(ids)) if self.input.keys_for(t)}

    def led_labels(self) -> dict[int, str]:
        """LED -> territory id, one LED per territory: how the terminal drawing names the places."""
        ids = self.reads.territory_ids()
        return {leds[0]: ids[t] for t, leds in enumerate(territory_leds(self.game, self.layout)) if leds}

    def led_counts(self) -> dict[int, int]:
        """LED -> units, on the LED that carries the territory's name: the terminal writes them as digits."""
        leds = territory_leds(self.game, self.layout)
        return {leds[t][0]: units for t, units in enumerate(self.reads.unit_counts()) if leds[t] and units > 0}

    def flash_for(self, action: Action) -> list[int]:
        tid = action.get("territory") or action.get("target")
        index = self.reads.territory_index(tid) if isinstance(tid, str) else None
        return [] if index is None else self.input.leds_of(index)

    def describe_entry(self, entry: Mapping[str, Any], seat: int | None = None) -> str | None:
        """Who starts a phase (the only draw of Farlander, public): "red starts the attacks"."""
        if entry.get("chance") == "first_player" and isinstance(entry.get("value"), int):
            phase = "placing units" if entry.get("phase") == "distribution" else "the attacks"
            return f"drawn at random: {self.seat_word(entry['value'])} starts {phase}"
        return super().describe_entry(entry, seat)

    def describe_action(self, action: Action) -> str:
        return _describe_action(action)

    def drawing(self, seat: int | None) -> str | None:
        """The tiles and territories (:mod:`tablelight.games.farlander.drawing`); all public, so the
        conquest being built shows on every page as on the LEDs."""
        from tablelight.games.farlander.drawing import draw

        return draw(self.reads, seat, self.input.target, frozenset(self.input.sources()))
