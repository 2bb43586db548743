"""Actions and log entries as typed, immutable values, parsed once where they come in.

An :class:`Action` is what a seat does, ``{"type": "place", "territory": "a1"}``; a game's log
holds :class:`ActionEntry` values (a seat's action, or a forced skip the engine took) and
:class:`ChanceEntry` values (one chance outcome and where it was drawn). On the wire and in
records they stay the plain JSON objects they always were: ``json.dumps`` writes them unchanged,
key order included, so a record written today is byte-identical to one written before they
were typed.

Why dict subclasses, not classes with slots: the engines build and read thousands of actions per
second (``tablelight bench rules``); a dict subclass whose mutators raise keeps reads close to dict
speed (``action["edge"]``, ``action.get("card")``), costs one subclass call to build, and passes through
``json.dumps``, ``==`` against plain dicts and the engines' own shape checks (``isinstance(x, dict)``)
unchanged. The price, measured with callgrind: a subclass instance is tracked by the garbage collector
(a plain dict of strings and numbers is not) and the interpreter does not specialise reads on it, so a
random Landover game runs 5.9% more instructions than with plain dicts (7.7% before its builds and
raids were made once and shared, ``landover.rules.build_action``; about half of it is the collector);
Farlander and Mainland 0.3% more, Farside fewer (its listing checks each candidate once). What a slotted class would add --
attributes per field -- collides with field names that are also dict methods (Landover's trade has
``get``) and would make every engine's ``action["..."]`` a Python-level call, so fields are read by
key and only the parts every value has are properties (:attr:`Action.type`, :attr:`ActionEntry.seat`,
:attr:`ChanceEntry.kind`...).

Every value is immutable all the way down (nested objects are :class:`FrozenDict`, arrays
:class:`FrozenList`), hashable, and shared rather than copied by ``copy.deepcopy`` (a game's clone).
Building one is shallow and trusts its values: engines pass strings, numbers and frozen values.
Anything from outside goes through :meth:`Action.parse` or :func:`parse_log_entry`, which check the
JSON shape once and freeze what they keep; a value that is not a JSON object raises one
:class:`~tablelight.core.errors.MalformedActionError` naming what and where. Whether the action
makes sense for the game (its type, its fields) stays the engine's question, answered with the
engine's own rule ids.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NoReturn, Union

from tablelight.core.errors import MalformedActionError
from tablelight.core.fields import is_whole

#: Deeper JSON than this is refused (the input reader refuses deeper text too).
MAX_DEPTH = 64
#: JSON values that are immutable as they are.
_SCALARS = frozenset((str, int, float, bool, type(None)))


def _immutable(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(f"{type(self).__name__} is immutable: build a new one instead")


class FrozenDict(dict[str, Any]):
    """A JSON object that cannot change: a dict whose mutators raise ``TypeError``; hashable."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _immutable
    clear = pop = popitem = setdefault = update = _immutable

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: Any) -> FrozenDict:
        return self  # immutable all the way down: a clone may share it

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (dict(self),)

    def to_json(self) -> dict[str, Any]:
        """A plain, mutable copy (dicts and lists all the way down)."""
        return thaw(self)


class FrozenList(list[Any]):
    """A JSON array that cannot change: a list whose mutators raise ``TypeError``; hashable."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _immutable
    append = extend = insert = pop = remove = reverse = sort = clear = _immutable

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self))

    def __copy__(self) -> FrozenList:
        return self

    def __deepcopy__(self, memo: Any) -> FrozenList:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (list(self),)


class Action(FrozenDict):
    """One move, a JSON object with a ``"type"``: ``Action(type="place", territory="a1")``.

    Equal to the plain dict with the same content; its JSON form is that dict. Build one from
    trusted parts with the constructor (as ``dict``), or from outside input with :meth:`parse`.
    """

    __slots__ = ()

    @property
    def type(self) -> Any:
        """The action's type (a string in every well-formed action; the engine checks it)."""
        return self.get("type")

    def replace(self, **changes: Any) -> Action:
        """A copy with some fields changed (``None`` values are kept: JSON null is a value)."""
        return Action({**self, **{key: freeze(value) for key, value in changes.items()}})

    @classmethod
    def parse(cls, value: Any, where: str = "the action") -> Action:
        """``value`` as an Action, or :class:`MalformedActionError` (rule ``action.shape``) naming ``where``."""
        if type(value) is cls:
            return value
        if not isinstance(value, Mapping):
            raise MalformedActionError(
                "action.shape", f"{where} must be a JSON object such as {{\"type\": ...}}, got {_short(value)}"
            )
        return cls(_frozen_fields(value, where, 1))


