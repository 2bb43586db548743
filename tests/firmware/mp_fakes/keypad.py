import simscript
import supervisor


class Event:
    def __init__(self, key_number=0, pressed=True, timestamp=None):
        self.key_number = key_number
        self.pressed = pressed
        self.timestamp = supervisor.ticks_ms() if timestamp is None else timestamp


class EventQueue:
    def get_into(self, event):
        for i in range(len(simscript.KEYS)):
            at, key, pressed = simscript.KEYS[i]
            if at <= simscript.loop:
                simscript.KEYS.pop(i)
                event.key_number = key
                event.pressed = pressed
                event.timestamp = supervisor.ticks_ms()
                return True
        return False


class KeyMatrix:
    def __init__(self, row_pins, column_pins, columns_to_anodes=True, interval=0.02, max_events=64):
        self.events = EventQueue()
