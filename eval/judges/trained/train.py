"""Train the offline matching judge on the labelled development set and store it as JSON.

    .venv/bin/python -m webtester.eval.judges.trained.train          # select, fit and print (nothing written)
    .venv/bin/python -m webtester.eval.judges.trained.train --write  # ... and store eval/data/models/trained_judge.json

Two procedures (deterministic for a given thread count):

* ``--procedure tune``: the packaged encoder's bias terms are tuned on the matched items
  (``encoder_tuning``); pair features of every predicted item against every gold item of its
  instance (``features``) are computed with an encoder tuned without that instance (4-fold
  cross-fitting by instance); C and the match threshold are chosen by grouped (by instance)
  cross-validation over those features, the logistic model is fitted on all of them, and the
  encoder tuned on all instances is stored beside it (``eval/data/models/tuned_encoder.npz``),
  with the checklists it was tuned on (``eval/data/matching/encoder_tuning_set.json``).
* ``--procedure refit``: the stored tuned encoder is kept; the features of instances it was not
  tuned on come from it, those of the instances it was tuned on from encoders tuned without
  them; then C, threshold and fit as above.

The artifact records the data it was fitted on (file hashes, instances), the choices, and its
in-sample agreement per instance (used by the tests to check that code and artifact still
agree). Cross-validated figures come from ``python -m webtester.eval.judges.trained.evaluate``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

from webtester.eval.judges.base import JudgeError
from webtester.eval.judges.embedding import model_id
from webtester.eval.judges.trained.dev_set import (
    TUNING_SET_FILE,
    TuningSet,
    judge_figures,
    load_dev_set,
    read_tuning_set,
)
from webtester.eval.judges.trained.encoder_tuning import adapter_digest, load_adapter, save_adapter
from webtester.eval.judges.trained.judge import FORMAT, MODEL_FILE, PackagedEncoder, PairFeaturizer, assign
from webtester.eval.judges.trained.training import (
    C_GRID,
    INNER_FOLDS,
    THRESHOLD_RULES,
    fit_tuned,
    refit_tensors,
    select_and_fit,
)
from webtester.eval.paths import DATA_ROOT, DEFAULT_DATASET, EVAL_ROOT, MATCHING_ROOT

VERSION = 4
PROCEDURES = ("refit", "tune")
ADAPTER_FILE = "tuned_encoder.npz"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _shown(path: Path) -> str:
    """A data file as the repository names it (``eval/data/...``), or as given when outside the data folder."""
    resolved = path.resolve()
    return str(Path("eval") / resolved.relative_to(EVAL_ROOT)) if resolved.is_relative_to(DATA_ROOT) else str(path)


def stored_encoder(tuned_on: TuningSet) -> dict:
    """The tuned encoder values a tuning set names (beside the judge's artifact), checked against its digest."""
    path = MODEL_FILE.parent / tuned_on.adapter_file
    adapter = load_adapter(path)
    if adapter_digest(adapter) != tuned_on.adapter_digest:
        raise JudgeError(f"{path}: digest {adapter_digest(adapter)}, {TUNING_SET_FILE.name} records "
                         f"{tuned_on.adapter_digest}; the refit procedure needs the encoder that file describes")
    return adapter


def write_tuning_set(checklists, adapter_file: str, adapter: dict, path: Path = TUNING_SET_FILE) -> None:
    """Record which checklists the stored encoder was tuned on (all of ``checklists``) and its file and digest."""
    data = {"about": "The checklists the stored tuned encoder was tuned on. The refit procedure keeps that encoder and "
                     "cross-fits the features of these instances with encoders tuned without them.",
            "instances": sorted({cl.index for cl in checklists}), "styles": sorted({cl.system for cl in checklists}),
            "adapter": {"file": adapter_file, "digest": adapter_digest(adapter)}}
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def train(dataset: Path = DEFAULT_DATASET, root: Path = MATCHING_ROOT, source: str = "reference",
          cache_path: Path | None | str = "default", progress=print,
          threshold_rule: str = "share", procedure: str = "refit") -> tuple[dict, dict]:
    """Fit the judge on the development set; returns the artifact as a dict and the tuned encoder values.

    ``threshold_rule`` names the rule of ``THRESHOLD_RULES`` that sets the match threshold.
    ``procedure``: ``refit`` keeps the stored tuned encoder (``stored_encoder``) and fits the
    classifier on every checklist, with features from an encoder not tuned on its instance
    (``refit_tensors``); ``tune`` tunes the encoder anew on every checklist (``fit_tuned``; slow).
    """
    checklists = load_dev_set(root, dataset)
    tuned_on = read_tuning_set(root / TUNING_SET_FILE.name)
    if procedure == "tune":
        adapter, model, threshold, info = fit_tuned(checklists, source, rule=THRESHOLD_RULES[threshold_rule],
                                                    progress=progress)
    else:
        adapter = stored_encoder(tuned_on)
        tensors = refit_tensors(checklists, adapter, tuned_on, source, progress=progress)
        model, threshold, info = select_and_fit(checklists, tensors, source, rule=THRESHOLD_RULES[threshold_rule])
        info = {**info, "encoder": f"kept as tuned on {_shown(root / TUNING_SET_FILE.name)}"}
    tensors = PairFeaturizer(PackagedEncoder(cache_path, adapter)).features([(cl.instance, cl.items) for cl in checklists])
    matches = [assign(model.probability(x), [g.id for g in cl.instance.checklist], threshold)
               for cl, x in zip(checklists, tensors)]
    per_instance = {}
    for index in sorted({cl.index for cl in checklists}):
        part = [i for i, cl in enumerate(checklists) if cl.index == index]
        fig = judge_figures([checklists[i] for i in part], [matches[i] for i in part], source)
        per_instance[index] = {"items": fig["items"], "agreement": round(fig["agreement"], 6)}
    overall = judge_figures(checklists, matches, source)
    return {
        "format": FORMAT,
        "version": VERSION,
        "judge": "trained pair classifier (logistic regression) over embedding and lexical features, bias-tuned encoder",
        "encoder": model_id(),
        "adapter": {"file": ADAPTER_FILE if procedure == "tune" else tuned_on.adapter_file,
                    "digest": adapter_digest(adapter),
                    "parameters": int(sum(v.size for v in adapter.values()))},
        "rule": "per predicted item: the gold item of highest match probability if it reaches the threshold, else none",
        "threshold": threshold,
        "model": model.to_json(),
        "selection": {"C_grid": list(C_GRID), "inner_folds": INNER_FOLDS, "grouped_by": "instance",
                      "threshold_rule": threshold_rule, "procedure": procedure, **info},
        "training_data": {
            "predicted": f"{_shown(root / 'predicted.jsonl')} sha256:{_sha256(root / 'predicted.jsonl')}",
            "labels": f"{_shown(root / 'reference.jsonl')} sha256:{_sha256(root / 'reference.jsonl')}",
            "label_source": source,
            "instances": sorted({cl.index for cl in checklists}),
            "checklists": len(checklists),
            "items": sum(len(cl.items) for cl in checklists),
        },
        "in_sample": {"agreement": round(overall["agreement"], 6), "kappa": round(overall["kappa"], 6),
                      "per_instance": per_instance,
                      "note": "fitted and measured on the same data: optimistic; see eval/data/matching/README.md for cross-validated figures"},
    }, adapter


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", type=Path, default=DEFAULT_DATASET, help="WebTestBench JSONL with the gold items")
    parser.add_argument("--root", type=Path, default=MATCHING_ROOT, help="labelled matching set folder")
    parser.add_argument("--write", action="store_true", help=f"store the artifact in {_shown(MODEL_FILE)}")
    parser.add_argument("--out", type=Path, default=MODEL_FILE, help="where --write stores the artifact")
    parser.add_argument("--threshold-rule", choices=sorted(THRESHOLD_RULES), default="share",
                        help="share: the cut matching the labels' share of matched items (shipped); "
                             "agreement: the cut agreeing best with the labels")
    parser.add_argument("--procedure", choices=PROCEDURES, default="refit",
                        help="refit: keep the stored tuned encoder, refit the classifier (minutes); "
                             "tune: tune the encoder anew on the whole set (slow)")
    args = parser.parse_args(argv)
    artifact, adapter = train(args.dataset, args.root, threshold_rule=args.threshold_rule, procedure=args.procedure)
    text = json.dumps(artifact, indent=1)
    summary = {k: artifact[k] for k in ("threshold", "selection", "in_sample")}
    summary["in_sample"] = {k: v for k, v in artifact["in_sample"].items() if k != "per_instance"}
    print(json.dumps(summary, indent=2))
    if args.write:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        written = [args.out]
        if args.procedure == "tune":  # a new encoder: stored, and recorded as the one later refits keep
            save_adapter(adapter, args.out.parent / ADAPTER_FILE)
            write_tuning_set(load_dev_set(args.root, args.dataset), ADAPTER_FILE, adapter, args.root / TUNING_SET_FILE.name)
            written += [args.out.parent / ADAPTER_FILE, args.root / TUNING_SET_FILE.name]
        tmp = args.out.with_suffix(".tmp")
        tmp.write_text(text + "\n", encoding="utf-8")
        tmp.replace(args.out)
        for path in written:
            print(f"written: {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
