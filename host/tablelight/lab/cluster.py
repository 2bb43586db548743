"""Run lab batches on a Dask distributed cluster (``--cluster tcp://host:8786`` or ``local:N``).

Dask distributed is pure Python and a small install (``pip install
'tablelight[lab]'``); every worker needs tablelight installed, since each batch
is played by the same function the process pool runs, which the runner passes in.
``local:N`` starts a throw-away cluster of N single-threaded worker processes
on this machine, for trying the cluster path and for the tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from tablelight.core.errors import SetupError

#: Seconds to wait for a scheduler that accepts the connection but does not answer.
CONNECT_TIMEOUT = 10
#: Plays one batch of a plan's jobs and returns their summaries (the runner's ``play_batch``).
BatchPlayer = Callable[[dict[str, Any], list[tuple[int, int]]], list[dict[str, Any]]]


def parse_cluster(address: str) -> tuple[str, int | None]:
    """``local:4`` -> ("local", 4); ``tcp://host:8786`` -> (address, None)."""
    if address.startswith("local:"):
        count = address.partition(":")[2]
        if not count.isdigit() or int(count) < 1:
            raise SetupError(f"--cluster local:N needs a number of workers N >= 1, got {address!r}")
        return "local", int(count)
    if "://" not in address and ":" not in address:
        raise SetupError(f"--cluster takes a scheduler address (tcp://host:8786) or local:N, got {address!r}")
    return address, None


def _check_reachable(address: str) -> None:
    """Fail at once when nothing listens at a tcp:// address (Dask itself would retry until its timeout)."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme != "tcp" or not parts.hostname:
        return  # tls://, ucx:// and others: let Dask connect
    try:
        socket.create_connection((parts.hostname, parts.port or 8786), timeout=CONNECT_TIMEOUT).close()
    except OSError as error:
        raise SetupError(f"cannot reach the Dask scheduler at {address}: {error.strerror or error}") from None


class ClusterRun:
    """One run of a plan's batches on a cluster; :attr:`workers` is known once it has connected."""

    def __init__(self, address: str, play_batch: BatchPlayer) -> None:
        self.address = address
        self.play_batch = play_batch
        #: How many workers the cluster had (for the run facts), or None before it connected.
        self.workers: int | None = None

    def run(self, plan: dict[str, Any], batches: list[list[tuple[int, int]]]) -> Iterator[list[dict[str, Any]]]:
        """Submit every batch and yield their summaries as they finish."""
        address = self.address  # the scheduler's, or local:N
        kind, count = parse_cluster(address)
        try:
            from distributed import Client, LocalCluster, as_completed
        except ImportError:
            raise SetupError("--cluster needs Dask distributed: pip install 'tablelight[lab]'") from None

        local = None
        try:
            if kind == "local":
                local = LocalCluster(n_workers=count, threads_per_worker=1, processes=True,
                                     dashboard_address=None, silence_logs=40)
                client = Client(local)
            else:
                _check_reachable(address)
                client = Client(address, timeout=CONNECT_TIMEOUT)
        except OSError as error:
            raise SetupError(f"cannot reach the Dask scheduler at {address}: {error}") from None
        try:
            self.workers = len(client.scheduler_info().get("workers", {}))
            # pure=False: two batches with equal arguments are still two tasks (they never are, but be plain).
            futures = client.map(self.play_batch, [plan] * len(batches), batches, pure=False)
            for future in as_completed(futures):
                yield future.result()
        finally:
            client.close()
            if local is not None:
                local.close()