class ActionEntry(FrozenDict):
    """A log entry holding a seat's action: ``{"seat": 0, "action": {...}}``, with ``"auto": true``
    when the engine took it for a seat that had no choice (a forced skip)."""

    __slots__ = ()

    @property
    def seat(self) -> int | None:
        """The seat that acted (``None`` only in a record that left it out)."""
        return self.get("seat")

    @property
    def action(self) -> Action:
        return self["action"]

    @property
    def auto(self) -> bool:
        """True for a forced skip the engine made; False for a seat's own choice."""
        return bool(self.get("auto"))


class ChanceEntry(FrozenDict):
    """A log entry holding one chance outcome: ``{"chance": kind, **context, "value": value}``."""

    __slots__ = ()

    @classmethod
    def make(cls, kind: str, value: Any, context: Mapping[str, Any]) -> ChanceEntry:
        """The entry for an outcome the engine drew (its own values: frozen here, not checked)."""
        if type(value) in _SCALARS:
            if not context:  # a die, who starts: most draws
                return cls(chance=kind, value=value)
            for item in context.values():
                if type(item) not in _SCALARS:
                    break
            else:  # a card drawn for a seat...: nothing to freeze
                return cls({"chance": kind, **context, "value": value})
        fields = {"chance": kind, **context, "value": value}
        for key, item in fields.items():
            if type(item) not in _SCALARS:
                fields[key] = freeze(item)
        return cls(fields)

    @property
    def kind(self) -> str:
        return self["chance"]

    @property
    def value(self) -> Any:
        return self.get("value")

    @property
    def context(self) -> dict[str, Any]:
        """Where the outcome was drawn (a phase, a seat...): every field but the kind and the value."""
        return {k: v for k, v in self.items() if k not in ("chance", "value")}


LogEntry = Union[ActionEntry, ChanceEntry]


def parse_log_entry(value: Any, where: str = "the log entry") -> LogEntry:
    """A record's log entry as a typed value, or :class:`MalformedActionError` naming ``where``.

    An action entry is ``{"seat": n, "action": {...}}`` with an optional ``"auto": true/false``;
    a chance entry is ``{"chance": kind, ..., "value": v}``. An entry is one or the other.
    """
    if type(value) is ActionEntry or type(value) is ChanceEntry:
        return value
    if not isinstance(value, Mapping) or not (("chance" in value) ^ ("action" in value)):
        raise MalformedActionError(
            "log.shape", f"{where} is neither a chance entry nor an action entry: {_short(value)}"
        )
    if "chance" in value:
        if not isinstance(value["chance"], str):
            raise MalformedActionError(
                "log.shape", f"{where}: 'chance' must be a string, got {_short(value['chance'])}"
            )
        return ChanceEntry(_frozen_fields(value, where, 1))
    extra = sorted(set(value) - {"seat", "action", "auto"})
    if extra:
        raise MalformedActionError("log.shape", f"{where}: an action entry has no field {extra[0]!r}")
    if "seat" in value and not is_whole(value["seat"]):
        raise MalformedActionError("log.shape", f"{where}: 'seat' must be a whole number, got {_short(value['seat'])}")
    if "auto" in value and not isinstance(value["auto"], bool):
        raise MalformedActionError("log.shape", f"{where}: 'auto' must be true or false, got {_short(value['auto'])}")
    fields = dict(value)
    fields["action"] = Action.parse(value["action"], f"{where}'s action")
    return ActionEntry(fields)


def freeze(value: Any) -> Any:
    """A JSON value made immutable (dicts to :class:`FrozenDict`, lists to :class:`FrozenList`).

    Trusted values only (an engine's own): a value that is not JSON is a ``TypeError``.
    """
    if type(value) in _SCALARS:
        return value
    try:
        return _frozen(value, "the value", 1)
    except MalformedActionError as error:
        raise TypeError(error.message) from None


def thaw(value: Any) -> Any:
    """A frozen JSON value as plain, mutable dicts and lists."""
    if isinstance(value, dict):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, list):
        return [thaw(v) for v in value]
    return value


def _frozen_fields(value: Mapping[Any, Any], where: str, depth: int) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for key, item in value.items():
        if not isinstance(key, str):
            raise MalformedActionError("action.shape", f"{where}: field names are strings, got {_short(key)}")
        fields[key] = _frozen(item, f"{where}, field {key!r}", depth + 1)
    return fields


def _frozen(value: Any, where: str, depth: int) -> Any:
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise MalformedActionError("action.shape", f"{where}: {value!r} is not a JSON number")
        return value
    if depth > MAX_DEPTH:
        raise MalformedActionError("action.shape", f"{where}: nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, (FrozenDict, FrozenList)):
        return value
    if isinstance(value, Mapping):
        return FrozenDict(_frozen_fields(value, where, depth))
    if isinstance(value, list):
        return FrozenList(_frozen(item, f"{where}[{index}]", depth + 1) for index, item in enumerate(value))
    raise MalformedActionError("action.shape", f"{where}: {_short(value)} is not a JSON value")


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
