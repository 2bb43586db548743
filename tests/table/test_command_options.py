"""Command options are checked (finite, in range) before anything starts: one clear line each."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tablelight.cli.main import main

BAD_OPTIONS = [
    ("--bot-delay", "nan", "outside 0-3600"),
    ("--bot-delay", "inf", "outside 0-3600"),
    ("--bot-delay", "-1", "outside 0-3600"),
    ("--brightness", "nan", "outside 0-1"),
    ("--brightness", "1.5", "outside 0-1"),
    ("--web-port", "99999", "outside 0-65535"),
    ("--web-port", "-1", "outside 0-65535"),
    ("--web-port", "http", "not a whole number"),
]


@pytest.mark.parametrize(("flag", "value", "message"), BAD_OPTIONS)
def test_bad_play_options_are_refused_before_anything_is_stored(
    flag: str, value: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.sqlite"
    with pytest.raises(SystemExit) as stopped:
        main(["play", "farlander", "--board", "none", "--seats", "bot,bot", "--db", str(db), f"{flag}={value}"])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert f"argument {flag}: " in error and message in error and "Traceback" not in error
    assert not db.exists()


@pytest.mark.parametrize(("command", "flag"), [(["selfplay", "farlander"], "--delay"), (["devices"], "--timeout"),
                                               (["sim"], "--seconds")])
def test_other_float_options_refuse_nan(command: list[str], flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([*command, f"{flag}=nan"])
    assert "outside" in capsys.readouterr().err


def test_a_web_port_in_use_is_one_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["play", "farlander", "--board", "none", "--seats", "bot,bot", "--view", "web",
                     "--web-port", str(port), "--db", str(tmp_path / "games.sqlite")])
    assert code == 1
    error = capsys.readouterr().err
    assert f"cannot open the web view on 127.0.0.1:{port}" in error and "Traceback" not in error
