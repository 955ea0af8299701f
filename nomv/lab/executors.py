"""Where batches run: in this process, in a local pool of processes, or on a Dask cluster.

An executor takes the batches of a plan and yields each batch's records as it finishes (in any
order: the figures sort the records first).  All three call the same function,
:func:`nomv.lab.play.run_batch`, so a game's record is the same wherever it ran.
"""
from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from multiprocessing import get_context
from typing import Any, Iterable, Iterator, Protocol

from ..errors import NomvError
from .plan import Batch, LabError
from .play import run_batch

Records = list[dict[str, Any]]


class Executor(Protocol):
    #: What the progress line and the report say about where the games ran.
    description: str

    def run(self, batches: Iterable[Batch]) -> Iterator[tuple[Batch, Records]]: ...
    def close(self) -> None: ...


class InProcess:
    """One batch after the other in this process (``--jobs 1``)."""

    description = "1 process"
    jobs = 1

    def run(self, batches: Iterable[Batch]) -> Iterator[tuple[Batch, Records]]:
        for b in batches:
            yield b, run_batch(b)

    def close(self) -> None:
        pass


def _in_child(batch: Batch) -> Records | tuple[str, str]:
    try:
        return run_batch(batch)
    except NomvError as exc:      # (reported by the parent, with the batch it belongs to)
        return ("error", str(exc))


def _checked(batch: Batch, result: Records | tuple[str, str]) -> Records:
    if isinstance(result, tuple):
        first = batch.games[0]
        raise LabError(f"a batch of {len(batch.games)} games ({first.set}, from game {first.number}) failed: {result[1]}")
    return result


class LocalPool:
    """Batches on ``jobs`` processes of this machine (fresh interpreters: each loads the game
    once and plays many batches).  A few batches per process are in flight at a time, so that
    a long run does not queue every batch's script at once."""

    def __init__(self, jobs: int):
        self.jobs = jobs
        self.description = f"{jobs} processes"
        self._pool = ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn"))

    def run(self, batches: Iterable[Batch]) -> Iterator[tuple[Batch, Records]]:
        todo = iter(batches)
        pending: dict[Any, Batch] = {}
        try:
            while True:
                while len(pending) < 3 * self.jobs:
                    b = next(todo, None)
                    if b is None:
                        break
                    pending[self._pool.submit(_in_child, b)] = b
                if not pending:
                    return
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    b = pending.pop(future)
                    yield b, _checked(b, future.result())
        finally:
            for future in pending:
                future.cancel()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class DaskCluster:
    jobs = 1
    """Batches on the workers of a Dask distributed scheduler (``--cluster tcp://host:8786``),
    through its client: every worker needs nomv installed (``pip install 'nomv[cluster]'``); the
    script travels with each batch."""

    def __init__(self, address: str, timeout: float = 20):
        try:
            from distributed import Client
        except ImportError:
            raise LabError("--cluster needs Dask distributed: pip install 'nomv[cluster]'") from None
        try:
            self._client = Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise LabError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        workers = len(self._client.scheduler_info().get("workers", {}))
        self.jobs = max(1, sum(w.get("nthreads", 1) for w in self._client.scheduler_info().get("workers", {}).values()))
        self.description = f"the Dask cluster at {address} ({workers} worker{'s' if workers != 1 else ''})"

    def run(self, batches: Iterable[Batch]) -> Iterator[tuple[Batch, Records]]:
        from distributed import as_completed
        todo = list(batches)
        futures = {self._client.submit(_in_child, b, pure=False): b for b in todo}
        try:
            for future in as_completed(list(futures), loop=self._client.loop):
                b = futures.pop(future)
                yield b, _checked(b, future.result())
        finally:
            for future in futures:
                future.cancel()

    def close(self) -> None:
        self._client.close()


def make_executor(jobs: int, cluster: str | None) -> Executor:
    if cluster:
        return DaskCluster(cluster)
    if jobs <= 1:
        return InProcess()
    return LocalPool(jobs)
