"""The wheel installs one import name, ``webtester``, with graphs/ and eval/ inside it, their data and the
bundled benchmark; installed into a fresh environment, it lists and tests the bundled apps from any folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = sorted(p.stem for p in (ROOT / "gold").glob("*.jsonl"))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """Built from a copy of the source files (so no build folder is left in the checkout, and none is reused)."""
    src, out = tmp_path_factory.mktemp("src"), tmp_path_factory.mktemp("wheel")
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT,
                           check=True, capture_output=True, text=True).stdout.split("\0")
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(src)],
        check=True, capture_output=True, text=True, timeout=300,
    )
    (built,) = out.glob("webtester-*.whl")
    return built


@pytest.fixture(scope="module")
def wheel_names(wheel) -> list[str]:
    with zipfile.ZipFile(wheel) as zf:
        return zf.namelist()


@pytest.fixture(scope="module")
def fresh_env(wheel, tmp_path_factory) -> Path:
    """A new virtual environment holding only the wheel; its dependencies come from the project's environment
    through a ``.pth`` file written after the install (so the install sees nothing of the checkout)."""
    env = tmp_path_factory.mktemp("env")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True, timeout=120)
    python = env / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
                    "--no-compile", "-q", str(wheel)], check=True, capture_output=True, text=True, timeout=300)
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    (Path(purelib) / "project_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return env


def _run(env: Path, *args: str, cwd: Path, timeout: float = 120, **extra_env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "VIRTUAL_ENV") and not k.startswith(("WEBTESTER_", "OPENAI_"))}
    environ.update({"COLUMNS": "200", **extra_env})
    return subprocess.run([str(env / "bin" / args[0]), *args[1:]], cwd=cwd, env=environ, capture_output=True,
                          text=True, timeout=timeout)


def test_only_webtester_is_installed(wheel_names):
    tops = {name.split("/")[0] for name in wheel_names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"webtester"}


def test_graphs_and_eval_install_inside_webtester(wheel_names):
    names = set(wheel_names)
    for module in ("webtester/graphs/workflow.py", "webtester/eval/metrics.py", "webtester/eval/judges/__init__.py",
                   "webtester/graphs/langgraph.json", "webtester/py.typed", "webtester/baseline/data/absence_model.json"):
        assert module in names, module
    assert not any(n.startswith(("graphs/", "eval/")) for n in names)


def test_every_source_package_is_in_the_wheel(wheel_names):
    """A new sub-package under graphs/ or eval/ cannot be left out of the package list."""
    shipped = {n.rsplit("/", 1)[0] for n in wheel_names if n.endswith("/__init__.py")}
    mapping = {"webtester": "webtester", "graphs": "webtester/graphs", "eval": "webtester/eval"}
    for folder, installed in mapping.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder).as_posix()
            expected = installed if rel == "." else f"{installed}/{rel}"
            assert expected in shipped, expected


def test_the_bundled_benchmark_and_scripts_are_in_the_wheel(wheel_names):
    """Every file of apps/ and gold/ ships under webtester/data/, and every demo script with the package."""
    names = set(wheel_names)
    for folder in ("apps", "gold"):
        tracked = subprocess.run(["git", "ls-files", folder], cwd=ROOT, check=True, capture_output=True,
                                 text=True).stdout.split()
        assert tracked and {f"webtester/data/{name}" for name in tracked} <= names, folder
    for script in (ROOT / "webtester" / "llm" / "scripts").glob("*.yaml"):
        assert f"webtester/llm/scripts/{script.name}" in names


def test_installed_wheel_lists_and_tests_bundled_apps_from_any_folder(fresh_env, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = _run(fresh_env, "python", "-c", "import webtester, webtester.data_root as d; from webtester.llm.factory "
                 "import make_chat_model; from webtester.bundled import load_checks; print(webtester.__file__); "
                 "print(d.data_root()); print(load_checks('recipe_finder').__file__); "
                 "print(make_chat_model('scripted:portfolio_site').script.name)", cwd=elsewhere)
    assert where.returncode == 0, where.stderr
    module, root, checks, script = where.stdout.split()
    assert all(Path(p).is_relative_to(fresh_env) for p in (module, root, checks)), where.stdout
    assert script == "portfolio_site"

    listed = _run(fresh_env, "webtester", "apps", "list", cwd=elsewhere)
    assert listed.returncode == 0, listed.stderr
    assert len(BUNDLED) == 14 and all(name in listed.stdout for name in BUNDLED), listed.stdout
    stats = _run(fresh_env, "webtester", "datasets", "stats", "bundled", cwd=elsewhere)
    assert stats.returncode == 0 and "14 instances" in stats.stdout, stats.stdout + stats.stderr

    out = tmp_path / "out"
    # the probes' time limit is on the wall clock: on a busy machine (the suite runs three workers on two cores)
    # the default 50 s can end the exploration before it reaches the search; a quiet run takes about 20 s of it
    tested = _run(fresh_env, "webtester", "test", "recipe_finder", "--out", str(out), cwd=elsewhere, timeout=360,
                  WEBTESTER_EXPLORE_TIME_LIMIT="150")
    assert tested.returncode == 1, tested.stdout + tested.stderr  # the shipped build has failing items
    assert "rule-based baseline" in tested.stdout and "no model is configured" in tested.stdout, tested.stdout
    assert (out / "report.html").is_file() and (out / "recipe_finder" / "result.json").is_file()
    assert not (elsewhere / "runs").exists()


def test_installed_wheel_names_a_missing_data_root(fresh_env, tmp_path):
    empty = tmp_path / "no_data"
    empty.mkdir()
    listed = _run(fresh_env, "webtester", "apps", "list", cwd=tmp_path, WEBTESTER_DATA=str(empty))
    assert listed.returncode == 2, listed.stdout + listed.stderr
    message = " ".join(listed.stderr.split())
    assert f"no folder {empty / 'gold'}" in message and "WEBTESTER_DATA" in message, listed.stderr
    assert "Traceback" not in listed.stderr
