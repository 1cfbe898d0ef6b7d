"""`webtester score`."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from webtester.cli.exits import error_exit
from webtester.cli.options import JSON_OPTION
from webtester.errors import InputError


def _dataset_path(value: str | None, manifest: dict) -> Path:
    from webtester.bundled import gold_root

    name = value or manifest.get("dataset")
    if not name:
        raise InputError("no gold to score against: the run's manifest names no dataset (a run of an app that is not "
                         "bundled); pass --dataset GOLD (a JSONL file, a folder, or 'bundled')")
    return gold_root() if name == "bundled" else Path(name)


def score(
    run_dir: Path = typer.Argument(..., help="Run folder (webtester run or WebTestBench reference-harness output)."),
    dataset: Optional[str] = typer.Option(None, "--dataset", "-d", help="Gold dataset: JSONL file, folder, or 'bundled' (default: the run's manifest)."),
    judge: str = typer.Option("auto", "--judge", "-j", help="oracle | llm | embedding (auto: oracle for oracle runs, else embedding)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Where to write the scores (default: RUN_DIR/scores)."),
    bootstrap: int = typer.Option(2000, help="Bootstrap resamples for the 95% intervals (0: none)."),
    seed: int = typer.Option(0, help="Seed of the bootstrap."),
    judge_model: Optional[str] = typer.Option(None, help="Model of the LLM judge (default: settings / WEBTESTER_JUDGE_MODEL)."),
    threshold: Optional[float] = typer.Option(None, help="Threshold of the embedding judge (default: the calibrated one)."),
    config: Optional[Path] = typer.Option(None, "--config", help="webtester.toml with model and judge settings."),
    all_instances: bool = typer.Option(False, "--all", help="Score every dataset instance (those without results as missing), not only those the run's manifest lists (or, without a manifest, those with a folder in RUN_DIR)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Score a run folder against gold checklists and print the summary tables (``--json``: and print the
    summary of :mod:`webtester.cli.summary` on stdout, the tables on stderr)."""
    from webtester.cli.console import console as make_console
    from webtester.cli.summary import emit, score_summary
    from webtester.datasets import DatasetError, load_dataset
    from webtester.eval.judges import JUDGES, JudgeError, get_judge
    from webtester.eval.reports import print_summary, write_reports
    from webtester.eval.scoring import score_run_full
    from webtester.runfolder import RunFolderError, read_manifest, read_matches, scored_indices, scores_dir

    console = make_console(stderr=as_json)
    if not run_dir.is_dir():
        raise typer.BadParameter(f"{run_dir} is not a folder", param_hint="RUN_DIR")
    try:
        manifest = read_manifest(run_dir)
        instances = load_dataset(_dataset_path(dataset, manifest))
        listed = scored_indices(manifest)
        absent = len(manifest.get("instances") or {}) - len(listed)
        if absent:
            console.print(f"Leaving out {absent} instance(s) whose app was absent from the run.", highlight=False)
        if listed and not all_instances:
            subset = [i for i in instances if i.index in listed]
            if not subset:
                raise InputError("none of the instances in the run's manifest is in the dataset; check --dataset")
            if len(subset) < len(instances):
                console.print(f"Scoring the {len(subset)} instances the run's manifest lists "
                              f"(of {len(instances)} in the dataset; --all for every one).", highlight=False)
            instances = subset
        elif not listed and not all_instances:  # e.g. a reference-harness folder: the instances it has folders for
            present = [i for i in instances if (run_dir / i.index).is_dir()]
            if not present:
                raise InputError(f"{run_dir} has no manifest and no folder of any instance of the dataset; check "
                                 "--dataset, or pass --all to score every instance as missing")
            if len(present) < len(instances):
                console.print(f"The run folder has no manifest: scoring the {len(present)} instances that have a "
                              f"folder in it (of {len(instances)} in the dataset; --all for every one).", highlight=False)
            instances = present
        if judge == "auto":
            judge = "oracle" if manifest.get("mode") == "oracle" else "embedding"
        if judge not in JUDGES:
            raise typer.BadParameter(f"unknown judge {judge!r}; choose one of {', '.join(JUDGES)}", param_hint="--judge")
        from webtester.settings import load_settings

        settings = load_settings(config, judge_model=judge_model) if judge == "llm" else None
        the_judge = get_judge(judge, settings, threshold=threshold)
        console.print(f"Scoring {run_dir} ({len(instances)} instances) with judge {the_judge.info.label()}", highlight=False)
        out_dir = out or scores_dir(run_dir)
        previous = read_matches(out_dir) if judge == "llm" else None
        scored = score_run_full(run_dir, instances, the_judge, bootstrap=bootstrap, seed=seed, previous=previous)
    except (DatasetError, RunFolderError, JudgeError, ValueError) as exc:
        if isinstance(exc, typer.BadParameter):
            raise
        raise error_exit(exc) from None
    title = f"Scores of {run_dir.name}"
    if manifest.get("tester"):
        title += f" (tester {manifest['tester']}, mode {manifest.get('mode', '?')})"
    write_reports(scored.summary, out_dir, matches=scored.matches, predictions=scored.predictions, title=title)
    print_summary(scored.summary, console, title=title)
    console.print(f"Written to {out_dir}/ (summary.json, summary.md, *.csv, instances.jsonl, matches.jsonl, report_scores.json)", highlight=False)
    if as_json:
        emit(score_summary(run_dir, scored.summary, out_dir))
