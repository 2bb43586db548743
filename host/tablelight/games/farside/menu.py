"""Farside's face, part 1: menus over the engine's legal actions (next/prev/field/confirm).

A key opens a menu: the legal actions of one kind (spend, impact...). The console has no key per
value, so a menu keeps a selection (one of its actions) that ``next``/``prev`` change field by
field; ``field`` moves on to the next field, fixing the ones before it. The fixed fields are the
shared :class:`~tablelight.table.picker.Picker`'s choice: the menu's actions narrowed by them are
the candidates a seat's page lists, and a page's partial choice opens the menu on them
(:meth:`FarsideMenu.narrow`).
"""

from __future__ import annotations

from typing import Any

from tablelight.core.game import Action
from tablelight.games.farside.console import FarsideLayout
from tablelight.games.farside.engine import FarsideEncounter
from tablelight.table.face import SEAT_NAMES as ALL_SEAT_NAMES
from tablelight.table.face import GameFace, Outcome
from tablelight.table.picker import Picker, refusal

SEAT_NAMES = ALL_SEAT_NAMES[:2]
#: Order in which action fields are chosen in a menu (fields an action lacks are skipped).
FIELD_ORDER = (
    "type", "player", "name", "model", "loot", "zone", "action", "choice", "tokens", "group",
    "primary", "stratagem", "team_size", "die", "chosen", "dice", "fails",
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


def menu_of(action: Action) -> str:
    """The menu a console key opens that lists ``action`` (``"all"``: only the list of every action)."""
    kind = action.get("type")
    if kind in ("activate", "secure"):
        return "group" if action.get("group") else "spend"
    if kind == "manoeuvre":
        return f"manoeuvre{action.get('player')}"
    return {"pile_in": "group", "impact": "impact", "break_through": "leave", "loot": "leave"}.get(str(kind), "all")


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
        #: The menu's actions narrowed by the fields fixed before the one being changed (``focus``).
        self.picker = Picker(lambda: self.choices, FIELD_ORDER)
        #: Physical dice being entered on the last-roll dice (dice = table).
        self.entry: list[int] = []
        #: True after a first press of advance that would lose action points.
        self.advance_armed = False

    def reset(self) -> None:
        self.menu = None
        self.choices = []
        self.index = 0
        self.focus = 0
        self.picker.reset()
        self.entry = []
        self.advance_armed = False

    def _open(self, menu: str, actions: list[Action]) -> Outcome:
        self.menu = menu
        self.choices = sorted(actions, key=self._sort_key)
        self.index = 0
        fields = self._varying_fields()
        self.focus = fields[0] if fields else 0
        self._fix_before_focus()
        more = " (next/prev to change" + (", field for the next field" if len(fields) > 1 else "") + ", confirm)"
        return Outcome(f"{MENU_TITLES[menu]}: {self._selected_words()}{more}")

    def _sort_key(self, action: Action) -> tuple[Any, ...]:
        return tuple(_order(action.get(name), self._model_rank) for name in FIELD_ORDER)

    def _agreeing(self, position: int) -> list[Action]:
        """The menu's actions that agree with the selection on every field before ``position``."""
        current = self.choices[self.index]
        narrowed = Picker(lambda: self.choices, FIELD_ORDER)
        narrowed.chosen = {name: current.get(name) for name in FIELD_ORDER[:position]}
        return narrowed.candidates()

    def _varying_fields(self) -> list[int]:
        """Fields (positions in FIELD_ORDER) that can change from the current choice.

        Fields are chosen in order: field i can change if choices that agree with the
        current one on the fields before i differ in field i (an activation's model,
        then its simple/complex kind; a secure action has neither).
        """
        if not self.choices:
            return []
        return [
            i for i, name in enumerate(FIELD_ORDER)
            if len({repr(a.get(name)) for a in self._agreeing(i)}) > 1
        ]

    def _fix_before_focus(self) -> None:
        """The picker holds the selection's fields before the focus: what the keys fixed so far."""
        self.picker.reset()
        if self.choices:
            current = self.choices[self.index]
            self.picker.chosen = {name: current.get(name) for name in FIELD_ORDER[: self.focus]}

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
        name = FIELD_ORDER[self.focus]
        current = self.choices[self.index]
        self._fix_before_focus()
        agreeing = self.picker.candidates()
        values: list[Any] = []
        for action in agreeing:
            if action.get(name) not in values:
                values.append(action.get(name))
        values.sort(key=lambda v: _order(v, self._model_rank))
        wanted = values[(values.index(current.get(name)) + delta) % len(values)]
        later = FIELD_ORDER[self.focus + 1 :]

        def kept(action: Action) -> int:
            # Prefer the choice that keeps the later fields as they were.
            return sum(1 for k in later if action.get(k) == current.get(k))

        position = {id(a): i for i, a in enumerate(self.choices)}
        best = max((a for a in agreeing if a.get(name) == wanted), key=lambda a: (kept(a), -position[id(a)]))
        self.index = position[id(best)]
        if self.focus not in self._varying_fields():
            self.focus = min(self._varying_fields(), default=0)
        self._fix_before_focus()
        return Outcome(self._selected_words())

    def candidates(self) -> list[Action] | None:
        """The open menu's actions narrowed by the fields the keys fixed (None: no menu open)."""
        return None if self.menu is None else self.picker.candidates()

    def narrow(self, chosen: dict[str, Any]) -> Outcome:
        """A seat's page chose part of an action: open the menu a key would open for it (else the list
        of every legal action) on it, the fields it names fixed and the first field it leaves open to
        change with next/prev."""
        if self.game.current_seat() is None:
            return Outcome("the game is over", refused=True)
        if not chosen:
            self.reset()
            return Outcome("choice cleared")
        probe = Picker(self.game.legal_actions, FIELD_ORDER)
        if not probe.agree(chosen):
            return Outcome("no legal action agrees with that choice", refused=True)
        first = probe.candidates()[0]
        menus = {menu_of(a) for a in probe.candidates()}
        menu = menus.pop() if len(menus) == 1 else "all"  # the menu a key would open, when there is one
        self._open(menu, [a for a in self.game.legal_actions() if menu in ("all", menu_of(a))])
        self.index = next(i for i, a in enumerate(self.choices) if a == first)
        varying = self._varying_fields()
        open_fields = [i for i in varying if FIELD_ORDER[i] not in chosen]
        self.focus = open_fields[0] if open_fields else (varying[-1] if varying else 0)
        self._fix_before_focus()
        # said to the page that chose (not the board's menu and keys): how many of its choices are left
        left = len(probe.candidates())
        return Outcome(f"{self._selected_words()}" if left == 1 else f"{left} choices left: choose on")

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
