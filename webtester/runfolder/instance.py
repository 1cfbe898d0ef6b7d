"""``RUN_DIR/<index>/``: writing and reading one instance's files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from webtester.datasets.markdown import render_checklist, render_results
from webtester.models import InstanceResult, TestItem, Verdict
from webtester.runfolder import layout
from webtester.runfolder.errors import RunFolderError
from webtester.runfolder.io import describe, now_iso, read_json, read_model, read_model_lines, write_json, write_text
from webtester.runfolder.markdown import render_bug_reports, run_label, summary_counts

_ITEMS = TypeAdapter(list[TestItem])


class InstanceFolder:
    """``RUN_DIR/<index>/`` and the files in it. ``create=False`` opens it for reading without making the folder."""

    def __init__(self, run_dir: Path, index: str, *, create: bool = True) -> None:
        self.run_dir = Path(run_dir)
        self.index = index
        self.root = self.run_dir / index
        if create:
            self.root.mkdir(parents=True, exist_ok=True)

    @property
    def screenshots(self) -> Path:
        return self.root / layout.SCREENSHOTS_DIR

    @property
    def traces(self) -> Path:
        return self.root / layout.TRACES_DIR

    @property
    def exchanges(self) -> Path:
        return self.root / layout.EXCHANGES_FILE

    @property
    def log_path(self) -> Path:
        return self.root / layout.LOG_FILE

    @property
    def app_log(self) -> Path:
        return self.root / layout.APP_LOG_FILE

    @property
    def verdict_log(self) -> Path:
        return self.root / layout.VERDICTS_FILE

    @property
    def result_path(self) -> Path:
        return self.root / layout.RESULT_FILE

    @property
    def checklist_path(self) -> Path:
        return self.root / layout.CHECKLIST_FILE

    def exists(self) -> bool:
        """True when the instance folder is there."""
        return self.root.is_dir()

    # ------------------------------------------------------------------ writing

    def log(self, message: str) -> None:
        """Append a timestamped line to ``log.txt``."""
        self.root.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("a", encoding="utf-8") as fh:
            fh.write(f"{now_iso()} {message}\n")

    def write_checklist(self, items: list[TestItem]) -> None:
        """``checklist.json`` and ``checklist.md``."""
        write_json(self.checklist_path, [i.model_dump(mode="json") for i in items])
        write_text(self.root / layout.CHECKLIST_MD_FILE, render_checklist(items, title=f"Test Checklist: {self.index}"))

    def append_verdict(self, verdict: Verdict) -> None:
        """Log a verdict the moment it is recorded (survives any later crash)."""
        self.root.mkdir(parents=True, exist_ok=True)
        with self.verdict_log.open("a", encoding="utf-8") as fh:
            fh.write(verdict.model_dump_json() + "\n")

    def write_result(self, result: InstanceResult, *, replayed: bool = False) -> None:
        """``result.json``, the WebTestBench markdown ``result.md`` (with what produced it) and ``bugs.md``."""
        write_json(self.result_path, {**result.model_dump(mode="json"), "replayed": replayed})
        body = render_results(result.checklist, result.verdicts, title=f"Test Results: {self.index}")
        title, _, rest = body.partition("\n")
        counts = summary_counts(result.verdicts)
        preamble = [
            f"> {run_label(result.tester, replayed)}",
            ">",
            f"> {counts['pass']} passed, {counts['fail']} failed, {counts['error']} errors"
            + (f"; instance failed: {result.reason}" if result.status == "failed" else ""),
        ]
        write_text(self.root / layout.RESULT_MD_FILE, "\n".join([title, "", *preamble, rest]))
        write_text(self.root / layout.BUGS_FILE, render_bug_reports(self.index, result.checklist, result.verdicts))

    def write_bare_result(self, result: InstanceResult) -> None:
        """Only ``result.json`` (a failed instance, or a result a runner returned without writing it)."""
        write_json(self.result_path, result.model_dump(mode="json"))

    def private_path(self, name: str) -> Path:
        """A tester's own file in the instance folder (e.g. ``exploration.json``)."""
        if Path(name).name != name:
            raise ValueError(f"a private file name must be a plain name, got {name!r}")
        return self.root / name

    def write_private(self, name: str, data: Any) -> None:
        """Write a tester's own JSON file atomically."""
        write_json(self.private_path(name), data)

    # ------------------------------------------------------------------ reading

    def read_result(self) -> InstanceResult | None:
        """``result.json``, or None when there is none; :class:`RunFolderError` when it is not a valid result
        or belongs to another instance."""
        path = self.result_path
        if not path.exists():
            return None
        result = read_model(path, InstanceResult, "result")
        if result.index != self.index:
            raise RunFolderError(f"{path}: result is for {result.index!r}, expected {self.index!r}")
        return result

    def read_checklist(self) -> list[TestItem] | None:
        """``checklist.json``, or None when there is none; :class:`RunFolderError` when it is not a list of test items."""
        path = self.checklist_path
        if not path.exists():
            return None
        try:
            return _ITEMS.validate_python(read_json(path))
        except ValidationError as exc:
            raise RunFolderError(f"{path}: not a valid list of test items: {describe(exc)}") from None

    def read_verdicts(self) -> list[Verdict]:
        """The verdicts logged in ``verdicts.jsonl`` so far ([] when none); a bad line raises :class:`RunFolderError`
        naming the file and line."""
        if not self.verdict_log.exists():
            return []
        return read_model_lines(self.verdict_log, Verdict, "verdict")

    def read_private(self, name: str) -> Any:
        """A tester's own JSON file, or None when there is none (strict: bad JSON raises :class:`RunFolderError`)."""
        path = self.private_path(name)
        return read_json(path) if path.exists() else None


def instance_folders(run_dir: Path) -> list[str]:
    """Indices of the instance folders of a run that hold a result, in name order."""
    run_dir = Path(run_dir)
    return sorted(p.name for p in run_dir.iterdir() if p.is_dir() and (p / layout.RESULT_FILE).exists())
