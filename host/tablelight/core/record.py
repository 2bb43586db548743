"""Replaying game records.

A record is the JSON written by :meth:`Game.to_record`: a header (game, players,
seed, options), game-specific setup (a map), the log and, once over, the result.
:func:`replay` re-runs it through the engine and raises :class:`RecordError`
naming the first log entry that is not part of a legal game.

Chance entries are fed back to the engine in order (so a replay does not depend
on the generator, and physical dice replay too); the engine checks each is a
possible outcome of the draw it is making at that point. The record's ``format``
goes to the engine, which plays older formats under the readings they were written with. Forced skips may be
logged or left out; a logged skip must be one the engine would have made.
"""

from __future__ import annotations

from typing import Any

from tablelight.core.actions import ActionEntry, ChanceEntry, LogEntry, parse_log_entry
from tablelight.core.errors import IllegalActionError, RecordError, SetupError
from tablelight.core.game import ChanceMismatch, Game
from tablelight.core.registry import game_class

_HEADER_KEYS = {"game", "format", "players", "seed", "options", "log", "result"}


def _describe(entry: Any) -> str:
    try:
        import json

        return json.dumps(entry, sort_keys=True)
    except (TypeError, ValueError):
        return repr(entry)


def replay(record: Any) -> Game:
    """Re-run ``record`` and return the finished (or unfinished) game.

    Raises :class:`RecordError` with ``entry`` set to the index of the first
    offending log entry, or ``None`` for a bad header. The recorded ``result``,
    when present, must equal the engine's.
    """
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    try:
        cls = game_class(record.get("game"))  # type: ignore[arg-type]
    except SetupError as error:
        raise RecordError(str(error)) from None
    log = record.get("log")
    if not isinstance(log, list):
        raise RecordError("the record has no 'log' list")
    for key, kinds, shape in (("options", (dict, type(None)), "an object"), ("result", (dict, type(None)), "an object")):
        if not isinstance(record.get(key), kinds):
            raise RecordError(f"bad record header: {key!r} must be {shape}, got {_describe(record.get(key))}")
    log = parse_log(log)
    setup = {k: v for k, v in record.items() if k not in _HEADER_KEYS}
    chance = [e for e in log if isinstance(e, ChanceEntry)]
    try:
        game = cls(
            record.get("players"),  # type: ignore[arg-type]
            record.get("options") or {},
            record.get("seed", 0),
            setup=setup or None,
            chance=chance,
            record_format=record.get("format", 1),
        )
    except ChanceMismatch as error:
        where = _index_of(log, error.entry)
        raise RecordError(f"log entry {where}: {error}", where) from None
    except SetupError as error:
        raise RecordError(f"bad record header: {error}") from None

    produced = 0  # entries of game.log already matched against the record
    for index, entry in enumerate(log):
        if isinstance(entry, ChanceEntry):
            if produced < len(game.log) and _same(game.log[produced], entry):
                produced += 1
                continue
            expected = _describe(game.log[produced]) if produced < len(game.log) else "a player action"
            raise RecordError(
                f"log entry {index} {_describe(entry)} does not match the game: expected {expected}", index
            )
        # Forced skips the engine made may be logged or left out of the record.
        matched = _match_auto(game.log, produced, entry)
        if matched is not None:
            produced = matched
            continue
        while produced < len(game.log) and _is_auto(game.log[produced]):
            produced += 1
        if produced != len(game.log):
            raise RecordError(
                f"log entry {index} {_describe(entry)}: the log is missing {_describe(game.log[produced])} before it",
                index,
            )
        try:
            game.apply(entry.action, seat=entry.seat)
        except IllegalActionError as error:
            raise RecordError(
                f"log entry {index} {_describe(entry)} is illegal: {error.message} [{error.rule}]", index
            ) from None
        except ChanceMismatch as error:
            where = _index_of(log, error.entry)
            raise RecordError(f"log entry {where}: {error}", where) from None
        produced += 1
    # The record may stop after forced skips the engine made.
    while produced < len(game.log) and _is_auto(game.log[produced]):
        produced += 1
    if produced != len(game.log):
        raise RecordError(f"the log ends early: the game continues with {_describe(game.log[produced])}", len(log))
    leftover = game.undrawn_chance()
    if leftover is not None:
        raise RecordError(
            f"log entry {_index_of(log, leftover)}: chance outcome {_describe(leftover)} was never drawn",
            _index_of(log, leftover),
        )
    claimed = record.get("result")
    if claimed is not None:
        actual = game.result() if game.is_over() else None
        if actual is None:
            raise RecordError("the record claims a result but the game is not over", len(log))
        for key, value in claimed.items():
            if key in actual and actual[key] != value:
                raise RecordError(
                    f"the record's result {key} {_describe(value)} differs from the replay's {_describe(actual[key])}",
                    len(log),
                )
    return game


def parse_log(log: list[Any]) -> list[LogEntry]:
    """A record's log as typed entries, parsed once; :class:`RecordError` names the first bad entry."""
    parsed = []
    for index, entry in enumerate(log):
        try:
            parsed.append(parse_log_entry(entry, f"log entry {index}"))
        except IllegalActionError as error:
            raise RecordError(error.message, index) from None
    return parsed


def _is_auto(entry: LogEntry) -> bool:
    return isinstance(entry, ActionEntry) and entry.auto


def _match_auto(made: list[LogEntry], start: int, given: LogEntry) -> int | None:
    """If ``given`` is one of the engine's forced entries from ``start`` on, the index after it."""
    index = start
    while index < len(made) and _is_auto(made[index]):
        if _same(made[index], given):
            return index + 1
        index += 1
    return None


def _same(made: LogEntry, given: LogEntry) -> bool:
    if isinstance(given, ChanceEntry):
        return isinstance(made, ChanceEntry) and made.kind == given.kind and made.value == given.value
    return isinstance(made, ActionEntry) and made.seat == given.seat and made.action == given.action


def _index_of(log: list[LogEntry], entry: LogEntry | None) -> int | None:
    for index, candidate in enumerate(log):
        if candidate is entry:
            return index
    return None
