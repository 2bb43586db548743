"""The web table under strangers' connections: legitimate moves per 15 s, act p50/p99, host memory.

For each number of hostile connections a fresh two-seat Landover table is served by the real web
server on the table's own event loop, as ``tablelight play`` serves it (the loop runs in a thread of
the bench's, which measures from outside as the seats' phones would).
Another process (:func:`attack`, so it does not share the server's interpreter) holds that many
connections from 50 loopback addresses, a third each of

* public board WebSockets (``/ws/board``, read and dropped),
* silent TCP connections,
* requests that announce a 100-byte body and never send it,

re-opening each one a second after the server closes it. Meanwhile both seats join with their
codes and move as fast as their pages can (read the seat's state, post its last choice: Landover
games are long), and the bench counts the moves applied and times each ``act`` request.
"""

from __future__ import annotations

import asyncio
import io
import resource
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr
from typing import Any

#: Loopback addresses the hostile connections come from.
ADDRESSES = 50
#: Seconds a hostile connection waits before it is opened again after the server closed it.
REOPEN_S = 1.0
#: Seconds given to the hostile connections to open before the moves are counted.
RAMP_S = 3.0


@contextmanager
def served_table() -> Iterator[Any]:
    """A two-seat Landover table served on a free port, on its own event loop (a thread of the bench's,
    which measures from the outside as a phone would)."""
    from tablelight.games.landover.engine import Landover
    from tablelight.table.face import face_class
    from tablelight.table.layout import load_layout_data
    from tablelight.table.session import TableSession
    from tablelight.web.table_web import TableWeb

    game = Landover(2, seed=7)
    session = TableSession(game, ["human", "human"])  # no board: the seats move from their pages
    table = session.table
    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever, daemon=True)
    runner.start()

    async def start() -> TableWeb:
        web = TableWeb(session, load_layout_data(face_class(game.name).default_layout), lambda: [p[:3] for p in table.pixels()],
                       lambda key: table.press(key), out=io.StringIO())
        with redirect_stderr(io.StringIO()):  # the addresses it prints for people
            return await web.start()

    web = asyncio.run_coroutine_threadsafe(start(), loop).result(timeout=30)
    try:
        yield web
    finally:
        asyncio.run_coroutine_threadsafe(web.stop(), loop).result(timeout=30)
        loop.call_soon_threadsafe(loop.stop)
        runner.join()
        loop.close()


