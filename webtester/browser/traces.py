"""Which Playwright traces a run keeps (``Settings.trace``, as Playwright's own ``trace`` option).

* ``on``: every executed item links a trace (``Evidence.trace``, relative to the run folder);
* ``retain-on-failure``: only items whose verdict is Fail or error keep theirs; an item's own trace is deleted
  right after a Pass, and a trace several items share (the baseline's preparation) once the instance ends,
  when no item kept it;
* ``off``: no trace is written.

Open a trace with ``python -m playwright show-trace <path>``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from webtester.models import Status, Verdict

TraceMode = Literal["on", "off", "retain-on-failure"]
TRACE_MODES: tuple[TraceMode, ...] = ("on", "off", "retain-on-failure")


def keeps(mode: str, status: Status) -> bool:
    """Whether an item with a verdict of ``status`` keeps its trace under ``mode``."""
    return mode == "on" or (mode == "retain-on-failure" and status is not Status.passed)


def settle(verdict: Verdict, mode: str, own: Path | None = None) -> None:
    """After ``verdict``: a trace the mode does not keep is taken off its evidence, and ``own`` (the trace file
    of the item's own page) is deleted."""
    if keeps(mode, verdict.status):
        return
    verdict.evidence.trace = None
    if own is not None:
        Path(own).unlink(missing_ok=True)


def prune(traces_dir: Path, run_dir: Path, verdicts: Iterable[Verdict]) -> list[Path]:
    """Delete the trace files of ``traces_dir`` that no verdict links (``Evidence.trace`` is relative to
    ``run_dir``, or absolute); returns what was deleted."""
    linked = {(Path(run_dir) / v.evidence.trace).resolve() for v in verdicts if v.evidence.trace}
    removed = []
    for path in sorted(Path(traces_dir).glob("*.zip")):
        if path.resolve() not in linked:
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed
