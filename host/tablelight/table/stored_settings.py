"""The table settings kept with a game (``tablelight resume``), checked where they are read.

The store keeps them as JSON that anyone can edit (or damage): each value is checked against
what its command-line flag accepts, so a nested object, a list for ``board``, text for
``bot_delay`` or a delay of a billion seconds is one clear error naming the setting and the flag
that overrides it, never a traceback or a hang, and nothing is stored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.core.fields import is_number, is_whole_in

#: Must match cli/table_run.py's flags: --view choices, --bot-delay range, --host-link choices.
VIEWS = ("terminal", "web", "both", "none")
HOST_LINKS = ("file", "terminal")
MAX_BOT_DELAY_S = 3600
MAX_TEXT = 4096  # a port name, an address or a file path


class StoredSettingsError(SetupError):
    """A stored table setting that the flag it stands for would refuse."""


def _text_or_none(value: Any) -> bool:
    return value is None or (isinstance(value, str) and 0 < len(value) <= MAX_TEXT and "\x00" not in value)


#: setting -> (check, what it must be)
CHECKS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "board": (lambda v: isinstance(v, str) and 0 < len(v) <= MAX_TEXT and "\x00" not in v,
              "sim, auto, none or a port name"),
    "view": (lambda v: v is None or v in VIEWS, "one of " + ", ".join(VIEWS)),
    "web_port": (lambda v: is_whole_in(v, 0, 65535), "a whole number 0-65535"),
    "share": (_text_or_none, "lan or an address"),
    "host_link": (lambda v: v in HOST_LINKS, "file or terminal"),
    "https": (lambda v: isinstance(v, bool), "true or false"),
    "https_cert": (_text_or_none, "a file name"),
    "https_key": (_text_or_none, "a file name"),
    "bot_delay": (lambda v: is_number(v) and 0 <= v <= MAX_BOT_DELAY_S, f"seconds, 0-{MAX_BOT_DELAY_S}"),
    "brightness": (lambda v: v is None or (is_number(v) and 0 <= v <= 1), "a number 0.0-1.0"),
}


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_settings(stored: Any, used: set[str]) -> dict[str, Any]:
    """``stored`` (as read from the store) checked for the settings in ``used`` (those no flag
    overrides); returns it. Raises :class:`StoredSettingsError` naming the first bad one."""
    if not isinstance(stored, dict):
        raise StoredSettingsError(f"the game's stored table settings are not an object ({type(stored).__name__})")
    for name in sorted(used & set(stored)):
        check, wanted = CHECKS[name]
        value = stored[name]
        if not check(value):
            flag = "--" + name.replace("_", "-")
            raise StoredSettingsError(
                f"the game's stored setting {name} is {_shown(value)}, not {wanted}: "
                f"give {flag} to `tablelight resume` to replace it")
    return stored
