"""JUnit XML of a run's verdicts, for CI systems: one ``<testsuite>`` per instance, one ``<testcase>`` per
item. ``fail`` -> ``<failure>`` with the bug report; an item that was not checked -> ``<skipped>`` with the
reason; any other ``error`` -> ``<error>`` with the reason; an instance that could not run -> one
``<testcase>`` with an ``<error>``.

Times: a ``<testcase>``'s ``time`` is its item's own time (what the verdict records: the item's detection);
a ``<testsuite>``'s ``time`` is the instance's wall time, and its property ``setup_time`` the part of it outside
the items: starting the app, the tester's preparation (the baseline's crawl and probes, done once per
instance), the checklist and stopping the app. ``timestamp`` (ISO 8601) is when the instance started,
``hostname`` the machine the report was written on.

Evidence: the case's ``<system-out>`` holds the steps, then one ``[[ATTACHMENT|/abs/path]]`` line per
screenshot and for the Playwright trace, the form CI servers (Jenkins' JUnit attachments, GitLab) read.
"""

from __future__ import annotations

import datetime as _dt
import socket
import xml.etree.ElementTree as ET
from pathlib import Path

from webtester.models import Status
from webtester.report.data import InstanceReport, RunReport
from webtester.runfolder import clean_verdict, is_not_checked, write_text


def _timestamp(inst: InstanceReport) -> str:
    """When the instance started (the manifest's record; else when its result was written), ISO 8601."""
    started = inst.manifest.get("started")
    if isinstance(started, str) and started:
        return started
    written = [p.stat().st_mtime for p in (inst.folder / "result.json", inst.folder) if p.exists()]
    when = _dt.datetime.fromtimestamp(written[0], _dt.timezone.utc) if written else _dt.datetime.now(_dt.timezone.utc)
    return when.isoformat(timespec="seconds")


def _attachment(run_dir: Path, inst: InstanceReport, recorded: str) -> str:
    """``[[ATTACHMENT|/abs/path]]`` of an evidence file (recorded relative to the run folder, or to the instance's)."""
    path = Path(recorded)
    if not path.is_absolute():
        path = next((p for p in (run_dir / path, inst.folder / path) if p.exists()), run_dir / path)
    return f"[[ATTACHMENT|{path.resolve()}]]"


def _suite(inst: InstanceReport, tester: str, run_dir: Path, hostname: str) -> ET.Element:
    suite = ET.Element("testsuite", name=inst.index, timestamp=_timestamp(inst), hostname=hostname)
    props = ET.SubElement(suite, "properties")
    ET.SubElement(props, "property", name="tester", value=tester or (inst.result.tester if inst.result else ""))
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    seconds = 0.0
    result = inst.result
    if result is None or result.status == "failed":
        reason = inst.problem or (result.reason if result else None) or "the instance did not run"
        case = ET.SubElement(suite, "testcase", classname=inst.index, name="instance", time="0")
        ET.SubElement(case, "error", message=reason[:500], type="instance-failed").text = reason
        counts["tests"] += 1
        counts["errors"] += 1
    items = {i.id: i for i in (result.checklist if result else [])}
    for recorded in result.verdicts if result else []:
        verdict = clean_verdict(recorded)  # line breaks, and the app's paths rather than a stopped server's URLs
        item = items.get(verdict.item_id)
        name = f"{verdict.item_id}: {item.description}" if item else verdict.item_id
        dim = item.dimension.value if item else "unknown"
        case = ET.SubElement(suite, "testcase", classname=f"{inst.index}.{dim}", name=name[:300],
                             time=f"{verdict.cost.seconds:.3f}")
        seconds += verdict.cost.seconds
        counts["tests"] += 1
        notes = verdict.evidence.notes or ""
        if verdict.status is Status.failed and verdict.bug_report:
            failure = ET.SubElement(case, "failure", message=verdict.bug_report.issue[:500], type="fail")
            body = [f"Issue: {verdict.bug_report.issue}", f"Actual: {verdict.bug_report.actual}"]
            if item and item.expected:
                body.append(f"Expected: {item.expected}")
            body += [f"Screenshot: {s}" for s in verdict.evidence.screenshots]
            if notes:
                body.append(notes)
            failure.text = "\n".join(body)
            counts["failures"] += 1
        elif verdict.status is Status.error:
            if is_not_checked(verdict):
                ET.SubElement(case, "skipped", message=notes[:500])
                counts["skipped"] += 1
            else:
                ET.SubElement(case, "error", message=(notes or "item could not be executed")[:500], type="error").text = notes
                counts["errors"] += 1
        files = [*verdict.evidence.screenshots, *([verdict.evidence.trace] if verdict.evidence.trace else [])]
        out = [*verdict.evidence.steps, *(_attachment(run_dir, inst, f) for f in files)]
        if out:
            ET.SubElement(case, "system-out").text = "\n".join(out)
    suite.set("tests", str(counts["tests"]))
    suite.set("failures", str(counts["failures"]))
    suite.set("errors", str(counts["errors"]))
    suite.set("skipped", str(counts["skipped"]))
    wall = inst.manifest.get("wall_seconds")  # absent from folders other tools wrote: the recorded costs then
    total = max(float(wall) if isinstance(wall, (int, float)) else 0.0, result.cost.seconds if result else 0.0, seconds)
    ET.SubElement(props, "property", name="setup_time", value=f"{total - seconds:.3f}")
    suite.set("time", f"{total:.3f}")
    return suite


def junit_xml(report: RunReport) -> str:
    """The JUnit XML document for a run."""
    tester = str(report.manifest.get("tester") or "")
    root = ET.Element("testsuites", name=f"webtester {report.run_dir.name}")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    hostname = socket.gethostname()
    for inst in report.instances:
        suite = _suite(inst, tester, report.run_dir, hostname)
        root.append(suite)
        for key in totals:
            totals[key] += int(suite.get(key, "0"))
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def write_junit(report: RunReport, path: Path) -> Path:
    """Write :func:`junit_xml` to ``path``."""
    write_text(Path(path), junit_xml(report))
    return Path(path)
