"""``tablelight bench web`` prints its figures (the figures themselves are the README's, not a test's)."""

from __future__ import annotations

import json
import subprocess
import sys


def test_bench_web_prints_moves_latency_and_memory_with_and_without_strangers():
    done = subprocess.run(
        [sys.executable, "-m", "tablelight", "bench", "web", "--hostile", "0,30", "--seconds", "1", "--json"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [row["hostile"] for row in rows] == [0, 30]
    for row in rows:
        assert row["moves"] > 0 and row["refused"] == 0 and 0 < row["act_p50_ms"] <= row["act_p99_ms"] and row["rss_mb"] > 0
    assert rows[1]["hostile_opened"] >= 30


def test_bench_web_says_what_it_takes():
    done = subprocess.run([sys.executable, "-m", "tablelight", "bench", "web", "--hostile", "10,many"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--hostile takes numbers separated by commas, not '10,many'" in done.stderr
    done = subprocess.run([sys.executable, "-m", "tablelight", "bench", "web", "--kinds", "sockets,floods"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--kinds takes sockets, silent, bodies separated by commas, not 'sockets,floods'" in done.stderr
