"""``RUN_DIR/manifest.json``: what ran, with which settings (no secrets), per instance status and costs."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from webtester.runfolder.errors import RunFolderError
from webtester.runfolder.io import now_iso, read_json, write_json
from webtester.runfolder.layout import MANIFEST_FILE

COST_KEYS = ("model_calls", "tool_calls", "input_tokens", "output_tokens", "seconds")
#: manifest status of an instance whose app the apps location does not hold: never run, never scored
ABSENT = "absent"


def scored_indices(manifest: dict[str, Any]) -> list[str]:
    """The instances a run's manifest lists for scoring: every one but those whose app was absent."""
    return [i for i, entry in (manifest.get("instances") or {}).items() if entry.get("status") != ABSENT]


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def manifest_path(run_dir: Path) -> Path:
    """Where the manifest of ``run_dir`` is."""
    return Path(run_dir) / MANIFEST_FILE


def read_manifest(run_dir: Path) -> dict[str, Any]:
    """The manifest of ``run_dir``, or {} when there is none; :class:`RunFolderError` when it is not a JSON object."""
    path = manifest_path(run_dir)
    if not path.exists():
        return {}
    data = read_json(path)
    if not isinstance(data, dict):
        raise RunFolderError(f"{path}: expected a JSON object, got {type(data).__name__}")
    return data


def update_manifest(run_dir: Path, *, run: dict[str, Any], index: str, entry: dict[str, Any]) -> dict[str, Any]:
    """Merge run-level fields and one instance's entry into the manifest and recompute the totals (under a lock)."""
    path = manifest_path(run_dir)
    with _locked(path):
        data = read_manifest(run_dir) or {"created": now_iso()}
        data.update(run)
        data["updated"] = now_iso()
        instances = data.setdefault("instances", {})
        instances[index] = entry
        data["totals"] = {k: round(sum(e.get("cost", {}).get(k, 0) for e in instances.values()), 3) for k in COST_KEYS}
        data["totals"]["instances"] = len(instances)
        data["totals"]["failed_instances"] = sum(e.get("status") == "failed" for e in instances.values())
        write_json(path, data)
    return data


def record_run_fields(run_dir: Path, fields: dict[str, Any]) -> dict[str, Any]:
    """Merge run-level fields (e.g. ``{"dataset": "bundled"}``, the gold ``webtester score`` reads) into the manifest
    (under a lock); returns the manifest."""
    path = manifest_path(run_dir)
    with _locked(path):
        data = read_manifest(run_dir) or {"created": now_iso()}
        data.update(fields)
        write_json(path, data)
    return data
