"""The bench runner: isolation of failures, time limits, resume, and the real workflow on bundled apps."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from webtester.cli.main import app
from webtester.eval.bench import BenchConfig, portable, run_bench, worker_settings
from webtester.models import AppSpec, Category, GoldItem, Instance, oracle_items
from webtester.runfolder import ABSENT, read_json, scored_indices
from webtester.settings import load_settings

ROOT = Path(__file__).resolve().parents[2]
FAKE = "bench_fakes:run_instance"


NO_APP = AppSpec(kind="url", url="http://127.0.0.1:9/")


def make(index: str, app: AppSpec | None = NO_APP) -> Instance:
    """An instance for the fake runner (which starts no app: the URL is never opened)."""
    return Instance(index=index, instruction="An app.", category=Category.tool, app=app,
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
    events: list[tuple[str, str, dict]] = []

    def on_event(index, event, data):
        events.append((index, event, data))
        if event == "item_started":
            raise RuntimeError("a broken display")  # must not stop the run

    report = run_bench(instances, run, cfg, dataset="test", on_update=lambda r, n, t: seen.append((n, t)), on_event=on_event)
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
    # progress events of the workers arrive in the parent, bounded in size
    ok_a = [(e, d) for i, e, d in events if i == "ok_a"]
    assert [e for e, _ in ok_a] == ["instance_started", "app_started", "checklist", "item_started", "item_done",
                                    "instance_done"]
    assert ok_a[2][1]["items"] == 1 and len(ok_a[2][1]["notes"][0]) <= 300
    assert ok_a[-1][1] == {"status": "ok", "reason": None}
    assert ("raise_b", "instance_done") in [(i, e) for i, e, _ in events]
    assert [d["status"] for i, e, d in events if i == "hang_d" and e == "instance_done"] == ["failed"]

    # rerun: everything is finished (failed ones included) -> nothing runs
    before = calls(run)
    again = run_bench(instances, run, cfg)
    assert again.ran == [] and sorted(again.skipped) == sorted(i.index for i in instances)
    assert calls(run) == before
    # --retry-failed reruns only the failed ones
    retry = run_bench(instances, run, cfg.model_copy(update={"retry_failed": True, "timeout": 3}))
    assert sorted(retry.ran) == ["crash_c", "hang_d", "raise_b"]


def test_unreadable_results_are_run_again_and_why_is_recorded(tmp_path, script):
    run = tmp_path / "run"
    instances = [make(i) for i in ("ok_1", "ok_2", "badresult_3")]
    cfg = BenchConfig(mode="oracle", model=f"scripted:{script}", workers=2, runner=FAKE)
    first = run_bench(instances, run, cfg)
    assert first.failed == {} and sorted(first.ran) == ["badresult_3", "ok_1", "ok_2"]
    # a runner that left an unreadable result.json behind: the returned result replaced it
    assert read_json(run / "badresult_3" / "result.json")["status"] == "ok"
    (run / "ok_2" / "result.json").write_text('{"index": "ok_2", "status": ')
    again = run_bench(instances, run, cfg)
    assert again.ran == ["ok_2"] and sorted(again.skipped) == ["badresult_3", "ok_1"]
    assert "result.json:1: invalid JSON" in again.rerun["ok_2"]
    assert "result.json:1: invalid JSON" in (run / "ok_2" / "log.txt").read_text()
    assert calls(run).count("ok_2") == 2 and calls(run).count("ok_1") == 1
    assert read_json(run / "ok_2" / "result.json")["status"] == "ok"


def test_command_line_settings_reach_the_workers_but_secrets_do_not_travel(tmp_path, script):
    data = tmp_path / "ds.jsonl"
    data.write_text(make("ok_1").model_dump_json(by_alias=True) + "\n")
    run = tmp_path / "run"
    env = {"OPENAI_API_KEY": "sk-worker-secret", "WEBTESTER_CONFIG": "", "WEBTESTER_MAX_ITEMS": "3"}
    result = CliRunner().invoke(app, ["bench", str(data), "--mode", "oracle", "--out", str(run), "--apps", str(tmp_path),
                                      "--model", f"scripted:{script}", "--max-items", "7", "--workers", "1",
                                      "--trace", "retain-on-failure", "--runner", FAKE], env=env)
    assert result.exit_code == 0, result.output
    seen = read_json(run / "ok_1" / "seen_settings.json")
    assert seen["max_items"] == 7 and seen["model"] == f"scripted:{script}"  # the command line won over the environment
    assert seen["trace"] == "retain-on-failure"
    # taken by the worker from its own environment
    assert seen["api_key_sha256"] == hashlib.sha256(b"sk-worker-secret").hexdigest()
    assert "sk-worker-secret" not in (run / "manifest.json").read_text()
    settings = load_settings(None, environ={"OPENAI_API_KEY": "sk-worker-secret"}, max_items=7)
    assert "sk-worker-secret" not in worker_settings(settings) and '"max_items":7' in worker_settings(settings)


def test_instances_whose_app_is_absent_are_reported_not_run_and_not_scored(tmp_path, script):
    apps = tmp_path / "apps"
    (apps / "WebTestBench_0002").mkdir(parents=True)
    (apps / "WebTestBench_0002" / "package.json").write_text("{}")
    instances = [make("WebTestBench_0001", app=None), make("WebTestBench_0002", app=None)]
    run = tmp_path / "run"
    cfg = BenchConfig(mode="oracle", model=f"scripted:{script}", workers=1, runner=FAKE, apps_root=apps)
    report = run_bench(instances, run, cfg, dataset="test")
    assert report.ran == ["WebTestBench_0002"] and list(report.absent) == ["WebTestBench_0001"]
    assert "app absent" in report.absent["WebTestBench_0001"] and not report.failed
    assert not (run / "WebTestBench_0001" / "result.json").exists()
    manifest = read_json(run / "manifest.json")
    assert manifest["instances"]["WebTestBench_0001"]["status"] == ABSENT
    assert scored_indices(manifest) == ["WebTestBench_0002"]


def test_progress_events_are_made_small():
    data = portable({"notes": ["x" * 1000] * 50, "cost": {"tool_calls": 3}, "deep": {"a": {"b": {"c": {"d": 1}}}},
                     "obj": object()})
    assert len(data["notes"]) == 20 and len(data["notes"][0]) == 300 and data["cost"] == {"tool_calls": 3}
    assert isinstance(data["deep"]["a"]["b"], str) and isinstance(data["obj"], str)


def ctrl_c_default() -> None:
    """``preexec_fn`` for a child a test stops with Ctrl-C: SIGINT's default disposition, unblocked, as in a
    user's shell, whatever the test process inherited (both survive ``exec``)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def test_interrupted_bench_resumes_without_redoing_finished_instances(tmp_path, script):
    data = tmp_path / "ds.jsonl"
    data.write_text("".join(make(i).model_dump_json(by_alias=True) + "\n" for i in ("ok_1", "slow_2", "slow_3")))
    run = tmp_path / "run"
    cmd = [sys.executable, "-m", "webtester.cli.main", "bench", str(data), "--mode", "oracle", "--out", str(run),
           "--apps", str(tmp_path), "--model", f"scripted:{script}", "--workers", "1", "--runner", FAKE]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parent), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=ctrl_c_default)
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
    # the bench writes the same reports as `test`, over all its instances
    assert "report: " in proc.stdout
    junit = (run / "junit.xml").read_text()
    assert junit.count("<testsuite ") == len(apps) and all(f'name="{a}' in junit for a in apps)
    html = (run / "report.html").read_text()
    assert all(a in html for a in apps)
    again = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and f"skipped {len(apps)} finished" in again.stdout

    score = subprocess.run([sys.executable, "-m", "webtester.cli.main", "score", str(run), "--bootstrap", "200"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=300, env={**os.environ, "COLUMNS": "200"})
    assert score.returncode == 0, score.stdout + score.stderr
    assert "judge: oracle" in score.stdout and "Per dimension" in score.stdout
    summary = json.loads((run / "scores" / "summary.json").read_text())
    assert summary["judge"]["name"] == "oracle" and summary["overall"]["coverage"] == 1.0

    scripted_fail = [(g.passed, it.id in first) for a in apps for it, g in zip(oracle_items(bundled[a]), bundled[a].checklist)]
    counts = summary["totals"]["counts"]
    assert counts["tp"] == sum(1 for ok, f in scripted_fail if f and not ok) > 0
    assert counts["fp"] == sum(1 for ok, f in scripted_fail if f and ok)
    assert counts["fn"] == sum(1 for ok, f in scripted_fail if not f and not ok)
    assert (run / "scores" / "summary.md").exists() and (run / "scores" / "by_dimension.csv").exists()
