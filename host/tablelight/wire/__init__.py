"""The wire format, imported from the firmware's own files.

``tablelight.wire.format`` is a symbolic link to ``firmware/lib/tablelight_wire.py`` (the
messages) and ``tablelight.wire.framing`` one to ``firmware/lib/tablelight_wire_frame.py`` (COBS,
CRC, frames), which the messages file imports and passes on: host and board run the same bytes of
code, so the two sides cannot drift. (A wheel build copies the files' content;
``tests/wire/test_single_source.py`` checks that the links are intact.)
"""

from tablelight.wire import format as wire

__all__ = ["wire"]
