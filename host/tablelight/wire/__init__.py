"""The wire format, imported from the firmware's own file.

``tablelight.wire.format`` is a symbolic link to ``firmware/lib/tablelight_wire.py``: host and
board run the same bytes of code, so the two sides cannot drift. (A wheel build copies the
file's content; ``tests/wire/test_single_source.py`` checks that the link is intact.)
"""

from tablelight.wire import format as wire

__all__ = ["wire"]
