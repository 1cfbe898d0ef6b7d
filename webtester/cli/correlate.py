"""`webtester correlate`: a correlation-with-human study, or an annotation template."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from webtester.cli.exits import error_exit

HELP = """Correlate automatic scores with human matching annotations.

  webtester correlate ANNOTATIONS RUN_DIR... [--judge embedding]   run a study
  webtester correlate template RUN_DIR... -o annotations.csv        export a template to annotate

ANNOTATIONS is a CSV / JSONL file or a folder of them (columns annotator, index, system,
item_id, gold_id). Each RUN_DIR is one system: a run folder, or a predictions JSONL file
(index, system, item_id, dimension, description, action, expected, status) holding several.
"""


def correlate(
    args: list[str] = typer.Argument(..., help="ANNOTATIONS RUN_DIR... | template RUN_DIR...", show_default=False),
    dataset: Optional[str] = typer.Option(None, "--dataset", "-d", help="Gold dataset (JSONL, folder or 'bundled'; default: the first run's manifest)."),
    judge: str = typer.Option("embedding", "--judge", "-j", help="Automatic judge to compare with the annotators: embedding | llm | oracle | ..."),
    out: Optional[Path] = typer.Option(None, "--out", help="Folder for the study's tables (default: ./correlation)."),
    output: Path = typer.Option(Path("annotations_template.csv"), "--output", "-o", help="template: the CSV to write."),
    annotator: str = typer.Option("", help="template: annotator name to pre-fill."),
    bootstrap: int = typer.Option(1000, help="Bootstrap resamples for the 95% intervals."),
    seed: int = typer.Option(0, help="Seed of the bootstrap."),
    config: Optional[Path] = typer.Option(None, "--config", help="webtester.toml with the judge's model settings."),
) -> None:
    from webtester.cli.console import console as make_console
    from webtester.cli.score import _dataset_path
    from webtester.datasets import DatasetError, load_dataset
    from webtester.eval.correlation import AnnotationError, load_annotations, load_systems, run_study
    from webtester.eval.judges import JudgeError, get_judge
    from webtester.runfolder import RunFolderError, read_manifest
    from webtester.settings import SettingsError, load_settings

    console = make_console()
    template = args[0] == "template"
    paths = [Path(a) for a in (args[1:] if template else args[1:])]
    if not paths:
        raise typer.BadParameter("give at least one RUN_DIR", param_hint="RUN_DIR")
    try:
        first_manifest = read_manifest(paths[0]) if paths[0].is_dir() else {}
        instances = load_dataset(_dataset_path(dataset, first_manifest))
        systems = load_systems(paths, instances)
        if template:
            _write_template(systems, instances, output, annotator, console)
            return
        annotations = load_annotations(Path(args[0]))
        settings = load_settings(config) if judge == "llm" else None
        the_judge = get_judge(judge, settings)
        console.print(f"Matching with judge {the_judge.info.label()} ...", highlight=False)
        result = run_study(annotations, systems, instances, the_judge, n_resamples=bootstrap, seed=seed)
    except (AnnotationError, DatasetError, RunFolderError, JudgeError, SettingsError, ValueError) as exc:
        if isinstance(exc, typer.BadParameter):
            raise
        raise error_exit(exc) from None
    from webtester.eval.correlation.report import print_study, write_study

    print_study(result, console)
    out_dir = out or Path("correlation")
    write_study(result, out_dir)
    console.print(f"Written to {out_dir}/ (correlation.json, correlation.md, correlations.csv, agreement.csv, units.csv)",
                  highlight=False)


correlate.__doc__ = HELP


def _write_template(systems, instances, output: Path, annotator: str, console) -> None:
    from webtester.eval.correlation.annotations import write_template

    gold = {i.index: i for i in instances}
    rows = []
    for system, preds in sorted(systems.items()):
        for index, pred in sorted(preds.items()):
            for item in pred.items:
                rows.append({"index": index, "system": system, "item_id": item.id, "dimension": item.dimension.value,
                             "description": item.description, "action": item.action, "expected": item.expected})
    write_template(rows, output, annotator)
    guide = output.with_suffix(".gold.md")
    lines = ["# Gold items to match against", "", "Fill the `gold_id` column with one id below, or leave it empty for no match.", ""]
    for index in sorted({r["index"] for r in rows}):
        lines += [f"## {index}", "", gold[index].instruction, ""]
        lines += [f"- {g.id} ({g.dimension.value}): {g.content}" for g in gold[index].checklist]
        lines.append("")
    guide.write_text("\n".join(lines), encoding="utf-8")
    console.print(f"Wrote {len(rows)} rows to {output} and the gold items to {guide}", highlight=False)
