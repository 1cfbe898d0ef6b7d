"""webtester: tests web applications from the instruction they were built from.

The public API of the core: settings, testers, the tester protocol, the data model, datasets, run folders
and the base error. Running the workflow is the layer above it: ``run_app`` and ``run_instance`` of
:mod:`webtester.graphs` take the settings and a tester made here::

    settings = webtester.load_settings()                       # defaults, environment, webtester.toml
    tester = webtester.make_tester("baseline", settings=settings)
    # then, with webtester.graphs' run_app:
    # run_app("recipe_finder", instruction="...", index="recipe_finder", tester=tester, out_dir="runs/mine",
    #         settings=settings)

Names are loaded on first use, so ``import webtester`` stays light.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: public name -> the module that defines it
_EXPORTS: dict[str, str] = {
    # testers
    "make_tester": "webtester.testers",
    # settings
    "Settings": "webtester.settings",
    "JudgeSettings": "webtester.settings",
    "load_settings": "webtester.settings",
    # the tester protocol
    "Tester": "webtester.agents.base",
    "AppPage": "webtester.agents.base",
    "PageOpener": "webtester.agents.base",
    "Checklist": "webtester.agents.base",
    "ItemBudget": "webtester.agents.base",
    # the data model
    "Mode": "webtester.models",
    "Dimension": "webtester.models",
    "Category": "webtester.models",
    "Status": "webtester.models",
    "TestItem": "webtester.models",
    "Verdict": "webtester.models",
    "BugReport": "webtester.models",
    "Evidence": "webtester.models",
    "Cost": "webtester.models",
    "GoldItem": "webtester.models",
    "AppSpec": "webtester.models",
    "Instance": "webtester.models",
    "InstanceResult": "webtester.models",
    # datasets and run folders
    "load_dataset": "webtester.datasets.jsonl",
    "InstanceFolder": "webtester.runfolder",
    # errors
    "WebtesterError": "webtester.errors",
}

__all__ = [
    "__version__",
    "make_tester",
    "Settings", "JudgeSettings", "load_settings",
    "Tester", "AppPage", "PageOpener", "Checklist", "ItemBudget",
    "Mode", "Dimension", "Category", "Status", "TestItem", "Verdict", "BugReport", "Evidence", "Cost",
    "GoldItem", "AppSpec", "Instance", "InstanceResult",
    "load_dataset", "InstanceFolder",
    "WebtesterError",
]

if TYPE_CHECKING:
    from webtester.agents.base import AppPage, Checklist, ItemBudget, PageOpener, Tester
    from webtester.datasets.jsonl import load_dataset
    from webtester.errors import WebtesterError
    from webtester.models import (
        AppSpec,
        BugReport,
        Category,
        Cost,
        Dimension,
        Evidence,
        GoldItem,
        Instance,
        InstanceResult,
        Mode,
        Status,
        TestItem,
        Verdict,
    )
    from webtester.runfolder import InstanceFolder
    from webtester.settings import JudgeSettings, Settings, load_settings
    from webtester.testers import make_tester


def __getattr__(name: str) -> Any:
    """Load a public name from the module that defines it (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'webtester' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
