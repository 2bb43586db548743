"""What each engine costs per game, counted in CPU instructions under valgrind's callgrind.

Seconds move with the machine's load; instructions do not (the same interpreter, code and inputs give
the same count to within a fraction of a percent, whatever else the machine does). So this is the
figure the cost guard keeps (``tablelight bench cost``, ``tests/core/test_engine_cost.py``): each
engine plays a fixed set of seeded games of random legal actions in one child interpreter run under
callgrind, and the child marks the end of every engine's games by calling ``os.getppid()``, which
callgrind is told to dump its counters before (``--dump-before=getppid``). So the interpreter's start,
the imports and a warm-up game are counted apart and left out, with one valgrind start for all engines.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from tablelight.core.errors import TablelightError

#: Each engine's games: (how many, the seed of the first; game ``n`` has seed ``first + n`` and takes its
#: random actions from ``Rng`` of that seed). Enough that each engine's count is tens of millions of
#: instructions (small constant costs then weigh little), few enough that the guard runs in about a
#: minute: Farside's random games run from 60 to over 500 actions of about a millisecond each, so it
#: plays two games of middling length.
SCENARIOS: dict[str, tuple[int, int]] = {"farlander": (20, 100), "mainland": (2, 106), "landover": (2, 100),
                                         "farside": (2, 104)}
PLAYERS = 2
#: How far above its record an engine's cost may go before the guard fails (instructions per game).
ALLOWED_RISE = 0.05
#: How far below: a faster engine updates the record in the same change (``tablelight bench cost --update``),
#: so a later slowdown is measured from where the engine really is.
ALLOWED_FALL = 0.10
#: The valgrind command; callgrind counts instructions (``--dump-before`` splits them by engine).
VALGRIND = "valgrind"


class CostError(TablelightError):
    """The cost could not be measured (no valgrind, the child failed)."""


def play_games(name: str, games: int, first_seed: int) -> int:
    """Play ``games`` seeded random games of ``name``; the number of actions (the child's work)."""
    from tablelight.core.registry import game_class
    from tablelight.core.rng import Rng

    cls = game_class(name)
    actions = 0
    for seed in range(first_seed, first_seed + games):
        game, rng = cls(PLAYERS, None, seed), Rng(seed)
        while not game.is_over():
            game.apply(game.random_action(rng))
            actions += 1
    return actions


def child(scenarios: dict[str, tuple[int, int]]) -> None:
    """What runs under callgrind: a warm-up game of every engine, a dump, then for each engine a fresh
    start of the garbage collector and a dump (left out), its games and a dump.

    Each engine starts with the objects left before it collected and frozen (``gc.freeze``: out of
    every later collection), so its count does not depend on what ran before it: without that,
    Farside's games cost 10% more after a change to Farlander's objects (the collector's full passes
    walked what the other engines had left)."""
    for name in scenarios:
        play_games(name, 1, 0)  # imports, caches and first-call costs, counted apart
    os.getppid()  # dump: start-up and warm-up
    for name, (games, first_seed) in scenarios.items():
        gc.collect()
        gc.freeze()
        os.getppid()  # dump: the collector's fresh start, left out
        play_games(name, games, first_seed)
        os.getppid()  # dump: this engine's games


def measure(scenarios: dict[str, tuple[int, int]] | None = None) -> dict[str, dict[str, int]]:
    """Each engine's instructions per game: ``{name: {"games", "first_seed", "instructions", "per_game"}}``."""
    scenarios = dict(scenarios or SCENARIOS)
    if shutil.which(VALGRIND) is None:
        raise CostError("valgrind is not installed: install it (Debian: apt-get install valgrind) to measure engine cost")
    with tempfile.TemporaryDirectory(prefix="tablelight-cost-") as folder:
        out = Path(folder) / "callgrind.out"
        command = [VALGRIND, "--tool=callgrind", "--dump-before=getppid", f"--callgrind-out-file={out}",
                   sys.executable, "-m", "tablelight.bench.cost", json.dumps(scenarios)]
        # A fixed hash seed: set and dict orders (and so the work) are the same in every run.
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        if done.returncode != 0:
            tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise CostError(f"the measuring run under valgrind failed (exit {done.returncode}): {tail}")
        # out.1 is the start-up, then each engine's collector start (left out) and its games, in order;
        # out (no number) is the exit.
        totals = [dump_total(Path(f"{out}.{number}")) for number in range(3, 2 * len(scenarios) + 2, 2)]
    return {name: {"games": games, "first_seed": first_seed, "instructions": total, "per_game": total // games}
            for (name, (games, first_seed)), total in zip(scenarios.items(), totals)}


def dump_total(path: Path) -> int:
    """The instruction count of one callgrind dump file (its ``totals:`` line)."""
    try:
        for line in path.read_text().splitlines():
            if line.startswith("totals:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError) as error:
        raise CostError(f"callgrind's dump {path.name} could not be read: {error}") from None
    raise CostError(f"callgrind's dump {path.name} has no totals line")


def read_record(path: Path) -> dict[str, Any]:
    """The record in ``path``, its shape checked: one :class:`CostError` naming the file and what is wrong."""
    from tablelight.core.inputs import read_json_file
    from tablelight.core.fields import is_whole

    record = read_json_file(path)
    engines = record.get("engines") if isinstance(record, dict) else None
    if not isinstance(engines, dict) or not all(
            isinstance(figures, dict) and is_whole(figures.get("per_game")) and figures["per_game"] > 0
            for figures in engines.values()):
        raise CostError(f"{path}: not a cost record (it needs \"engines\": {{name: {{\"per_game\": a positive "
                        "whole number}}}}: write one with tablelight bench cost --update FILE)")
    return record


def interpreter() -> str:
    """The interpreter the counts belong to (another build counts other instructions)."""
    return f"{sys.implementation.name} {sys.version.split()[0]}"


def compare(measured: dict[str, dict[str, int]], record: dict[str, Any]) -> list[str]:
    """Sentences for each engine whose cost per game left its allowed band around the record (none: all within)."""
    problems = []
    recorded = record.get("engines", {})
    for name, figures in measured.items():
        if name not in recorded:
            problems.append(f"{name} has no recorded cost: record it with tablelight bench cost --update FILE")
            continue
        if (recorded[name].get("games"), recorded[name].get("first_seed")) != (figures["games"], figures["first_seed"]):
            problems.append(f"{name}'s record was measured on other games: record it again with "
                            "tablelight bench cost --update FILE")
            continue
        before, now = recorded[name]["per_game"], figures["per_game"]
        change = now / before - 1
        if change > ALLOWED_RISE:
            problems.append(f"{name} costs {change:+.1%} instructions per game against its record ({now:,} against "
                            f"{before:,}; at most {ALLOWED_RISE:+.0%} allowed)")
        elif change < -ALLOWED_FALL:
            problems.append(f"{name} got {-change:.1%} cheaper ({now:,} against {before:,} instructions per game): "
                            "update the record in the same change (tablelight bench cost --update FILE)")
    return problems


def record_of(measured: dict[str, dict[str, int]]) -> dict[str, Any]:
    """The record file's content for ``measured``."""
    return {"about": "instructions per game of seeded random games under callgrind: tablelight bench cost",
            "interpreter": interpreter(), "players": PLAYERS, "engines": measured}


if __name__ == "__main__":
    child({name: (games, first) for name, (games, first) in json.loads(sys.argv[1]).items()})
