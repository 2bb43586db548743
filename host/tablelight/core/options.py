"""Game options: declared once per game, resolved and checked in one place.

A game lists its options as :class:`OptionSpec` values; the command line turns
them into flags (``--garrisons on``), ``rules serve`` accepts them as JSON, and
records store the resolved values so a replay never depends on defaults that
might change later.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.core.inputs import INT_LIMIT

_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


@dataclass(frozen=True)
class OptionSpec:
    """One game option.

    ``default`` is a value or a function of the number of players (Farlander's
    garrisons are on for 3-4 players and off for 2).
    """

    name: str
    kind: type
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None

    def default_for(self, players: int) -> Any:
        return self.default(players) if callable(self.default) else self.default

    def parse(self, value: Any) -> Any:
        """Turn a JSON or command-line value into the option's type, or raise SetupError."""
        kind = self.kind
        try:
            if kind is bool:
                if isinstance(value, bool):
                    parsed: Any = value
                elif str(value).lower() in _TRUE:
                    parsed = True
                elif str(value).lower() in _FALSE:
                    parsed = False
                else:
                    raise ValueError
            elif kind is int:
                if isinstance(value, bool):
                    raise ValueError
                parsed = int(value)
                if not -INT_LIMIT < parsed < INT_LIMIT:  # a stored record reads back (inputs.MAX_INT_DIGITS)
                    raise SetupError(f"option {self.name!r} must be a whole number between -2**63 and 2**63 "
                                     f"(exclusive), got one of {len(str(abs(parsed)))} digits")
            else:
                parsed = kind(value)
        except (TypeError, ValueError, OverflowError):
            expected = "on or off" if kind is bool else kind.__name__
            raise SetupError(f"option {self.name!r} must be {expected}, got {value!r}") from None
        if self.choices is not None and parsed not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise SetupError(f"option {self.name!r} must be one of {allowed}, got {value!r}")
        return parsed


def resolve_options(
    specs: tuple[OptionSpec, ...], players: int, given: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Fill defaults, parse values and reject unknown names."""
    if given is not None and not isinstance(given, Mapping):
        raise SetupError(f"options must be an object of name: value pairs, got {type(given).__name__}")
    given = dict(given or {})
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        allowed = ", ".join(sorted(known)) or "none"
        raise SetupError(f"unknown option(s) {', '.join(unknown)}; this game has: {allowed}")
    resolved: dict[str, Any] = {}
    for spec in specs:
        resolved[spec.name] = spec.parse(given[spec.name]) if spec.name in given else spec.default_for(players)
    return resolved


OptionDefault = Callable[[int], Any]
