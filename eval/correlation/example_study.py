"""Build the worked example correlation study in eval/data/studies/example/ from the matching set.

The study takes six instances of eval/data/matching/ (one per category but
User-Generated Content), writes each checklist style as a run folder of its
own (``runs/<system>/<index>/result.json``) and the two annotation passes as
one CSV with an ``annotator`` column:

    python -m webtester.eval.correlation.example_study
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil

from webtester.datasets import load_dataset
from webtester.eval.correlation.study import load_predictions_file
from webtester.eval.paths import DEFAULT_DATASET, EXAMPLE_STUDY, MATCHING_ROOT
from webtester.models import InstanceResult
from webtester.runfolder import MANIFEST_FILE, RESULT_FILE, write_json, write_text

MATCHING = MATCHING_ROOT
OUT = EXAMPLE_STUDY
INSTANCES = ["WebTestBench_0035", "WebTestBench_0037", "WebTestBench_0050",
             "WebTestBench_0062", "WebTestBench_0070", "WebTestBench_0090"]


def main(argv: list[str] | None = None) -> None:
    """Write the example study's run folders and annotation CSV."""
    argparse.ArgumentParser(description=__doc__.split("\n")[0]).parse_args(argv)
    instances = load_dataset(DEFAULT_DATASET)
    systems = load_predictions_file(MATCHING / "predicted.jsonl", instances)
    if (OUT / "runs").exists():
        shutil.rmtree(OUT / "runs")
    for system, preds in systems.items():
        run = OUT / "runs" / system
        write_json(run / MANIFEST_FILE, {"system": system, "tester": f"hand-written checklist ({system} style)",
                                           "mode": "e2e", "source": "eval/data/matching/predicted.jsonl"})
        for index in INSTANCES:
            p = preds[index]
            result = InstanceResult(index=index, tester=f"hand-written ({system})", checklist=p.items, verdicts=p.verdicts)
            write_text(run / index / RESULT_FILE, result.model_dump_json(indent=1) + "\n")
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
