"""Game faces: how one game looks and is operated at a lit board.

The table service (:mod:`tablelight.table.service`) is game-agnostic: it applies
actions, stores them, runs bots and talks to the board. Everything that depends on
the game goes through a *face*, one :class:`GameFace` subclass per game, named by the game's
entry (:class:`tablelight.core.registry.GameEntry`):

* :meth:`GameFace.pixels`: the game's state (plus what a person is in the middle of
  choosing) -> one ``(r, g, b, effect)`` per LED of the layout;
* :meth:`GameFace.press`: a key press of the seat to act -> an :class:`Outcome`
  (a complete action for the table to apply, a message, or a refusal with what to
  flash). A face never applies anything and never decides a rule: it asks the engine
  (legal actions, ``is_legal``) and lets ``Game.apply`` have the last word;
* :meth:`GameFace.candidates`, :meth:`GameFace.narrow`: the half-made choice, shared with the
  seat's page (the legal actions the keys left; a page's partial choice shown on the LEDs);
* :meth:`GameFace.prompt`, :meth:`GameFace.describe_action`: words for people;
* :meth:`GameFace.flash_for`: the LEDs to flash when the engine refuses an action;
* :meth:`GameFace.dice_rolls`: rolls for the board to animate (games with dice);
* :meth:`GameFace.guide`: the game's rules guide for players (``guide.json`` in its folder);
* :meth:`GameFace.describe_entry`: a chance entry of the log in words (public parts only).
* :meth:`GameFace.drawing`: the game's own picture (an SVG of its map and pieces) for the pages.

**The board is shared.** Everyone at the table sees its LEDs (and the public board page that
mirrors them), so :meth:`GameFace.pixels` and every refusal's ``flash`` must be a function of
what every seat may see and of the keys pressed: nothing may depend on a seat's hidden cards.
A choice that does (Mainland's hand card, a Landover development card) is shown on the seat's
own screen (:meth:`GameFace.candidates`, private words); a face whose keys choose among things
the hand decides follows the public listing and lets the engine refuse on confirm.
``tests/table/test_board_secrets.py`` checks this for every game with secrets.

A face reads its own sections of the board layout (``hardware/layouts/<id>.json``).
Every layout also has the generic fields the firmware, the simulated board and the
views use: ``id``, ``leds``, ``keys``, optionally ``key_matrix`` (rows, columns) and
``drawing`` (see ``docs/layouts.md``).
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from importlib import resources
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from tablelight.core.errors import SetupError
from tablelight.core.game import Action, Game, LogEntry
from tablelight.core.registry import game_entries, game_entry

Pixel = tuple[int, int, int, int]
"""``(r, g, b, effect)`` at full scale; effect 0 solid, 1 blink, 2 pulse (animated by the board)."""
SOLID, BLINK, PULSE = 0, 1, 2
OFF: Pixel = (0, 0, 0, SOLID)
#: How bright the turn light of a seat that is not acting glows.
IDLE_TURN_LEVEL = 0.12
WHITE = (255, 255, 255)
#: What a refused choice's LEDs show for a moment.
FLASH: Pixel = (255, 255, 255, BLINK)
#: The seat colours every face uses (seat 0 red, 1 blue, 2 green, 3 yellow) and their words.
SEAT_COLORS: tuple[tuple[int, int, int], ...] = ((255, 0, 0), (0, 60, 255), (0, 200, 0), (255, 170, 0))
SEAT_NAMES = ("red", "blue", "green", "yellow")
#: A seat by number in an engine's words ("seat 2"), which :meth:`GameFace.seats_in_words` names by colour.
SEAT_NUMBER = re.compile(r"\bseat (\d+)\b")


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


def flash_over(pixels: list[Pixel], leds: Collection[int]) -> list[Pixel]:
    """Show :data:`FLASH` on ``leds`` (LED numbers; others ignored) over ``pixels``; returns ``pixels``."""
    for led in leds:
        if isinstance(led, int) and 0 <= led < len(pixels):
            pixels[led] = FLASH
    return pixels


@dataclass(frozen=True)
class DiceRoll:
    """A roll for the board to animate locally (``Board.dice(leds, values, color=...)``).

    ``leds`` are ordered die by die so that the first ``value`` LEDs of each die's group
    are that value's pips: the board's roll lands on a proper die face.
    """

    leds: list[int]
    values: list[int]
    color: tuple[int, int, int]


@dataclass
class Outcome:
    """What a press did: an action to apply, or a message (and the LEDs to flash when refused).

    ``flash`` holds LED numbers; the table keeps them flashing for a moment (white, blinking)
    on top of what :meth:`GameFace.pixels` shows. Like the pixels, they must not depend on hidden
    cards (a refusal whose reason is secret flashes what the keys chose, or nothing).
    """

    message: str
    action: Action | None = None
    refused: bool = False
    flash: list[int] = field(default_factory=list)


Role = TypeVar("Role")


def words(value: Any) -> str:
    """A JSON value as a short line for people (``{"wool": 2, "ore": 0}`` -> ``wool 2``)."""
    if isinstance(value, dict):
        shown = [f"{k.replace('_', ' ')} {words(v)}" for k, v in value.items() if v not in (0, None, [], {})]
        return ", ".join(shown) or "none"
    if isinstance(value, list):
        return ", ".join(words(v) for v in value) or "none"
    return str(value).replace("_", " ")


def seat_and_role(game: Game, key: int, roles: Mapping[int, Role], board: str) -> tuple[int, Role] | Outcome:
    """What every face's press starts with: the seat to act and ``key``'s role in ``roles``, or the
    refusal when the game is over or the key does nothing on ``board`` ("the Mainland board")."""
    seat = game.current_seat()
    if seat is None:
        return Outcome("the game is over", refused=True)
    role = roles.get(key)
    if role is None:
        return Outcome(f"key {key} does nothing on {board}", refused=True)
    return seat, role


class GameFace(ABC):
    """The per-game part of a lit board. Construct with ``Face(game, layout_data)``.

    Every face subclasses this; the table calls nothing else on a face.
    """

    #: The layout id this face expects by default (``hardware/layouts/<id>.json`` or the game's own).
    default_layout: ClassVar[str]
    #: A word for each seat's colour (``("red", "blue")``), used in the table's messages.
    seat_names: ClassVar[tuple[str, ...]] = ()
    #: The game this face shows (every face keeps it, typed as its own engine).
    game: Any

    @abstractmethod
    def __init__(self, game: Game, layout_data: dict[str, Any]) -> None: ...

    @abstractmethod
    def pixels(self, flashing: Collection[int] = ()) -> list[Pixel]:
        """What every LED should show now (length = the layout's ``leds``); ``flashing``: LEDs to flash.
        Public: a function of what every seat may see and of the keys pressed (see the module docstring)."""

    @abstractmethod
    def press(self, key: int) -> Outcome:
        """A key press of the seat to act. Must not change the game."""

    @abstractmethod
    def reset(self) -> None:
        """Forget any half-built choice (called after every applied action, undo or resume)."""

    @abstractmethod
    def prompt(self, seat: int) -> str:
        """What the seat to act should press now (shown to people)."""

    @abstractmethod
    def flash_for(self, action: Action) -> list[int]:
        """The LEDs to flash when the engine refuses ``action``."""

    @abstractmethod
    def describe_action(self, action: Action) -> str:
        """One action in words, for the table's messages."""

    def action_words(self, action: Action) -> str:
        """One legal choice in words for the seat choosing it (its own page): it may name that seat's
        hidden cards, so two choices that differ only in a secret read differently. Default:
        :meth:`describe_action`."""
        return self.describe_action(action)

    def log_words(self, action: Action) -> str:
        """One action of a seat's own log in words, the action as ``view_log(seat)`` gives it (what that
        seat may not see is already left out, so these words may name the rest: the cards a seat took
        or lost). Default: :meth:`describe_action`."""
        return self.describe_action(action)

    def choice_steps(self, action: Action) -> list[tuple[str, Any]]:
        """The steps by which a seat's page narrows a long list of choices down to ``action``:
        (field, value) pairs, each a partial choice :meth:`narrow` takes. Default: the action's fields
        in order. A face may add a step of its own where a person chooses in two (Landover: a
        corner's hex, then the corner), as long as :meth:`narrow` understands it."""
        return list(action.items())

    def choice_value_words(self, field: str, value: Any) -> str | None:
        """The label of one step of :meth:`choice_steps` on a seat's page, in the game's own words, or
        None (the default) for the generic ones (``"field value"``). The first step is the action's
        ``type``: its words are :meth:`type_words`."""
        return None

    #: The action types in players' words (``{"end_turn": "end the turn"}``), the first step of a seat's
    #: choices on its page; a type not named here reads as itself, its underscores as spaces.
    TYPE_WORDS: ClassVar[Mapping[str, str]] = {}

    def type_words(self, kind: Any) -> str:
        """An action type as a player names it (:data:`TYPE_WORDS`), the first step of a choice."""
        return self.TYPE_WORDS.get(kind, str(kind).replace("_", " ")) if isinstance(kind, str) else words(kind)

    def legal_now(self) -> list[Action]:
        """The engine's legal actions in the position now, listed once per position.

        A press, the prompt, the pixels and the seats' pages all ask for them; the position is the
        log's length and its last entry (an undo then another action makes a new entry, so a new
        position). Callers must not change the list.
        """
        return position_memo(self, "_legal_memo", self.game.legal_actions)

    def candidates(self) -> list[Action] | None:
        """The legal actions still consistent with what the keys chose so far (the face's
        :class:`~tablelight.table.picker.Picker`), or None when nothing is chosen (every legal
        action). A seat's page lists these, so the board's keys and a phone narrow one choice."""
        return None

    def narrow(self, chosen: dict[str, Any]) -> Outcome:
        """A seat's page chose part of an action: ``chosen`` maps fields to whole values as in a
        legal action (``{"type": "place", "card": "c12"}``). Take it as the keys would have chosen
        it, so the board's LEDs show it; ``{}`` forgets the choice. Must not change the game; a
        choice no legal action agrees with is refused and changes nothing. Default: the face
        takes no partial choice (only whole actions, applied through the table)."""
        if not chosen:
            self.reset()
            return Outcome("choice cleared")
        return Outcome("this board takes whole choices only: choose one action", refused=True)

    def drawing(self, seat: int | None) -> str | None:
        """The game's own picture for people: an SVG (a string whose ``viewBox`` scales it to the page's
        width) of its map and pieces as ``seat`` may see them, or None for a game without one yet.

        ``seat`` None is the shared page: public state only, never a hidden card (like
        :meth:`pixels`). A seat's drawing may show that seat's own hand and where its chosen card fits.
        Tappable things carry ``data-pick`` (a JSON object of action fields, as in
        :meth:`choice_steps`, by which the seat's page narrows its choices) and every named thing a
        ``data-name`` (what it is, in words). Shared helpers: :mod:`tablelight.table.drawing`."""
        return None

    def dice_rolls(self, entries: Sequence[LogEntry]) -> list[DiceRoll]:
        """Rolls among new log ``entries`` for the board to animate (none for a game without dice)."""
        return []

    def words_private(self, seat: int) -> bool | None:
        """Whether what ``seat`` is told now (prompts, press feedback) may name hidden information.

        None (the default): whenever the game has secrets (its engine declares ``has_secrets``);
        a face whose game hides things only at times (Farside's missions) says when."""
        return None

    def secret_sections(self, seat: int, view: dict[str, Any]) -> list[tuple[str, str | list[str]]] | None:
        """(title, text or lines) for a seat's page: what ``seat`` alone sees, in the game's own words
        (``view`` is ``game.view(seat)``). None (the default): the page lists what its view shows
        that another seat's does not."""
        return None

    def led_labels(self) -> dict[int, str]:
        """LED -> the name of the place it lights, for the terminal drawing (none: unlabelled)."""
        return {}

    def led_counts(self) -> dict[int, int]:
        """LED -> a number the board shows only as brightness (Farlander's units), public like
        :meth:`pixels`: the terminal drawing writes it as digits (none by default)."""
        return {}

    def place_labels(self) -> dict[int, str]:
        """LED -> the name actions and messages use for the place it lights, for the seat pages'
        board picture (which has room for more names than the terminal). Default: :meth:`led_labels`."""
        return self.led_labels()

    def place_keys(self) -> dict[str, int]:
        """Place name -> a key that selects it, for typed input (none: only key names and menus)."""
        return {}

    @classmethod
    def guide(cls) -> list[tuple[str, str]]:
        """The game's rules guide for players: (title, text) sections, read from ``guide.json`` in
        the face's own folder (the game's package): the goal, how a turn goes, scoring, each action.
        A game without one has none (``[]``); a damaged file is one clear error naming it."""
        package = cls.__module__.rpartition(".")[0]
        found = resources.files(package).joinpath(GUIDE_FILE) if package else None
        if found is None or not found.is_file():
            return []
        return parse_guide(found.read_text(encoding="utf-8"), f"{package}/{GUIDE_FILE}")

    def describe_entry(self, entry: Mapping[str, Any], seat: int | None = None) -> str | None:
        """A chance entry of the log in words for the log pages show, or None to leave it out (a
        face whose action words already tell the roll). ``seat`` None: for everyone, so what only
        some seats may see is left out; else for that seat (``entry`` as its ``view_log`` gives
        it: a value it may not see is None). Default: the chance kind and its value in words."""
        kind = str(entry.get("chance", "")).replace("_", " ")
        value = entry.get("value")
        who = f" for {self.seat_word(entry['seat'])}" if isinstance(entry.get("seat"), int) else ""
        if value is None or entry.get("hidden"):
            return f"{kind}{who}: drawn in secret"
        return f"{kind}{who}: {words(value)}"

    def seat_word(self, seat: int) -> str:
        """A seat by its colour (``"red"``), or ``"seat N"`` when the face names no colours."""
        names = self.seat_names
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    def seats_in_words(self, text: str) -> str:
        """``text`` (an engine's reason, "seat 1 holds no 'wool'") with each ``seat N`` named as players
        name it ("blue holds no 'wool'"): the engines keep seat numbers (records, replays); the words
        a player reads name colours. A face with no colours leaves ``text`` as it is."""
        return SEAT_NUMBER.sub(lambda found: self.seat_word(int(found.group(1))), text)

    def page_prompt(self, seat: int) -> str:
        """What the seat to act should do now, on its own page (a phone: it taps the drawing or a
        choice, it has no board keys). Default: :meth:`prompt`, for a game whose prompt names no key."""
        return self.prompt(seat)


#: The rules guide's file in a game's folder (see :meth:`GameFace.guide`).
GUIDE_FILE = "guide.json"


def parse_guide(text: str, where: str) -> list[tuple[str, str]]:
    """``{"sections": [{"title", "text"}, ...]}`` -> [(title, text)]; one clear error naming ``where``."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise SetupError(f"{where} is not JSON: {error}") from None
    sections = data.get("sections") if isinstance(data, dict) else None
    if not isinstance(sections, list):
        raise SetupError(f"{where} needs a list \"sections\"")
    out = []
    for index, section in enumerate(sections):
        if not (isinstance(section, dict) and isinstance(section.get("title"), str) and isinstance(section.get("text"), str)):
            raise SetupError(f"{where}: section {index} needs a \"title\" and a \"text\" (text)")
        out.append((section["title"], section["text"]))
    return out


def position_memo(face: Any, slot: str, work: Any) -> Any:
    """``work()``'s answer, kept in ``face``'s ``slot`` until the game's position changes."""
    log = face.game.log
    last = log[-1] if log else None
    kept = face.__dict__.get(slot)
    if kept is not None and kept[0] == len(log) and kept[1] is last:
        return kept[2]
    found = work()
    face.__dict__[slot] = (len(log), last, found)
    return found


def face_class(game_name: str) -> type[GameFace]:
    """The face class of a registered game; a clear error for a game without one."""
    cls = game_entry(game_name).face_class()
    if cls is None:
        known = ", ".join(name for name, entry in game_entries().items() if entry.face is not None)
        raise SetupError(f"{game_name} has no lit-board face yet; games with one: {known}")
    if not (isinstance(cls, type) and issubclass(cls, GameFace)):
        raise SetupError(f"the face of {game_name} ({game_entry(game_name).face}) is not a GameFace")
    return cls


def make_face(game: Game, layout_data: dict[str, Any] | None = None) -> GameFace:
    """The face for ``game`` on the given layout (default: the face's own layout)."""
    cls = face_class(game.name)
    if layout_data is None:
        from tablelight.table.layout import load_layout_data

        layout_data = load_layout_data(cls.default_layout)
    return cls(game, layout_data)
