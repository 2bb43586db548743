"""Key events waiting for the host's acknowledgement.

Each press or release gets a 16-bit sequence number; the board re-sends the pending ones until the
host acknowledges them (cumulatively), and the host applies each sequence number once.
The queue is a fixed ring: when it is full the oldest event is dropped and counted.
"""

import tablelight_wire as wire

QUEUE_SIZE = 32


class KeyQueue:
    def __init__(self) -> None:
        self.seqs = [0] * QUEUE_SIZE
        self.keys = bytearray(QUEUE_SIZE)
        self.pressed = bytearray(QUEUE_SIZE)
        self.times = [0] * QUEUE_SIZE
        self.head = 0  # index of the oldest pending event
        self.count = 0
        self.next_seq = 1
        self.dropped = 0

    def push(self, key: int, pressed: bool, board_ms: int) -> int:
        if self.count == QUEUE_SIZE:
            self.head = (self.head + 1) % QUEUE_SIZE
            self.count -= 1
            self.dropped += 1
        at = (self.head + self.count) % QUEUE_SIZE
        seq = self.next_seq
        self.seqs[at] = seq
        self.keys[at] = key
        self.pressed[at] = 1 if pressed else 0
        self.times[at] = board_ms
        self.count += 1
        self.next_seq = wire.seq_next(seq)
        return at

    def ack(self, seq: int) -> None:
        """Forget every pending event up to and including ``seq``."""
        while self.count and not wire.seq_after(self.seqs[self.head], seq):
            self.head = (self.head + 1) % QUEUE_SIZE
            self.count -= 1

    def oldest_seq(self) -> int:
        """The sequence number the host should expect next."""
        return self.seqs[self.head] if self.count else self.next_seq

    def frame_at(self, position: int) -> bytes:
        """The KEY frame of the pending event ``position`` places after the oldest."""
        at = (self.head + position) % QUEUE_SIZE
        return wire.encode_key(self.seqs[at], self.keys[at], self.pressed[at] == 1, self.times[at])
