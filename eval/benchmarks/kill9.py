"""kill -9 of a running bench at random moments, each followed by a rerun: exactly-once results, no leftovers.

A reference run goes first, uninterrupted::

    webtester bench bundled --mode e2e --tester baseline --workers W --limit N --out OUT/reference

Then each trial starts the same command on a fresh folder in its own session, its environment marked with
``WEBTESTER_RUN_TOKEN=<uuid>``, kills its whole process group with SIGKILL at a seeded random moment of the
reference's duration, and looks for processes of the killed run (``/proc/*/environ`` holding the marker)
until none is left or ``--grace`` seconds have passed. The same command is then rerun to completion and the
folder is checked: every instance has one readable ``result.json`` with status ok written once
(``results_written`` appears at most once in its ``log.txt``), exactly one line in ``verdicts.jsonl`` per
checklist item, and the same checklist and verdicts (item and status) as the reference. The baseline's exploration is bounded
in time, so on a loaded machine a verdict can differ between two uninterrupted runs: a difference on an item
whose verdict notes (in either run) say the exploration hit its time limit is counted apart, as load-dependent.
One line per trial and a summary are printed; the exit code is 1 when any trial broke a promise.

    python -m webtester.eval.benchmarks.kill9 --out runs/kill9 --trials 10
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RUN_TOKEN_ENV = "WEBTESTER_RUN_TOKEN"
TIME_LIMIT_NOTE = "time limit reached"  # the baseline's exploration is bounded in time: its verdicts follow load


KILL_SPAN = 0.75  # kill moments are drawn from the first 75% of the reference run's duration


def marked_processes(token: str) -> list[int]:
    """PIDs of the live processes whose environment holds ``WEBTESTER_RUN_TOKEN=<token>`` (zombies left out)."""
    marker = f"{RUN_TOKEN_ENV}={token}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):  # gone meanwhile, or not ours to read
            continue
        if state != "Z" and marker in environ.split(b"\0"):
            found.append(int(entry.name))
    return found


def wait_until_gone(token: str, grace: float) -> tuple[list[int], float]:
    """(processes of the run still alive after ``grace`` seconds, seconds until none was left)."""
    start = time.monotonic()
    while True:
        left = marked_processes(token)
        waited = time.monotonic() - start
        if not left or waited > grace:
            return left, waited
        time.sleep(0.1)


def marked_env(token: str) -> dict[str, str]:
    """This process's environment with the run marker added."""
    return {**os.environ, RUN_TOKEN_ENV: token}


def bench_command(out: Path, workers: int, limit: int) -> list[str]:
    """The bench of a trial: the baseline tester, end to end, on the first ``limit`` bundled apps."""
    return [sys.executable, "-m", "webtester.cli.main", "bench", "bundled", "--mode", "e2e", "--tester", "baseline",
            "--workers", str(workers), "--limit", str(limit), "--out", str(out)]


