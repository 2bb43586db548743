"""Errors of the host's side of the board link."""

from __future__ import annotations

from tablelight.core.errors import TablelightError


class BoardError(TablelightError):
    """A board could not be reached, refused, or speaks another protocol. The message says why
    and what to do, for example "firmware speaks protocol 1, host needs 2: run tablelight flash"."""
