"""Real apps from a dataset: find an instance's app, unpack it into the cache, return its project folder.

An apps location is a folder of zips (``WebTestBench_0001.zip`` ..., each
unpacking to one folder ``WebTestBench_0001/``), a folder of unpacked app
folders, or one zip / one app folder. The project is materialised under
``<cache>/apps/<index>/`` (:func:`webtester.cache.cache_root`), so the source
is only read (it may be read-only) and installs and dev-server caches never
touch it. A cached copy is reused while its source is unchanged.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import zipfile
from pathlib import Path, PurePosixPath

from webtester.cache import cache_root
from webtester.errors import AbsentError, InputError

_MARKER = ".webtester-source"  # fingerprint of the source the cached copy was made from
_SKIP = {"node_modules", ".git", "dist"}


class AppAbsentError(AbsentError):
    """The apps location holds no app for this instance (report it as "app absent", not as a tester failure)."""


def instance_name(index: str | int) -> str:
    """``WebTestBench_0007`` for ``7``, ``"7"`` or ``"WebTestBench_0007"``."""
    text = str(index).strip()
    return f"WebTestBench_{int(text):04d}" if text.isdigit() else text


def find_app(index: str | int, apps: str | Path) -> Path:
    """The zip or folder in ``apps`` that holds instance ``index``; raises :class:`AppAbsentError`."""
    name = instance_name(index)
    apps = Path(apps).expanduser()
    if apps.is_file() and apps.suffix == ".zip":
        return apps
    if (apps / "package.json").is_file():
        return apps
    for candidate in (apps / f"{name}.zip", apps / name):
        if candidate.is_file() or (candidate.is_dir() and _project_in(candidate) is not None):
            return candidate
    raise AppAbsentError(f"no app for {name} in {apps}")


def app_project(index: str | int, apps: str | Path, *, cache: Path | None = None) -> Path:
    """The project folder (the one with ``package.json``) of instance ``index``, unpacked or copied into the
    cache (``cache`` overrides :func:`~webtester.cache.cache_root`); raises :class:`AppAbsentError`."""
    source = find_app(index, apps)
    dest = Path(cache or cache_root()) / "apps" / instance_name(index)
    fingerprint = _fingerprint(source)
    if (dest / _MARKER).is_file() and (dest / _MARKER).read_text(encoding="utf-8") == fingerprint:
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}-", dir=dest.parent))
    try:
        if source.is_file():
            _unzip(source, staging)
        else:
            shutil.copytree(source, staging, dirs_exist_ok=True, symlinks=True,
                            ignore=lambda _d, names: [n for n in names if n in _SKIP])
        project = _project_in(staging)
        if project is None:
            raise AppAbsentError(f"{source} holds no npm project (no package.json)")
        (project / _MARKER).write_text(fingerprint, encoding="utf-8")
        _replace(dest, project)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return dest


def _project_in(folder: Path) -> Path | None:
    if (folder / "package.json").is_file():
        return folder
    subs = [p for p in folder.iterdir() if p.is_dir() and not p.name.startswith((".", "__MACOSX"))]
    if len(subs) == 1 and (subs[0] / "package.json").is_file():
        return subs[0]
    return None


def _fingerprint(source: Path) -> str:
    digest = hashlib.sha256()
    if source.is_file():
        with open(source, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
        return "zip:" + digest.hexdigest()
    for root, dirs, files in os.walk(source):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP)
        for name in sorted(files):
            path = Path(root) / name
            stat = path.lstat()
            digest.update(f"{path.relative_to(source)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return "dir:" + digest.hexdigest()


def _unzip(archive: Path, target: Path) -> None:
    """Extract ``archive`` into ``target``, refusing members that would land outside it; an archive that is not a
    zip raises :class:`~webtester.errors.InputError` naming it."""
    try:
        zf = zipfile.ZipFile(archive)
    except zipfile.BadZipFile as exc:
        raise InputError(f"{archive}: not a zip archive ({exc})") from None
    with zf:
        for member in zf.infolist():
            parts = PurePosixPath(member.filename).parts
            if member.filename.startswith("/") or ".." in parts or (parts and ":" in parts[0]):
                raise AppAbsentError(f"{archive}: unsafe member path {member.filename!r}")
            if parts and parts[0] in _SKIP | {"__MACOSX"} or "node_modules" in parts:
                continue
            zf.extract(member, target)


def _replace(dest: Path, project: Path) -> None:
    """Move ``project`` to ``dest``, replacing an older copy (whose own node_modules goes with it)."""
    if dest.exists():
        old = dest.with_name(f".{dest.name}-old-{os.getpid()}")
        dest.rename(old)
        shutil.rmtree(old, ignore_errors=True)
    project.rename(dest)
