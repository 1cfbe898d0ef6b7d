"""The HTML report of a run: one file (inline CSS and script, no assets from elsewhere; works from ``file://``)
with the scores against gold (when scored), a summary table, and per instance the instruction, the checklist
grouped by dimension with verdicts, bug reports, screenshots (a Fail's embedded as data URIs, every one linking
the full image in the run folder) and a link to each item's Playwright trace with the command that opens it,
the probe findings and the gold items with their outcome. Each item shows its reach / trigger / detect diagnosis
(:mod:`webtester.diagnosis`), each stage's reason as its title. Items can be filtered by status and dimension and
searched."""

from __future__ import annotations

import base64
import datetime as _dt
import io
import re
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from webtester.diagnosis import NOT_RUN, STAGES, diagnose
from webtester.models import Dimension, Status, TestItem, Verdict
from webtester.report.data import InstanceReport, RunReport, score_hint
from webtester.runfolder import (
    GoldItemScore,
    ReportScores,
    app_path,
    clean_text,
    clean_verdict,
    is_not_checked,
    run_label,
    write_text,
)

TEMPLATE = "report.html.j2"
SHOT_WIDTH = 800  # screenshots are scaled down to this width (JPEG) when Pillow is available


def data_uri(path: Path, *, width: int = SHOT_WIDTH) -> str | None:
    """``path`` as a data URI (scaled down to ``width`` as JPEG when Pillow is installed), or None if unreadable."""
    try:
        raw = Path(path).read_bytes()
    except OSError:
        return None
    try:
        from PIL import Image
    except ImportError:
        return "data:image/png;base64," + base64.b64encode(raw).decode()
    try:
        with Image.open(io.BytesIO(raw)) as source:
            img = source.convert("RGB")
            if img.width > width:
                img = img.resize((width, max(1, round(img.height * width / img.width))))
            out = io.BytesIO()
            img.save(out, format="JPEG", quality=72, optimize=True)
        return "data:image/jpeg;base64," + base64.b64encode(out.getvalue()).decode()
    except Exception:
        return "data:image/png;base64," + base64.b64encode(raw).decode()


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def _resolve(run_dir: Path, inst: InstanceReport, recorded: str) -> Path:
    """The file a recorded evidence path names: absolute, relative to the run folder (the convention) or relative
    to the instance folder, whichever exists (the run folder's reading when neither does)."""
    path = Path(recorded)
    if path.is_absolute():
        return path
    candidates = [run_dir / path, inst.folder / path]
    if path.parts and path.parts[0] != inst.index:
        candidates.reverse()  # a path not under the instance's name is most likely relative to its folder
    return next((c for c in candidates if c.exists()), run_dir / path)


def _href(run_dir: Path, path: Path) -> str:
    """A link to ``path`` from ``RUN_DIR/report.html``: relative when the file is inside the run folder."""
    try:
        return path.resolve().relative_to(run_dir.resolve()).as_posix()
    except ValueError:
        return path.resolve().as_uri()


def _trace(run: RunReport, inst: InstanceReport, recorded: str | None) -> dict[str, str] | None:
    """Link and command of an item's Playwright trace."""
    if not recorded:
        return None
    path = _resolve(run.run_dir, inst, recorded)
    href = _href(run.run_dir, path)
    shown = run.run_dir / href if not href.startswith("file:") else path
    return {"href": href, "name": path.name, "command": f"python -m playwright show-trace {shown}"}


def stage_marks(item: TestItem, verdict: Verdict | None) -> dict[str, Any]:
    """What an item's row shows of its reach / trigger / detect diagnosis (:func:`webtester.diagnosis.diagnose`):
    the first failed stage, and per stage whether it held with its reason."""
    d = diagnose(item, verdict)
    marks = [] if d.stage == NOT_RUN else [{"name": s, "held": d.held(s), "reason": d.reasons[s]} for s in STAGES]
    return {"stage": d.stage or "held", "not_run": d.stage == NOT_RUN, "reason": d.reach_reason, "marks": marks}