def rss_mb() -> float:
    """This process's resident memory (Linux), MB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))] if ordered else float("nan")


def play_for(web: Any, seconds: float) -> tuple[int, list[float], int]:
    """Both seats join and move for ``seconds``: (moves applied, act latencies in ms, requests refused)."""
    import httpx

    base = web.view.base_url
    origin = {"Origin": base}
    refused = 0
    with httpx.Client(timeout=10) as client:
        devices = []
        for seat in (0, 1):
            answer = client.post(f"{base}/api/join", json={"code": web.access.pass_of(seat).code}, headers=origin)
            answer.raise_for_status()
            devices.append(answer.json()["device"])
        moves, latencies = 0, []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for seat, device in enumerate(devices):
                token = {"X-Seat-Token": device}
                state = client.get(f"{base}/api/seat/{seat}", headers=token)
                if state.status_code != 200:
                    refused += 1
                    continue
                choices = state.json().get("choices")
                if not choices:
                    continue
                body = {"action": choices[-1]["action"], "at": state.json()["at"]}
                started = time.perf_counter()
                answer = client.post(f"{base}/api/seat/{seat}/act", json=body, headers={**origin, **token})
                latencies.append((time.perf_counter() - started) * 1000)
                if answer.status_code == 200 and answer.json().get("applied"):
                    moves += 1
                elif answer.status_code != 409:
                    refused += 1
    return moves, latencies, refused


#: The kinds of hostile connection, as ``--kinds`` names them.
KINDS = ("sockets", "silent", "bodies")


def run_web_bench(
    hostile: list[int], seconds: float = 15.0, progress: Callable[[str], None] | None = None, kinds: tuple[str, ...] = KINDS,
) -> list[dict[str, Any]]:
    """One row of figures per number of hostile connections (``kinds`` of them in turn)."""
    rows = []
    for count in hostile:
        with served_table() as web:
            attacker = None
            if count:
                attacker = subprocess.Popen(
                    [sys.executable, "-m", "tablelight.bench.web", str(web.view.port), str(count), ",".join(kinds)],
                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                )
                time.sleep(RAMP_S)
            rss_before = rss_mb()
            cpu_before = time.process_time()
            moves, latencies, refused = play_for(web, seconds)
            cpu = time.process_time() - cpu_before
            limits = web.view.server.limits
            row = {
                "hostile": count,
                "kinds": list(kinds),
                "moves": moves,
                "seconds": seconds,
                "act_p50_ms": round(statistics.median(latencies), 1) if latencies else None,
                "act_p99_ms": round(percentile(latencies, 0.99), 1) if latencies else None,
                "refused": refused,
                "rss_mb": round(rss_mb(), 1),
                "rss_before_mb": round(rss_before, 1),
                "host_cpu_s": round(cpu, 1),
                "open_connections": limits.open_connections(),
                "crowded_out": sum(limits.crowded_out.values()),
            }
            if attacker is not None:
                children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
                attacker.terminate()
                out, _ = attacker.communicate(timeout=10)
                children = resource.getrusage(resource.RUSAGE_CHILDREN)
                row["hostile_opened"] = int(out.split()[0]) if out.strip() else None
                row["hostile_cpu_s"] = round(children.ru_utime + children.ru_stime - children_before.ru_utime - children_before.ru_stime, 1)
        rows.append(row)
        if progress is not None:
            progress(describe(row))
    return rows


def describe(row: dict[str, Any]) -> str:
    text = (f"{row['hostile']:>5} hostile connections ({','.join(row['kinds'])}): {row['moves']} moves in {row['seconds']:g} s, "
            f"act p50 {row['act_p50_ms']} ms p99 {row['act_p99_ms']} ms, {row['refused']} refused, "
            f"host RSS {row['rss_mb']} MB, CPU {row['host_cpu_s']} s (server and the seats' client)")
    if row["hostile"]:
        text += (f" ({row['open_connections']} connections open, {row['crowded_out']} closed to make room, "
                 f"{row.get('hostile_opened')} hostile opens using {row.get('hostile_cpu_s')} s CPU)")
    return text


async def hold(port: int, index: int, kinds: list[str], opened: list[int]) -> None:
    """One hostile connection, opened again a second after the server closes it."""
    host = f"127.0.0.1:{port}"
    payloads = [
        (f"GET /ws/board HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode(),
        b"",
        (f"POST /api/join HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\nContent-Type: application/json\r\n"
         'Content-Length: 100\r\n\r\n{"code": ').encode(),
    ]
    payload = payloads[KINDS.index(kinds[index % len(kinds)])]
    source = f"127.0.0.{2 + index % ADDRESSES}"
    while True:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        except OSError:
            await asyncio.sleep(REOPEN_S)
            continue
        opened[0] += 1
        try:
            if payload:
                writer.write(payload)
            while await reader.read(65536):
                pass
        except OSError:
            pass
        writer.close()
        await asyncio.sleep(REOPEN_S)


async def attack(port: int, count: int, kinds: list[str]) -> None:
    opened = [0]
    tasks = [asyncio.ensure_future(hold(port, index, kinds, opened)) for index in range(count)]
    loop = asyncio.get_running_loop()
    stopped = loop.create_future()
    import signal

    loop.add_signal_handler(signal.SIGTERM, stopped.set_result, None)
    await stopped
    for task in tasks:
        task.cancel()
    print(opened[0], flush=True)


if __name__ == "__main__":  # the hostile process: PORT COUNT KIND,KIND...
    asyncio.run(attack(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split(",")))
