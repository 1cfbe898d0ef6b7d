"""Exit codes as CI sees them (real processes): 0 nothing wrong found, 1 a Fail (or a failed instance), 2 usage or
input errors; ``--exit-zero`` turns 1 into 0. Errors go to stderr."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from webtester.models import AppSpec, Category, GoldItem, Instance

SCRIPT = Path(__file__).resolve().parents[2] / "webtester" / "llm" / "scripts" / "portfolio_site.yaml"


def webtester(*args: str, cwd: Path, timeout: float = 400) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "WEBTESTER_"))}
    env["COLUMNS"] = "200"
    env["PYTHONPATH"] = os.pathsep.join([str(cwd), os.environ.get("PYTHONPATH", "")])  # a --runner module in cwd
    return subprocess.run([sys.executable, "-m", "webtester.cli.main", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


@pytest.mark.browser
def test_test_exits_1_on_a_fail_0_with_exit_zero_and_0_when_everything_passes(tmp_path):
    # the scripted model checks two items and its verdicts follow what the page shows: the shipped build's invalid
    # email defect fails one of them, the clean build passes both (the exit codes do not depend on the tester)
    out = tmp_path / "shipped"
    shipped = webtester("test", "portfolio_site", "--model", f"scripted:{SCRIPT}", "--trace", "off", "--out", str(out),
                        cwd=tmp_path)
    assert shipped.returncode == 1, shipped.stdout + shipped.stderr
    summary = next(line for line in shipped.stdout.splitlines() if " passed, " in line)
    assert summary.startswith("1 passed, 1 failed, 0 errors") and "Traceback" not in shipped.stderr
    wall = float(re.search(r"([0-9.]+) s in all", summary).group(1))
    assert wall >= 1.0, summary  # the run's wall time
    again = webtester("test", "portfolio_site", "--model", f"scripted:{SCRIPT}", "--trace", "off", "--out", str(out),
                      "--exit-zero", "--json", cwd=tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr  # the same verdicts (resumed), findings do not count
    counts = summary.split("; ")[0]  # "N passed, N failed, N errors" (the times differ between the two runs)
    assert counts in again.stderr  # --json: the tables and messages go to stderr, the summary alone to stdout
    data = json.loads(again.stdout)
    assert data["command"] == "test" and data["exit_code"] == 0 and data["run_dir"] == str(out.resolve())
    (inst,) = data["instances"]
    assert inst["index"] == "portfolio_site" and inst["status"] == "ok" and inst["items"]["fail"] == 1
    assert f"{inst['items']['pass']} passed, {inst['items']['fail']} failed, {inst['items']['error']} errors" in summary
    assert inst["bugs"] == str((out / "portfolio_site" / "bugs.md").resolve())
    assert data["reports"]["junit"] == str((out / "junit.xml").resolve())

    clean = webtester("test", "portfolio_site", "--model", f"scripted:{SCRIPT}", "--build", "clean", "--trace", "off",
                      "--out", str(tmp_path / "clean"), cwd=tmp_path)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "2 passed, 0 failed, 0 errors" in clean.stdout
    assert not list((tmp_path / "clean").rglob("*.zip"))  # --trace off: no Playwright trace written


def test_usage_and_input_errors_exit_2_on_stderr_even_with_exit_zero(tmp_path):
    flag = webtester("test", "portfolio_site", "--no-such-flag", cwd=tmp_path)
    assert flag.returncode == 2 and flag.stdout == "" and "No such option" in flag.stderr
    missing = webtester("test", "no_such_app", "--tester", "baseline", "--exit-zero", cwd=tmp_path)
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr.startswith("error: 'no_such_app' is not a URL, a folder or a bundled app")
    assert not (tmp_path / "runs").exists()
    helped = webtester("bench", "--help", cwd=tmp_path)
    assert "0 every instance ran" in helped.stdout and "1 an instance failed" in helped.stdout


def instance(index: str) -> str:
    inst = Instance(index=index, instruction="An app.", category=Category.tool,
                    app=AppSpec(kind="url", url="http://127.0.0.1:9/"),
                    checklist=[GoldItem(id=1, content="It works.", dimension="functionality", passed=False)])
    return inst.model_dump_json(by_alias=True) + "\n"


FAILING_RUNNER = '''
from webtester.models import BugReport, InstanceResult, Status, TestItem, Verdict


def run_instance(instance, *, tester, **_):
    """Every item fails; an instance whose index starts with 'raise' fails as a whole."""
    if instance.index.startswith("raise"):
        raise RuntimeError("the app did not start")
    return InstanceResult(index=instance.index, tester=tester.name,
                          checklist=[TestItem(id="FT-01", dimension="functionality", description="It works.")],
                          verdicts=[Verdict(item_id="FT-01", status=Status.failed,
                                            bug_report=BugReport(issue="It does not work", actual="Nothing happens"))])
'''


def test_bench_exits_1_when_an_instance_failed_and_0_when_every_instance_ran(tmp_path):
    (tmp_path / "failing_runner.py").write_text(FAILING_RUNNER, encoding="utf-8")
    good, bad = tmp_path / "good.jsonl", tmp_path / "bad.jsonl"
    good.write_text(instance("ok_1"), encoding="utf-8")
    bad.write_text(instance("ok_1") + instance("raise_2"), encoding="utf-8")
    common = ["--mode", "oracle", "--apps", str(tmp_path), "--tester", "baseline", "--workers", "2",
              "--runner", "failing_runner:run_instance"]

    ran = webtester("bench", str(good), "--out", str(tmp_path / "good"), *common, cwd=tmp_path)
    assert ran.returncode == 0, ran.stdout + ran.stderr  # every instance ran; its Fails are the measurement
    failed = webtester("bench", str(bad), "--out", str(tmp_path / "bad"), *common, cwd=tmp_path)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "failed raise_2: RuntimeError: the app did not start" in failed.stdout
    zero = webtester("bench", str(bad), "--out", str(tmp_path / "bad"), *common, "--exit-zero", "--json", cwd=tmp_path)
    assert zero.returncode == 0 and "skipped 2 finished" in zero.stderr, zero.stdout + zero.stderr
    data = json.loads(zero.stdout)  # --json: the summary alone on stdout
    assert data["command"] == "bench" and data["exit_code"] == 0 and data["run_dir"] == str((tmp_path / "bad").resolve())
    statuses = {i["index"]: (i["status"], i["items"]["fail"]) for i in data["instances"]}
    assert statuses == {"ok_1": ("ok", 1), "raise_2": ("failed", 0)}
    reasons = {i["index"]: i["reason"] or "" for i in data["instances"]}
    assert reasons["ok_1"] == "" and reasons["raise_2"].startswith("RuntimeError: the app did not start")
    assert data["counts"] == {"instances": 2, "failed_instances": 1, "pass": 0, "fail": 1, "error": 0}
    assert data["reports"]["html"] == str((tmp_path / "bad" / "report.html").resolve())

    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    refused = webtester("bench", str(empty), "--out", str(tmp_path / "empty"), *common, "--exit-zero", cwd=tmp_path)
    assert refused.returncode == 2 and refused.stderr == f"error: {empty}: no instances (the file holds no JSON line)\n"
    assert not (tmp_path / "empty").exists()
