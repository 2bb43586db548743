"""Farside's face, part 1: menus over the engine's legal actions (next/prev/field/confirm)."""

from __future__ import annotations

from typing import Any

from tablelight.core.game import Action
from tablelight.games.farside.console import FarsideLayout
from tablelight.games.farside.engine import FarsideEncounter
from tablelight.table.face import SEAT_NAMES as ALL_SEAT_NAMES
from tablelight.table.face import GameFace, Outcome
from tablelight.table.picker import refusal

SEAT_NAMES = ALL_SEAT_NAMES[:2]
#: Order in which action fields are chosen in a menu (fields an action lacks are skipped).
FIELD_ORDER = (
    "type", "player", "name", "model", "zone", "action", "choice", "tokens", "group",
    "primary", "stratagem", "team_size", "die", "dice", "fails",
)
MENU_TITLES = {
    "spend": "spend an action point",
    "impact": "record impact tokens",
    "leave": "a model leaves the table",
    "group": "join the activation / pile in",
    "manoeuvre0": "red's manoeuvre",
    "manoeuvre1": "blue's manoeuvre",
    "roll": "the number of failed defence dice",
    "all": "every legal action",
}


def _order(value: Any, models: dict[str, int]) -> tuple[Any, ...]:
    """A sort key over mixed field values (model ids in army order, numbers before text)."""
    if value is None:
        return (0,)
    if isinstance(value, str) and value in models:
        return (1, models[value])
    if isinstance(value, (bool, int)):
        return (2, int(value))
    if isinstance(value, str):
        return (3, value)
    if isinstance(value, list):
        return (4, tuple(value))
    return (5, str(value))


class FarsideMenu(GameFace):
    """The choosing state of :class:`~tablelight.games.farside.face.FarsideFace`: the open menu."""

    default_layout = "farside"
    seat_names = SEAT_NAMES

    def __init__(self, game: FarsideEncounter, layout_data: dict[str, Any]) -> None:
        self.game = game
        self.layout = FarsideLayout(layout_data)
        self._model_rank = {mid: rank for rank, mid in enumerate(game.models)}
        self.menu: str | None = None
        self.choices: list[Action] = []
        self.index = 0
        self.focus = 0
        #: Physical dice being entered on the last-roll dice (dice = table).
        self.entry: list[int] = []
        #: True after a first press of advance that would lose action points.
        self.advance_armed = False

    def reset(self) -> None:
        self.menu = None
        self.choices = []
        self.index = 0
        self.focus = 0
        self.entry = []
        self.advance_armed = False

    def _open(self, menu: str, actions: list[Action]) -> Outcome:
        self.menu = menu
        self.choices = sorted(actions, key=self._sort_key)
        self.index = 0
        fields = self._varying_fields()
        self.focus = fields[0] if fields else 0
        more = " (next/prev to change" + (", field for the next field" if len(fields) > 1 else "") + ", confirm)"
        return Outcome(f"{MENU_TITLES[menu]}: {self._selected_words()}{more}")

    def _fields(self, action: Action) -> tuple[Any, ...]:
        return tuple(action.get(name) for name in FIELD_ORDER)

    def _sort_key(self, action: Action) -> tuple[Any, ...]:
        return tuple(_order(v, self._model_rank) for v in self._fields(action))

    def _varying_fields(self) -> list[int]:
        """Fields (positions in FIELD_ORDER) that can change from the current choice.

        Fields are chosen in order: field i can change if choices that agree with the
        current one on the fields before i differ in field i (an activation's model,
        then its simple/complex kind; a secure action has neither).
        """
        if not self.choices:
            return []
        current = self._fields(self.choices[self.index])
        rows = [self._fields(a) for a in self.choices]
        return [
            i for i in range(len(FIELD_ORDER))
            if len({repr(r[i]) for r in rows if r[:i] == current[:i]}) > 1
        ]

    @staticmethod
    def _field_name(position: int) -> str:
        return FIELD_ORDER[position].replace("_", " ")

    def _step(self, delta: int) -> Outcome:
        if self.menu is None:
            actions = self.game.legal_actions()
            if not actions:
                return Outcome("nothing can be done now", refused=True, flash=self.layout.leds_to_flash(["next" if delta > 0 else "prev"]))
            opened = self._open("all", actions)
            return opened
        focus = self.focus
        current = self._fields(self.choices[self.index])
        same_before = [i for i, a in enumerate(self.choices) if self._fields(a)[:focus] == current[:focus]]
        values: list[Any] = []
        for i in same_before:
            value = self._fields(self.choices[i])[focus]
            if value not in values:
                values.append(value)
        values.sort(key=lambda v: _order(v, self._model_rank))
        position = values.index(current[focus])
        wanted = values[(position + delta) % len(values)]
        candidates = [i for i in same_before if self._fields(self.choices[i])[focus] == wanted]

        def kept(i: int) -> int:
            # Prefer the choice that keeps the later fields as they were.
            row = self._fields(self.choices[i])
            return sum(1 for k in range(focus + 1, len(FIELD_ORDER)) if row[k] == current[k])

        self.index = max(candidates, key=lambda i: (kept(i), -i))
        if focus not in self._varying_fields():
            self.focus = min(self._varying_fields(), default=0)
        return Outcome(self._selected_words())

    def action_words(self, action: Action) -> str:
        """An action in words for the seat choosing it (the words module names secrets in full)."""
        return self.describe_action(action)

    def _selected_words(self) -> str:
        if not self.choices:
            return "nothing to choose"
        return self.action_words(self.choices[self.index])

    def _checked(self, action: Action, words: str, flash: list[str]) -> Outcome:
        """``action`` for the table if the engine allows it now, else a refusal with its reason."""
        if self.game.is_legal(action):
            return Outcome(words, action=action)
        return Outcome(self._reason(action), refused=True, flash=self.layout.leds_to_flash(flash))

    def _reason(self, action: Action, fallback: str = "not possible now") -> str:
        """The engine's reason for refusing ``action`` (``Game.check`` never changes the game)."""
        return refusal(self.game, action, with_rule=True) or fallback
