"""A store being created by one process is never seen half made by another (`tablelight games`
while `play` starts, the end-to-end tests' readers): its tables appear in one transaction."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

from tablelight.table.store import GameStore, StoreError


def open_many(path: str, answers: Any) -> None:
    for _ in range(100):
        try:
            GameStore(path).close()
        except StoreError as error:
            answers.put(str(error))
            return
    answers.put("")


def test_processes_opening_a_new_store_at_once_all_open_it(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    refused = []
    for round_ in range(12):
        path = str(tmp_path / f"g{round_}.sqlite")
        answers = context.Queue()
        workers = [context.Process(target=open_many, args=(path, answers)) for _ in range(3)]
        for worker in workers:
            worker.start()
        refused += [answer for answer in (answers.get(timeout=60) for _ in workers) if answer]
        for worker in workers:
            worker.join(timeout=60)
    assert refused == []
