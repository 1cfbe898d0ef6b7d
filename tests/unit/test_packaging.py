"""The wheel installs one import name, ``webtester``, with graphs/ and eval/ inside it and their data."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory) -> list[str]:
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
    (wheel,) = out.glob("webtester-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        return zf.namelist()


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
