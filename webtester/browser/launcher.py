"""Start the app under test and tear it down reliably.

Three kinds of target:

* a static folder, served on a free 127.0.0.1 port (:class:`StaticApp`);
* an npm project (a folder with ``package.json``, e.g. a Vite + React app):
  dependencies installed with a shared npm cache (skipped when node_modules is
  current), then its dev server started on a forced free port in its own
  process group, its output captured to a log (:class:`NpmApp`);
* an existing URL (:class:`UrlApp`).

Readiness has a timeout; a server that exits or never answers raises
:class:`AppStartError` quoting the tail of its log. Stopping kills the whole
process group; an ``atexit`` hook does the same for anything left running when
the interpreter exits (exceptions, Ctrl-C).
"""

from __future__ import annotations

import atexit
import os
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from pathlib import Path
from urllib.parse import urlsplit

from webtester.browser import npm
from webtester.browser.static_server import StaticServer
from webtester.models import AppSpec

PROJECT_APPS_ROOT = Path(__file__).resolve().parents[2] / "apps"
_PORT_IN_USE = ("already in use", "EADDRINUSE", "is in use")


class AppStartError(RuntimeError):
    """The app could not be started; the message quotes the tail of its log."""


class RunningApp:
    """A started app: ``.url`` (base URL, trailing slash), ``.stop()``, ``.log_tail()``; a context manager."""

    url: str
    kind: str = ""

    def stop(self) -> None:
        """Stop the app and release its resources (idempotent)."""

    def log_tail(self, n: int = 40) -> str:
        """The last ``n`` lines of the app's log ('' when it has none)."""
        return ""

    def __enter__(self) -> "RunningApp":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.url}>"


class UrlApp(RunningApp):
    """An app that is already running somewhere; nothing to start or stop."""

    kind = "url"

    def __init__(self, url: str) -> None:
        self.url = normalize_base_url(url)


class StaticApp(RunningApp):
    """A static folder served on a free localhost port."""

    kind = "static"

    def __init__(self, folder: Path, overrides: dict[str, bytes] | None = None) -> None:
        self.folder = Path(folder).resolve()
        self._server: StaticServer | None = StaticServer(self.folder, overrides=overrides)
        self.url = self._server.url

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None


class NpmApp(RunningApp):
    """An npm project's dev server, running in its own process group."""

    kind = "npm"

    def __init__(self, project: Path, port: int, log_path: Path, proc: subprocess.Popen, log_file=None) -> None:
        self.project = project
        self.port = port
        self.log_path = log_path
        self.url = f"http://127.0.0.1:{port}/"
        self._proc = proc
        self._log_file = log_file  # closed by stop() when given
        self._lock = threading.Lock()
        _LIVE.add(self)

    @property
    def pid(self) -> int:
        return self._proc.pid

    def alive(self) -> bool:
        """True while the dev server's main process runs."""
        return self._proc.poll() is None

    def stop(self, grace: float = 5.0) -> None:
        """Terminate the process group (SIGTERM, then SIGKILL after ``grace`` seconds)."""
        with self._lock:
            if self._proc is None:
                return
            _kill_group(self._proc, grace)
            self._proc = None  # type: ignore[assignment]
            if self._log_file is not None:
                self._log_file.close()
            _LIVE.discard(self)

    def log_tail(self, n: int = 40) -> str:
        return tail(self.log_path, n)


# ----------------------------------------------------------------------------- helpers


def tail(path: Path, n: int = 40) -> str:
    """Last ``n`` lines of a text file ('' when missing)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return "".join(deque(fh, maxlen=n)).rstrip()
    except FileNotFoundError:
        return ""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def normalize_base_url(url: str) -> str:
    """``url`` with a trailing slash when it has no path; rejects anything but http(s)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise AppStartError(f"not an http(s) URL: {url!r}")
    return url if parts.path else url + "/"


