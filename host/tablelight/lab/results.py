"""The results file: one JSON line per game after a header line holding the plan.

A lab writes each game's line as soon as it is played (and flushes it), so a
stopped lab loses at most the games in flight. Run again with the same file and
plan, it reads what is there, drops a torn last line, and plays only the rest.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any

from tablelight.core.errors import SetupError

FORMAT = "tablelight-lab/1"


class ResultsFile:
    """Append-only JSON lines; :meth:`open` returns the games already recorded."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.handle: IO[str] | None = None

    def open(self, plan: dict[str, Any]) -> list[dict[str, Any]]:
        try:
            return self._open(plan)
        except OSError as error:
            raise SetupError(f"cannot use the results file {self.path}: {error.strerror}") from None

    def _open(self, plan: dict[str, Any]) -> list[dict[str, Any]]:
        done: list[dict[str, Any]] = []
        if self.path.exists() and self.path.stat().st_size > 0:
            done = self._read(plan)
        else:
            with open(self.path, "w", encoding="utf-8") as handle:
                handle.write(json.dumps({"format": FORMAT, "plan": plan}, sort_keys=True) + "\n")
        self.handle = open(self.path, "a", encoding="utf-8")
        return done

    def _read(self, plan: dict[str, Any]) -> list[dict[str, Any]]:
        where = str(self.path)
        with open(self.path, encoding="utf-8") as handle:
            text = handle.read()
        lines = text.split("\n")
        try:
            header = json.loads(lines[0])
        except json.JSONDecodeError:
            raise SetupError(f"{where} line 1: not a lab results file (no JSON header)") from None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise SetupError(f"{where} line 1: not a lab results file (format {FORMAT!r} expected)")
        if header.get("plan") != plan:
            raise SetupError(
                f"{where} holds another lab (different game, bots, variants, games or seed); "
                "use a new --out file or the same command as before"
            )
        records: list[dict[str, Any]] = []
        torn = False
        for number, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                if number == len(lines):  # the last line, torn by a stop mid-write: play that game again
                    torn = True
                    break
                raise SetupError(f"{where} line {number}: not valid JSON") from None
            if not isinstance(record, dict) or "variant" not in record or "index" not in record:
                raise SetupError(f"{where} line {number}: not a game summary")
            records.append(record)
        if torn or not text.endswith("\n"):
            kept = [lines[0]] + [json.dumps(r, sort_keys=True) for r in records]
            temporary = self.path.with_name(self.path.name + ".tmp")
            temporary.write_text("\n".join(kept) + "\n", encoding="utf-8")
            os.replace(temporary, self.path)
        return records

    def write(self, record: dict[str, Any]) -> None:
        assert self.handle is not None
        self.handle.write(json.dumps(record, sort_keys=True) + "\n")
        self.handle.flush()

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()
            self.handle = None
