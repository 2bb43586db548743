"""``rules serve`` outlives every bad line: one error answer each, then it keeps serving.

A real subprocess under a strict C locale (so Python's own decoding would be strict too), fed
raw bytes: huge integers, deep nesting, invalid UTF-8, NaN ids and an over-long line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablelight.core import serve as serve_module
from tablelight.core.serve import RulesServer

BAD_LINES = {
    "huge int": b'{"cmd": "new", "game": "farlander", "seed": ' + b"9" * 5000 + b"}",
    "huge id": b'{"cmd": "hello", "id": ' + b"9" * 5000 + b"}",
    "deep": b'{"cmd": "hello", "x": ' + b"[" * 200_000 + b"]" * 200_000 + b"}",
    "invalid UTF-8": b'{"cmd": "hello", "id": "\xff\xfe"}',
    "NaN id": b'{"cmd": "hello", "id": NaN}',
    "Infinity id": b'{"cmd": "hello", "id": Infinity}',
    "not JSON": b"hello there",
    "a list": b"[1, 2]",
}


def _ask_raw(lines: list[bytes], env: dict[str, str] | None = None) -> list[dict[str, Any]]:
    process = subprocess.run(
        [sys.executable, "-m", "tablelight", "rules", "serve"],
        input=b"".join(line + b"\n" for line in lines), capture_output=True, timeout=60,
        env={**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0",
             "PYTHONIOENCODING": "ascii:strict", **(env or {})},
    )
    assert process.returncode == 0, process.stderr.decode()
    assert b"Traceback" not in process.stderr
    return [json.loads(line) for line in process.stdout.splitlines()]


def test_every_bad_line_gets_one_error_and_the_server_goes_on() -> None:
    names = sorted(BAD_LINES)
    answers = _ask_raw([BAD_LINES[name] for name in names] + [b'{"cmd": "hello", "id": 7}'])
    assert len(answers) == len(names) + 1
    for name, answer in zip(names, answers):
        assert answer["ok"] is False, name
        assert answer["id"] is None, name  # an id that is not JSON is never echoed
    assert answers[-1]["ok"] and answers[-1]["id"] == 7


def test_an_over_long_line_is_skipped_without_holding_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr(serve_module, "MAX_LINE_BYTES", 1000)
    stdout = io.StringIO()
    stdin = io.BytesIO(b'{"cmd": "hello", "pad": "' + b"x" * 5000 + b'"}\n{"cmd": "hello", "id": 2}\n')
    lines = list(serve_module.request_lines(stdin, 1000))
    assert lines[0] is None and lines[1] == b'{"cmd": "hello", "id": 2}\n'
    serve_module.serve(io.BytesIO(b"x" * 3000 + b"\n" + b'{"cmd": "quit", "id": 3}\n'), stdout)
    first, second = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert first["error"]["kind"] == "LineTooLong" and second["id"] == 3 and second["bye"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300) | st.text(max_size=100).map(lambda t: json.dumps({"cmd": "new", "x": t}).encode()))
def test_any_line_gets_a_json_answer(line: bytes) -> None:
    answer = RulesServer().handle_line(line)
    assert isinstance(answer["ok"], bool)
    json.dumps(answer, allow_nan=False)
