"""``RUN_DIR/run.lock``: one process at a time writes a run folder.

The process that writes a run takes an exclusive ``flock`` on the lock file
and writes its PID and start time into it; a second process fails at once with
:class:`RunFolderBusyError` naming them. The kernel releases the lock when the
holder dies, so a lock file left by a killed process blocks nothing (its text
is only informative).

The lock is held per process and is reentrant: a process that holds it (or was
handed it, see :func:`lock_handoff` and :func:`adopt_lock`) enters
:func:`hold_run_folder` again without locking twice. A bench hands its lock to
its worker processes: they share the parent's open lock file, so the folder
stays held until the last process of the run is gone.
"""

from __future__ import annotations

import fcntl
import functools
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing import reduction
from pathlib import Path
from typing import Any, ParamSpec, TypeVar, cast

from webtester.runfolder.errors import RunFolderBusyError
from webtester.runfolder.io import now_iso
from webtester.runfolder.layout import LOCK_FILE

P = ParamSpec("P")
R = TypeVar("R")

_HELD: dict[Path, int] = {}  # resolved run folder -> descriptor of its lock file held by this process


def lock_path(run_dir: Path) -> Path:
    """Where the lock file of ``run_dir`` is."""
    return Path(run_dir) / LOCK_FILE


def _key(run_dir: Path) -> Path:
    return Path(run_dir).resolve()


STOPPING_GRACE_S = 15.0
"""How long a process waits for a run folder whose holder has exited while the processes it started stop (a
killed run's browser and servers take a moment to close the lock they inherited)."""


def _holder_exited(fd: int) -> bool:
    """True when the PID the lock file names is no longer running."""
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").split()
        if not text or not text[0].isdigit():
            return False
        os.kill(int(text[0]), 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def _holder(fd: int) -> str:
    """Who holds the lock, from the lock file's text ("PID N (started T)")."""
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").split()
    except OSError:
        text = []
    if not text or not text[0].isdigit():
        return "another process"
    pid, started = int(text[0]), " ".join(text[1:2]) or "at an unknown time"
    who = f"PID {pid} (started {started})"
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        who += "; that process has exited and the processes it started are still stopping"
    except PermissionError:
        pass
    return who


def acquire(run_dir: Path) -> bool:
    """Take the lock of ``run_dir`` for this process; False when this process holds it already.
    :class:`RunFolderBusyError` when another process holds it."""
    key = _key(run_dir)
    if key in _HELD:
        return False
    key.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock_path(key), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    deadline = time.monotonic() + STOPPING_GRACE_S
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if _holder_exited(fd) and time.monotonic() < deadline:  # what it started is still stopping
                time.sleep(0.2)
                continue
            who = _holder(fd)
            os.close(fd)
            raise RunFolderBusyError(f"{run_dir} is already being written by {who}") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()} {now_iso()}\n".encode(), 0)
    _HELD[key] = fd
    return True


def release(run_dir: Path) -> None:
    """Let go of this process's hold on ``run_dir`` (the lock is free once no process of the run holds it)."""
    fd = _HELD.pop(_key(run_dir), None)
    if fd is not None:
        os.close(fd)  # not LOCK_UN: workers handed the same lock may still be stopping


def holds(run_dir: Path) -> bool:
    """True when this process holds the lock of ``run_dir``."""
    return _key(run_dir) in _HELD


@contextmanager
def hold_run_folder(run_dir: Path) -> Iterator[None]:
    """Hold the lock of ``run_dir`` for the block (a no-op when this process holds it already)."""
    taken = acquire(run_dir)
    try:
        yield
    finally:
        if taken:
            release(run_dir)


def holding_run_folder(func: Callable[P, R]) -> Callable[P, R]:
    """Decorator: ``func`` runs holding the lock of the run folder given as its ``out_dir`` keyword argument."""
    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with hold_run_folder(Path(cast(Path, kwargs["out_dir"]))):
            return func(*args, **kwargs)
    return wrapper


class _Handoff:
    """The held lock of a run folder, picklable for a worker process started by :mod:`multiprocessing`."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # DupFd passes the descriptor itself to the child (the same open lock file, so the same lock)
        return (_received, (reduction.DupFd(self.fd),))


def _received(dup: Any) -> int:
    return int(dup.detach())


def lock_handoff(run_dir: Path) -> _Handoff:
    """What to pass to a worker process (as an argument of ``Process``) so that it shares this process's lock."""
    fd = _HELD.get(_key(run_dir))
    if fd is None:
        raise RuntimeError(f"{run_dir}: this process does not hold the run folder's lock")
    return _Handoff(fd)


def adopt_lock(run_dir: Path, fd: int) -> None:
    """In a worker: record the descriptor it received from :func:`lock_handoff` as its hold on ``run_dir``."""
    os.set_inheritable(fd, False)  # the worker's own children (app server, browser) do not write the folder
    _HELD[_key(run_dir)] = fd
