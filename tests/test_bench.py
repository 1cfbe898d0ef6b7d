"""The bench runner: isolation of failures, time limits, resume, and the real workflow on bundled apps."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from webtester.eval.bench import BenchConfig, run_bench
from webtester.models import Category, GoldItem, Instance

ROOT = Path(__file__).resolve().parents[1]
FAKE = "test_bench_fakes:run_instance"


def make(index: str) -> Instance:
    return Instance(index=index, instruction="An app.", category=Category.tool,
                    checklist=[GoldItem(id=1, content="It works.", dimension="functionality", passed=False)])


@pytest.fixture
def script(tmp_path) -> Path:
    path = tmp_path / "script.yaml"
    path.write_text('items:\n  "*": {replies: [{verdict: {status: pass}}], repeat_last: true}\n', encoding="utf-8")
    return path


def calls(run_dir: Path) -> list[str]:
    log = run_dir / "calls.log"
    return [line.split()[0] for line in log.read_text().splitlines()] if log.exists() else []


def test_failures_are_isolated_recorded_and_skipped_on_resume(tmp_path, script):
    run = tmp_path / "run"
    instances = [make(i) for i in ("ok_a", "raise_b", "crash_c", "hang_d", "ok_e")]
    cfg = BenchConfig(mode="oracle", model=f"scripted:{script}", workers=3, timeout=5, runner=FAKE)
    seen = []
    report = run_bench(instances, run, cfg, dataset="test", on_update=lambda r, n, t: seen.append((n, t)))
    assert sorted(report.ran) == ["crash_c", "hang_d", "ok_a", "ok_e", "raise_b"]
    assert set(report.failed) == {"raise_b", "crash_c", "hang_d"}
    assert "the app did not start" in report.failed["raise_b"]
    assert "crashed" in report.failed["crash_c"] and "SIGKILL" in report.failed["crash_c"]
    assert "timeout" in report.failed["hang_d"]
    for index in ("raise_b", "crash_c", "hang_d"):
        res = json.loads((run / index / "result.json").read_text())
        assert res["status"] == "failed" and res["reason"] == report.failed[index]
    assert json.loads((run / "ok_a" / "result.json").read_text())["status"] == "ok"
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["dataset"] == "test" and manifest["mode"] == "oracle"
    assert manifest["instances"]["hang_d"]["status"] == "failed"
    assert seen[-1] == (5, 5)
    assert not list(run.rglob("*.tmp"))

    # rerun: everything is finished (failed ones included) -> nothing runs
    before = calls(run)
    again = run_bench(instances, run, cfg)
    assert again.ran == [] and sorted(again.skipped) == sorted(i.index for i in instances)
    assert calls(run) == before
    # --retry-failed reruns only the failed ones
    retry = run_bench(instances, run, cfg.model_copy(update={"retry_failed": True, "timeout": 3}))
    assert sorted(retry.ran) == ["crash_c", "hang_d", "raise_b"]


def test_interrupted_bench_resumes_without_redoing_finished_instances(tmp_path, script):
    data = tmp_path / "ds.jsonl"
    data.write_text("".join(make(i).model_dump_json(by_alias=True) + "\n" for i in ("ok_1", "slow_2", "slow_3")))
    run = tmp_path / "run"
    cmd = [sys.executable, "-m", "webtester.cli.main", "bench", str(data), "--mode", "oracle", "--out", str(run),
           "--apps", str(tmp_path), "--model", f"scripted:{script}", "--workers", "1", "--runner", FAKE]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 120
    while time.time() < deadline and "slow_2" not in calls(run):
        time.sleep(0.2)
    assert (run / "ok_1" / "result.json").exists()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode != 0, out
    assert not (run / "slow_2" / "result.json").exists()
    done = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "skipped 1 finished" in done.stdout
    assert calls(run).count("ok_1") == 1 and calls(run).count("slow_3") == 1
    assert all((run / i / "result.json").exists() for i in ("ok_1", "slow_2", "slow_3"))


@pytest.mark.browser
@pytest.mark.slow
def test_bench_oracle_on_bundled_apps_with_scripted_model_then_score(tmp_path):
    from webtester.bundled import load_bundled

    bundled = {i.index: i for i in load_bundled()}
    apps = [a for a in ("loan_calculator", "portfolio_site") if a in bundled][:2]
    assert apps, "bundled apps missing"
    script = tmp_path / "script.yaml"
    first = {}
    for a in apps:  # fail the first failing gold item of each app, pass everything else
        items = bundled[a].checklist
        fails = [n for n, g in enumerate(items) if not g.passed]
        if fails:
            from webtester.runner import oracle_items

            first[oracle_items(bundled[a])[fails[0]].id] = True
    lines = ["items:"] + [f'  "{i}": [{{verdict: {{status: fail, issue: scripted failure, actual: scripted}}}}]' for i in first]
    lines.append('  "*": {replies: [{verdict: {status: pass}}], repeat_last: true}')
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = tmp_path / "run"
    cmd = [sys.executable, "-m", "webtester.cli.main", "bench", "bundled", "--mode", "oracle", "--out", str(run),
           "--only", ",".join(apps), "--model", f"scripted:{script}", "--workers", "2"]
    proc = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for a in apps:
        res = json.loads((run / a / "result.json").read_text())
        assert res["status"] == "ok", res.get("reason")
        assert len(res["verdicts"]) == len(bundled[a].checklist)
    again = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and f"skipped {len(apps)} finished" in again.stdout

    score = subprocess.run([sys.executable, "-m", "webtester.cli.main", "score", str(run), "--bootstrap", "200"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=300, env={**os.environ, "COLUMNS": "200"})
    assert score.returncode == 0, score.stdout + score.stderr
    assert "judge: oracle" in score.stdout and "Per dimension" in score.stdout
    summary = json.loads((run / "scores" / "summary.json").read_text())
    assert summary["judge"]["name"] == "oracle" and summary["overall"]["coverage"] == 1.0
    from webtester.runner import oracle_items

    scripted_fail = [(g.passed, it.id in first) for a in apps for it, g in zip(oracle_items(bundled[a]), bundled[a].checklist)]
    counts = summary["totals"]["counts"]
    assert counts["tp"] == sum(1 for ok, f in scripted_fail if f and not ok) > 0
    assert counts["fp"] == sum(1 for ok, f in scripted_fail if f and ok)
    assert counts["fn"] == sum(1 for ok, f in scripted_fail if not f and not ok)
    assert (run / "scores" / "summary.md").exists() and (run / "scores" / "by_dimension.csv").exists()
