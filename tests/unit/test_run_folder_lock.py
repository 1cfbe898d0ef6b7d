"""A run folder whose holder has exited waits a moment for the processes that inherited its lock to stop."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from webtester.runfolder import RunFolderBusyError
from webtester.runfolder import lock as run_lock

# A process that holds the lock of a run folder and writes a PID that is not running into the lock file: what a
# killed bench leaves while its browser and servers (which inherited the lock) are still closing.
HOLDER = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
fcntl.flock(fd, fcntl.LOCK_EX)
os.ftruncate(fd, 0)
os.pwrite(fd, b"%d 2026-12-01T00:00:00+00:00\\n" % int(sys.argv[2]), 0)
print("held", flush=True)
time.sleep(float(sys.argv[3]))
"""


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _hold(run_dir, seconds: float) -> subprocess.Popen:
    run_dir.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(run_lock.lock_path(run_dir)), str(_dead_pid()),
                             str(seconds)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def test_the_lock_of_an_exited_holder_is_taken_once_what_it_started_has_stopped(tmp_path):
    run_dir = tmp_path / "run"
    holder = _hold(run_dir, 1.0)
    started = time.monotonic()
    try:
        assert run_lock.acquire(run_dir) is True
        assert time.monotonic() - started >= 0.5  # it waited for the holder's processes
    finally:
        run_lock.release(run_dir)
        holder.kill()
        holder.wait()


def test_a_lock_still_held_after_the_grace_names_the_exited_holder(tmp_path, monkeypatch):
    monkeypatch.setattr(run_lock, "STOPPING_GRACE_S", 0.5)
    run_dir = tmp_path / "run"
    holder = _hold(run_dir, 30.0)
    try:
        with pytest.raises(RunFolderBusyError, match="that process has exited and the processes it started are still"):
            run_lock.acquire(run_dir)
    finally:
        holder.kill()
        holder.wait()
