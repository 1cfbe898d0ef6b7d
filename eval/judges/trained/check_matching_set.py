"""Validate the labelled matching set under eval/data/matching/.

Checks that every line of predicted.jsonl parses and carries the expected fields,
that item ids are unique per (index, system) and their prefix agrees with the
dimension, that instances.txt lists exactly the instances used (none reserved),
and, for each annotation file given or found in eval/data/matching/annotations/,
that it holds exactly one label per predicted item and every gold_id exists in
that instance's gold checklist.

    python -m webtester.eval.judges.trained.check_matching_set [--gold PATH] [ANNOTATION.jsonl ...]

Exits with status 1 and lists every problem found.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

from webtester.eval.paths import DEFAULT_DATASET, MATCHING_ROOT, MATCHING_STYLES, RESERVED
from webtester.models import DIMENSION_PREFIX

SYSTEMS = set(MATCHING_STYLES)
PREFIX = {dim.value: prefix for dim, prefix in DIMENSION_PREFIX.items()}
FIELDS = ["index", "system", "item_id", "dimension", "description", "action", "expected", "status"]
ID_RE = re.compile(rf"^({'|'.join(PREFIX.values())})-\d{{2}}$")
Key = tuple[str, str, str]


def read_jsonl(path: Path, problems: list[str]) -> list[dict]:
    """Parse a JSONL file; unparsable lines are reported, not skipped silently."""
    rows = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(f"{path.name}:{lineno}: invalid JSON ({exc.msg})")
            continue
        if not isinstance(row, dict):
            problems.append(f"{path.name}:{lineno}: not a JSON object")
            continue
        row["_line"] = lineno
        rows.append(row)
    return rows


def check_predicted(path: Path, gold: dict[str, dict], problems: list[str]) -> set[Key]:
    """Check predicted.jsonl; return the (index, system, item_id) keys it defines."""
    keys: set[Key] = set()
    for row in read_jsonl(path, problems):
        where = f"{path.name}:{row['_line']}"
        missing = [f for f in FIELDS if not isinstance(row.get(f), str)]
        extra = sorted(set(row) - set(FIELDS) - {"_line"})
        if missing or extra:
            problems.append(f"{where}: missing/non-string fields {missing}, unexpected fields {extra}")
            continue
        if row["index"] not in gold:
            problems.append(f"{where}: unknown instance {row['index']}")
        if row["index"] in RESERVED:
            problems.append(f"{where}: reserved instance {row['index']}")
        if row["system"] not in SYSTEMS:
            problems.append(f"{where}: unknown system {row['system']!r}")
        if row["dimension"] not in PREFIX:
            problems.append(f"{where}: unknown dimension {row['dimension']!r}")
        elif not ID_RE.match(row["item_id"]) or not row["item_id"].startswith(PREFIX[row["dimension"]]):
            problems.append(f"{where}: item_id {row['item_id']!r} does not fit dimension {row['dimension']}")
        if row["status"] not in {"pass", "fail"}:
            problems.append(f"{where}: status must be pass or fail, got {row['status']!r}")
        if not row["description"].strip():
            problems.append(f"{where}: empty description")
        key = (row["index"], row["system"], row["item_id"])
        if key in keys:
            problems.append(f"{where}: duplicate item id {key}")
        keys.add(key)
    return keys


def check_instances(path: Path, used: set[str], problems: list[str]) -> None:
    """instances.txt must list exactly the instances of predicted.jsonl, none reserved."""
    listed = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for name, n in Counter(listed).items():
        if n > 1:
            problems.append(f"{path.name}: {name} listed {n} times")
    if set(listed) != used:
        problems.append(f"{path.name}: lists {sorted(set(listed) - used)} not in predicted, "
                        f"misses {sorted(used - set(listed))}")
    for name in sorted(set(listed) & RESERVED):
        problems.append(f"{path.name}: reserved instance {name}")


def check_annotations(path: Path, keys: set[Key], gold: dict[str, dict], problems: list[str]) -> None:
    """One label per predicted item; gold_id is an int of that instance's checklist or null."""
    seen: set[Key] = set()
    for row in read_jsonl(path, problems):
        where = f"{path.name}:{row['_line']}"
        key = (row.get("index"), row.get("system"), row.get("item_id"))
        if key not in keys:
            problems.append(f"{where}: no predicted item {key}")
            continue
        if key in seen:
            problems.append(f"{where}: second label for {key}")
        seen.add(key)
        if "gold_id" not in row:
            problems.append(f"{where}: missing gold_id (use null for no match)")
            continue
        gid = row["gold_id"]
        ids = {item["id"] for item in gold[key[0]]["checklist"]}
        if gid is not None and (isinstance(gid, bool) or not isinstance(gid, int) or gid not in ids):
            problems.append(f"{where}: gold_id {gid!r} is not an id of {key[0]}'s gold checklist")
    if seen != keys:
        problems.append(f"{path.name}: {len(keys - seen)} predicted items have no label")


def main(argv: list[str] | None = None) -> int:
    """Run every check and print a summary; return the process exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gold", type=Path, default=DEFAULT_DATASET, help="WebTestBench.jsonl")
    parser.add_argument("annotations", nargs="*", type=Path, help="annotation files (default: annotations/*.jsonl)")
    args = parser.parse_args(argv)
    if not args.gold.exists():
        print(f"gold file not found: {args.gold}", file=sys.stderr)
        return 1
    lines = args.gold.read_text(encoding="utf-8").splitlines()
    gold = {rec["index"]: rec for rec in (json.loads(line) for line in lines if line.strip())}
    problems: list[str] = []
    keys = check_predicted(MATCHING_ROOT / "predicted.jsonl", gold, problems)
    check_instances(MATCHING_ROOT / "instances.txt", {k[0] for k in keys}, problems)
    files = args.annotations or sorted((MATCHING_ROOT / "annotations").glob("*.jsonl"))
    for path in files:
        check_annotations(path, keys, gold, problems)
    for problem in problems:
        print(problem)
    per_system = Counter(k[1] for k in keys)
    print(f"{len(keys)} predicted items over {len({k[0] for k in keys})} instances "
          f"({', '.join(f'{s} {n}' for s, n in sorted(per_system.items()))}); "
          f"{len(files)} annotation file(s); {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
