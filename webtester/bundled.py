"""The bundled benchmark: apps under ``apps/``, gold records under ``gold/``, both in the data root
(:mod:`webtester.data_root`: the checkout, the installed package's copy, or ``$WEBTESTER_DATA``).

Each app is a static folder ``apps/<index>/`` whose ``index.html`` loads
``defects.js`` before its own scripts. ``defects.js`` on disk is the shipped
build (``window.WT_DEFECTS = [...]``); other builds are served by replacing it
in memory, so the app's files never change.

Each gold item's executable check is ``gold/checks/<index>.py::<check>``, a
function ``(page, base_url) -> bool`` that returns True for Pass. ``gold/checks``
is a package (its modules share ``_helpers`` by relative import); it is imported
from its folder under the name ``webtester_gold_checks``.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from urllib.parse import urlsplit

from webtester.browser.chromium import VIEWPORT
from webtester.browser.static_server import StaticServer
from webtester.data_root import PARTS, data_path, data_root
from webtester.datasets import load_dataset
from webtester.models import Instance

CHECKS_PACKAGE = "webtester_gold_checks"

Check = Callable[..., bool]


def apps_root() -> Path:
    """The bundled apps' folder (``apps/`` of the data root)."""
    return data_path("apps")


def gold_root() -> Path:
    """The bundled gold records' folder (``gold/`` of the data root)."""
    return data_path("gold")


def checks_root() -> Path:
    """The executable gold checks' package folder (``gold/checks/`` of the data root)."""
    return data_path("checks")


def load_bundled(gold_root: Path | None = None) -> list[Instance]:
    """All bundled instances, in index order (``gold_root``: default the data root's ``gold/``)."""
    return load_dataset(gold_root or data_path("gold"))


def get_instance(index: str, gold_root: Path | None = None) -> Instance:
    """One bundled instance by index (its app's folder name)."""
    for inst in load_bundled(gold_root):
        if inst.index == index:
            return inst
    names = ", ".join(i.index for i in load_bundled(gold_root))
    raise KeyError(f"no bundled app named {index!r}; known: {names}")


def resolve_build(instance: Instance, build: str | Iterable[str]) -> list[str]:
    """Defect ids switched on for ``build``: 'shipped', 'clean', 'all', or explicit ids."""
    known = [d.id for d in instance.defects or []]
    if isinstance(build, str):
        if build == "shipped":
            return instance.shipped_defects()
        if build == "clean":
            return []
        if build == "all":
            return known
        build = [b for b in build.split(",") if b]
    chosen = list(build)
    unknown = [d for d in chosen if d not in known]
    if unknown:
        raise ValueError(f"{instance.index}: unknown defect(s) {unknown}; known: {known}")
    return chosen


def defects_js(defects: list[str]) -> bytes:
    """The ``defects.js`` that switches exactly ``defects`` on."""
    return f"window.WT_DEFECTS = {json.dumps(sorted(defects))};\n".encode()


def serve_app(instance: Instance, build: str | Iterable[str] = "shipped", apps_root: Path | None = None) -> StaticServer:
    """Start the app of a bundled instance in the given build; stop it with ``.stop()``."""
    defects = resolve_build(instance, build)
    folder = (apps_root or data_path("apps")) / (instance.app.path if instance.app and instance.app.path else instance.index)
    return StaticServer(folder, overrides={"defects.js": defects_js(defects)})


def _checks_package(checks_folder: Path) -> str:
    """Import the checks folder as a package (once per folder); returns its import name."""
    folder = checks_folder.resolve()
    name = CHECKS_PACKAGE
    if folder != (data_root() / PARTS["checks"]).resolve():  # another checks folder gets a name of its own
        name += "_" + hashlib.sha256(str(folder).encode()).hexdigest()[:12]
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, folder / "__init__.py", submodule_search_locations=[str(folder)])
        if spec is None or spec.loader is None:
            raise FileNotFoundError(f"no checks package at {folder} (it needs an __init__.py)")
        package = importlib.util.module_from_spec(spec)
        sys.modules[name] = package
        try:
            spec.loader.exec_module(package)
        except BaseException:
            del sys.modules[name]
            raise
    return name


def load_checks(index: str, checks_folder: Path | None = None) -> ModuleType:
    """Import ``gold/checks/<index>.py`` as a module of the checks package (default: the data root's)."""
    folder = checks_folder or checks_root()
    path = folder / f"{index}.py"
    if not path.exists():
        raise FileNotFoundError(f"no checks module for {index!r}: {path}")
    return importlib.import_module(f"{_checks_package(folder)}.{index}")


@dataclass
class CheckOutcome:
    """Result of one executable gold check."""

    item_id: int
    passed: bool
    message: str = ""
    seconds: float = 0.0


def run_checks(instance: Instance, base_url: str, browser, item_ids: Iterable[int] | None = None) -> dict[int, CheckOutcome]:
    """Run gold checks against a running build, each in a fresh tab of one browser context whose site data
    (cookies, local and session storage, IndexedDB, caches) is cleared before every check, so each check starts
    as a new visitor.

    A check that raises counts as Fail, with the exception as its message.
    """

    module = load_checks(instance.index)
    wanted = set(item_ids) if item_ids is not None else None
    outcomes: dict[int, CheckOutcome] = {}
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(base_url))
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(3000)
    context.set_default_navigation_timeout(15000)  # page loads may be slow on a busy machine
    try:
        for item in instance.checklist:
            if wanted is not None and item.id not in wanted:
                continue
            fn: Check | None = getattr(module, item.check or f"item_{item.id}", None)
            if fn is None:
                raise AttributeError(f"{instance.index}: gold item {item.id} has no check function {item.check!r}")
            start = time.perf_counter()
            page = _fresh_tab(context, origin)
            try:
                page.goto(base_url)
                ok, msg = bool(fn(page, base_url)), ""
            except Exception as exc:  # a check that cannot complete means the behaviour is not there
                ok, msg = False, f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
            finally:
                page.close()
            outcomes[item.id] = CheckOutcome(item.id, ok, msg, time.perf_counter() - start)
    finally:
        context.close()
    return outcomes


def _fresh_tab(context, origin: str):
    """A new tab in ``context`` after the site data of ``origin`` and every cookie are cleared."""
    context.clear_cookies()
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    try:
        cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    finally:
        cdp.detach()
    return page
