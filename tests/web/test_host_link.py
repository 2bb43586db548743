"""The host page's address (its token presses keys and drops seats' devices) never reaches the shared
screen: it goes to a file only the owner can read, unless the owner says the terminal is private."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
import os
import re
import stat
from pathlib import Path

import httpx
import pytest

from tablelight.cli.main import main
from tablelight.games.mainland.engine import Mainland
from tablelight.table.session import TableSession
from tablelight.web.host_link import host_link_path, write_private
from tablelight.web.table_web import TableWeb

from .conftest import LoopThread


@contextmanager
def started(tmp_path: Path, **options) -> Iterator[tuple[TableWeb, io.StringIO]]:
    session = TableSession(Mainland(2, seed=5), ["human", "human"])
    table = session.table
    out = io.StringIO()
    loop = LoopThread()

    async def start() -> TableWeb:
        web = TableWeb(session, table.face.layout.data, lambda: [p[:3] for p in table.pixels()], table.press, out=out, **options)
        return await web.start()

    web = loop.run(start())
    try:
        yield web, out
    finally:
        loop.run(web.stop())
        loop.close()


def test_the_shared_screen_names_the_private_file_and_never_the_host_token(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = host_link_path(tmp_path / "games.sqlite", 7)
    with started(tmp_path, host_file=path) as (web, out):
        token = web.access.host_token
        assert stat.S_IMODE(path.stat().st_mode) == 0o600 and path.stat().st_uid == os.getuid()
        url = re.search(r'href="([^"]+)"', path.read_text()).group(1)
        assert url == web.view.url and token in url
        # the owner's link works; what the shared screen shows does not contain it, also after a drop
        answer = httpx.get(f"{web.view.base_url}/api/host", headers={"X-Host-Token": url.split("token=")[1]})
        assert answer.status_code == 200
        web.access.drop(0)
        shown = out.getvalue() + "".join(capsys.readouterr())
        assert f"open {path} in your browser" in shown and token not in shown and "token=" not in shown.replace("join?token=", "")
    assert not path.exists()  # the token died with the server; so does the file


def test_a_planted_file_or_link_is_replaced_not_followed(tmp_path: Path):
    elsewhere = tmp_path / "someone-elses.txt"
    elsewhere.write_text("theirs")
    planted = tmp_path / "host-page-1.html"
    planted.symlink_to(elsewhere)
    write_private(planted, "mine")
    assert elsewhere.read_text() == "theirs" and not planted.is_symlink()
    assert planted.read_text() == "mine" and stat.S_IMODE(planted.stat().st_mode) == 0o600
    planted.chmod(0o644)
    write_private(planted, "again")
    assert stat.S_IMODE(planted.stat().st_mode) == 0o600


def test_the_terminal_shows_the_host_page_only_when_told_it_is_private(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    with started(tmp_path, host_link="terminal") as (web, _):
        assert f"web view: {web.view.url}" in capsys.readouterr().err


@pytest.mark.parametrize(("flag", "shown"), [([], False), (["--host-link", "terminal"], True)])
def test_play_prints_the_host_token_only_with_host_link_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str], flag, shown):
    db = tmp_path / "games.sqlite"
    code = main(["play", "farlander", "--board", "none", "--seats", "random,random", "--view", "web", "--web-port", "0",
                 "--seed", "3", "--db", str(db), *flag])
    assert code == 0
    printed = "".join(capsys.readouterr())
    assert ("/?token=" in printed) is shown
    assert ("host page (board keys, seats' codes, drop a device): open" in printed) is not shown
    assert not list(tmp_path.glob("host-page-*"))  # gone with the server
