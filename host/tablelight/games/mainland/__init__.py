"""Mainland: 2x2-tile cards, overlay rules, advanced items and the largest-territory scoring."""