def _instance_context(run: RunReport, inst: InstanceReport, cache: dict[str, str | None]) -> dict[str, Any]:
    def image(rel: str) -> str | None:
        path = _resolve(run.run_dir, inst, rel)
        key = str(path)
        if key not in cache:
            cache[key] = data_uri(path)
        return cache[key]

    def shots(paths: list[str], embed: bool) -> list[dict[str, str | None]]:
        """Thumbnails linking the full images: embedded for a Fail's evidence, else loaded from the run folder."""
        out = []
        for n, rel in enumerate(paths[:6]):
            path = _resolve(run.run_dir, inst, rel)
            href = _href(run.run_dir, path)
            out.append({"href": href, "src": image(rel) if embed and n < 3 else href})
        return out

    result = inst.result
    counts = {"pass": 0, "fail": 0, "notchecked": 0, "error": 0}
    matches: dict[str, list[GoldItemScore]] = {}
    gold_by_id = {g.id: g for g in inst.gold.checklist} if inst.gold else {}
    if inst.score is not None:
        for outcome in inst.score.items:
            for pid in outcome.matched:
                matches.setdefault(pid, []).append(outcome)
    groups = []
    if result is not None:
        verdicts = {v.item_id: v for v in result.verdicts}
        for dim in Dimension:
            rows = []
            for item in (i for i in result.checklist if i.dimension is dim):
                v = verdicts.get(item.id)
                if v is None:
                    css, label = "error", "no verdict"
                elif v.status is Status.failed:
                    css, label = "fail", "fail"
                elif v.status is Status.passed:
                    css, label = "pass", "pass"
                elif is_not_checked(v):
                    css, label = "notchecked", "not checked"
                else:
                    css, label = "error", "error"
                counts[css if css in counts else "error"] += 1
                diagnosis = stage_marks(item, v)
                match = ""
                for outcome in matches.get(item.id, []):
                    gold = gold_by_id.get(outcome.gold_id)
                    text = f"#{outcome.gold_id}" + (f" “{gold.content}”" if gold else "")
                    match += f"{text} (gold {'Pass' if outcome.gold_pass else 'Fail'}, {outcome.outcome}) "
                if inst.score is not None and not match:
                    match = "not matched to any gold item"
                v = clean_verdict(v) if v else None
                ev = v.evidence if v else None
                rows.append({
                    "id": item.id, "description": item.description, "action": item.action, "expected": item.expected,
                    "css": css, "label": label, "match": match.strip(), "dimension": dim.value, "diagnosis": diagnosis,
                    "bug": v.bug_report if v and v.bug_report else None,
                    "shots": shots(ev.screenshots, css == "fail") if ev else [],
                    "trace": _trace(run, inst, ev.trace if ev else None),
                    "notes": ev.notes if ev else "",
                    "errors": "\n".join((ev.console_errors + ev.page_errors)[:10]) if ev else "",
                    "steps": ev.steps if ev else [],
                    "environment": "\n".join(ev.environment[:8]) if ev else "",
                })
            if rows:
                groups.append({"title": dim.title, "rows": rows})
    findings = None
    note = ""
    if inst.exploration is not None:
        ex = inst.exploration
        findings = [{**f, "message": clean_text(str(f.get("message", ""))), "page_url": app_path(str(f.get("page_url", ""))),
                     "image": image(f["screenshot"]) if f.get("screenshot") else None} for f in ex.get("findings", [])]
        note = (f"Exploration: {len(ex.get('pages', []))} page(s), {len(ex.get('forms', []))} form(s), "
                f"{ex.get('actions', 0)} actions in {ex.get('seconds', 0):.0f} s")
        if ex.get("stopped"):
            note += f"; stopped early: {ex['stopped']}"
    graph = _graph_context(inst.state_graph, image) if inst.state_graph else None
    environment = sorted({e for v in (result.verdicts if result else []) for e in v.evidence.environment}
                         | set((inst.state_graph or {}).get("environment", [])))
    score = None
    gold_rows = []
    if inst.score is not None:
        s = inst.score
        score = {"coverage": _pct(s.coverage), "precision": _pct(s.precision), "recall": _pct(s.recall), "f1": _pct(s.f1),
                 "tp": s.tp, "fp": s.fp, "fn": s.fn, "tn": s.tn}
        for outcome in s.items:
            gold = gold_by_id.get(outcome.gold_id)
            gold_rows.append({"id": outcome.gold_id, "dimension": outcome.dimension.value, "content": gold.content if gold else "",
                              "label": "Pass" if outcome.gold_pass else "Fail", "matched": ", ".join(outcome.matched) or "-",
                              "outcome": outcome.outcome})
    status = result.status if result else "missing"
    problem: str | None = inst.problem
    if result is not None and result.status == "failed":
        problem = f"The instance failed: {result.reason}"
    seconds = inst.manifest.get("wall_seconds") or (result.cost.seconds if result else None)
    return {
        "index": inst.index, "anchor": re.sub(r"[^A-Za-z0-9_-]", "-", inst.index), "status": status, "problem": problem,
        "instruction": inst.instruction, "groups": groups, "counts": counts,
        "n_items": len(result.checklist) if result else 0, "findings": findings, "exploration_note": note,
        "score": score, "gold_rows": gold_rows, "graph": graph, "environment": environment[:50], "seconds": f"{seconds:.0f}" if seconds else "-",
    }


