"""Landover: a Settlers-like game of islands, culture and barbarians (see docs/rules/landover.md)."""
