"""The input boundary: every JSON or TOML document read from outside comes in through here.

Records, maps, rosters, layouts, board files, settings and ``rules serve`` lines are parsed by
:func:`parse_json` / :func:`parse_toml` (or read by :func:`read_json_file` / :func:`read_toml_file`),
which refuse, with one :class:`InputError` naming the source and the place:

* more than ``max_bytes`` (a file) or a line over the limit (``rules serve``);
* bytes that are not UTF-8 (strict: no replacement characters sneak in);
* nesting deeper than ``max_depth`` (the standard parsers would recurse until RecursionError);
* integers of more than :data:`MAX_INT_DIGITS` digits (CPython refuses past 4,300 with a ValueError
  anyway, and nothing in a game needs more), and NaN or Infinity (not JSON; not a number a rule uses);
* duplicate keys in a JSON object (the standard parser silently keeps the last one).

What comes back is plain data (dict, list, str, int, float, bool, None) whose shape the caller
still checks, naming the field in its own error.
Nothing here changes anything: a refused input leaves every file and game as it was.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tablelight.core.errors import SetupError

#: Defaults: far above any real record (a long Landover game is ~200 kB) and far below trouble.
MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 64
#: An int beyond 40 digits is no seed, id, count or coordinate a game uses.
MAX_INT_DIGITS = 40
#: Seeds are 0 <= seed < SEED_LIMIT (63 bits, as a secret seed: every stored seed reads back), and a
#: whole-number game option lies strictly between -INT_LIMIT and INT_LIMIT.
SEED_LIMIT = 2**63
INT_LIMIT = 2**63

_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


class InputError(SetupError):
    """An input (file, line, option) that is refused; the message names the source and the place."""

    def __init__(self, source: str, message: str) -> None:
        super().__init__(f"{source}: {message}")
        self.source = source
        self.detail = message


def decode_utf8(data: bytes, source: str) -> str:
    """``data`` as UTF-8 text, or an :class:`InputError` naming the line and the byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise InputError(source, f"line {line}: byte {error.start} (0x{data[error.start]:02x}) is not UTF-8") from None


def read_bytes(path: str | Path, source: str | None = None, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of ``path`` (at most ``max_bytes``, refused past it without reading the rest)."""
    where = source or str(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise InputError(where, "no such file") from None
    except IsADirectoryError:
        raise InputError(where, "is a folder, not a file") from None
    except OSError as error:
        raise InputError(where, f"cannot read it: {error.strerror or error}") from None
    if len(data) > max_bytes:
        raise InputError(where, f"is larger than {max_bytes} bytes")
    return data


def read_text(path: str | Path, source: str | None = None, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of ``path``, with the limits of :func:`read_bytes`."""
    return decode_utf8(read_bytes(path, source, max_bytes), source or str(path))


# ---------------------------------------------------------------------------------- JSON


def _check_json_depth(text: str, source: str, max_depth: int) -> None:
    """Refuse nesting deeper than ``max_depth`` before the parser recurses into it."""
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > max_depth:
                line = text.count("\n", 0, match.start()) + 1
                raise InputError(source, f"line {line}: nested deeper than {max_depth} levels")
        elif token in "]}":
            depth -= 1


def _parse_int(token: str) -> int:
    digits = len(token.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {digits} digits (at most {MAX_INT_DIGITS})")
    return int(token)


def _parse_float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise ValueError(f"the number {token[:20]} is out of range")
    return value


def _refuse_constant(token: str) -> Any:
    raise ValueError(f"{token} is not a JSON number")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"the key {key!r} appears twice in one object")
        result[key] = value
    return result


def parse_json(
    text: str | bytes, source: str, *, max_bytes: int = MAX_FILE_BYTES, max_depth: int = MAX_DEPTH
) -> Any:
    """Parse one JSON document from outside; see the module docstring for what is refused."""
    if isinstance(text, bytes):
        if len(text) > max_bytes:
            raise InputError(source, f"is larger than {max_bytes} bytes")
        text = decode_utf8(text, source)
    elif len(text) > max_bytes:
        raise InputError(source, f"is longer than {max_bytes} characters")
    _check_json_depth(text, source, max_depth)
    try:
        return json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_refuse_constant,
            object_pairs_hook=_unique_keys,
        )
    except json.JSONDecodeError as error:
        raise InputError(source, f"line {error.lineno} column {error.colno}: not valid JSON ({error.msg})") from None
    except (ValueError, RecursionError) as error:
        raise InputError(source, str(error)) from None  # a hook refused a value


