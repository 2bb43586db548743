"""Board layouts: which LEDs and keys of a lit board belong to which place on the game board.

A layout is data in ``hardware/layouts/<id>.json`` (the firmware never reads it: the board
only knows LED and key numbers). :func:`load_layout` reads and checks one and returns a
:class:`BoardLayout`. For Farlander the board has seven hex tile slots, each with an LED
and a key under each of its six pie slices and one at its centre, plus status LEDs (whose
turn, which phase) and two buttons (confirm, cancel).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablelight.core.errors import TablelightError

#: Environment variable naming the folder that holds ``layouts/`` (defaults to the checkout's hardware/).
HARDWARE_ENV = "TABLELIGHT_HARDWARE"


class LayoutError(TablelightError):
    """A layout file is missing or does not describe a consistent board."""


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


def hardware_dir() -> Path:
    """The folder holding ``layouts/``: ``$TABLELIGHT_HARDWARE`` or the checkout's ``hardware/``."""
    configured = os.environ.get(HARDWARE_ENV)
    if configured:
        return Path(configured)
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "hardware"
        if (candidate / "layouts").is_dir():
            return candidate
    raise LayoutError(
        f"cannot find the hardware/layouts folder; set {HARDWARE_ENV} to the folder that holds layouts/"
    )


def layout_path(name: str) -> Path:
    """Where the layout ``name`` (or a path to a layout file) lives."""
    if name.endswith(".json") or os.sep in name:
        return Path(name)
    return hardware_dir() / "layouts" / f"{name}.json"


def load_layout(name: str = "farlander") -> BoardLayout:
    """Read and check a layout by id (``"farlander"``) or file path. Raises :class:`LayoutError`."""
    path = layout_path(name)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LayoutError(f"no layout file {path}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise LayoutError(f"cannot read layout {path}: {error}") from None
    except json.JSONDecodeError as error:
        raise LayoutError(f"layout {path} is not valid JSON: {error}") from None
    return parse_layout(data, str(path))


def _int(value: Any, what: str, limit: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < limit:
        raise LayoutError(f"{what} must be a whole number 0-{limit - 1}, got {value!r}")
    return value


def parse_layout(data: Any, source: str = "layout") -> BoardLayout:
    """Check a parsed layout document and build a :class:`BoardLayout`."""
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
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
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
        edge_leds.append(tuple(_int(v, f"{where} edge LED", leds) for v in slot["edge_leds"]))
        edge_keys.append(tuple(_int(v, f"{where} edge key", keys) for v in slot["edge_keys"]))
        centre_leds.append(_int(slot.get("centre_led"), f"{where} centre_led", leds))
        centre_keys.append(_int(slot.get("centre_key"), f"{where} centre_key", keys))
    turn: dict[int, int] = {}
    phase: dict[str, int] = {}
    if not isinstance(status, list):
        raise LayoutError(f"{source}: status_leds must be a list")
    for item in status:
        if not isinstance(item, dict):
            raise LayoutError(f"{source}: each status LED is an object")
        led = _int(item.get("led"), f"{source}: status LED", leds)
        if item.get("role") == "turn":
            turn[_int(item.get("seat"), f"{source}: turn LED seat", 16)] = led
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
        roles[item["role"]] = _int(item.get("key"), f"{source}: button {item['role']}", keys)
    for role in ("confirm", "cancel"):
        if role not in roles:
            raise LayoutError(f"{source}: no {role} button")
    all_leds = [led for group in edge_leds for led in group] + centre_leds + list(turn.values()) + list(phase.values())
    if len(set(all_leds)) != len(all_leds):
        raise LayoutError(f"{source}: an LED is given two roles")
    all_keys = [key for group in edge_keys for key in group] + centre_keys + list(roles.values())
    if len(set(all_keys)) != len(all_keys):
        raise LayoutError(f"{source}: a key is given two roles")
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
