"""Lint and type checks run with the suite: ruff (pyflakes, import order, bugbear) on all first-party code,
mypy on the core package (configuration in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINTED = ["webtester", "graphs", "eval", "gold", "tests", "scripts", "setup.py"]


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if not found:
        pytest.fail(f"{name} is not installed: pip install -e '.[dev]'")
    return found


def test_ruff_is_clean():
    out = subprocess.run([_tool("ruff"), "check", "--no-cache", *LINTED], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_is_clean_on_the_core():
    out = subprocess.run([_tool("mypy"), "--cache-dir", str(ROOT / ".mypy_cache")], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
