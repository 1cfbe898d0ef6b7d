"""How faithfully a run's verdicts export as a regression suite (`python -m webtester.eval.benchmarks.export_faithfulness`).

For each tester, a run over the bundled apps is made (or reused with ``--reuse``)::

    webtester bench bundled --tester baseline --trace off --out OUT/baseline/run
    webtester bench bundled --mode oracle --model scripted:smoke --trace off --out OUT/scripted/run
    webtester bench bundled --model scripted:portfolio_site --only portfolio_site --trace off --out ...

exported with ``webtester export RUN --out OUT/<tester>/suite --force``, and the suite is run with ``pytest``
twice: against the build the run tested (``shipped``) and against the bundled clean build
(``WEBTESTER_BUILD=clean``). Printed per tester:

* **exported**: exported tests / checked items (verdict pass or fail), and / all items;
* **reproduced** (same build): a test of a pass verdict passes, a test of a fail verdict fails with an
  assertion (not a self-check ``UIChanged``, not an error in setup);
* **UI changed**: tests stopped by the self-check (a locator that finds no single element);
* **clean build**: of the tests of fail verdicts, the share that passes against the clean build (the fix
  turns them green); of the tests of pass verdicts, the share still passing.

The scripted tester runs the shipped ``smoke`` script (one small check on any app, in oracle mode on the
bundled gold checklists), and ``scripted-portfolio`` the shipped ``portfolio_site`` script on its app (its
two items, one of them a Fail on the shipped build): their verdicts are a script's, not a model's; they
measure the export path of the LLM tester's recorded steps. Exit code 0 unless a command failed to run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TESTERS: dict[str, list[str]] = {
    "baseline": ["--tester", "baseline"],
    "scripted": ["--mode", "oracle", "--model", "scripted:smoke"],
    "scripted-portfolio": ["--model", "scripted:portfolio_site", "--only", "portfolio_site"],
}
UI_CHANGED = "UIChanged"


def junit_outcomes(xml_text: str) -> dict[str, str]:
    """``file::test`` -> ``passed`` / ``failed`` (an assertion) / ``ui-changed`` (the self-check) / ``error``
    (setup or another exception) / ``skipped`` (also an xfail), from a pytest JUnit XML report."""
    out: dict[str, str] = {}
    for case in ET.fromstring(xml_text).iter("testcase"):
        module = (case.get("classname") or "").rsplit(".", 1)[-1]
        name = (case.get("name") or "").split("[", 1)[0]  # pytest-playwright adds the browser: test_x[chromium]
        key = f"{module}.py::{name}"
        failure, error, skipped = case.find("failure"), case.find("error"), case.find("skipped")
        if failure is not None:
            text = (failure.get("message") or "") + (failure.text or "")
            out[key] = "ui-changed" if UI_CHANGED in text else "failed" if "AssertionError" in text else "error"
        elif error is not None:
            out[key] = "error"
        elif skipped is not None:
            out[key] = "skipped"
        else:
            out[key] = "passed"
    return out


@dataclass
class Faithfulness:
    """The figures of one tester (see the module docstring)."""

    items: int
    checked: int
    exported: int
    reproduced: int
    ui_changed: int
    fail_tests: int
    fixed_on_clean: int
    pass_tests: int
    still_passing_on_clean: int

    def lines(self) -> list[str]:
        def share(part: int, whole: int) -> str:
            return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else f"{part}/0"

        return [f"items {self.items}, checked (pass or fail) {self.checked}",
                f"exported: {share(self.exported, self.checked)} of the checked items, "
                f"{share(self.exported, self.items)} of all",
                f"reproduced on the same build: {share(self.reproduced, self.exported)} "
                f"(stopped by the self-check: {self.ui_changed})",
                f"clean build: fail tests now passing {share(self.fixed_on_clean, self.fail_tests)}, "
                f"pass tests still passing {share(self.still_passing_on_clean, self.pass_tests)}"]


def faithfulness(tests: Mapping[str, Mapping[str, str]], shipped: Mapping[str, str], clean: Mapping[str, str],
                 *, items: int, checked: int) -> Faithfulness:
    """The figures from the suite's ``export.json`` ``tests`` (``file::test`` -> its ``verdict``) and the
    outcomes of the suite against the run's build and the clean build (:func:`junit_outcomes`)."""
    wanted = {"pass": "passed", "fail": "failed"}
    fails = [k for k, t in tests.items() if t["verdict"] == "fail"]
    passes = [k for k, t in tests.items() if t["verdict"] == "pass"]
    return Faithfulness(
        items=items, checked=checked, exported=len(tests),
        reproduced=sum(shipped.get(k) == wanted[t["verdict"]] for k, t in tests.items()),
        ui_changed=sum(shipped.get(k) == "ui-changed" for k in tests),
        fail_tests=len(fails), fixed_on_clean=sum(clean.get(k) == "passed" for k in fails),
        pass_tests=len(passes), still_passing_on_clean=sum(clean.get(k) == "passed" for k in passes))


