"""`webtester test`: generate a checklist for one app and test it in a real browser."""

from __future__ import annotations

import datetime as _dt
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from webtester.cli.exits import INTERRUPTED, input_error, print_error, test_exit_code
from webtester.cli.options import JSON_OPTION, TRACE_OPTION, Trace, trace_value
from webtester.errors import InputError

if TYPE_CHECKING:
    from webtester.agents.base import Tester
    from webtester.models import InstanceResult
    from webtester.settings import Settings


def test(
    app_or_url: str = typer.Argument(..., help="A bundled app name, a static folder, an npm project folder, or a URL."),
    instruction: Optional[str] = typer.Option(None, "--instruction", "-i", help="The instruction the app was built from."),
    instruction_file: Optional[Path] = typer.Option(None, "--instruction-file", help="Read the instruction from a file."),
    oracle: Optional[str] = typer.Option(
        None, "--oracle",
        help="Oracle mode: test this gold checklist instead of generating one (WebTestBench JSONL, a markdown "
        "checklist, or 'bundled' for a bundled app's gold).",
    ),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Run folder (default: OUTPUT_DIR/<time>-<name>)."),
    model: Optional[str] = typer.Option(
        None, "--model", "-m",
        help="Model for both stages: a model name on the OpenAI-compatible endpoint, scripted:SCRIPT (a script file or a shipped name such as portfolio_site), or replay:RUN_DIR.",
    ),
    checklist_model: Optional[str] = typer.Option(None, "--checklist-model", help="Model for checklist generation."),
    detection_model: Optional[str] = typer.Option(None, "--detection-model", help="Model for defect detection."),
    tester: str = typer.Option(
        "auto", "--tester",
        help="Tester: llm (chat models), baseline (rule-based, no model), or auto: llm when a model is configured or "
             "given, else baseline.",
    ),
    build: str = typer.Option("shipped", "--build", help="Bundled apps: shipped, clean, all, or defect ids."),
    max_items: Optional[int] = typer.Option(None, "--max-items", help="Most checklist items to generate (default 20)."),
    config: Optional[Path] = typer.Option(None, "--config", help="TOML settings file."),
    name: Optional[str] = typer.Option(None, "--name", help="Instance name used for the run sub-folder."),
    exit_zero: bool = typer.Option(
        False, "--exit-zero", help="Exit 0 even when a Fail is found or the instance failed (usage and input errors still exit 2).",
    ),
    trace: Optional[Trace] = TRACE_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Test one app: checklist, a verdict per item, bug reports with evidence; a summary table at the end.

    Exit codes: :data:`webtester.cli.exits.TEST_CODES`. ``--json``: :mod:`webtester.cli.summary`.
    """
    from webtester.cli.console import console as make_console  # every line it prints is redacted
    from webtester.cli.reporting import write_run_reports
    from webtester.cli.summary import emit, test_summary
    from webtester.runfolder import record_run_fields
    from webtester.settings import load_settings

    console = make_console(stderr=as_json)
    try:
        settings = load_settings(
            config, model=model, checklist_model=checklist_model if not model else None,
            detection_model=detection_model if not model else None, max_items=max_items, trace=trace_value(trace),
        )
        plan = _plan(app_or_url, instruction, instruction_file, oracle, name)
        tester_obj, why = _tester(tester, settings, model)
    except (ValueError, FileNotFoundError, ImportError) as exc:  # InputError is a ValueError
        raise input_error(exc) from None
    run_dir = out or settings.output_dir / f"{_dt.datetime.now():%Y%m%d-%H%M%S}-{plan['index']}"
    console.print(f"[bold]webtester test[/bold] {app_or_url}  tester=[cyan]{tester_obj.name}[/cyan]  "
                  f"mode={plan['mode']}  run folder={run_dir}", soft_wrap=True)
    if why:
        console.print(why, highlight=False, soft_wrap=True)
    started = time.perf_counter()
    try:
        result = _run(console, plan, tester_obj, settings, run_dir, build)
    except InputError as exc:  # e.g. the run folder is held by another process
        raise input_error(exc) from None
    except KeyboardInterrupt:
        print_error(f"resume where it stopped with: webtester test {app_or_url} --out {run_dir} (and the same options)",
                    "interrupted")
        raise typer.Exit(INTERRUPTED) from None
    _summary(console, result, run_dir, time.perf_counter() - started)
    if plan["dataset"]:
        record_run_fields(run_dir, {"dataset": plan["dataset"]})
    reports = write_run_reports(console, run_dir, instructions={plan["index"]: plan["instruction"]})
    code = test_exit_code(result, exit_zero)
    if as_json:
        emit(test_summary(run_dir, result, reports, code))
    raise typer.Exit(code)


def _tester(kind: str, settings: Settings, model: str | None) -> tuple[Tester, str | None]:
    """The tester to run, and why it was chosen when ``--tester auto`` chose the baseline (else None)."""
    from webtester.llm.factory import ModelSpec
    from webtester.testers import make_tester

    names = [model] if model else [settings.stage_model("checklist"), settings.stage_model("detection")]
    needs_endpoint = any(ModelSpec.parse(n).kind == "openai" for n in names)
    why = None
    if kind == "auto":
        kind = "llm" if settings.model_configured or not needs_endpoint else "baseline"
        if kind == "baseline":
            why = ("Tester: the rule-based baseline (deterministic probes, no model): no model is configured "
                   "(set OPENAI_API_KEY / OPENAI_BASE_URL, or pass --model, to use the LLM tester).")
    if kind == "llm":
        if needs_endpoint and not settings.model_configured:
            raise InputError(
                "no model endpoint configured: set OPENAI_API_KEY and/or OPENAI_BASE_URL (or a config file), "
                "or use --model scripted:portfolio_site (a shipped script), --model replay:RUN_DIR, or --tester baseline"
            )
    return make_tester(kind, settings=settings, model=model), why


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-")[:60] or "app"


def _plan(target: str, instruction: str | None, instruction_file: Path | None, oracle: str | None, name: str | None) -> dict:
    """What to run: target, instruction, index and (oracle mode) the gold items."""
    from webtester.models import Instance
    from webtester.targets import is_url, resolve_target
    from webtester.textfile import read_user_text

    resolved = resolve_target(target)
    inst = resolved if isinstance(resolved, Instance) else None
    if instruction_file is not None:
        if instruction is not None:
            raise InputError("give --instruction or --instruction-file, not both")
        instruction = read_user_text(instruction_file, InputError, "instruction file")
        if not instruction.strip():
            raise InputError(f"{instruction_file}: the instruction file is empty")
    elif instruction is not None and not instruction.strip():
        raise InputError("--instruction is blank: give the instruction the app was built from")
    if instruction is None:
        if inst is None:
            raise InputError("--instruction or --instruction-file is required for apps that are not bundled")
        instruction = inst.instruction
    instruction = instruction.strip()
    if is_url(target):
        index = name or _slug(target.split("://", 1)[1])
    else:
        index = name or (inst.index if inst else _slug(Path(target).resolve().name))
    plan: dict[str, Any] = {"target": inst or target, "instruction": instruction, "index": index, "mode": "e2e", "gold": None}
    # the gold `webtester score` reads: a bundled app's, or the gold file of --oracle (a markdown checklist has no labels)
    plan["dataset"] = "bundled" if inst is not None and index == inst.index else None
    if oracle:
        plan["mode"] = "oracle"
        plan["gold"] = _gold_items(oracle, inst, index)
        if oracle != "bundled":
            plan["dataset"] = None if Path(oracle).suffix == ".md" else str(Path(oracle).resolve())
    return plan


def _gold_items(oracle: str, inst: Any, index: str) -> list:
    from webtester.datasets import load_dataset
    from webtester.datasets.markdown import parse_checklist
    from webtester.models import oracle_items
    from webtester.textfile import read_user_text

    if oracle == "bundled":
        if inst is None:
            raise InputError("--oracle bundled needs a bundled app")
        return oracle_items(inst)
    path = Path(oracle)
    if not path.exists():
        raise InputError(f"{path}: gold checklist not found")
    if path.suffix == ".md":
        items = parse_checklist(read_user_text(path, InputError, "markdown checklist"))
        if not items:
            raise InputError(f"{path}: no checklist items found")
        return items
    instances = load_dataset(path)
    chosen = [i for i in instances if i.index == index] or (instances if len(instances) == 1 else [])
    if not chosen:
        raise InputError(f"{path}: no instance named {index!r} among {len(instances)}; pass --name")
    return oracle_items(chosen[0])


def _run(console: Any, plan: dict, tester: Tester, settings: Settings, run_dir: Path, build: str) -> InstanceResult:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from webtester.graphs.run import run_app

    marks = {"pass": "[green]pass[/green]", "fail": "[red]fail[/red]", "error": "[yellow]error[/yellow]"}
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, transient=False) as progress:
        task = progress.add_task("starting the app", total=None)

        def on_event(event: str, data: dict) -> None:
            if event == "app_started":
                progress.update(task, description=f"app at {data['url']}; checklist")
            elif event == "checklist":
                progress.update(task, total=data["items"], description=f"{data['items']} items")
            elif event == "resuming":
                progress.update(task, completed=data["done"], description="resuming")
            elif event == "item_started":
                progress.update(task, description=f"{data['item']}: {data['description'][:60]}")
            elif event == "item_done":
                progress.advance(task)
                progress.console.print(f"  {data['item']}: {marks.get(data['status'], data['status'])}")
            elif event in ("app_failed", "checklist_failed"):
                progress.console.print(f"[red]{event.replace('_', ' ')}:[/red] {data.get('error')}", soft_wrap=True)

        return run_app(
            plan["target"], instruction=plan["instruction"], index=plan["index"], mode=plan["mode"], tester=tester,
            out_dir=run_dir, gold=plan["gold"], build=build, settings=settings, on_event=on_event,
        )


def _summary(console: Any, result: Any, run_dir: Path, wall: float) -> None:
    from rich.table import Table

    from webtester.runfolder import run_label, summary_counts

    table = Table(title=f"{result.index}: {run_label(result.tester, result.tester.startswith('replay'))}")
    for col in ("item", "status", "description / bug report", "tool calls", "tokens", "seconds"):
        table.add_column(col, justify="right" if col in ("tool calls", "tokens", "seconds") else "left", overflow="fold")
    items = {i.id: i for i in result.checklist}
    style = {"pass": "green", "fail": "red", "error": "yellow"}
    for v in result.verdicts:
        text = items[v.item_id].description if v.item_id in items else ""
        if v.bug_report:
            text += f"\n[red]{v.bug_report.issue}[/red]"
        elif v.status.value == "error":
            text += f"\n[yellow]{v.evidence.notes.splitlines()[0] if v.evidence.notes else ''}[/yellow]"
        table.add_row(v.item_id, f"[{style[v.status.value]}]{v.status.value}[/]", text, str(v.cost.tool_calls),
                      str(v.cost.input_tokens + v.cost.output_tokens), f"{v.cost.seconds:.1f}")
    console.print(table)
    counts = summary_counts(result.verdicts)
    c = result.cost
    console.print(
        f"{counts['pass']} passed, {counts['fail']} failed, {counts['error']} errors; {c.model_calls} model calls, "
        f"{c.tool_calls} tool calls, {c.input_tokens + c.output_tokens} tokens; {c.seconds:.1f} s in the items, "
        f"{wall:.1f} s in all",
        soft_wrap=True,
    )
    if result.status != "ok":
        print_error(result.reason, "instance failed")
    folder = run_dir / result.index
    console.print(f"results: {folder / 'result.md'}  bug reports: {folder / 'bugs.md'}  manifest: {run_dir / 'manifest.json'}",
                  soft_wrap=True)
