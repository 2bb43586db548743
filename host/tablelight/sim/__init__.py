"""The simulated board: the real firmware on CPython with fake hardware, reachable over a pty."""
