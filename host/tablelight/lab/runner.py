"""Run a lab plan's games: in this process, on a process pool, or on a Dask cluster.

Games go out in small batches and come back in any order; each summary is
written to the results file as it arrives and the statistics are computed from
the sorted summaries, so the backend and the number of workers never change them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from tablelight.lab.plan import Job, jobs
from tablelight.lab.play import play_job
from tablelight.lab.results import ResultsFile

#: Most games per task: small enough for a smooth progress bar, large enough to keep overhead low.
BATCH = 4


def play_batch(plan: dict[str, Any], batch: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """Play some jobs (given as (variant, index) pairs, which pickle small) and return their summaries."""
    return [play_job(plan, Job(v, i)) for v, i in batch]


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_plan(
    plan: dict[str, Any],
    *,
    workers: int | None = None,
    cluster: str | None = None,
    out: str | None = None,
    progress: bool = True,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Play every game of ``plan`` not yet in ``out``; return all summaries and facts about the run."""
    workers = workers or default_workers()
    results = ResultsFile(out) if out else None
    done = results.open(plan) if results else []
    seen = {(r["variant"], r["index"]) for r in done}
    records = list(done)
    todo = [(job.variant, job.index) for job in jobs(plan) if (job.variant, job.index) not in seen]
    # Few games (slow bots, say) go one per task, so each is saved as soon as it ends.
    size = max(1, min(BATCH, len(todo) // (8 * workers)))
    batches = [todo[i : i + size] for i in range(0, len(todo), size)]
    started = time.perf_counter()
    backend = "cluster" if cluster else ("process" if workers == 1 else "pool")
    bar = _progress_bar(len(todo), len(done), progress)
    cluster_run = None
    try:
        if cluster:
            from tablelight.lab.cluster import ClusterRun

            cluster_run = ClusterRun(cluster, play_batch)
            arrivals: Iterator[list[dict[str, Any]]] = cluster_run.run(plan, batches)
            engine_workers = None
        elif workers == 1:
            arrivals = (play_batch(plan, batch) for batch in batches)
            engine_workers = 1
        else:
            arrivals = _pool(plan, batches, workers)
            engine_workers = workers
        for summaries in arrivals:
            for record in summaries:
                records.append(record)
                if results:
                    results.write(record)
            if bar is not None:
                bar.update(len(summaries))
    finally:
        if bar is not None:
            bar.close()
        if results:
            results.close()
    elapsed = time.perf_counter() - started
    actions = sum(r["actions"] for r in records if (r["variant"], r["index"]) not in seen)
    run = {
        "backend": backend,
        "workers": cluster_run.workers if cluster_run is not None else engine_workers,
        "cluster": cluster,
        "games_played": len(todo),
        "games_resumed": len(done),
        "seconds": round(elapsed, 3),
        "games_per_s": round(len(todo) / elapsed, 2) if elapsed > 0 else None,
        "actions_per_s": round(actions / elapsed, 1) if elapsed > 0 else None,
        "results_file": out,
    }
    return records, run


def _pool(plan: dict[str, Any], batches: list[list[tuple[int, int]]], workers: int) -> Iterator[list[dict[str, Any]]]:
    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        futures = [pool.submit(play_batch, plan, batch) for batch in batches]
        for future in as_completed(futures):
            yield future.result()
    finally:
        # On a stop (Ctrl-C) drop the queued batches; the file already holds every finished game.
        pool.shutdown(wait=True, cancel_futures=True)


def _progress_bar(total: int, initial: int, enabled: bool) -> Any:
    if not enabled or total == 0:
        return None
    from tqdm import tqdm

    # tqdm shows the rate and the time left; it writes to stderr, so --json output stays clean.
    return tqdm(total=total + initial, initial=initial, unit="game", dynamic_ncols=True, smoothing=0.1)
