"""A seat's request, parsed once for every place: a whole action to apply or part of one to narrow by.

Every place a person's seat asks from sends the same request: the host's seat pages
(``POST /api/seat/N/act``), the browser table's own screen, a phone over a data channel, the
tests. Each hands ``(seat, what, body)`` to :func:`parse_request` (through
:meth:`tablelight.table.session.TableSession.request`), which checks it once and gives the
table's intent (:class:`Choose` or :class:`Narrow`), or raises :class:`RequestError`: one
sentence naming what is wrong, and nothing changes. ``what`` is ``"act"`` (body
``{"action": {...}, "at": log length}``) or ``"narrow"`` (body ``{"chosen": {field: value},
"at": log length}``). A seat and a log length are whole numbers: ``true`` is neither (in Python
``True`` is an ``int``, so :func:`tablelight.core.fields.is_whole` is the check).

The answer has one shape everywhere (:class:`Reply`): ``{"applied" | "narrowed": bool,
"message"}`` for a request the table took or refused, ``{"error"}`` for one that is not a
request at all.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tablelight.core.actions import Action
from tablelight.core.errors import MalformedActionError, TablelightError
from tablelight.core.fields import is_whole
from tablelight.table.intents import SEAT_PAGE, Answer, Choose, Narrow

ACT, NARROW = "act", "narrow"
#: what -> (the body's field, what it holds, the answer's key)
SHAPES = {ACT: ("action", "{...}", "applied"), NARROW: ("chosen", "{field: value, ...}", "narrowed")}


class RequestError(TablelightError):
    """A request that is not a seat's request: the sentence says what is wrong and where."""


def shape_words(what: str) -> str:
    field, shape, _ = SHAPES.get(what, SHAPES[ACT])
    return f'{{"{field}": {shape}, "at": log length}}'


def _short(value: Any) -> str:
    """``value`` as JSON writes it (``true``, ``null``, ``"x"``), cut short."""
    text = json.dumps(value, default=repr)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_seat(seat: Any) -> int:
    """``seat`` as a seat's index, or :class:`RequestError` (a bool or a text is no seat)."""
    if not is_whole(seat) or seat < 0:
        raise RequestError(f"'seat' must be a seat's number (0, 1, ...), not {_short(seat)}")
    return seat


def parse_request(seat: Any, what: Any, body: Any, source: str = SEAT_PAGE) -> Choose | Narrow:
    """The intent of ``seat``'s request ``what`` with ``body``, or :class:`RequestError`."""
    seat = parse_seat(seat)
    if what not in SHAPES:
        raise RequestError(f"'what' must be \"act\" or \"narrow\", not {_short(what)}")
    field, _, _ = SHAPES[what]
    if not isinstance(body, dict):
        raise RequestError(f"send {shape_words(what)}, not {_short(body)}")
    at = body.get("at")
    if not is_whole(at) or at < 0:
        raise RequestError(f"'at' must be the log's length the choice was shown at (0, 1, ...), not {_short(at)}: "
                           f"send {shape_words(what)}")
    value = body.get(field)
    if not isinstance(value, dict):
        raise RequestError(f"'{field}' must be a JSON object, not {_short(value)}: send {shape_words(what)}")
    if what == ACT:
        try:
            action = Action.parse(value, "the request's 'action'")
        except MalformedActionError as error:
            raise RequestError(error.message) from None
        return Choose(action, seat=seat, at=at, source=source)
    return Narrow(dict(value), seat=seat, at=at, source=source)


@dataclass(frozen=True)
class Reply:
    """The answer to a seat's request, the same in every place (see the module docstring)."""

    what: str
    done: bool = False
    message: str = ""
    rule: str | None = None
    error: str | None = None

    @classmethod
    def refused(cls, what: str, error: str) -> Reply:
        return cls(what, error=error)

    @classmethod
    def of(cls, what: str, answer: Answer) -> Reply:
        return cls(what, answer.done, answer.words or ("done" if answer.done else "refused"), answer.rule)

    def to_json(self) -> dict[str, Any]:
        if self.error is not None:
            return {"error": self.error}
        key = SHAPES.get(self.what, SHAPES[ACT])[2]
        return {key: self.done, "message": self.message, **({"rule": self.rule} if self.rule else {})}


def answer_request(send: Any, players: int, seat: Any, what: Any, body: Any, source: str = SEAT_PAGE) -> Reply:
    """Parse ``seat``'s request once and pass it through the table's door ``send`` (a table of
    ``players`` seats): the :class:`Reply` every place gives back."""
    shown = what if what in SHAPES else ACT
    try:
        intent = parse_request(seat, what, body, source)
    except RequestError as error:
        return Reply.refused(shown, str(error))
    if intent.seat is not None and intent.seat >= players:
        return Reply.refused(shown, f"there is no seat {intent.seat} at this table (seats 0-{players - 1})")
    return Reply.of(shown, send(intent))
