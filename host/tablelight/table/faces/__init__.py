"""One module per game with a lit board: its :class:`~tablelight.table.face.GameFace` (look and input)."""
