"""The package root's public API: the exported names are pinned, and each one resolves."""

from __future__ import annotations

import subprocess
import sys

import webtester

EXPECTED = {
    "__version__",
    "make_tester",
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
    # the root is core: none of its names comes from the layers above it
    assert not [m for m in webtester._EXPORTS.values() if m.startswith(("webtester.graphs", "webtester.eval", "webtester.cli"))]


def test_every_exported_name_resolves():
    for name in webtester.__all__:
        assert getattr(webtester, name) is not None, name
    assert webtester.make_tester.__module__ == "webtester.testers"


def test_unknown_name_is_an_attribute_error():
    try:
        webtester.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("expected AttributeError")


def test_the_workflow_layer_exports_the_running_api():
    from webtester.graphs import __all__ as running
    from webtester.graphs import run_app

    assert set(running) == {"run_app", "run_instance"} and run_app.__module__ == "webtester.graphs.run"


def test_importing_the_core_does_not_load_the_workflow():
    code = "import sys, webtester, webtester.models; print('webtester.graphs' in sys.modules, 'langgraph' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout.split()
    assert out == ["False", "False"]
