"""npm projects: install dependencies with a shared cache and build the dev-server command."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

NPM_CACHE = Path(os.environ.get("WEBTESTER_NPM_CACHE", Path.home() / ".cache" / "webtester" / "npm"))
_LOCK_FILES = ("package-lock.json", "npm-shrinkwrap.json")
_INSTALL_MARKER = Path("node_modules") / ".package-lock.json"  # written by npm at the end of every install


class NpmError(RuntimeError):
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