def _graph_context(graph: dict[str, Any], image: Any) -> dict[str, Any]:
    """The crawl's states (with how each was reached and its screenshot), transitions and JavaScript coverage."""
    states = graph.get("states", [])
    names = {s["id"]: f"S{n}" for n, s in enumerate(states)}
    cov = graph.get("coverage") or {}
    coverage = (f"{cov.get('functions_run', 0)} of {cov.get('functions', 0)} functions of the app's scripts run "
                f"({_pct(cov.get('share'))}%)" if cov.get("functions") else "JavaScript coverage not available")
    return {
        "note": (f"{len(states)} states, {len(graph.get('edges', []))} transitions, {len(graph.get('routes', []))} routes, "
                 f"{graph.get('actions', 0)} actions in {graph.get('seconds', 0):.0f} s"
                 + (f"; stopped: {graph['stopped']}" if graph.get("stopped") else "")),
        "coverage": coverage,
        "states": [{"name": names[s["id"]], "url": app_path(s["url"]), "via": s.get("via") or "opened by URL",
                    "headings": ", ".join(s.get("headings", [])[:4]), "dialog": s.get("dialog"),
                    "image": image(s["screenshot"]) if s.get("screenshot") else None} for s in states],
        "edges": [{"source": names.get(e["source"], e["source"]), "action": e["action"],
                   "target": names.get(e["target"], e["target"]), "new": e.get("new_functions", 0)}
                  for e in graph.get("edges", [])],
    }


def _score_tables(scores: ReportScores | None) -> dict[str, Any] | None:
    if scores is None:
        return None
    tables = [{"title": t.title, "header": t.header, "rows": t.rows} for t in scores.tables]
    return {"judge": scores.judge, "tables": tables, "notes": scores.notes}


def render_html(run: RunReport, *, title: str | None = None, not_scored_reason: str | None = None) -> str:
    """The HTML report of ``run`` as a string (unscored: ``not_scored_reason``, by default :func:`score_hint`)."""
    manifest = run.manifest
    tester = str(manifest.get("tester") or next((i.result.tester for i in run.instances if i.result), "") or "unknown")
    replayed = bool(manifest.get("replayed"))
    bench = manifest.get("bench") or {}
    build = bench.get("build") or next((i.manifest.get("build") for i in run.instances if i.manifest.get("build")), None)
    provenance = run_label(tester, replayed)
    provenance = provenance if not provenance.startswith("Tester:") else ""
    cache: dict[str, str | None] = {}
    env = Environment(loader=FileSystemLoader(str(Path(__file__).parent)), autoescape=select_autoescape(["html", "j2"]))
    return env.get_template(TEMPLATE).render(
        title=title or f"webtester report: {run.run_dir.name}", tester_label=tester, mode=manifest.get("mode"), build=build,
        run_dir=str(run.run_dir), written=_dt.datetime.now().strftime("%Y-%m-%d %H:%M"), provenance=provenance,
        scores=_score_tables(run.scores), not_scored_reason=not_scored_reason or score_hint(run),
        instances=[_instance_context(run, inst, cache) for inst in run.instances], dimensions=list(Dimension),
    )


def write_html(run: RunReport, path: Path, **kwargs: Any) -> Path:
    """Write :func:`render_html` to ``path``."""
    write_text(Path(path), render_html(run, **kwargs))
    return Path(path)
