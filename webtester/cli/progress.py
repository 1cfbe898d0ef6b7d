"""Per-instance progress rows of a bench run, driven by the progress events the bench workers send.

On a console that is not a terminal (output to a file or a pipe), where live rows are not drawn, each
finished or failed instance is printed as one line instead, so a long run shows its progress in a log.
"""

from __future__ import annotations

from typing import Any

from rich.progress import Progress, TaskID


class InstanceRows:
    """One progress row per running instance (``keep_finished``: rows stay when an instance is done)."""

    def __init__(self, progress: Progress, *, keep_finished: bool = True) -> None:
        self.progress = progress
        self.keep_finished = keep_finished
        self.rows: dict[str, TaskID] = {}
        self.finished: set[str] = set()
        self.lines = not progress.console.is_terminal

    def _line(self, index: str, text: str) -> None:
        if self.lines:
            self.progress.console.print(f"{index}: {text}", highlight=False)

    def _row(self, index: str) -> TaskID:
        if index not in self.rows:
            self.rows[index] = self.progress.add_task(f"  {index}", total=None, status="starting")
        return self.rows[index]

    def __call__(self, index: str, event: str, data: dict[str, Any]) -> None:
        """Show one event (the ``on_event`` of :func:`webtester.eval.bench.run_bench`)."""
        if index in self.finished:
            return
        row = self._row(index)
        update = self.progress.update
        if event == "app_started":
            update(row, status="app started")
        elif event == "checklist":
            update(row, total=int(data.get("items") or 0), status="items")
        elif event == "resuming":
            update(row, completed=int(data.get("done") or 0), status="resuming")
        elif event == "item_started":
            update(row, status=str(data.get("item", "")))
        elif event == "item_done":
            update(row, advance=1, status=f"{data.get('item', '')}: {data.get('status', '')}")
        elif event in ("app_failed", "checklist_failed"):
            update(row, status=event.replace("_", " "))
            self._line(index, event.replace("_", " ") + (f": {data['error']}" if data.get("error") else ""))
        elif event == "instance_done":
            self.finished.add(index)
            task = self.progress.tasks[self.progress.task_ids.index(row)]
            status = "done" if data.get("status") == "ok" else "failed"
            total = task.total or max(task.completed, 1)
            update(row, total=total, completed=total, status=status)
            self._line(index, f"{status} ({len(self.finished)} finished in this run)")
            if not self.keep_finished:
                self.progress.remove_task(row)
