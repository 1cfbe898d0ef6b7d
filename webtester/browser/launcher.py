"""Start the app under test and tear it down reliably.

Three kinds of target:

* a static folder, served on a free 127.0.0.1 port (:class:`StaticApp`);
* an npm project (a folder with ``package.json``, e.g. a Vite + React app):
  dependencies installed (``deps``: linked from the shared store of
  :mod:`webtester.browser.npm` when the project has a lock file and no own
  install, else ``npm install`` in place), then served one of two ways
  (``serve``):

  - ``dev`` (default): its dev server on a forced free port in its own process
    group, output captured to a log (:class:`NpmApp`). Faithful to how the app
    was built and previewed: React's development build with its dev-only
    console warnings (keys, prop types, act()), Vite's error overlay.
  - ``build``: a production build (``npm run build``), cached per app source
    and dependency set under ``<cache>/builds/``, served by the static server
    with single-page-app fallback (:class:`StaticApp`). Boots in milliseconds
    once built and uses no Node process, but React's dev-only warnings are
    absent and minified code changes error messages.
* an existing URL (:class:`UrlApp`).

Readiness has a timeout; a server that exits or never answers raises
:class:`AppStartError` quoting the tail of its log. Stopping kills the whole
process group; an ``atexit`` hook does the same for anything left running when
the interpreter exits (exceptions, Ctrl-C).

Health: :meth:`RunningApp.ensure_healthy` checks that the app still answers,
restarts it once when it does not, and raises :class:`AppDownError` with the
reason and the log tail when it stays down. Call it before each test item.
"""

from __future__ import annotations

import atexit
import hashlib
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
from typing import IO
from urllib.parse import urlsplit

from webtester.apps_source import app_project
from webtester.browser import npm
from webtester.browser.static_server import StaticServer
from webtester.cache import cache_root
from webtester.data_root import data_path
from webtester.errors import StepError
from webtester.models import AppSpec

SERVE_MODES = ("dev", "build")
DEPS_MODES = ("auto", "shared", "local")
_PORT_IN_USE = ("already in use", "EADDRINUSE", "is in use")
_SOURCE_SKIP = {"node_modules", "dist", ".git"}


class AppStartError(StepError):
    """The app could not be started; the message quotes the tail of its log."""


class AppDownError(AppStartError):
    """The app stopped answering during a run and a restart did not bring it back.

    ``reason`` says what was wrong (exited with code N / stopped answering), ``log_tail`` holds the end of
    its log; ``str()`` gives both.
    """

    def __init__(self, reason: str, log_tail: str = "") -> None:
        self.reason = reason
        self.log_tail = log_tail
        super().__init__(reason + (f"\n--- log tail ---\n{log_tail}" if log_tail else ""))


class RunningApp:
    """A started app: ``.url`` (base URL, trailing slash), ``.stop()``, ``.log_tail()``,
    ``.check()`` / ``.ensure_healthy()``; a context manager."""

    url: str
    kind: str = ""
    restarts: int = 0

    def stop(self) -> None:
        """Stop the app and release its resources (idempotent)."""

    def log_tail(self, n: int = 40) -> str:
        """The last ``n`` lines of the app's log ('' when it has none)."""
        return ""

    def check(self, timeout: float = 5.0) -> str | None:
        """None while the app answers HTTP on its URL, else the reason it does not (no restart)."""
        return None if answers(self.url, timeout=timeout) else f"nothing answers on {self.url}"

    def restart(self) -> None:
        """Start the app again after it went down; raises :class:`AppStartError` when it cannot."""
        raise AppStartError(f"{self.kind or 'this'} app cannot be restarted by the tester")

    def ensure_healthy(self, max_restarts: int = 1) -> str:
        """Make sure the app answers and return its base URL (which may change after a restart).

        Use it before each test item (cheap: one HTTP request while the app is
        up). When :meth:`check` finds the app down (its server exited or stopped
        answering), it is restarted once (``max_restarts`` over the app's whole
        life) and checked again. When it stays down, :class:`AppDownError` is
        raised with the reason and the log tail: fail the instance with
        ``str(exc)`` instead of running the remaining items against nothing.
        """
        reason = self.check()
        if reason is None:
            return self.url
        if self.restarts < max_restarts:
            self.restarts += 1
            try:
                self.restart()
            except AppStartError as exc:
                raise AppDownError(f"{reason}; the restart failed: {str(exc).splitlines()[0]}", self.log_tail()) from None
            again = self.check()
            if again is None:
                return self.url
            reason = f"{reason}; after a restart: {again}"
        raise AppDownError(reason, self.log_tail())

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
    """A static folder served on a free localhost port (``spa``: unknown paths get ``index.html``)."""

    kind = "static"

    def __init__(self, folder: Path, overrides: dict[str, bytes] | None = None, *, spa: bool = False,
                 kind: str = "static", log_path: Path | None = None) -> None:
        self.folder = Path(folder).resolve()
        self.kind = kind
        self.log_path = log_path
        self._overrides = overrides
        self._spa = spa
        self._server: StaticServer | None = StaticServer(self.folder, overrides=overrides, spa_fallback=spa)
        self.url = self._server.url

    def check(self, timeout: float = 5.0) -> str | None:
        if self._server is None:
            return "the static server was stopped"
        return super().check(timeout)

    def restart(self) -> None:
        port = self._server.port if self._server is not None else 0
        self.stop()
        try:
            self._server = StaticServer(self.folder, overrides=self._overrides, spa_fallback=self._spa, port=port)
        except OSError:
            self._server = StaticServer(self.folder, overrides=self._overrides, spa_fallback=self._spa)
        self.url = self._server.url

    def log_tail(self, n: int = 40) -> str:
        return tail(self.log_path, n) if self.log_path else ""

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None