# ---------------------------------------------------------------------------------- TOML


def parse_toml(
    text: str | bytes, source: str, *, max_bytes: int = MAX_FILE_BYTES, max_depth: int = MAX_DEPTH
) -> dict[str, Any]:
    """Parse one TOML document from outside, with the same limits as :func:`parse_json`."""
    if isinstance(text, bytes):
        if len(text) > max_bytes:
            raise InputError(source, f"is larger than {max_bytes} bytes")
        text = decode_utf8(text, source)
    elif len(text) > max_bytes:
        raise InputError(source, f"is longer than {max_bytes} characters")
    try:
        data = tomllib.loads(text, parse_float=_parse_float)
    except tomllib.TOMLDecodeError as error:
        raise InputError(source, f"not valid TOML: {error}") from None
    except RecursionError:
        raise InputError(source, f"nested deeper than {max_depth} levels") from None
    except ValueError as error:  # an integer past CPython's digit limit, inf or nan
        raise InputError(source, f"{error}") from None
    check_plain(data, source, max_depth)
    return data


# ---------------------------------------------------------------------------------- shapes


def check_plain(value: Any, source: str, max_depth: int = MAX_DEPTH) -> None:
    """Refuse over-deep nesting, over-long ints and non-finite floats in parsed data (no recursion)."""
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, where, depth = stack.pop()
        if depth > max_depth:
            raise InputError(source, f"{where or 'the document'} is nested deeper than {max_depth} levels")
        if isinstance(item, bool) or item is None or isinstance(item, str):
            continue
        if isinstance(item, int):
            if item.bit_length() > MAX_INT_DIGITS * 3.33:
                raise InputError(source, f"{where}: an integer of more than {MAX_INT_DIGITS} digits")
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise InputError(source, f"{where}: {item} is not a finite number")
        elif isinstance(item, dict):
            stack.extend((v, f"{where}.{k}" if where else str(k), depth + 1) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, f"{where}[{i}]", depth + 1) for i, v in enumerate(item))


def read_json_file(path: str | Path, *, max_bytes: int = MAX_FILE_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON document in ``path``, through :func:`parse_json`."""
    return parse_json(read_bytes(path, str(path), max_bytes), str(path), max_bytes=max_bytes, max_depth=max_depth)


def read_toml_file(path: str | Path, *, max_bytes: int = MAX_FILE_BYTES) -> dict[str, Any]:
    """The TOML document in ``path``, through :func:`parse_toml`."""
    return parse_toml(read_bytes(path, str(path), max_bytes), str(path), max_bytes=max_bytes)


# ---------------------------------------------------------------------------------- options


def number_in_range(low: float, high: float, *, whole: bool = False) -> Callable[[str], Any]:
    """An argparse ``type`` accepting a finite number (a whole one with ``whole``) in low..high."""

    def parse(text: str) -> float | int:
        try:
            value: float | int = int(text, 10) if whole else float(text)
        except ValueError:
            kind = "a whole number" if whole else "a number"
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not {kind}") from None
        if not ((whole or math.isfinite(value)) and low <= value <= high):
            shown = f"{low:g}-{high:g}" if not whole else f"{int(low)}-{int(high)}"
            given = text if len(text) <= 40 else f"a number of {len(text.strip().lstrip('+-'))} digits"
            raise argparse.ArgumentTypeError(f"{given} is outside {shown}")
        return value

    parse.__name__ = "whole number" if whole else "number"  # argparse names the type in its error
    return parse


#: The ``type`` of every ``--seed``: a whole number 0 <= seed < 2**63 (:data:`SEED_LIMIT`).
seed_argument = number_in_range(0, SEED_LIMIT - 1, whole=True)


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_CONTROL_BUT_LINES = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str, *, lines: bool = False) -> str:
    """``text`` from a file (a map id, a roster name) safe to print on a terminal: control
    characters (escape codes, carriage returns, bells; C0, DEL and C1) shown escaped, as ``\\x1b``;
    every other character kept. With ``lines`` (a whole report) newlines and tabs are kept too."""
    pattern = _CONTROL_BUT_LINES if lines else _CONTROL
    return pattern.sub(lambda match: f"\\x{ord(match.group()):02x}", str(text))
