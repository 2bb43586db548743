"""Printable 1:1 build sheets of a board layout (``tablelight build-sheet``): where every LED and
key goes, their numbers, the LED data line's order and the key-matrix wiring, tiled over A4 or
Letter pages with alignment marks. :mod:`.drawing` makes shapes in millimetres, :mod:`.pages`
tiles them, :mod:`.svg` and :mod:`.pdf` write them."""
