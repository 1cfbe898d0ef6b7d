"""A static file server on a free localhost port, run in a background thread.

With ``spa_fallback`` it serves a single-page app's production build: a GET for
a path with no file behind it (a client-side route such as ``/products/3``) gets
``index.html``, as the app's own hosting would answer.
"""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class _Handler(SimpleHTTPRequestHandler):
    """Serves a folder, with some paths replaced by in-memory content."""

    overrides: dict[str, bytes] = {}
    spa_fallback: bool = False

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        return  # quiet: the tester records what matters itself

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        path = self.path.split("?", 1)[0].split("#", 1)[0].lstrip("/")
        if path in self.overrides:
            body = self.overrides[path]
            self.send_response(200)
            ctype = self.guess_type(path)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if self.spa_fallback and path and not Path(self.translate_path(self.path)).exists():
            if "." not in path.rsplit("/", 1)[-1] or "text/html" in (self.headers.get("Accept") or ""):
                self.path = "/index.html"
        super().do_GET()


class StaticServer:
    """Serve ``root`` on 127.0.0.1 at a free port until :meth:`stop` (or the ``with`` block ends).

    ``overrides`` maps a URL path (relative, e.g. ``"defects.js"``) to the bytes to
    serve instead of the file on disk. ``spa_fallback`` answers paths with no
    file behind them with ``index.html`` (client-side routes of a built app).
    """

    def __init__(
        self, root: str | Path, overrides: dict[str, bytes] | None = None, port: int = 0, *, spa_fallback: bool = False
    ) -> None:
        self.root = Path(root).resolve()
        if not self.root.is_dir():
            raise FileNotFoundError(f"static app folder not found: {self.root}")
        handler = type("Handler", (_Handler,), {"overrides": dict(overrides or {}), "spa_fallback": spa_fallback})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", port), functools.partial(handler, directory=str(self.root)))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="static-server", daemon=True)
        self._thread.start()

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def url(self) -> str:
        """Base URL with a trailing slash."""
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        """Stop serving and release the port."""
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> "StaticServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
