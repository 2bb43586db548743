"""The table service: a game at a lit board (layout, scene, input, store, play loop)."""
