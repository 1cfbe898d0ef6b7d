"""npm projects: install dependencies, share them across apps, build the dev-server and build commands.

Dependencies are installed either in place (``npm install`` in the project,
with npm's shared download cache) or, for a project with a lock file, in a
*shared store*: one ``node_modules`` per distinct dependency set, installed once
under ``<cache>/deps/<key>/`` (``key`` hashes the lock file and the dependency
fields of package.json), and linked into the project as a real ``node_modules``
folder whose entries are symlinks to the store's. The project keeps its own
``node_modules/.vite`` (Vite's pre-bundled dependencies) and other caches, so
apps never write into each other's folders; Vite resolves the links to their
real paths (its default ``preserveSymlinks: false``); see :func:`link_shared`.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import IO

from webtester.cache import cache_root
from webtester.errors import StepError

NPM_CACHE = Path(os.environ.get("WEBTESTER_NPM_CACHE") or cache_root() / "npm")
STORE_MARKER = ".webtester-deps"  # in a linked node_modules: the key of the store it points to
_DEP_FIELDS = ("dependencies", "devDependencies", "optionalDependencies", "peerDependencies", "overrides")
_OWN_ENTRIES = {".vite", ".vite-temp", ".cache", ".tmp", STORE_MARKER}  # kept per project, never linked
_LOCK_FILES = ("package-lock.json", "npm-shrinkwrap.json")
_INSTALL_MARKER = Path("node_modules") / ".package-lock.json"  # written by npm at the end of every install


class NpmError(StepError):
    """npm is missing, the project is malformed, or ``npm install`` failed."""


def npm_executable() -> str:
    """Path of ``npm``; raises :class:`NpmError` when Node.js is not installed."""
    npm = shutil.which("npm")
    if not npm:
        raise NpmError("npm not found: install Node.js (20 or newer) and npm")
    return npm


def npm_env(port: int | None = None) -> dict[str, str]:
    """Environment for npm commands: the shared cache, no audit/fund/update chatter, no browser opening."""
    env = dict(os.environ)
    env.update(
        npm_config_cache=str(NPM_CACHE),
        npm_config_audit="false",
        npm_config_fund="false",
        npm_config_update_notifier="false",
        BROWSER="none",
        NO_COLOR="1",
        CI="true",  # dev servers do not wait for keyboard input or clear the screen
    )
    if port is not None:
        env["PORT"] = str(port)  # honoured by dev servers that do not take --port
    return env


def read_package_json(project: Path) -> dict:
    """The project's package.json; raises :class:`NpmError` naming the problem."""
    path = project / "package.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise NpmError(f"not an npm project (no package.json): {project}") from None
    except json.JSONDecodeError as exc:
        raise NpmError(f"{path}: invalid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise NpmError(f"{path}: expected a JSON object")
    return data


def dev_script(project: Path) -> str:
    """Name of the script that starts the dev server (``dev``, else ``start``)."""
    scripts = read_package_json(project).get("scripts") or {}
    for name in ("dev", "start"):
        if name in scripts:
            return name
    raise NpmError(f"{project / 'package.json'} has no 'dev' or 'start' script (scripts: {sorted(scripts)})")


def install_is_current(project: Path) -> bool:
    """True when there is nothing to install, or node_modules was installed after the last change
    of package.json and the lock file."""
    data = read_package_json(project)
    if not any(data.get(k) for k in ("dependencies", "devDependencies", "optionalDependencies")):
        return True
    marker = project / _INSTALL_MARKER
    if not marker.exists():
        return False
    inputs = [project / "package.json", *(project / name for name in _LOCK_FILES)]
    newest = max(p.stat().st_mtime for p in inputs if p.exists())
    return marker.stat().st_mtime >= newest


def install(project: Path, log, timeout: float = 900) -> bool:
    """Run ``npm install`` unless node_modules is current; output goes to the open file ``log``.

    Returns True when an install ran. Raises :class:`NpmError` when it fails or times out.
    """
    if install_is_current(project):
        return False
    NPM_CACHE.mkdir(parents=True, exist_ok=True)
    cmd = [npm_executable(), "install", "--no-audit", "--no-fund", "--prefer-offline"]
    log.write(f"$ {' '.join(cmd)}  (in {project})\n")
    log.flush()
    try:
        proc = subprocess.run(
            cmd, cwd=project, env=npm_env(), stdout=log, stderr=subprocess.STDOUT, timeout=timeout,
            start_new_session=True,
        )
    except subprocess.TimeoutExpired:
        raise NpmError(f"npm install did not finish within {timeout:.0f} s") from None
    if proc.returncode != 0:
        raise NpmError(f"npm install failed with exit code {proc.returncode}")
    # npm leaves the marker untouched when nothing changed; touch it so the next start skips the install
    marker = project / _INSTALL_MARKER
    if marker.exists():
        marker.touch()
    return True


def dev_command(project: Path, port: int) -> list[str]:
    """``npm run dev -- --port N --strictPort --host 127.0.0.1`` (the port forced, localhost only)."""
    return [npm_executable(), "run", dev_script(project), "--", "--port", str(port), "--strictPort", "--host", "127.0.0.1"]


# ----------------------------------------------------------------------------- shared store


def lock_file(project: Path) -> Path | None:
    """The project's npm lock file, or None."""
    return next((project / n for n in _LOCK_FILES if (project / n).is_file()), None)


def store_key(project: Path) -> str:
    """Hash of the lock file and the dependency fields of package.json: equal keys install the same tree."""
    lock = lock_file(project)
    if lock is None:
        raise NpmError(f"{project}: no package-lock.json, so its dependencies cannot be shared")
    data = read_package_json(project)
    digest = hashlib.sha256(lock.read_bytes())
    digest.update(json.dumps({k: data.get(k) for k in _DEP_FIELDS}, sort_keys=True).encode())
    return digest.hexdigest()[:20]


def store_root() -> Path:
    """Folder of the shared dependency store (``<cache>/deps``)."""
    return cache_root() / "deps"


def linked_key(project: Path) -> str | None:
    """The store key ``project/node_modules`` is linked to, or None (no node_modules, or an own install)."""
    try:
        return (project / "node_modules" / STORE_MARKER).read_text(encoding="utf-8").strip() or None
    except (FileNotFoundError, NotADirectoryError):
        return None


def ensure_store(project: Path, log: IO[str], timeout: float = 900) -> tuple[Path, bool]:
    """The store folder holding ``node_modules`` for ``project``'s dependencies, installing it once.

    Returns ``(folder, installed_now)``. Concurrent callers wait on a file lock; an
    install runs in a staging folder (``npm ci``, falling back to ``npm install``
    when the lock file is out of date) and is renamed into place only when it
    succeeded, so a store folder is always complete. Raises :class:`NpmError`.
    """
    key = store_key(project)
    root = store_root()
    folder = root / key
    if (folder / "node_modules").is_dir():
        return folder, False
    root.mkdir(parents=True, exist_ok=True)
    with open(root / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (folder / "node_modules").is_dir():
            return folder, False
        staging = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=root))
        try:
            for name in ("package.json", *_LOCK_FILES, ".npmrc"):
                if (project / name).is_file():
                    shutil.copy2(project / name, staging / name)
            try:
                _run_npm(["ci"], staging, log, timeout)
            except NpmError as exc:
                log.write(f"npm ci failed ({exc}); trying npm install\n")
                shutil.rmtree(staging / "node_modules", ignore_errors=True)
                _run_npm(["install"], staging, log, timeout)
            staging.rename(folder)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return folder, True


