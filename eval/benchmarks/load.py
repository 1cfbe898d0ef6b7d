"""Verdicts under load: one run of an app alone, then several of the same app at once on the same cores.

For each app, ``webtester test APP --tester baseline --out OUT/APP/alone`` runs first, then ``--runs`` copies
of the same command start together (``OUT/APP/at-once-N``). The baseline is deterministic when its waits
follow the page's events rather than the clock, so every verdict of a loaded run should equal the lone
run's; each run's checklist and verdicts (item and status) are compared with the lone run's, and the
wall times are printed. Exit code 1 when any verdict differs.

    python -m webtester.eval.benchmarks.load --apps recipe_finder,budget_tracker --runs 4 --out runs/load
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from webtester.runfolder import InstanceFolder, instance_folders


def run_command(app: str, out: Path) -> list[str]:
    """The ``webtester test`` command of one run (the baseline tester, nothing else configured)."""
    return [sys.executable, "-m", "webtester.cli.main", "test", app, "--tester", "baseline", "--out", str(out)]


def verdicts_of(run_dir: Path) -> dict[str, str]:
    """Item id -> status of the one instance of a ``webtester test`` run folder."""
    (index,) = instance_folders(run_dir)
    result = InstanceFolder(run_dir, index, create=False).read_result()
    if result is None:
        raise SystemExit(f"{run_dir}: no result.json")
    return {v.item_id: v.status.value for v in result.verdicts}


def run_together(commands: list[list[str]]) -> float:
    """Start every command at once and wait for all; returns the wall seconds."""
    start = time.monotonic()
    procs = [subprocess.Popen(c, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for c in commands]
    for proc in procs:
        proc.wait()
    return time.monotonic() - start


def differences(run: dict[str, str], alone: dict[str, str]) -> list[str]:
    """``item alone->loaded`` for every item whose verdict (or presence) differs."""
    return [f"{i} {alone.get(i)}->{run.get(i)}" for i in sorted(run.keys() | alone.keys()) if run.get(i) != alone.get(i)]


def main(argv: list[str] | None = None) -> int:
    """Run the comparison for each app and print one line per loaded run and a summary."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--apps", default="recipe_finder,budget_tracker", help="comma-separated bundled apps")
    ap.add_argument("--runs", type=int, default=4, help="runs of the same app started at once")
    ap.add_argument("--out", type=Path, default=Path("runs/load"))
    args = ap.parse_args(argv)
    compared = differing = 0
    for app in [a.strip() for a in args.apps.split(",") if a.strip()]:
        folder = args.out / app
        if folder.exists():
            raise SystemExit(f"{folder} exists: use a fresh --out")
        alone_s = run_together([run_command(app, folder / "alone")])
        alone = verdicts_of(folder / "alone")
        loaded = [folder / f"at-once-{n}" for n in range(1, args.runs + 1)]
        loaded_s = run_together([run_command(app, d) for d in loaded])
        print(f"{app}: alone {alone_s:.0f} s, {len(alone)} items; {args.runs} at once {loaded_s:.0f} s")
        for run_dir in loaded:
            diff = differences(verdicts_of(run_dir), alone)
            compared += len(alone)
            differing += len(diff)
            print(f"  {run_dir.name}: {len(diff)} of {len(alone)} verdicts differ" + (f": {', '.join(diff)}" if diff else ""))
    print(f"summary: {differing} of {compared} verdicts of loaded runs differ from the lone run")
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main())
