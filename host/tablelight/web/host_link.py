"""The host page's address, for the owner of the table only.

The host page (the board page with the host's token) presses the board's keys, shows the seats'
codes and drops a seat's device. Whoever can read its address can do all that, so it must not
appear on the shared screen: another player could drop a seat's device and join with the new
code. ``tablelight play`` writes it to a file only the user running it can read (mode 0600,
created anew so no one else's file or link is followed) and prints only the file's name; with
``--host-link terminal`` (for a terminal nobody else sees) it prints the address as well.
"""

from __future__ import annotations

import html
import os
from pathlib import Path

#: Where the host page's address goes: a private file only, or also the terminal.
HOST_LINK_CHOICES = ("file", "terminal")


def host_link_path(store_path: Path, game_id: int) -> Path:
    """The file for ``game_id``'s host page: next to the game store, in the user's own folder."""
    return store_path.parent / f"host-page-{game_id}.html"


def host_page_html(url: str) -> str:
    """A page that opens ``url`` (open the file in a browser), with the address to copy as well."""
    quoted = html.escape(url, quote=True)
    return (
        '<!doctype html>\n<html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">\n'
        f'<meta http-equiv="refresh" content="0; url={quoted}">\n<title>tablelight: host page</title></head>\n'
        f'<body><p>The table\'s host page: <a href="{quoted}">{quoted}</a></p>\n'
        "<p>Keep this address to yourself: it presses the board's keys and drops the seats' devices.</p></body></html>\n"
    )


def write_private(path: Path, text: str) -> Path:
    """Write ``text`` to a new file at ``path`` that only this user can read; return ``path``.

    An existing file (or a link planted there) is removed first and the file is created with
    ``O_EXCL``/``O_NOFOLLOW`` and mode 0600, so it never keeps another owner or wider rights.
    """
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    handle = os.open(path, flags, 0o600)
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        out.write(text)
    return path


def remove_quietly(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass
