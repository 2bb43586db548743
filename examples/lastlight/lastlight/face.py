"""Last Light at a lit board: a row of lights with a key under each, and a turn light per seat.

Pressing the key under a light takes that light and every light after it (at most three):
the face turns the press into a choice of ``count`` for the shared picker, which narrows the
engine's legal actions; it never decides a rule itself.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from lastlight.rules import LastLight
from tablelight.core.game import Action
from tablelight.table.face import (
    OFF,
    SEAT_COLORS,
    SEAT_NAMES,
    GameFace,
    Outcome,
    Pixel,
    flash_over,
    light_turns,
    scaled,
)
from tablelight.table.layout import LayoutError
from tablelight.table.picker import Picker, refusal

LIGHT_COLOR = (255, 200, 80)


class LastLightFace(GameFace):
    """Lights 0..n-1 are the row (key i under light i); the layout's ``turn_leds`` show whose turn."""

    default_layout = "lastlight"
    seat_names = SEAT_NAMES[:2]

    def __init__(self, game: LastLight, layout_data: dict[str, Any]) -> None:
        self.game = game
        self.leds: int = layout_data["leds"]
        self.row: Sequence[int] = layout_data.get("row_leds", [])
        self.turn_leds: Sequence[int] = layout_data.get("turn_leds", [])
        if len(self.row) < game.options["lights"] or len(self.turn_leds) != 2:
            raise LayoutError(f"layout {layout_data['id']!r} needs {game.options['lights']} row_leds and 2 turn_leds")
        self.picker = Picker(game.legal_actions, ["count"])

    def pixels(self, flashing: Collection[int] = ()) -> list[Pixel]:
        pixels: list[Pixel] = [OFF] * self.leds
        for light in range(self.game.left):
            pixels[self.row[light]] = scaled(LIGHT_COLOR, 0.6)
        light_turns(pixels, self.turn_leds, SEAT_COLORS, self.game.current_seat(), self.game.winners())
        return flash_over(pixels, flashing)

    def press(self, key: int) -> Outcome:
        if self.game.current_seat() is None:
            return Outcome("the game is over", refused=True)
        if not 0 <= key < len(self.row):
            return Outcome(f"key {key} is not under a light", refused=True)
        count = self.game.left - key
        if not self.picker.choose("count", count):
            why = refusal(self.game, Action({"type": "take", "count": count})) or "that light cannot be taken"
            return Outcome(why, refused=True, flash=self.flash_for(Action({"type": "take", "count": count})))
        action = self.picker.action()
        assert action is not None  # one field: a consistent choice is a whole action
        return Outcome(self.describe_action(action), action=action)

    def reset(self) -> None:
        self.picker.reset()

    def prompt(self, seat: int) -> str:
        return f"press one of the last {self.game.takeable()} lights to take it and those after it"

    def flash_for(self, action: Action) -> list[int]:
        count = action.get("count")
        left = self.game.left
        if not isinstance(count, int) or count <= 0:
            return []
        return [self.row[i] for i in range(max(0, left - count), left)]

    def describe_action(self, action: Action) -> str:
        return f"takes {action.get('count')} light(s)"
