"""CI runs the hardware suite: `pytest --board` against a board started with `tablelight sim`
(the real firmware with test input on), with its console for resets and per-test logs.

Also: a board without TL_TEST_INPUT refuses injected presses."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tablelight.sim.board import SimBoard
from tablelight.wire import wire

from tablelight.board.session import BoardSession

ROOT = Path(__file__).resolve().parents[2]


def test_the_hardware_suite_passes_on_a_simulated_board(tmp_path: Path) -> None:
    sim = subprocess.Popen([sys.executable, "-m", "tablelight", "sim", "--view", "none", "--seconds", "600"],
                           stdout=subprocess.PIPE, text=True)
    try:
        assert sim.stdout is not None
        first, second = sim.stdout.readline(), sim.stdout.readline()
        port = re.search(r"board on (\S+)", first)
        console = re.search(r"(\S+)$", second.strip())
        assert port and console and "console" in second, first + second
        logs = tmp_path / "logs"
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "tests/hardware", "-m", "hardware", "--board", port.group(1),
             "--board-console", console.group(1), "--board-logs", str(logs), "-p", "no:cacheprovider",
             "-rs"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    finally:
        sim.terminate()
        sim.wait(timeout=10)
    summary = next((line for line in reversed(done.stdout.splitlines()) if re.search(r"\d+ (passed|failed)", line)), "")
    counted = re.search(r"(\d+) passed", summary)
    passed = int(counted.group(1)) if counted else 0
    assert done.returncode == 0 and "failed" not in summary and "error" not in summary, done.stdout[-4000:]
    assert passed >= 25 and "skipped" not in summary, summary
    assert "resets between modules" in done.stdout and "(0 resets" not in done.stdout
    assert len(list(logs.glob("tests_hardware_*.log"))) == passed


def test_a_board_without_test_input_refuses_injected_presses() -> None:
    with SimBoard.start("farlander") as sim:  # TL_TEST_INPUT = 0, as flashed for a table
        with BoardSession.open(sim.port) as session:
            assert not session.hello["caps"] & wire.CAP_TEST_INPUT
            session.test_key(3, True)
            deadline = time.monotonic() + 5
            while not session.errors and time.monotonic() < deadline:
                time.sleep(0.01)
            assert session.errors[0][:2] == (wire.ERR_REFUSED, wire.MSG_TEST_KEY)
            assert "TL_TEST_INPUT" in session.errors[0][2]
            assert session.poll(0.3) == []
            sim.press(3)  # the keypad itself still works
            assert [(e.key, e.pressed) for e in session.poll(5)][:1] == [(3, True)]


def test_bench_link_measures_a_board_by_port(capsys: pytest.CaptureFixture[str]) -> None:
    from tablelight.cli.main import main

    with SimBoard.start("mainland", settings={"TL_TEST_INPUT": "1"}) as sim:
        assert main(["bench", "link", "--board", sim.port, "--rounds", "5", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert (figures["layout"], figures["leds"], figures["rounds"]) == ("mainland", 284, 5)
    for kind in ("round_trip", "scene_to_ack", "delta_to_ack", "press_to_event"):
        assert 0 < figures[kind]["p50_ms"] <= figures[kind]["max_ms"], kind


def test_flash_before_the_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--flash installs (here: checks, as it is already there) the firmware on the board's drive
    and waits for its hello before the suite runs; the board runs what is on that drive."""
    from tablelight.cli.main import main
    from tests.flash.conftest import FEATHER_BOOT_OUT, WHEELS

    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text(FEATHER_BOOT_OUT)
    monkeypatch.setenv("TABLELIGHT_CACHE", str(WHEELS))
    monkeypatch.setenv("TABLELIGHT_MOUNTS", str(tmp_path / "no-drives"))
    assert main(["flash", "--drive", str(drive), "--layout", "farside", "--test-input", "--no-wait"]) == 0
    with SimBoard.start(None, firmware=drive) as sim:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "tests/hardware/test_link_hw.py", "-m", "hardware", "-k", "hello or cobs",
             "--board", sim.port, "--flash", "--board-drive", str(drive), "-p", "no:cacheprovider", "-s"],
            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "wrote 0 files" in done.stdout and "firmware 1.2.0, layout farside" in done.stdout
    assert re.search(r"\d+ passed", done.stdout)
