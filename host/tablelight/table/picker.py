"""Choosing an action by narrowing the engine's legal actions, one field at a time.

A face never builds an action by itself: it hands the engine's legal actions (all of them, or
those of the mode a button chose) to a :class:`Picker` and turns each key press into a
``(field, value)`` choice. The picker keeps what was chosen, says which legal actions still
agree (:meth:`Picker.candidates`), which field is still open, which values it may take, and
gives the one action left once every field is chosen. A phone page can list the same
candidates and :meth:`Picker.pick` one directly. List fields (a hand of cards to give) are
chosen item by item, as multisets; so are count fields (``{"a1": 2, "b3": 1}``: units from
each territory), one item per unit.

    picker = Picker(game.legal_actions, ("territory", "count"))
    picker.choose("territory", "a1")      # False (nothing changes) if no legal action agrees
    picker.options("count")               # the counts still possible
    picker.action()                       # the action once it is the only one left, else None
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tablelight.core.errors import IllegalActionError
from tablelight.core.game import Action, Game


def refusal(game: Game, action: Action, *, with_rule: bool = False) -> str | None:
    """The engine's own reason why ``action`` is refused now (its message, and ``[rule id]`` with
    ``with_rule``), or None when it is legal.

    This is the one way faces say "why": they ask :meth:`Game.check`, which never changes the game.
    """
    try:
        game.check(action)
    except IllegalActionError as error:
        return f"{error.message} [{error.rule}]" if with_rule else error.message
    return None


def _items(value: Any) -> Any:
    """A count field ``{"a1": 2}`` as its items ``["a1", "a1"]``; other values as they are."""
    if isinstance(value, dict):
        return [key for key, count in value.items() for _ in range(count)]
    return value


def _agrees(action: Action, chosen: dict[str, Any]) -> bool:
    for name, value in chosen.items():
        have = _items(action.get(name))
        if isinstance(value, list):
            if not isinstance(have, list) or any(have.count(x) < value.count(x) for x in value):
                return False
        elif have != value:
            return False
    return True


def _same(have: Any, chosen: Any) -> bool:
    have = _items(have)
    if isinstance(have, list):
        return isinstance(chosen, list) and sorted(have) == sorted(chosen)
    return bool(have == chosen)


class Picker:
    """Narrows ``source()`` (legal actions) by the field values chosen so far.

    ``fields`` names the fields a person chooses, in the order they are asked for; the
    other fields of an action (``type``...) are fixed by the actions the source gives.
    """

    def __init__(self, source: Callable[[], Sequence[Action]], fields: Sequence[str]) -> None:
        self.source = source
        self.order = tuple(fields)
        #: field -> value chosen (a list for list fields, items chosen so far).
        self.chosen: dict[str, Any] = {}

    def reset(self) -> None:
        self.chosen = {}

    def candidates(self) -> list[Action]:
        """The legal actions that agree with everything chosen so far."""
        return [a for a in self.source() if _agrees(a, self.chosen)]

    def fields(self, actions: Sequence[Action] | None = None) -> list[str]:
        """The fields a person chooses for these actions (default: the candidates), in order."""
        actions = self.candidates() if actions is None else actions
        if not actions:
            return []
        return [name for name in self.order if name in actions[0]]

    def is_complete(self, name: str, actions: Sequence[Action] | None = None) -> bool:
        """Whether field ``name`` is chosen in full (a list field: as a whole value of some candidate)."""
        value = self.chosen.get(name)
        if value is None:
            return False
        if isinstance(value, list):
            actions = self.candidates() if actions is None else actions
            return any(_same(a[name], value) for a in actions)
        return True

    def open_field(self, accept: Callable[[str], bool] | None = None) -> str | None:
        """The first field still to choose (the first that ``accept`` takes, when given)."""
        actions = self.candidates()
        for name in self.fields(actions):
            if not self.is_complete(name, actions) and (accept is None or accept(name)):
                return name
        return None

    def options(self, name: str) -> list[Any]:
        """The values ``name`` may still take (a list field: the single items that may be added)."""
        out: list[Any] = []
        for action in self.candidates():
            if name not in action:  # an action of another shape (the source mixes kinds)
                continue
            value = _items(action[name])
            if isinstance(value, list):
                rest = list(value)
                for x in self.chosen.get(name, []):
                    rest.remove(x)
                out += [x for x in dict.fromkeys(rest) if x not in out]
            elif value not in out:
                out.append(value)
        return out

    def is_list(self, name: str) -> bool:
        """Whether ``name`` is a list field (chosen item by item) among the candidates."""
        actions = self.candidates()
        return bool(actions) and isinstance(actions[0].get(name), (list, dict))

    def choose(self, name: str, value: Any) -> bool:
        """Choose ``value`` for ``name`` (add it, for a list field). False, changing nothing, if no
        candidate agrees."""
        if value not in self.options(name):
            return False
        if self.is_list(name):
            self.chosen[name] = list(self.chosen.get(name, [])) + [value]
        else:
            self.chosen[name] = value
        return True

    def action(self) -> Action | None:
        """The action chosen: every field complete and one candidate matching it in full, else None."""
        actions = self.candidates()
        if not actions or self.open_field() is not None:
            return None
        for candidate in actions:
            if all(_same(candidate[n], self.chosen[n]) for n in self.fields([candidate])):
                return candidate
        return None

    def agree(self, chosen: dict[str, Any]) -> bool:
        """Take a page's partial choice (field -> whole value, as in a legal action) in place of what
        was chosen. False, changing nothing, if no legal action agrees with it."""
        wanted = {name: _items(value) for name, value in chosen.items()}
        if not any(_agrees(a, wanted) for a in self.source()):
            return False
        self.chosen = wanted
        return True

    def pick(self, action: Action) -> bool:
        """Choose a whole candidate at once (a phone page listing :meth:`candidates`). False if it is not one."""
        for candidate in self.candidates():
            if candidate == action:
                self.chosen = {n: _items(candidate[n]) for n in self.fields([candidate])}
                return True
        return False
