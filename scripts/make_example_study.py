"""Build the worked example correlation study in eval/studies/example/ from the matching set.

The study takes six instances of eval/matching/ (one per category but
User-Generated Content), writes each checklist style as a run folder of its
own (``runs/<system>/<index>/result.json``) and the two annotation passes as
one CSV with an ``annotator`` column. Run from the project root:

    .venv/bin/python scripts/make_example_study.py
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

from webtester.eval.correlation.study import load_predictions_file
from webtester.artifacts import write_json, write_text
from webtester.datasets import load_dataset
from webtester.models import InstanceResult

ROOT = Path(__file__).resolve().parents[1]
MATCHING = ROOT / "eval" / "matching"
OUT = ROOT / "eval" / "studies" / "example"
DATASET = ROOT.parent / "shared" / "datasets" / "webtestbench" / "WebTestBench.jsonl"
INSTANCES = ["WebTestBench_0035", "WebTestBench_0037", "WebTestBench_0050",
             "WebTestBench_0062", "WebTestBench_0070", "WebTestBench_0090"]


def main() -> None:
    instances = load_dataset(DATASET)
    systems = load_predictions_file(MATCHING / "predicted.jsonl", instances)
    if (OUT / "runs").exists():
        shutil.rmtree(OUT / "runs")
    for system, preds in systems.items():
        run = OUT / "runs" / system
        write_json(run / "manifest.json", {"system": system, "tester": f"hand-written checklist ({system} style)",
                                           "mode": "e2e", "source": "eval/matching/predicted.jsonl"})
        for index in INSTANCES:
            p = preds[index]
            result = InstanceResult(index=index, tester=f"hand-written ({system})", checklist=p.items, verdicts=p.verdicts)
            write_text(run / index / "result.json", result.model_dump_json(indent=1) + "\n")
    with (OUT / "annotations.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["annotator", "index", "system", "item_id", "gold_id"])
        for path in sorted((MATCHING / "annotations").glob("annotator_*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                if row["index"] in INSTANCES:
                    gid = "" if row["gold_id"] is None else row["gold_id"]
                    writer.writerow([path.stem, row["index"], row["system"], row["item_id"], gid])
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