def run_counts(run_dir: Path) -> tuple[int, int]:
    """(items, checked items: verdict pass or fail) over the run's instances."""
    from webtester.runfolder import InstanceFolder, instance_folders, is_not_checked

    items = checked = 0
    for index in instance_folders(run_dir):
        result = InstanceFolder(run_dir, index, create=False).read_result()
        for verdict in result.verdicts if result else []:
            items += 1
            checked += verdict.status.value in ("pass", "fail") and not is_not_checked(verdict)
    return items, checked


def _run(command: list[str], *, env: Mapping[str, str] | None = None, cwd: Path | None = None) -> float:
    started = time.monotonic()
    print("$", " ".join(command), flush=True)
    done = subprocess.run(command, env={**os.environ, **(env or {})}, cwd=cwd)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{command[0]} exited {done.returncode}")
    return time.monotonic() - started


def _suite_outcomes(suite: Path, name: str, env: Mapping[str, str], *, again: bool = True,
                    workers: int = 2) -> dict[str, str]:
    report = suite / f"{name}.xml"
    if again or not report.is_file():
        parallel = ["-n", str(workers), "--dist", "loadfile"] if workers > 1 else []  # a file shares its app
        _run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--timeout", "120", *parallel,
              f"--junitxml={report}"], env=env, cwd=suite)
    return junit_outcomes(report.read_text(encoding="utf-8"))


def measure(tester: str, out: Path, *, reuse: Path | None, workers: int, replay: bool = True) -> Faithfulness:
    """Run (or reuse), export and replay one tester's run (``replay`` False: read the suite's JUnit reports of
    an earlier replay when they are there); prints the times taken."""
    webtester = [sys.executable, "-m", "webtester.cli.main"]
    run_dir = reuse or out / tester / "run"
    if reuse is None:
        seconds = _run([*webtester, "bench", "bundled", *TESTERS[tester], "--trace", "off", "--workers",
                        str(workers), "--exit-zero", "--out", str(run_dir)])
        print(f"[{tester}] run: {seconds:.0f} s", flush=True)
    suite = out / tester / "suite"
    if replay or not (suite / "export.json").is_file():
        _run([*webtester, "export", str(run_dir), "--out", str(suite), "--force"])
    tests: dict[str, Any] = json.loads((suite / "export.json").read_text(encoding="utf-8"))["tests"]
    started = time.monotonic()
    shipped = _suite_outcomes(suite, "shipped", {}, again=replay, workers=workers)
    clean = _suite_outcomes(suite, "clean", {"WEBTESTER_BUILD": "clean"}, again=replay, workers=workers)
    print(f"[{tester}] suite: {len(tests)} tests, two runs in {time.monotonic() - started:.0f} s", flush=True)
    items, checked = run_counts(run_dir)
    return faithfulness(tests, shipped, clean, items=items, checked=checked)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("runs/export-faithfulness"))
    parser.add_argument("--testers", default=",".join(TESTERS), help="comma-separated: " + ", ".join(TESTERS))
    parser.add_argument("--reuse", action="append", default=[], metavar="TESTER=RUN_DIR",
                        help="export an existing run folder instead of making a new run")
    parser.add_argument("--workers", type=int, default=2, help="instances run at once, and pytest workers of a suite")
    parser.add_argument("--no-replay", action="store_true",
                        help="for the --reuse testers: read the JUnit reports their suites' last replay left in --out")
    args = parser.parse_args(argv)
    reuse = dict(r.split("=", 1) for r in args.reuse)
    figures = {}
    for tester in args.testers.split(","):
        if tester not in TESTERS:
            parser.error(f"unknown tester {tester!r} (known: {', '.join(TESTERS)})")
        figures[tester] = measure(tester, args.out, reuse=Path(reuse[tester]) if tester in reuse else None,
                                  workers=args.workers, replay=not (args.no_replay and tester in reuse))
    print("\nExport faithfulness on the 14 bundled apps (shipped builds; clean builds for the fixes)")
    for tester, figure in figures.items():
        print(f"{tester}:")
        print("\n".join(f"  {line}" for line in figure.lines()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