class NpmApp(RunningApp):
    """An npm project's dev server, running in its own process group."""

    kind = "npm"

    def __init__(self, project: Path, port: int, log_path: Path, proc: subprocess.Popen, log_file=None,
                 ready_timeout: float = 120, temporary_log: bool = False) -> None:
        self.project = project
        self.temporary_log = temporary_log  # a log file no caller asked for: removed when the app stops
        self.ready_timeout = ready_timeout
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
        return self._proc is not None and self._proc.poll() is None

    def check(self, timeout: float = 5.0) -> str | None:
        if self._proc is None:
            return "the dev server was stopped"
        code = self._proc.poll()
        if code is not None:
            return f"the dev server of {self.project.name} exited with code {code}"
        if not answers(self.url, timeout=timeout):
            return f"the dev server of {self.project.name} stopped answering on {self.url}"
        return None

    def restart(self) -> None:
        """Stop what is left of the dev server and start it again (same port when free), waiting until it
        answers; raises :class:`AppStartError`."""
        with self._lock:
            if self._proc is not None:
                _kill_group(self._proc, 2.0)
        log_file = self._log_file or open(self.log_path, "a", encoding="utf-8", errors="replace")
        self._log_file = log_file
        log_file.write(f"--- restarting the dev server (restart {self.restarts}) ---\n")
        last = ""
        for port in (self.port, free_port(), free_port()):
            self._proc = _spawn_dev(self.project, port, log_file)
            self.port, self.url = port, f"http://127.0.0.1:{port}/"
            _LIVE.add(self)
            try:
                _wait_ready(self, self.ready_timeout)
                return
            except AppStartError as exc:
                last = str(exc)
                _kill_group(self._proc, 2.0)
                if not any(marker in self.log_tail(15) for marker in _PORT_IN_USE):
                    break
        raise AppStartError(last)

    def stop(self, grace: float = 5.0) -> None:
        """Terminate the process group (SIGTERM, then SIGKILL after ``grace`` seconds)."""
        with self._lock:
            if self._proc is None:
                return
            _kill_group(self._proc, grace)
            self._proc = None  # type: ignore[assignment]
            if self._log_file is not None:
                self._log_file.close()
            if self.temporary_log:
                self.log_path.unlink(missing_ok=True)
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


def _spawn_dev(project: Path, port: int, log_file) -> subprocess.Popen:
    cmd = npm.dev_command(project, port)
    log_file.write(f"$ {' '.join(cmd)}\n")
    log_file.flush()
    return subprocess.Popen(
        cmd, cwd=project, env=npm.npm_env(port), stdin=subprocess.DEVNULL, stdout=log_file,
        stderr=subprocess.STDOUT, start_new_session=True,
    )


def _open_log(project: Path, log_path: Path | None) -> tuple[Path, IO[str]]:
    """The log file to write to: ``log_path``, or a new temporary file when it is None."""
    if log_path is None:
        fd, name = tempfile.mkstemp(prefix=f"webtester-{project.name}-", suffix=".log")
        os.close(fd)
        log_path = Path(name)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    return log_path, open(log_path, "a", encoding="utf-8", errors="replace")


def install_dependencies(project: Path, log_file, deps: str = "auto", timeout: float = 900) -> bool:
    """Install ``project``'s dependencies; True when an install ran. Raises :class:`npm.NpmError`.

    ``deps``: ``shared`` links the shared store (needs a lock file); ``local`` runs ``npm install`` in the
    project; ``auto`` keeps an own install the project already has and otherwise shares when it can.
    """
    if deps not in DEPS_MODES:
        raise AppStartError(f"unknown deps mode {deps!r} (choose from {', '.join(DEPS_MODES)})")
    own_install = (project / "node_modules").is_dir() and npm.linked_key(project) is None
    if deps == "local" or (deps == "auto" and (own_install or npm.lock_file(project) is None)):
        return npm.install(project, log_file, timeout=timeout)
    return npm.install_shared(project, log_file, timeout=timeout)


