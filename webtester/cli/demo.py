"""`webtester demo`: the main job. Test the bundled apps with no configuration (the LLM tester when a model is
configured, else the rule-based baseline), score the run against gold with the offline judge, print coverage
and P/R/F1, and write the HTML report and the JUnit XML into the run folder."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from webtester.cli.options import JSON_OPTION

if TYPE_CHECKING:
    from webtester.eval.metrics import Summary
    from webtester.models import Instance
    from webtester.settings import Settings


def gold_for_build(instance: Any, build: str) -> Any:
    """The bundled instance with gold labels for ``build``: an item fails exactly when a defect it depends on is on.

    The gold records are labelled for the shipped build; in the clean build every item passes.
    """
    from webtester.bundled import resolve_build

    on = set(resolve_build(instance, build))
    items = [g.model_copy(update={"passed": not (g.defect and g.defect in on)}) for g in instance.checklist]
    return instance.model_copy(update={"checklist": items})


def choose_tester(requested: str, settings: Settings) -> tuple[str, str]:
    """(tester kind, sentence saying which tester runs and why)."""
    if requested not in ("auto", "llm", "baseline"):
        raise typer.BadParameter("use auto, llm or baseline", param_hint="--tester")
    configured = settings.model_configured
    if requested == "llm" and not configured:
        raise typer.BadParameter("no model endpoint configured: set OPENAI_API_KEY and/or OPENAI_BASE_URL, or use --tester baseline",
                                 param_hint="--tester")
    if requested == "baseline" or (requested == "auto" and not configured):
        why = "as asked" if requested == "baseline" else "no model is configured (set OPENAI_API_KEY / OPENAI_BASE_URL to use one)"
        return "baseline", f"Tester: the rule-based baseline (deterministic probes, no model): {why}."
    where = settings.base_url or "the OpenAI API"
    return "llm", (f"Tester: the LLM tester with model {settings.stage_model('checklist')} (checklist) / "
                   f"{settings.stage_model('detection')} (detection) at {where}.")


def demo(
    apps: Optional[str] = typer.Option(None, "--apps", help="Comma-separated bundled apps to test (default: all of them)."),
    build: str = typer.Option("shipped", "--build", help="shipped (the seeded defects as shipped) or clean (every defect off)."),
    workers: int = typer.Option(2, "--workers", "-w", min=1, help="Apps tested at once (one browser each)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Run folder (default: OUTPUT_DIR/demo-<build>-<time>); reuse one to resume."),
    tester: str = typer.Option("auto", "--tester", help="auto (the LLM tester when a model is configured, else the baseline), llm or baseline."),
    timeout: Optional[float] = typer.Option(None, "--timeout", help="Seconds allowed per app."),
    bootstrap: int = typer.Option(1000, "--bootstrap", help="Bootstrap resamples for the 95% intervals (0: none)."),
    config: Optional[Path] = typer.Option(None, "--config", help="webtester.toml with model settings."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Test the bundled apps, score them against gold and write report.html and junit.xml.

    Exit codes: :data:`webtester.cli.exits.BENCH_CODES`. ``--json``: :mod:`webtester.cli.summary`.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from webtester import bundled
    from webtester.cli.console import console as make_console
    from webtester.cli.exits import INTERRUPTED, bench_exit_code, input_error, print_error
    from webtester.cli.progress import InstanceRows
    from webtester.cli.summary import bench_summary, emit, scores
    from webtester.errors import InputError
    from webtester.eval.bench import BenchConfig, run_bench
    from webtester.eval.reports import report_scores
    from webtester.runfolder import scores_dir
    from webtester.settings import SettingsError, load_settings

    console = make_console(stderr=as_json)
    started, cpu_started = time.perf_counter(), time.process_time()
    try:
        settings = load_settings(config)
    except SettingsError as exc:
        raise input_error(exc) from None
    kind, sentence = choose_tester(tester, settings)
    instances = bundled.load_bundled()
    if apps:
        wanted = [a.strip() for a in apps.split(",") if a.strip()]
        known = {i.index for i in instances}
        unknown = [a for a in wanted if a not in known]
        if unknown:
            raise typer.BadParameter(f"unknown app(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}", param_hint="--apps")
        instances = [i for i in instances if i.index in wanted]
    try:
        gold = [gold_for_build(i, build) for i in instances]
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--build") from None
    run_dir = out or Path(settings.output_dir) / f"demo-{build}-{time.strftime('%Y%m%d-%H%M%S')}"
    console.print(sentence, highlight=False)
    console.print(f"Testing {len(instances)} bundled app(s), {build} build, {workers} at a time -> {run_dir}", highlight=False)
    cfg = BenchConfig(mode="e2e", tester=kind, build=build, workers=workers, timeout=timeout,
                      config=config.resolve() if config else None)
    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[status]}"),
               TimeElapsedColumn()]
    with Progress(*columns, console=console, transient=False) as progress:
        overall = progress.add_task("apps", total=len(instances), status="")
        rows = InstanceRows(progress, keep_finished=True)

        def update(report: Any, finished: int, total: int) -> None:
            progress.update(overall, completed=finished, status=f"failed: {len(report.failed)}" if report.failed else "")

        try:
            report = run_bench(instances, Path(run_dir), cfg, settings=settings, dataset="bundled", on_update=update,
                               on_event=rows)
        except InputError as exc:  # e.g. the run folder is held by another process
            raise input_error(exc) from None
        except KeyboardInterrupt:
            print_error(f"rerun with --out {run_dir} to resume", "interrupted")
            raise typer.Exit(INTERRUPTED) from None
    for index, reason in sorted(report.failed.items()):
        print_error(reason, f"  {index} failed")
    summary = _score(console, Path(run_dir), gold, build, bootstrap)
    from webtester.report import write_reports

    html, junit = write_reports(Path(run_dir), scores=report_scores(summary) if summary is not None else None,
                                instances=gold, title=f"webtester demo: bundled apps, {build} build",
                                not_scored_reason=None if summary is not None else "the offline judge is not available")
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    console.print(f"Done in {wall:.0f} s (this process used {cpu:.0f} s of CPU; the test workers' CPU time is not included).",
                  highlight=False)
    console.print(f"HTML report: {html}", highlight=False, soft_wrap=True)
    console.print(f"JUnit XML:   {junit}", highlight=False, soft_wrap=True)
    code = bench_exit_code(report)
    if as_json:
        scored = scores(summary, scores_dir(Path(run_dir))) if summary is not None else None
        emit(bench_summary("demo", Path(run_dir), report, (html, junit), code, scores=scored))
    raise typer.Exit(code)


def _score(console: Any, run_dir: Path, gold: list[Instance], build: str, bootstrap: int) -> Summary | None:
    """Score the run with the offline judge, print the tables, write RUN_DIR/scores/; the scores' summary, or None
    when the judge is missing."""
    from webtester.eval.judges import JudgeError, get_judge
    from webtester.eval.reports import print_summary, write_reports
    from webtester.eval.scoring import score_run_full
    from webtester.runfolder import scores_dir

    try:
        judge = get_judge("embedding")
        console.print(f"Scoring against gold ({build} build labels) with the offline judge {judge.info.label()} ...",
                      highlight=False)
        scored = score_run_full(run_dir, gold, judge, bootstrap=bootstrap)
    except JudgeError as exc:
        console.print(f"[yellow]not scored:[/yellow] {exc}", highlight=False)
        return None
    title = f"Bundled apps, {build} build"
    write_reports(scored.summary, scores_dir(run_dir), matches=scored.matches, predictions=scored.predictions, title=title)
    print_summary(scored.summary, console, title=title)
    t = scored.summary.totals
    if t.gold_fail == 0:
        rate = t.counts.fp / t.gold_items if t.gold_items else 0.0
        console.print(f"No gold item fails in the {build} build, so precision, recall and F1 are 0 by definition; what counts "
                      f"here is false alarms: {t.counts.fp} of {t.gold_items} gold items ({100 * rate:.1f}%) were reported as "
                      "failing.", highlight=False)
    return scored.summary
