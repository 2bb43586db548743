"""``tablelight lab --cluster local:N``: a real local Dask cluster gives the statistics one process gives."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tablelight.cli.main import main

pytest.importorskip("distributed")


def lab_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["lab", "landover", "--games", "6", "--players", "3", "--bots", "greedy", "--seed", "11",
                 "--vary", "target=8,10", "--json", "--quiet", *args]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def test_local_cluster_matches_one_process(capsys: pytest.CaptureFixture[str]) -> None:
    single = lab_json(capsys, "--workers", "1")
    cluster = lab_json(capsys, "--cluster", "local:2")
    assert cluster["run"]["backend"] == "cluster" and cluster["run"]["workers"] == 2
    assert {k: v for k, v in cluster.items() if k != "run"} == {k: v for k, v in single.items() if k != "run"}
    assert single["variants"][0]["games"] == 6


def test_unreachable_scheduler_is_one_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lab", "mainland", "--games", "1", "--quiet", "--cluster", "tcp://127.0.0.1:9"]) == 1
    err = capsys.readouterr().err
    assert "cannot reach the Dask scheduler" in err and "Traceback" not in err
