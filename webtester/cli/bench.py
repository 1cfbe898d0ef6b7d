"""`webtester bench`."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from webtester.cli.console import console as make_console
from webtester.cli.exits import INTERRUPTED, bench_exit_code, input_error, print_error
from webtester.cli.options import JSON_OPTION, TRACE_OPTION, Trace, trace_value
from webtester.cli.reporting import write_run_reports
from webtester.errors import InputError


def bench(
    dataset: str = typer.Argument("bundled", help="'bundled' (the bundled benchmark, gold/) or a WebTestBench JSONL file / folder."),
    mode: str = typer.Option("e2e", "--mode", "-m", help="e2e (generate the checklist) or oracle (gold checklist given)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Run folder (default: <output_dir>/bench-<mode>-<time>); reuse one to resume."),
    apps: Optional[Path] = typer.Option(None, "--apps", help="Where the apps are: a folder of zips (WebTestBench_0001.zip, ...), a folder of app folders, or bundled apps' root."),
    tester: Optional[str] = typer.Option(None, "--tester", help="llm (default) or baseline."),
    model: Optional[str] = typer.Option(None, "--model", help="Model for both stages: a name, scripted:FILE or replay:RUN_DIR."),
    checklist_model: Optional[str] = typer.Option(None, "--checklist-model", help="Model for checklist generation."),
    detection_model: Optional[str] = typer.Option(None, "--detection-model", help="Model for defect detection."),
    max_items: Optional[int] = typer.Option(None, "--max-items", help="Most checklist items to generate (default 20)."),
    build: str = typer.Option("shipped", "--build", help="Bundled apps: shipped | clean | all | defect ids."),
    workers: int = typer.Option(2, "--workers", "-w", min=1, help="Instances run at once (one browser each)."),
    timeout: Optional[float] = typer.Option(None, "--timeout", help="Seconds allowed per instance."),
    only: Optional[str] = typer.Option(None, "--only", help="Comma-separated indices to run."),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, help="Run the first N instances only."),
    retry_failed: bool = typer.Option(False, "--retry-failed", help="Rerun instances recorded as failed."),
    config: Optional[Path] = typer.Option(None, "--config", help="webtester.toml with model settings."),
    runner: Optional[str] = typer.Option(None, "--runner", hidden=True, help="module:function run per instance."),
    exit_zero: bool = typer.Option(False, "--exit-zero", help="Exit 0 even when an instance failed (input errors still exit 2)."),
    trace: Optional[Trace] = TRACE_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Run a tester over a dataset, concurrently and resumably, and write a run folder.

    Exit codes: :data:`webtester.cli.exits.BENCH_CODES`. ``--json``: :mod:`webtester.cli.summary`.
    """
    import time

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from webtester.bundled import gold_root
    from webtester.cli.progress import InstanceRows
    from webtester.cli.summary import bench_summary, emit
    from webtester.datasets import DatasetError, load_dataset
    from webtester.eval.bench import BenchConfig, run_bench
    from webtester.settings import SettingsError, load_settings
    from webtester.targets import app_present

    console = make_console(stderr=as_json)
    if mode not in ("e2e", "oracle"):
        raise typer.BadParameter("use e2e or oracle", param_hint="--mode")
    try:
        settings = load_settings(
            config, model=model, checklist_model=checklist_model if not model else None,
            detection_model=detection_model if not model else None, max_items=max_items, trace=trace_value(trace),
        )
        path = gold_root() if dataset == "bundled" else Path(dataset)
        instances = load_dataset(path)
    except (DatasetError, SettingsError) as exc:
        raise input_error(exc) from None
    if only:
        wanted = [i.strip() for i in only.split(",") if i.strip()]
        unknown = sorted(set(wanted) - {i.index for i in instances})
        if unknown:
            raise typer.BadParameter(f"not in the dataset: {', '.join(unknown)}", param_hint="--only")
        instances = [i for i in instances if i.index in wanted]
    if limit:
        instances = instances[:limit]
    if dataset != "bundled" and apps is None and any(i.app is None or i.app.kind != "url" for i in instances):
        raise typer.BadParameter("a WebTestBench dataset needs --apps DIR (a folder of app zips or app folders)", param_hint="--apps")
    if apps is not None and not apps.exists():
        raise typer.BadParameter(f"{apps}: no such folder", param_hint="--apps")
    if apps is not None and instances and not any(app_present(i, apps) for i in instances):
        raise typer.BadParameter(f"{apps} holds the app of none of the {len(instances)} instances", param_hint="--apps")
    run_dir = out or Path(settings.output_dir) / f"bench-{mode}-{time.strftime('%Y%m%d-%H%M%S')}"
    cfg = BenchConfig(mode=mode, tester=tester, model=model, build=build, apps_root=apps.resolve() if apps else None,
                      config=config.resolve() if config else None, workers=workers, timeout=timeout, retry_failed=retry_failed,
                      **({"runner": runner} if runner else {}))
    label = "bundled" if dataset == "bundled" else str(Path(dataset).resolve())
    console.print(f"Bench: {len(instances)} instances, mode {mode}, {workers} worker(s) -> {run_dir}", highlight=False)
    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[status]}"),
               TimeElapsedColumn()]
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task("instances", total=len(instances), status="failed: 0")
        rows = InstanceRows(progress, keep_finished=False)

        def update(report, finished, total):
            progress.update(task, completed=finished, status=f"failed: {len(report.failed)}")

        try:
            report = run_bench(instances, run_dir, cfg, settings=settings, dataset=label, on_update=update,
                               on_event=rows)
        except InputError as exc:  # e.g. the run folder is held by another process
            raise input_error(exc) from None
        except KeyboardInterrupt:
            print_error(f"rerun with --out {run_dir} to resume", "interrupted")
            raise typer.Exit(INTERRUPTED) from None
    console.print(f"Ran {len(report.ran)}, skipped {len(report.skipped)} finished, failed {len(report.failed)} "
                  f"in {report.seconds:.1f} s.", highlight=False)
    for index, reason in sorted(report.failed.items()):
        console.print(f"  failed {index}: {reason}", highlight=False)
    if report.absent:
        console.print(f"  {len(report.absent)} instance(s) not run, their app is absent: {', '.join(sorted(report.absent))}",
                      highlight=False)
    for index, reason in sorted(report.rerun.items()):
        console.print(f"  ran again {index}: {reason}", highlight=False)
    reports = write_run_reports(console, run_dir, instances=[i for i in instances if i.index not in report.absent])
    console.print(f"Run folder: {run_dir}  (score it: webtester score {run_dir})", highlight=False)
    code = bench_exit_code(report, exit_zero)
    if as_json:
        emit(bench_summary("bench", run_dir, report, reports, code))
    raise typer.Exit(code)

