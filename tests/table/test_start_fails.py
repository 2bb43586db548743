"""A start that fails (the web port already in use) keeps nothing and offers nothing to resume:
no "game N is saved; continue it with: tablelight resume N" for a game that was deleted."""

from __future__ import annotations

import socket

from tablelight.cli.main import main
from tablelight.table.store import GameStore


def test_a_web_port_in_use_stops_the_start_without_offering_to_resume(tmp_path, capsys) -> None:
    db = tmp_path / "g.sqlite"
    with socket.socket() as taken:  # a real port, held open by someone else
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["play", "farlander", "--seats", "random,random", "--board", "sim", "--view", "web",
                     "--web-port", str(port), "--host-link", "file", "--db", str(db)])
    err = capsys.readouterr().err
    assert code == 1 and f":{port}" in err, err
    assert "is saved" not in err and "tablelight resume" not in err, err
    with GameStore(db) as store:
        assert store.games() == []  # nothing kept, so nothing to resume