@dataclass
class Outcome:
    """What one instance folder holds: its checklist and verdicts (item, status) and what was wrong with it."""

    checklist: list[str] = field(default_factory=list)
    verdicts: list[tuple[str, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    timed_out: set[str] = field(default_factory=set)  # items whose verdict notes say an exploration hit its time limit


def read_outcome(folder: Path) -> Outcome:
    """The checklist, the logged verdicts and the broken promises of one instance folder."""
    out = Outcome()
    try:
        result = json.loads((folder / "result.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        out.problems.append(f"no readable result.json ({type(exc).__name__})")
        return out
    if result.get("status") != "ok":
        out.problems.append(f"status {result.get('status')}: {result.get('reason')}")
    out.checklist = [i["id"] for i in result.get("checklist") or []]
    out.timed_out = {v["item_id"] for v in result.get("verdicts") or []
                     if TIME_LIMIT_NOTE in ((v.get("evidence") or {}).get("notes") or "")}
    try:
        lines = (folder / "verdicts.jsonl").read_text(encoding="utf-8").splitlines()
        out.verdicts = [(v["item_id"], v["status"]) for v in map(json.loads, filter(str.strip, lines))]
    except (OSError, ValueError, KeyError) as exc:
        out.problems.append(f"verdicts.jsonl unreadable ({type(exc).__name__})")
    if sorted(i for i, _ in out.verdicts) != sorted(out.checklist):
        out.problems.append(f"{len(out.verdicts)} verdict lines for {len(out.checklist)} items")
    if [(v["item_id"], v["status"]) for v in result.get("verdicts") or []] != out.verdicts:
        out.problems.append("result.json and verdicts.jsonl disagree")
    log = folder / "log.txt"
    written = log.read_text(encoding="utf-8").count(" results_written") if log.exists() else 0
    if written > 1:
        out.problems.append(f"results written {written} times")
    return out


def read_run(run_dir: Path) -> dict[str, Outcome]:
    """Index -> outcome of every instance folder of a run."""
    return {p.name: read_outcome(p) for p in sorted(run_dir.iterdir()) if p.is_dir() and p.name != "scores"}


def compare(run: dict[str, Outcome], reference: dict[str, Outcome]) -> tuple[list[str], list[str]]:
    """(broken promises of a run, verdicts that differ from the reference only where an exploration of either
    run hit its time limit: the machine's load, not the kill, decided those)."""
    problems = [f"{i}: missing" for i in reference if i not in run]
    load: list[str] = []
    for index, got in run.items():
        problems += [f"{index}: {p}" for p in got.problems]
        ref = reference.get(index)
        if ref is None:
            continue
        if got.checklist != ref.checklist:
            problems.append(f"{index}: checklist differs from the reference")
        mine, theirs = dict(got.verdicts), dict(ref.verdicts)
        for item in sorted(i for i in mine.keys() | theirs.keys() if mine.get(i) != theirs.get(i)):
            shown = f"{index} {item} {theirs.get(item)}->{mine.get(item)}"
            if item in got.timed_out | ref.timed_out:
                load.append(shown)
            else:
                problems.append(f"verdict differs from the reference: {shown}")
    return problems, load


def run_to_end(cmd: list[str], timeout: float) -> tuple[int, float, str]:
    """(exit code, seconds, last lines of output) of ``cmd`` run to completion with a fresh run marker."""
    start = time.monotonic()
    token = uuid.uuid4().hex
    done = subprocess.run(cmd, env=marked_env(token), capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-5:])
    return done.returncode, time.monotonic() - start, tail


def kill_at(cmd: list[str], moment: float, grace: float) -> tuple[str, list[int], float]:
    """Start ``cmd`` in its own session, SIGKILL its process group after ``moment`` seconds; returns (what
    happened, processes of the run left after ``grace`` seconds, seconds until none was left)."""
    token = uuid.uuid4().hex
    proc = subprocess.Popen(cmd, env=marked_env(token), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        proc.wait(timeout=moment)
        what = f"finished before the kill (exit {proc.returncode})"
    except subprocess.TimeoutExpired:
        what = f"killed at {moment:.1f} s"
    finally:  # also when this benchmark is interrupted
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # kill -9 -- -PGID
            proc.wait()
    left, waited = wait_until_gone(token, grace)
    for pid in left:  # report them, then clean up so that they do not disturb the next trial
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return what, left, waited


def main(argv: list[str] | None = None) -> int:
    """Run the trials and print one line per trial and a summary."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=Path("runs/kill9"), help="folder for the reference and the trials")
    ap.add_argument("--trials", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--limit", type=int, default=2, help="bundled apps per run (the first N)")
    ap.add_argument("--grace", type=float, default=30.0, help="seconds the killed run's processes get to stop")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds a run to completion may take")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    ref_dir = args.out / "reference"
    code, ref_seconds, tail = run_to_end(bench_command(ref_dir, args.workers, args.limit), args.timeout)
    if code != 0:
        print(f"reference run failed (exit {code}):\n{tail}")
        return 1
    reference = read_run(ref_dir)
    ref_problems, _ = compare(reference, reference)
    print(f"reference: {len(reference)} instances, {sum(len(o.checklist) for o in reference.values())} items, "
          f"{ref_seconds:.1f} s" + (f"; problems: {'; '.join(ref_problems)}" if ref_problems else ""))
    rng = random.Random(args.seed)
    moments = [rng.uniform(1.0, KILL_SPAN * ref_seconds) for _ in range(args.trials)]
    summary: dict[str, Any] = {"clean": 0, "leftover_processes": 0, "broken": 0, "stop_seconds": [], "load": 0,
                               "killed": 0}
    for n, moment in enumerate(moments, start=1):
        trial_dir = args.out / f"trial-{n:02d}"
        if trial_dir.exists():
            raise SystemExit(f"{trial_dir} exists: use a fresh --out")
        cmd = bench_command(trial_dir, args.workers, args.limit)
        what, left, waited = kill_at(cmd, moment, args.grace)
        code, seconds, tail = run_to_end(cmd, args.timeout)
        problems, load = compare(read_run(trial_dir), reference)
        problems = ([f"rerun exit {code}: {tail}"] if code != 0 else []) + problems
        summary["leftover_processes"] += len(left)
        summary["load"] += len(load)
        summary["killed"] += what.startswith("killed")
        summary["stop_seconds"].append(waited)
        clean = not left and not problems
        summary["clean" if clean else "broken"] += 1
        print(f"trial {n:2d}: {what}; processes left: {len(left)} (none after {waited:.1f} s)" if not left else
              f"trial {n:2d}: {what}; processes left after {args.grace:g} s: {len(left)} {left}", end="")
        print(f"; rerun {seconds:.1f} s exit {code}; " + ("all checks pass" if not problems else "; ".join(problems))
              + (f"; differing where an exploration hit its time limit: {', '.join(load)}" if load else ""),
              flush=True)
    stops = summary["stop_seconds"]
    print(f"summary: {args.trials} trials ({summary['killed']} killed while running), {summary['clean']} clean, "
          f"{summary['broken']} broken; processes left after a kill: {summary['leftover_processes']}; slowest stop "
          f"{max(stops, default=0):.1f} s; verdicts differing where an exploration hit its time limit: {summary['load']}")
    return 0 if summary["broken"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
