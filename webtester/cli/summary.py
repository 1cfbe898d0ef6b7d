"""The ``--json`` summaries of ``test``, ``bench``, ``demo`` and ``score``: one JSON object, the only thing the
command writes on stdout (its progress, tables and messages go to stderr then). Usage and input errors (exit 2)
and interruptions (130) print no summary.

Schema (paths are absolute; a key marked with the commands that write it is absent from the others)::

    {
      "command": "test" | "bench" | "demo" | "score",
      "version": "0.1.0",
      "exit_code": 0 | 1,                  # the command's exit status (webtester.cli.exits)
      "run_dir": "/abs/runs/x",
      "instances": [                       # test, bench, demo: one per instance of the run
        {"index": "portfolio_site",
         "status": "ok" | "failed" | "absent",   # absent: its app was not there, not run
         "reason": null | "why it failed / is absent",
         "items": {"pass": 1, "fail": 1, "error": 0},
         "result": "/abs/runs/x/portfolio_site/result.json" | null,
         "bugs": "/abs/runs/x/portfolio_site/bugs.md" | null}
      ],
      "counts": {"instances": 1, "failed_instances": 0, "pass": 1, "fail": 1, "error": 0},  # test, bench, demo
      "reports": {"html": "/abs/runs/x/report.html" | null, "junit": "/abs/runs/x/junit.xml" | null},  # test, bench, demo
      "scores": null | {                   # score, demo (null: not scored)
        "judge": "oracle",
        "dir": "/abs/runs/x/scores",
        "overall": {"n": 2, "coverage": 1.0, "precision": 0.5, "recall": 1.0, "f1": 0.67, "ci": {...}},  # macro
        "micro": {...},                    # the same figures from pooled counts
        "counts": {"tp": 1, "fp": 1, "fn": 0, "tn": 3},
        "diagnosis": null | {              # reach / trigger / detect (webtester.diagnosis), per dimension and "all"
          "all": {"all": {"n": 4, "not_run": 0, "reach": 1, "trigger": 0, "detect": 0, "held": 3, "misjudged": 0}, ...},
          "wrong": {...}                   # the same counts over the wrong verdicts
        }
      }
    }
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from webtester.cli.version import version

if TYPE_CHECKING:
    from webtester.eval.bench import BenchReport
    from webtester.eval.metrics import Summary
    from webtester.models import InstanceResult

Reports = tuple[Path, Path] | None


def _path(path: Path | None) -> str | None:
    return str(Path(path).resolve()) if path is not None else None


def _instance(run_dir: Path, result: InstanceResult) -> dict[str, Any]:
    from webtester.runfolder import summary_counts

    folder = run_dir / result.index
    result_file, bugs = folder / "result.json", folder / "bugs.md"
    return {"index": result.index, "status": result.status, "reason": result.reason,
            "items": summary_counts(result.verdicts),
            "result": _path(result_file) if result_file.exists() else None,
            "bugs": _path(bugs) if bugs.exists() else None}


def _absent(index: str, reason: str) -> dict[str, Any]:
    return {"index": index, "status": "absent", "reason": reason, "items": {"pass": 0, "fail": 0, "error": 0},
            "result": None, "bugs": None}


def _run(command: str, run_dir: Path, instances: list[dict[str, Any]], reports: Reports, exit_code: int) -> dict[str, Any]:
    counts = {"instances": len(instances), "failed_instances": sum(i["status"] == "failed" for i in instances)}
    for key in ("pass", "fail", "error"):
        counts[key] = sum(i["items"][key] for i in instances)
    html, junit = reports if reports is not None else (None, None)
    return {"command": command, "version": version(), "exit_code": exit_code, "run_dir": _path(run_dir),
            "instances": instances, "counts": counts, "reports": {"html": _path(html), "junit": _path(junit)}}


def test_summary(run_dir: Path, result: InstanceResult, reports: Reports, exit_code: int) -> dict[str, Any]:
    """The summary of ``webtester test``."""
    return _run("test", run_dir, [_instance(run_dir, result)], reports, exit_code)


def bench_summary(command: str, run_dir: Path, report: BenchReport, reports: Reports, exit_code: int,
                  scores: dict[str, Any] | None = None) -> dict[str, Any]:
    """The summary of ``webtester bench`` (``command`` "bench") or ``webtester demo`` (with its ``scores``)."""
    instances = [_instance(run_dir, r) for _, r in sorted(report.results.items())]
    instances += [_absent(index, reason) for index, reason in sorted(report.absent.items())]
    data = _run(command, run_dir, instances, reports, exit_code)
    if command == "demo":
        data["scores"] = scores
    return data


def scores(summary: Summary, out_dir: Path) -> dict[str, Any]:
    """The ``scores`` object of a scored run."""
    from webtester.eval.reports import judge_label

    return {"judge": judge_label(summary), "dir": _path(out_dir), "overall": summary.overall.model_dump(mode="json"),
            "micro": summary.micro.model_dump(mode="json"), "counts": summary.totals.counts.model_dump(mode="json"),
            "diagnosis": summary.diagnosis.model_dump(mode="json") if summary.diagnosis is not None else None}


def score_summary(run_dir: Path, summary: Summary, out_dir: Path) -> dict[str, Any]:
    """The summary of ``webtester score``."""
    return {"command": "score", "version": version(), "exit_code": 0, "run_dir": _path(run_dir),
            "scores": scores(summary, out_dir)}


def emit(data: dict[str, Any]) -> None:
    """Write ``data`` as one JSON line on stdout (redacted: :mod:`webtester.redact`)."""
    from webtester.redact import redact_data

    sys.stdout.write(json.dumps(redact_data(data), ensure_ascii=False) + "\n")
    sys.stdout.flush()