def _start_npm(project: Path, timeout: float, log_path: Path | None, install_timeout: float,
               serve: str = "dev", deps: str = "auto") -> RunningApp:
    npm.read_package_json(project)  # clear error for a malformed project before anything runs
    if serve not in SERVE_MODES:
        raise AppStartError(f"unknown serve mode {serve!r} (choose from {', '.join(SERVE_MODES)})")
    temporary = log_path is None  # removed once the app stopped (kept when it could not start: errors name it)
    log_path, opened = _open_log(project, log_path)
    log_file: IO[str] | None = opened
    try:
        install_dependencies(project, opened, deps, install_timeout)
        if serve == "build":
            out = build_folder(project)
            if not (out / "index.html").is_file():
                npm.build(project, out, opened, timeout=install_timeout)
            opened.close()
            if temporary:
                log_path.unlink(missing_ok=True)
            return StaticApp(out, spa=True, kind="build", log_path=None if temporary else log_path)
    except npm.NpmError as exc:
        opened.close()
        raise AppStartError(f"{project}: {exc}\n--- log tail ({log_path}) ---\n{tail(log_path)}") from None
    last_error = ""
    try:
        for _attempt in range(3):
            port = free_port()
            app = NpmApp(project, port, log_path, _spawn_dev(project, port, opened), ready_timeout=timeout,
                         temporary_log=temporary)
            try:
                _wait_ready(app, timeout)
            except BaseException as exc:
                app.temporary_log = False  # a start that failed keeps its log: the error names it
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


def source_fingerprint(project: Path) -> str:
    """Hash of the project's files (names, sizes, contents; node_modules, dist and .git left out)."""
    digest = hashlib.sha256()
    for root, dirs, files in os.walk(project):
        dirs[:] = sorted(d for d in dirs if d not in _SOURCE_SKIP)
        for name in sorted(files):
            path = Path(root) / name
            if name.startswith("vite.config.") and ".timestamp-" in name:
                continue  # Vite's temporary bundled config
            digest.update(str(path.relative_to(project)).encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:20]


def build_folder(project: Path) -> Path:
    """Where the production build of ``project`` is cached: ``<cache>/builds/<name>-<source hash>``."""
    return cache_root() / "builds" / f"{project.name}-{source_fingerprint(project)}"


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
    serve: str = "dev",
    deps: str = "auto",
) -> RunningApp:
    """Start the app under test and return it once it answers.

    ``target`` is an :class:`~webtester.models.AppSpec` (folders relative to
    ``apps_root``, default the bundled ``apps/`` of :mod:`webtester.data_root`), or a string / path: an
    ``http(s)://`` URL, a static folder, or an npm project folder (one with
    ``package.json``). ``overrides`` replaces files of a static app in memory.
    ``timeout`` bounds the wait for the server to answer; ``install_timeout``
    bounds ``npm install`` (and a build). For npm projects, ``serve`` is ``dev``
    or ``build`` and ``deps`` is ``auto``, ``shared`` or ``local`` (see the
    module docstring). Raises :class:`AppStartError`.
    """
    if isinstance(target, AppSpec):
        if target.kind == "url":
            if not target.url:
                raise AppStartError("app spec of kind 'url' has no url")
            return _start_url(target.url, timeout)
        if not target.path:
            raise AppStartError(f"app spec of kind {target.kind!r} has no path")
        folder = Path(apps_root or data_path("apps")) / target.path
        if not folder.is_dir():
            raise AppStartError(f"app folder not found: {folder}")
        if target.kind == "npm":
            return _start_npm(folder.resolve(), timeout, log_path, install_timeout, serve, deps)
        return StaticApp(folder, overrides)
    text = str(target)
    if text.startswith(("http://", "https://")):
        return _start_url(text, timeout)
    folder = Path(text).expanduser()
    if not folder.is_dir():
        raise AppStartError(f"not a URL and not a folder: {text!r}")
    if (folder / "package.json").exists():
        return _start_npm(folder.resolve(), timeout, log_path, install_timeout, serve, deps)
    return StaticApp(folder, overrides)


def start_dataset_app(index: str | int, apps: str | Path, **options) -> RunningApp:
    """Start instance ``index``'s app from an apps location (see :mod:`webtester.apps_source`).

    The project is unpacked into the cache first; ``options`` go to :func:`start_app`
    (``serve``, ``deps``, ``timeout``, ``log_path``...). Raises
    :class:`~webtester.apps_source.AppAbsentError` when the location holds no app
    for ``index`` (report "app absent", not a tester failure), else
    :class:`AppStartError`.
    """
    return start_app(app_project(index, apps), **options)


def _start_url(url: str, timeout: float) -> UrlApp:
    app = UrlApp(url)
    deadline = time.monotonic() + min(timeout, 30)
    while not answers(app.url, timeout=2.0):
        if time.monotonic() > deadline:
            raise AppStartError(f"nothing answers on {app.url}")
        time.sleep(0.3)
    return app
