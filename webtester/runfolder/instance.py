"""``RUN_DIR/<index>/``: writing and reading one instance's files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from webtester.datasets.markdown import render_checklist, render_results
from webtester.models import InstanceResult, TestItem, Verdict
from webtester.redact import redact, redact_data
from webtester.runfolder import layout
from webtester.runfolder.bugtext import clean_verdict
from webtester.runfolder.errors import RunFolderError
from webtester.runfolder.io import (
    describe,
    now_iso,
    quarantine,
    read_json,
    read_model,
    read_model_lines,
    write_json,
    write_text,
)
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
        """Append a timestamped, redacted line to ``log.txt``."""
        self.root.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("a", encoding="utf-8") as fh:
            fh.write(redact(f"{now_iso()} {message}") + "\n")

    def write_checklist(self, items: list[TestItem]) -> None:
        """``checklist.json`` and ``checklist.md``."""
        write_json(self.checklist_path, [i.model_dump(mode="json") for i in items])
        write_text(self.root / layout.CHECKLIST_MD_FILE, render_checklist(items, title=f"Test Checklist: {self.index}"))

    def append_verdict(self, verdict: Verdict) -> None:
        """Log a verdict, redacted, the moment it is recorded (survives any later crash)."""
        self.root.mkdir(parents=True, exist_ok=True)
        with self.verdict_log.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(redact_data(verdict.model_dump(mode="json")), ensure_ascii=False) + "\n")

    def write_result(self, result: InstanceResult, *, replayed: bool = False) -> None:
        """``result.json``, the WebTestBench markdown ``result.md`` (with what produced it) and ``bugs.md``.
        ``result.json`` comes last: once it is there, the instance's files are complete."""
        body = render_results(result.checklist, [clean_verdict(v) for v in result.verdicts], title=f"Test Results: {self.index}")
        title, _, rest = body.partition("\n")
        counts = summary_counts(result.verdicts)
        preamble = [
            f"> {run_label(result.tester, replayed)}",
            ">",
            f"> {counts['pass']} passed, {counts['fail']} failed, {counts['error']} errors"
            + (f"; instance failed: {result.reason}" if result.status == "failed" else ""),
        ]
        write_text(self.root / layout.RESULT_MD_FILE, "\n".join([title, "", *preamble, rest]))
        write_text(self.root / layout.BUGS_FILE, render_bug_reports(
            self.index, result.checklist, result.verdicts, failure=result.reason if result.status == "failed" else None))
        write_json(self.result_path, {**result.model_dump(mode="json"), "replayed": replayed})

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

    # ------------------------------------------------------------------ repair

    def quarantine_unreadable(self) -> list[str]:
        """Move aside (to ``<name>.corrupt-<time>``, never deleted) each of ``result.json``, ``checklist.json`` and
        ``verdicts.jsonl`` that cannot be read; returns why, one note per file (also written to ``log.txt``)."""
        notes: list[str] = []
        readers = ((self.result_path, self.read_result), (self.checklist_path, self.read_checklist),
                   (self.verdict_log, self.read_verdicts))
        for path, read in readers:
            try:
                read()
            except RunFolderError as exc:
                notes.append(f"{exc} (kept aside as {quarantine(path).name})")
        for note in notes:
            self.log(f"unreadable file: {note}")
        return notes

    def restore(self, checklist: list[TestItem], verdicts: list[Verdict], result: InstanceResult | None = None,
                *, replayed: bool = False) -> list[str]:
        """Make the files agree with the state a run resumes from (its checkpoint): unreadable files are kept aside,
        a missing ``checklist.json`` or ``result.json`` is written again, and ``verdicts.jsonl`` holds exactly
        ``verdicts`` (a run killed after logging a verdict but before its checkpoint logged one that is recorded
        again). Returns what was changed (also written to ``log.txt``)."""
        self.quarantine_unreadable()
        notes: list[str] = []
        if checklist and not self.checklist_path.exists():
            self.write_checklist(checklist)
            notes.append("checklist.json written again from the checkpoint")
        notes += self._restore_verdicts(verdicts)
        if result is not None and not self.result_path.exists():
            self.write_result(result, replayed=replayed)
            notes.append("result.json written again from the checkpoint")
        for note in notes:
            self.log(f"resume: {note}")
        return notes

    def _restore_verdicts(self, verdicts: list[Verdict]) -> list[str]:
        logged = self.read_verdicts()
        wanted = [v.item_id for v in verdicts]
        if [v.item_id for v in logged] == wanted:
            return []
        if [v.item_id for v in logged[:len(wanted)]] == wanted:  # only lines logged after the checkpoint: dropped
            dropped = logged[len(wanted):]
            notes = [f"verdicts.jsonl: dropped the {v.status.value} verdict of {v.item_id} logged after the last "
                     "checkpoint (the item is run again)" for v in dropped]
        elif logged:
            notes = [f"verdicts.jsonl did not match the checkpoint (kept aside as {quarantine(self.verdict_log).name})"]
        else:
            notes = ["verdicts.jsonl written again from the checkpoint"]
        write_text(self.verdict_log, "".join(json.dumps(v.model_dump(mode="json"), ensure_ascii=False) + "\n"
                                             for v in verdicts))
        return notes


def instance_folders(run_dir: Path) -> list[str]:
    """Indices of the instance folders of a run that hold a result, in name order."""
    run_dir = Path(run_dir)
    return sorted(p.name for p in run_dir.iterdir() if p.is_dir() and (p / layout.RESULT_FILE).exists())
