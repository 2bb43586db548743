"""Game faces: how one game looks and is operated at a lit board.

The table service (:mod:`tablelight.table.service`) is game-agnostic: it applies
actions, stores them, runs bots and talks to the board. Everything that depends on
the game goes through a *face*, one class per game, registered in :data:`FACES`:

* :meth:`GameFace.pixels`: the game's state (plus what a person is in the middle of
  choosing) -> one ``(r, g, b, effect)`` per LED of the layout;
* :meth:`GameFace.press`: a key press of the seat to act -> an :class:`Outcome`
  (a complete action for the table to apply, a message, or a refusal with what to
  flash). A face never applies anything and never decides a rule: it asks the engine
  (legal actions, ``is_legal``) and lets ``Game.apply`` have the last word;
* :meth:`GameFace.prompt`, :meth:`GameFace.describe_action`: words for people;
* :meth:`GameFace.flash_for`: what to flash when the engine refuses an action.

A face reads its own sections of the board layout (``hardware/layouts/<id>.json``).
Every layout also has the generic fields the firmware, the simulated board and the
views use: ``id``, ``leds``, ``keys``, optionally ``key_matrix`` (rows, columns) and
``drawing`` (see ``docs/layouts.md``).
"""

from __future__ import annotations

import importlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from tablelight.core.errors import SetupError
from tablelight.core.game import Action, Game

Pixel = tuple[int, int, int, int]
"""``(r, g, b, effect)`` at full scale; effect 0 solid, 1 blink, 2 pulse (animated by the board)."""
SOLID, BLINK, PULSE = 0, 1, 2
OFF: Pixel = (0, 0, 0, SOLID)
#: How bright the turn light of a seat that is not acting glows.
IDLE_TURN_LEVEL = 0.12


def scaled(color: tuple[int, int, int], level: float, effect: int = SOLID) -> Pixel:
    """``color`` at ``level`` (0.0-1.0) of full scale, with an effect."""
    r, g, b = color
    return (round(r * level), round(g * level), round(b * level), effect)


def light_turns(
    pixels: list[Pixel],
    turn_leds: Sequence[int],
    colors: Sequence[tuple[int, int, int]],
    seat: int | None,
    winners: Collection[int],
) -> None:
    """Whose turn, the same on every board: the seat to act pulses in its colour, the others
    glow dimly; once the game is over (``seat`` None) the winners' lights blink."""
    for s, led in enumerate(turn_leds):
        if seat is None:
            pixels[led] = scaled(colors[s], 1.0, BLINK) if s in winners else scaled(colors[s], IDLE_TURN_LEVEL)
        elif s == seat:
            pixels[led] = scaled(colors[s], 1.0, PULSE)
        else:
            pixels[led] = scaled(colors[s], IDLE_TURN_LEVEL)


@dataclass
class Outcome:
    """What a press did: an action to apply, or a message (and what to flash when refused).

    ``flash`` holds face-defined things (Farlander: territory indices); the table
    keeps them flashing for a moment and passes them back to :meth:`GameFace.pixels`.
    """

    message: str
    action: Action | None = None
    refused: bool = False
    flash: list[Any] = field(default_factory=list)


class GameFace(Protocol):
    """The per-game part of a lit board. Construct with ``Face(game, layout_data)``."""

    #: The layout id this face expects by default (``hardware/layouts/<id>.json``).
    default_layout: str

    def pixels(self, flashing: Collection[Any] = ()) -> list[Pixel]:
        """What every LED should show now (length = the layout's ``leds``)."""
        ...

    def press(self, key: int) -> Outcome:
        """A key press of the seat to act. Must not change the game."""
        ...

    def reset(self) -> None:
        """Forget any half-built choice (called after every applied action, undo or resume)."""
        ...

    def prompt(self, seat: int) -> str:
        """What the seat to act should press now (shown to people)."""
        ...

    def flash_for(self, action: Action) -> list[Any]:
        """What to flash when the engine refuses ``action``."""
        ...

    def describe_action(self, action: Action) -> str:
        """One action in words, for the table's messages."""
        ...


#: game name -> "module:Class" of its face. Add a line to give a game a lit board.
FACES: dict[str, str] = {
    "farlander": "tablelight.games.farlander.face:FarlanderFace",
    "farside": "tablelight.games.farside.face:FarsideFace",
    "mainland": "tablelight.games.mainland.face:MainlandFace",
    "landover": "tablelight.games.landover.face:LandoverFace",
}


def face_class(game_name: str) -> Any:
    try:
        target = FACES[game_name]
    except KeyError:
        known = ", ".join(sorted(FACES))
        raise SetupError(f"{game_name} has no lit-board face yet; games with one: {known}") from None
    module_name, _, class_name = target.partition(":")
    return getattr(importlib.import_module(module_name), class_name)


def make_face(game: Game, layout_data: dict[str, Any] | None = None) -> GameFace:
    """The face for ``game`` on the given layout (default: the face's own layout)."""
    cls = face_class(game.name)
    if layout_data is None:
        from tablelight.table.layout import load_layout_data

        layout_data = load_layout_data(cls.default_layout)
    face: GameFace = cls(game, layout_data)
    return face
