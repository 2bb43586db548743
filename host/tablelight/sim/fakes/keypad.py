# mypy: ignore-errors
# (a stand-in for a CircuitPython module, imported top-level in the simulated board; the real
#  module's types come from circuitpython-stubs, which this file only imitates)
"""Fake keypad: KeyMatrix whose key transitions come from the SimBoard's control channel."""

import _simctl
import supervisor


class Event:
    def __init__(self, key_number: int = 0, pressed: bool = True, timestamp=None) -> None:
        self.key_number = key_number
        self.pressed = pressed
        self.released = not pressed
        self.timestamp = supervisor.ticks_ms() if timestamp is None else timestamp


class EventQueue:
    def __init__(self, key_count: int, max_events: int) -> None:
        self._events: list = []
        self._key_count = key_count
        self._max = max_events
        self.overflowed = False

    def _pull(self) -> None:
        for key, pressed in _simctl.read_keys():
            if 0 <= key < self._key_count:
                if len(self._events) >= self._max:
                    self.overflowed = True
                else:
                    self._events.append((key, pressed, supervisor.ticks_ms()))

    def get_into(self, event: Event) -> bool:
        self._pull()
        if not self._events:
            return False
        event.key_number, event.pressed, event.timestamp = self._events.pop(0)
        event.released = not event.pressed
        return True

    def get(self):
        event = Event()
        return event if self.get_into(event) else None

    def __len__(self) -> int:
        return len(self._events)


class KeyMatrix:
    def __init__(self, row_pins, column_pins, columns_to_anodes: bool = True, interval: float = 0.02,
                 max_events: int = 64, debounce_threshold: int = 1) -> None:
        self.key_count = len(row_pins) * len(column_pins)
        self.events = EventQueue(self.key_count, max_events)

    def deinit(self) -> None:
        pass
