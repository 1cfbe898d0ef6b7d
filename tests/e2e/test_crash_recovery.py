"""Crash recovery and concurrency: workers die with a killed bench, one process writes a run folder at a time,
unreadable files are kept aside and their instance run again, a resumed run logs each verdict once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from webtester.errors import InputError
from webtester.eval.bench import BenchConfig, run_bench
from webtester.eval.benchmarks.kill9 import marked_env, marked_processes, wait_until_gone
from webtester.eval.scoring import read_prediction
from webtester.graphs.run import run_app, run_instance
from webtester.models import AppSpec, Category, GoldItem, Instance
from webtester.runfolder import RunFolderBusyError, RunFolderError, read_json, read_manifest, write_text

HERE = Path(__file__).resolve().parent
FAKE = "crash_fakes:run_instance"
NO_APP = AppSpec(kind="url", url="http://127.0.0.1:9/")
NOT_UTF8 = b'{"index": "\xff\xfe\x80 not UTF-8'


def make(index: str) -> Instance:
    """An instance for the fake runner (which starts no app unless told to: the URL is never opened)."""
    return Instance(index=index, instruction="An app.", category=Category.tool, app=NO_APP,
                    checklist=[GoldItem(id=1, content="It works.", dimension="functionality", passed=False)])


def dataset(tmp_path: Path, *indices: str) -> Path:
    path = tmp_path / "ds.jsonl"
    path.write_text("".join(make(i).model_dump_json(by_alias=True) + "\n" for i in indices), encoding="utf-8")
    return path


@pytest.fixture
def script(tmp_path) -> Path:
    path = tmp_path / "script.yaml"
    path.write_text('items:\n  "*": {replies: [{verdict: {status: pass}}], repeat_last: true}\n', encoding="utf-8")
    return path


def bench_cmd(data: Path, run: Path, script: Path, workers: int) -> list[str]:
    return [sys.executable, "-m", "webtester.cli.main", "bench", str(data), "--mode", "oracle", "--out", str(run),
            "--apps", str(data.parent), "--model", f"scripted:{script}", "--workers", str(workers), "--runner", FAKE]


def child_env(token: str) -> dict[str, str]:
    env = marked_env(token)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")])
    return env


def calls(run_dir: Path) -> list[str]:
    log = run_dir / "calls.log"
    return [line.split()[0] for line in log.read_text().splitlines()] if log.exists() else []


def wait_for(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


def kill_all(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_workers_and_what_they_started_die_with_a_killed_bench(tmp_path, script):
    data = dataset(tmp_path, "tree_1", "hang_2")
    run = tmp_path / "run"
    token = uuid.uuid4().hex
    bench = subprocess.Popen(bench_cmd(data, run, script, workers=2), cwd=tmp_path, env=child_env(token),
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    try:
        wait_for(lambda: (run / "tree_1" / "tree.json").exists() and "hang_2" in calls(run), 180,
                 "the workers, the dev server and Chromium")
        tree = read_json(run / "tree_1" / "tree.json")
        before = marked_processes(token)
        assert {bench.pid, tree["worker"], tree["app"]} <= set(before)
        assert len(before) >= 6  # bench, 2 workers, npm and its node server, the browser driver, Chromium...
        os.killpg(bench.pid, signal.SIGKILL)  # kill -9 -- -PGID: the workers run in sessions of their own
        bench.wait(30)
        left, _ = wait_until_gone(token, 60)
        assert left == [], f"processes of the killed bench still running: {left}"
    finally:
        kill_all(marked_processes(token))
        if bench.poll() is None:
            bench.kill()
    # the killed bench's lock file is left behind, naming a dead PID: it blocks nothing
    assert str(bench.pid) in (run / "run.lock").read_text()
    cfg = BenchConfig(mode="oracle", model=f"scripted:{script}", workers=1, runner=FAKE)
    again = run_bench([make("ok_3")], run, cfg)
    assert again.ran == ["ok_3"] and not again.failed


def test_a_second_bench_or_test_on_a_held_run_folder_fails_at_once_naming_the_holder(tmp_path, script):
    data = dataset(tmp_path, "reenter_0", "slow_1", "slow_2")
    run = tmp_path / "run"
    token = uuid.uuid4().hex
    first = subprocess.Popen(bench_cmd(data, run, script, workers=1), cwd=tmp_path, env=child_env(token),
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for(lambda: "slow_1" in calls(run), 180, "the first bench to run slow_1")
        cfg = BenchConfig(mode="oracle", model=f"scripted:{script}", workers=1, runner=FAKE)
        started = time.monotonic()
        with pytest.raises(RunFolderBusyError) as busy:
            run_bench([make("ok_9")], run, cfg)
        assert time.monotonic() - started < 10  # at once, not after the first bench
        assert isinstance(busy.value, InputError)
        assert f"{run} is already being written by PID {first.pid} (started 20" in str(busy.value)
        with pytest.raises(RunFolderBusyError, match=f"PID {first.pid}"):  # the run path of `webtester test`
            run_app(NO_APP, instruction="An app.", index="ok_9", tester=None, out_dir=run)
        second = subprocess.run(bench_cmd(data, run, script, workers=1), cwd=tmp_path, env=child_env(token),
                                capture_output=True, text=True, timeout=120)
        assert second.returncode != 0 and f"PID {first.pid}" in second.stdout + second.stderr
        out, _ = first.communicate(timeout=180)
    finally:
        kill_all(marked_processes(token))
    assert first.returncode == 0, out  # the first bench is unaffected
    assert sorted(calls(run)) == ["reenter_0", "slow_1", "slow_2"]  # everything ran once, by the first bench
    assert all(read_json(run / i / "result.json")["status"] == "ok" for i in ("reenter_0", "slow_1", "slow_2"))
    assert not (run / "ok_9").exists()


def test_unreadable_files_are_kept_aside_and_their_instance_run_again(tmp_path, script):
    data = dataset(tmp_path, "ok_1", "ok_2", "ok_3")
    run = tmp_path / "run"
    cfg = BenchConfig(mode="oracle", model=f"scripted:{script}", workers=3, runner=FAKE)
    first = run_bench([make(i) for i in ("ok_1", "ok_2", "ok_3")], run, cfg, dataset=str(data))
    assert sorted(first.ran) == ["ok_1", "ok_2", "ok_3"]
    (run / "ok_2" / "result.json").write_bytes(NOT_UTF8)
    (run / "ok_3" / "checklist.json").write_bytes(b'[{"id": "FT-01", ')

    with pytest.raises(RunFolderError, match=f"^{run / 'ok_2' / 'result.json'}:1: not UTF-8"):  # what score reads
        read_prediction(run, make("ok_2"))

    again = run_bench([make(i) for i in ("ok_1", "ok_2", "ok_3")], run, cfg, dataset=str(data))
    assert sorted(again.ran) == ["ok_2", "ok_3"] and again.skipped == ["ok_1"] and not again.failed
    kept = list((run / "ok_2").glob("result.json.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == NOT_UTF8  # kept aside, not deleted
    assert read_json(run / "ok_2" / "result.json")["status"] == "ok"
    assert len(list((run / "ok_3").glob("checklist.json.corrupt-*"))) == 1
    manifest = read_manifest(run)
    for index, name in (("ok_2", "result.json"), ("ok_3", "checklist.json")):
        reason = again.rerun[index]
        assert f"{run / index / name}" in reason and "kept aside as" in reason
        assert manifest["instances"][index]["rerun_reason"] == reason
        assert f"{name}" in (run / index / "log.txt").read_text() and "kept aside as" in (run / index / "log.txt").read_text()
    assert calls(run).count("ok_1") == 1 and calls(run).count("ok_2") == 2 and calls(run).count("ok_3") == 2


def test_a_reference_harness_result_that_is_not_utf8_is_named(tmp_path):
    folder = tmp_path / "run" / "ok_1"
    folder.mkdir(parents=True)
    (folder / "result_extracted.md").write_bytes(b"# Results\n\xff\xfe\n")
    with pytest.raises(RunFolderError, match=str(folder / "result_extracted.md")):
        read_prediction(tmp_path / "run", make("ok_1"))


def test_concurrent_writers_of_one_file_never_collide(tmp_path):
    target = tmp_path / "checklist.json"
    texts = [f"writer {n}\n" * 2000 for n in range(8)]
    errors: list[BaseException] = []

    def write(text: str) -> None:
        try:
            for _ in range(100):
                write_text(target, text)
        except BaseException as exc:  # noqa: BLE001 - any failure of a writer is the test's failure
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(t,)) for t in texts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert target.read_text() in texts  # one writer's whole text, never a mix
    assert [p.name for p in tmp_path.iterdir()] == ["checklist.json"]  # no temporary file left


def test_a_verdict_logged_after_the_last_checkpoint_is_not_logged_twice(tmp_path, browser):
    from collections import Counter

    from test_graph_resume import IDS, counting_tester

    from webtester.bundled import get_instance
    from webtester.settings import Settings

    inst = get_instance("portfolio_site")

    def killed_after_logging(event: str, data: dict) -> None:
        if event == "item_done" and data["item"] == "FT-02":
            raise KeyboardInterrupt  # stopped after FT-02's verdict is logged, before its checkpoint

    with pytest.raises(KeyboardInterrupt):
        run_instance(inst, mode="e2e", tester=counting_tester(Counter()), out_dir=tmp_path, settings=Settings(),
                     browser=browser, on_event=killed_after_logging)
    log = tmp_path / "portfolio_site" / "verdicts.jsonl"
    assert [json.loads(x)["item_id"] for x in log.read_text().splitlines()] == ["FT-01", "FT-02"]

    second: Counter = Counter()
    result = run_instance(inst, mode="e2e", tester=counting_tester(second), out_dir=tmp_path, settings=Settings(),
                          browser=browser)
    assert second == Counter({"FT-02": 1, "IX-01": 1})  # FT-02 had no checkpoint: it ran again
    assert [v.item_id for v in result.verdicts] == IDS
    assert [json.loads(x)["item_id"] for x in log.read_text().splitlines()] == IDS
    assert "dropped the pass verdict of FT-02" in (tmp_path / "portfolio_site" / "log.txt").read_text()
