"""Farlander: hex-tile territory conquest for 2-4 players."""

from tablelight.games.farlander.engine import Farlander

__all__ = ["Farlander"]
