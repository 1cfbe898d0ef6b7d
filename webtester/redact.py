"""Secrets never written: one process-wide registry of secret strings and the redaction every sink applies.

A run registers its secrets once it is set up (:func:`register_settings`: the
API keys, the judge's key, the credentials inside a base URL); every sink that
writes or shows text (run-folder files, the model exchange record, the
checkpoints, log records, the terminal: :func:`redacting_console`) passes it through :func:`redact`,
which replaces each registered secret with ``***`` and the user-info of any
URL (``scheme://user:pass@host``) with ``scheme://***@host``. Structured data
goes through :func:`redact_data`, which redacts every string it holds.

Secrets shorter than :data:`MIN_SECRET_LENGTH` characters are not registered:
replacing a short common word everywhere would corrupt the artifacts (URL
credentials are removed by their shape whatever their length).
"""

from __future__ import annotations

import base64
import logging
import re
import threading
from functools import cache
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

if TYPE_CHECKING:
    from pydantic import SecretStr
    from rich.console import Console

    from webtester.settings import Settings

__all__ = ["MASK", "MIN_SECRET_LENGTH", "clear", "redact", "redact_data", "redact_url", "redacting_console",
           "register", "register_settings", "registered"]

MASK = "***"
MIN_SECRET_LENGTH = 8
#: Placeholder keys the project itself sends to local endpoints: not secrets.
_NOT_SECRETS = frozenset({"not-needed"})
_USERINFO = re.compile(r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.\-]*://)(?P<info>[^\s/?#@'\"<>]+)@")

_lock = threading.Lock()
_secrets: tuple[str, ...] = ()  # longest first, so a secret containing another is replaced whole
_pattern: re.Pattern[str] | None = None


def register(*secrets: str | SecretStr | None) -> None:
    """Add secrets to the registry (``SecretStr`` values are unwrapped; ``None``, placeholders and short strings
    are ignored)."""
    global _secrets, _pattern
    new = set()
    for secret in secrets:
        value = secret if secret is None or isinstance(secret, str) else secret.get_secret_value()
        if isinstance(value, str):
            value = value.strip()
            if len(value) >= MIN_SECRET_LENGTH and value not in _NOT_SECRETS:
                new.add(value)
    with _lock:
        if new <= set(_secrets):
            return
        _secrets = tuple(sorted(set(_secrets) | new, key=lambda s: (-len(s), s)))
        _pattern = re.compile("|".join(re.escape(s) for s in _secrets))
    _install_log_redaction()


def url_secrets(url: str | None) -> list[str]:
    """The credentials inside ``url``: password and user name (raw and percent-decoded), and the HTTP Basic
    token made of them (what a client sends, and a faulty endpoint may echo)."""
    if not url:
        return []
    try:
        parts = urlsplit(url)
        user, password = parts.username, parts.password
    except ValueError:
        return []
    found = [v for s in (password, user) if s for v in (s, unquote(s))]
    if user is not None and password is not None:
        found.append(base64.b64encode(f"{unquote(user)}:{unquote(password)}".encode()).decode())
    return found


def register_settings(settings: Settings) -> None:
    """Register every secret ``settings`` holds: the API keys and the credentials in the base URLs."""
    register(settings.api_key, settings.judge.api_key,
             *url_secrets(settings.base_url), *url_secrets(settings.judge.base_url))


def registered() -> tuple[str, ...]:
    """The registered secrets (for tests and diagnostics; never print them)."""
    return _secrets


def clear() -> None:
    """Empty the registry (tests)."""
    global _secrets, _pattern
    with _lock:
        _secrets, _pattern = (), None


def redact_url(url: str) -> str:
    """``url`` with its user-info replaced by ``***``."""
    return _USERINFO.sub(lambda m: f"{m['scheme']}{MASK}@", url)


def redact(text: str) -> str:
    """``text`` with every registered secret and every URL's user-info replaced by ``***``."""
    if not isinstance(text, str) or not text:
        return text
    pattern = _pattern
    if pattern is not None:
        text = pattern.sub(MASK, text)
    return redact_url(text) if "://" in text else text


def redact_data(value: Any) -> Any:
    """A copy of ``value`` (nested dicts, lists, tuples, sets) with every string in it redacted; other objects
    are returned as they are."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {redact_data(k): redact_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_data(v) for v in value]
    if isinstance(value, tuple):
        items = [redact_data(v) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    if isinstance(value, (set, frozenset)):
        return type(value)(redact_data(v) for v in value)
    return value


# -- log records ---------------------------------------------------------------------------------------------

_log_installed = False


def _install_log_redaction() -> None:
    """Make every log record created from now on carry redacted text (message, arguments and traceback), so no
    handler, whoever configured it, can write a secret."""
    global _log_installed
    with _lock:
        if _log_installed:
            return
        _log_installed = True
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not fit its format: the handler reports it as usual
            return record
        record.msg, record.args = redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return record

    logging.setLogRecordFactory(factory)


# -- the terminal --------------------------------------------------------------------------------------------


@cache
def _console_class() -> type[Console]:
    from rich.console import Console

    class RedactingConsole(Console):
        """A rich console that redacts every string before it is laid out (so no wrapping can split a secret)
        and the rendered output once more before it is written."""

        def render_str(self, text: str, **kwargs: Any) -> Any:
            return super().render_str(redact(text), **kwargs)

        def _render_buffer(self, buffer: Any) -> str:
            return redact(super()._render_buffer(buffer))

    return RedactingConsole


def redacting_console(**kwargs: Any) -> Console:
    """A ``rich.console.Console`` (same arguments) whose output is redacted."""
    return _console_class()(**kwargs)
