"""How an exported suite starts the app a run tested: the run's target as data, and starting it again.

The spec is a small JSON object kept in the suite's ``export.json``: ``{"kind": "bundled", "app": ...,
"build": ...}``, ``{"kind": "folder", "path": ..., "serve": ...}`` (a static site or an npm project),
``{"kind": "dataset", "dataset": ..., "index": ..., "apps_root": ..., "build": ..., "serve": ...}`` or
``{"kind": "url", "url": ...}``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from webtester import bundled
from webtester.errors import InputError
from webtester.targets import StartedApp, app_starter, is_url

KINDS = ("bundled", "folder", "dataset", "url")


class ExportTargetError(InputError):
    """The app a run tested cannot be found again (a folder that moved, an unknown app)."""


def target_spec(label: str, *, build: str = "shipped", serve: str = "dev", dataset: str | None = None,
                apps_root: str | None = None, base: Path | None = None) -> dict[str, Any]:
    """The spec of a run's target as the manifest records it (``label``: its ``target`` field). A relative
    folder is looked up from ``base`` (default: the current folder)."""
    if is_url(label):
        return {"kind": "url", "url": label}
    folder = Path(label) if Path(label).is_absolute() else (base or Path.cwd()) / label
    if folder.is_dir():
        return {"kind": "folder", "path": str(folder.resolve()), "serve": serve}
    if dataset and dataset != "bundled" and Path(dataset).exists():
        return {"kind": "dataset", "dataset": str(Path(dataset).resolve()), "index": label, "build": build,
                "serve": serve, "apps_root": str(Path(apps_root).resolve()) if apps_root else None}
    try:
        bundled.get_instance(label)
    except KeyError:
        raise ExportTargetError(
            f"the run's app {label!r} is not a URL, a folder here or a bundled app: export from the folder the run "
            "was started in") from None
    return {"kind": "bundled", "app": label, "build": build}


def start_spec(spec: dict[str, Any], *, build: str | None = None) -> StartedApp:
    """Start the app of ``spec`` (``build``: another build of a bundled app than the run's, e.g. ``clean``);
    stop it with ``.stop()``."""
    kind = spec.get("kind")
    if kind == "url":
        return app_starter(str(spec["url"]))()
    if kind == "folder":
        return app_starter(Path(spec["path"]), serve=spec.get("serve") or "dev")()
    if kind == "bundled":
        return app_starter(str(spec["app"]), build=build or spec.get("build") or "shipped")()
    if kind == "dataset":
        from webtester.datasets import load_dataset

        chosen = [i for i in load_dataset(Path(spec["dataset"])) if i.index == spec["index"]]
        if not chosen:
            raise ExportTargetError(f"{spec['dataset']}: no instance named {spec['index']!r}")
        root = Path(spec["apps_root"]) if spec.get("apps_root") else None
        return app_starter(chosen[0], build=build or spec.get("build") or "shipped", apps_root=root,
                           serve=spec.get("serve") or "dev")()
    raise ExportTargetError(f"unknown app kind {kind!r} in the export (expected one of {', '.join(KINDS)})")
