"""Time the offline (embedding) judge plus the metrics on all WebTestBench instances.

Predicted checklists are generated deterministically from the gold items: 20 per
instance, about 70% paraphrase-like perturbations of gold items (word drops,
reordering, hedges, synonyms) and 30% distractors (generic checks and gold items
of other instances). Verdicts are drawn with a seeded generator (Fail for 60% of
the items derived from a failing gold item, 10% otherwise, 2% error). The
embedding cache is off by default, so the model computes every embedding.

    python -m webtester.eval.benchmarks.judge_speed [--dataset WebTestBench.jsonl] [--per-instance 20] [--cache]

Prints the time of each phase (wall and CPU) and the resulting figures.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import time
from pathlib import Path

from webtester.eval.paths import DEFAULT_DATASET
from webtester.models import BugReport, Status, TestItem, Verdict, item_id

T0 = time.perf_counter()
C0 = time.process_time()

GENERIC = [
    "The page loads without console errors",
    "The layout stays usable at a 375 px wide viewport",
    "The footer shows contact information",
    "All images have alternative text",
    "Navigation links lead to existing pages",
    "The page title names the application",
    "Buttons show a hover state",
    "Data entered is kept after reloading the page",
    "Keyboard users can reach every control with Tab",
    "No placeholder text such as lorem ipsum is visible",
]
SYNONYMS = {"users": "a user", "can": "is able to", "display": "show", "displays": "shows", "the system": "the app",
            "must": "should", "page": "screen", "click": "press", "list": "overview", "create": "add"}
HEDGES = ["Verify that ", "Check that ", "Ensure ", "Confirm that ", ""]


def perturb(text: str, rng: random.Random) -> str:
    """A paraphrase-like variant of a gold text (deterministic given ``rng``)."""
    words = text.rstrip(".").split()
    kind = rng.randrange(4)
    if kind == 0 and len(words) > 6:  # drop a few words
        drop = set(rng.sample(range(len(words)), k=max(1, len(words) // 6)))
        words = [w for i, w in enumerate(words) if i not in drop]
    elif kind == 1:  # synonyms
        words = [SYNONYMS.get(w.lower(), w) for w in words]
    elif kind == 2 and "," in text:  # swap clauses
        a, _, b = text.rstrip(".").partition(",")
        words = (b.strip() + ", " + a.strip()).split()
    out = " ".join(words)
    return rng.choice(HEDGES) + (out[0].lower() + out[1:] if out else out)


def predicted_checklists(instances, per_instance: int, seed: int = 0):
    """(items, verdicts, source gold ids) per instance."""
    pool = [g.content for inst in instances for g in inst.checklist]
    out = []
    for inst in instances:
        rng = random.Random(int(hashlib.sha256(f"{seed}|{inst.index}".encode()).hexdigest()[:12], 16))
        items, verdicts, sources = [], [], []
        n_derived = round(per_instance * 0.7)
        for j in range(per_instance):
            if j < n_derived:
                g = inst.checklist[j % len(inst.checklist)] if j < len(inst.checklist) else rng.choice(inst.checklist)
                text, dim, p_fail, src = perturb(g.content, rng), g.dimension, (0.6 if not g.passed else 0.1), g.id
            else:
                text = rng.choice(GENERIC) if rng.random() < 0.5 else rng.choice(pool)
                dim, p_fail, src = rng.choice(list(inst.checklist)).dimension, 0.1, None
            item = TestItem(id=item_id(dim, j + 1), dimension=dim, description=text)
            r = rng.random()
            status = Status.error if r < 0.02 else Status.failed if r < 0.02 + p_fail else Status.passed
            items.append(item)
            verdicts.append(Verdict(item_id=item.id, status=status,
                                    bug_report=BugReport(issue="generated") if status is Status.failed else None))
            sources.append(src)
        out.append((items, verdicts, sources))
    return out


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print the time of each phase."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    parser.add_argument("--per-instance", type=int, default=20)
    parser.add_argument("--bootstrap", type=int, default=2000)
    parser.add_argument("--cache", action="store_true", help="use the on-disk embedding cache")
    args = parser.parse_args(argv)

    marks: list[tuple[str, float, float]] = []

    def mark(name: str) -> None:
        marks.append((name, time.perf_counter(), time.process_time()))

    # each phase's imports are timed with it, so they are made where the phase starts
    from webtester.datasets import load_dataset

    instances = load_dataset(args.dataset)
    preds = predicted_checklists(instances, args.per_instance)
    mark("load dataset, generate predictions")

    from webtester.eval.judges.embedding import EmbeddingJudge, load_encoder

    judge = EmbeddingJudge(cache_path="default" if args.cache else None)
    load_encoder()
    mark("load the embedding model (imports included)")
    matches = judge.match_many([(inst, items) for inst, (items, _, _) in zip(instances, preds)])
    mark("embed and match")

    from webtester.eval.metrics import aggregate, score_instance

    scores = [score_instance(inst, items, verdicts, m) for inst, (items, verdicts, _), m in zip(instances, preds, matches)]
    mark("per-instance metrics")
    summary = aggregate(scores, instances, judge=judge.info.model_dump(), bootstrap=args.bootstrap)
    mark(f"aggregate + bootstrap ({args.bootstrap} resamples)")

    n_items = sum(len(p[0]) for p in preds)
    derived = [(m, s) for (_, _, src), ms in zip(preds, matches) for m, s in zip(ms, src)]
    to_source = sum(1 for m, s in derived if s is not None and m == s) / max(1, sum(1 for _, s in derived if s is not None))
    distractor_none = sum(1 for m, s in derived if s is None and m is None) / max(1, sum(1 for _, s in derived if s is None))
    prev_w, prev_c = T0, C0
    print(f"{len(instances)} instances, {n_items} predicted items, {summary.totals.gold_items} gold items; "
          f"judge {judge.info.label()}")
    for name, w, c in marks:
        print(f"  {name:<45} {w - prev_w:7.2f} s wall {c - prev_c:7.2f} s CPU")
        prev_w, prev_c = w, c
    print(f"  {'total (process start to end)':<45} {marks[-1][1] - T0:7.2f} s wall {marks[-1][2] - C0:7.2f} s CPU")
    print(f"derived items matched to their source gold item: {100 * to_source:.1f}%; "
          f"distractors left unmatched: {100 * distractor_none:.1f}%")
    o = summary.overall
    print(f"figures (generated predictions, not a tester's result): coverage {100 * o.coverage:.1f}, "
          f"P {100 * o.precision:.1f}, R {100 * o.recall:.1f}, F1 {100 * o.f1:.1f}; "
          f"error verdicts {summary.totals.error_verdicts}")


if __name__ == "__main__":
    main()
