"""The package root's public API: the exported names are pinned, and each one resolves."""

from __future__ import annotations

import subprocess
import sys

import webtester

EXPECTED = {
    "__version__",
    "run_app", "run_instance", "make_tester",
    "Settings", "JudgeSettings", "load_settings",
    "Tester", "AppPage", "PageOpener", "Checklist", "ItemBudget",
    "Mode", "Dimension", "Category", "Status", "TestItem", "Verdict", "BugReport", "Evidence", "Cost",
    "GoldItem", "AppSpec", "Instance", "InstanceResult",
    "load_dataset", "InstanceFolder",
    "WebtesterError",
}


def test_exported_names_are_pinned():
    assert set(webtester.__all__) == EXPECTED
    assert set(webtester._EXPORTS) == EXPECTED - {"__version__"}  # every public name has a home, and only those


def test_every_exported_name_resolves():
    for name in webtester.__all__:
        assert getattr(webtester, name) is not None, name
    assert webtester.run_app.__module__ == "webtester.graphs.run"


def test_unknown_name_is_an_attribute_error():
    try:
        webtester.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("expected AttributeError")


def test_importing_the_core_does_not_load_the_workflow():
    code = "import sys, webtester, webtester.models; print('webtester.graphs' in sys.modules, 'langgraph' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout.split()
    assert out == ["False", "False"]