def link_shared(project: Path, store: Path) -> None:
    """Make ``project/node_modules`` a folder of symlinks to ``store/node_modules``'s entries.

    Node and Vite resolve each link to its real path in the store, so a package's
    own dependencies are found next to it there; the project keeps real folders
    for what tools write (``.vite`` pre-bundles, ``.cache``). An existing own
    install (a node_modules not made by this function) is replaced.
    """
    modules = project / "node_modules"
    key = store.name
    if linked_key(project) == key and all(e.exists() for e in modules.iterdir() if e.is_symlink()):
        return  # (relative links break when the project folder is copied or moved: then they are made again)
    if modules.is_symlink() or modules.is_file():
        modules.unlink()
    elif modules.is_dir() and linked_key(project) is None:
        shutil.rmtree(modules)  # an own install
    elif modules.is_dir():  # linked to another store: drop the links, keep the project's own caches
        for entry in modules.iterdir():
            if entry.is_symlink() or entry.name == STORE_MARKER:
                entry.unlink()
    modules.mkdir(exist_ok=True)
    for entry in sorted((store / "node_modules").iterdir()):
        if entry.name not in _OWN_ENTRIES:
            # relative links: short enough to live in the inode (no disk block each), and the cache can move
            target = os.path.relpath(entry.resolve(), modules.resolve())
            (modules / entry.name).symlink_to(target, target_is_directory=entry.is_dir())
    (modules / STORE_MARKER).write_text(key, encoding="utf-8")


def install_shared(project: Path, log: IO[str], timeout: float = 900) -> bool:
    """Link ``project`` to the shared store for its dependency set (installing the set first when new).

    Returns True when an install ran. Raises :class:`NpmError`.
    """
    store, installed = ensure_store(project, log, timeout)
    link_shared(project, store)
    return installed


def build(project: Path, out_dir: Path, log: IO[str], timeout: float = 600) -> None:
    """``npm run build -- --outDir OUT`` into a staging folder, renamed to ``out_dir`` when it succeeded."""
    scripts = read_package_json(project).get("scripts") or {}
    if "build" not in scripts:
        raise NpmError(f"{project / 'package.json'} has no 'build' script")
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}-", dir=out_dir.parent))
    try:
        _run_npm(["run", "build", "--", "--outDir", str(staging), "--emptyOutDir"], project, log, timeout)
        if not (staging / "index.html").is_file():
            raise NpmError(f"the build of {project} wrote no index.html")
        if out_dir.exists():
            shutil.rmtree(out_dir)
        staging.rename(out_dir)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _run_npm(args: list[str], cwd: Path, log: IO[str], timeout: float) -> None:
    NPM_CACHE.mkdir(parents=True, exist_ok=True)
    cmd = [npm_executable(), *args]
    if args[0] in ("ci", "install"):
        cmd += ["--no-audit", "--no-fund", "--prefer-offline"]
    log.write(f"$ {' '.join(cmd)}  (in {cwd})\n")
    log.flush()
    try:
        proc = subprocess.run(cmd, cwd=cwd, env=npm_env(), stdout=log, stderr=subprocess.STDOUT, timeout=timeout,
                              start_new_session=True)
    except subprocess.TimeoutExpired:
        raise NpmError(f"npm {args[0]} did not finish within {timeout:.0f} s") from None
    if proc.returncode != 0:
        raise NpmError(f"npm {' '.join(args[:2])} failed with exit code {proc.returncode}")