def answers(url: str, timeout: float = 2.0) -> bool:
    """True when an HTTP server answers ``url`` (any status code counts)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout):
            return True
    except urllib.error.HTTPError:
        return True
    except (OSError, ValueError):
        return False


def _kill_group(proc: subprocess.Popen, grace: float) -> None:
    try:
        pgid = os.getpgid(proc.pid)
    except ProcessLookupError:
        pgid = proc.pid  # leader gone; its group may still hold children
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue
        if sig is signal.SIGTERM:
            # the leader exited; make sure no member of the group outlives it
            try:
                os.killpg(pgid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            break


_LIVE: set[NpmApp] = set()


@atexit.register
def _stop_leftovers() -> None:
    for app in list(_LIVE):
        app.stop(grace=2.0)


# ----------------------------------------------------------------------------- starting


def _start_npm(project: Path, timeout: float, log_path: Path | None, install_timeout: float) -> NpmApp:
    npm.read_package_json(project)  # clear error for a malformed project before anything runs
    if log_path is None:
        fd, name = tempfile.mkstemp(prefix=f"webtester-{project.name}-", suffix=".log")
        os.close(fd)
        log_path = Path(name)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log_file = open(log_path, "a", encoding="utf-8", errors="replace")
    try:
        npm.install(project, log_file, timeout=install_timeout)
    except npm.NpmError as exc:
        log_file.close()
        raise AppStartError(f"{project}: {exc}\n--- log tail ({log_path}) ---\n{tail(log_path)}") from None
    last_error = ""
    try:
        for _attempt in range(3):
            port = free_port()
            cmd = npm.dev_command(project, port)
            log_file.write(f"$ {' '.join(cmd)}\n")
            log_file.flush()
            proc = subprocess.Popen(
                cmd, cwd=project, env=npm.npm_env(port), stdin=subprocess.DEVNULL, stdout=log_file,
                stderr=subprocess.STDOUT, start_new_session=True,
            )
            app = NpmApp(project, port, log_path, proc)
            try:
                _wait_ready(app, timeout)
            except BaseException as exc:
                app.stop(grace=2.0)
                if not isinstance(exc, AppStartError):
                    raise
                last_error = str(exc)
                if any(marker in app.log_tail(15) for marker in _PORT_IN_USE):
                    continue  # another process took the port in the meantime: try a new one
                break
            app._log_file, log_file = log_file, None  # the running app owns the log from now on
            return app
    finally:
        if log_file is not None:
            log_file.close()
    raise AppStartError(last_error)


def _wait_ready(app: NpmApp, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not app.alive():
            raise AppStartError(
                f"dev server of {app.project} exited with code {app._proc.returncode} before answering "
                f"on {app.url}\n--- log tail ({app.log_path}) ---\n{app.log_tail()}"
            )
        if answers(app.url, timeout=1.0):
            return
        time.sleep(0.2)
    raise AppStartError(
        f"dev server of {app.project} did not answer on {app.url} within {timeout:.0f} s"
        f"\n--- log tail ({app.log_path}) ---\n{app.log_tail()}"
    )


def start_app(
    target: AppSpec | str | Path,
    *,
    apps_root: Path | None = None,
    overrides: dict[str, bytes] | None = None,
    timeout: float = 120,
    log_path: Path | None = None,
    install_timeout: float = 900,
) -> RunningApp:
    """Start the app under test and return it once it answers.

    ``target`` is an :class:`~webtester.models.AppSpec` (folders relative to
    ``apps_root``, default the project's ``apps/``), or a string / path: an
    ``http(s)://`` URL, a static folder, or an npm project folder (one with
    ``package.json``). ``overrides`` replaces files of a static app in memory.
    ``timeout`` bounds the wait for the server to answer; ``install_timeout``
    bounds ``npm install``. Raises :class:`AppStartError`.
    """
    if isinstance(target, AppSpec):
        if target.kind == "url":
            if not target.url:
                raise AppStartError("app spec of kind 'url' has no url")
            return _start_url(target.url, timeout)
        if not target.path:
            raise AppStartError(f"app spec of kind {target.kind!r} has no path")
        folder = Path(apps_root or PROJECT_APPS_ROOT) / target.path
        if not folder.is_dir():
            raise AppStartError(f"app folder not found: {folder}")
        if target.kind == "npm":
            return _start_npm(folder.resolve(), timeout, log_path, install_timeout)
        return StaticApp(folder, overrides)
    text = str(target)
    if text.startswith(("http://", "https://")):
        return _start_url(text, timeout)
    folder = Path(text).expanduser()
    if not folder.is_dir():
        raise AppStartError(f"not a URL and not a folder: {text!r}")
    if (folder / "package.json").exists():
        return _start_npm(folder.resolve(), timeout, log_path, install_timeout)
    return StaticApp(folder, overrides)


def _start_url(url: str, timeout: float) -> UrlApp:
    app = UrlApp(url)
    deadline = time.monotonic() + min(timeout, 30)
    while not answers(app.url, timeout=2.0):
        if time.monotonic() > deadline:
            raise AppStartError(f"nothing answers on {app.url}")
        time.sleep(0.3)
    return app
