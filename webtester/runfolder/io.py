"""Atomic writes and strict reads of run-folder files.

Writes go to a uniquely named temporary file in the target's folder, then are
renamed into place, so a reader never sees half a file and concurrent writers
never share a temporary file. Reads raise :class:`RunFolderError` naming the
file (and the line of a JSONL file) on bad data.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from webtester.datasets.jsonl import json_lines
from webtester.redact import redact, redact_data
from webtester.runfolder.errors import RunFolderError
from webtester.runfolder.layout import QUARANTINE_SUFFIX
from webtester.textfile import read_user_text

ModelT = TypeVar("ModelT", bound=BaseModel)


def now_iso() -> str:
    """The current UTC time, ISO 8601 to the second."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def write_text(path: Path, text: str) -> None:
    """Write ``text``, redacted (:func:`webtester.redact.redact`), to ``path`` atomically (unique temporary file in
    the same folder, then rename)."""
    text = redact(text)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` as indented JSON, redacted and atomically."""
    write_text(path, json.dumps(redact_data(data), indent=2, ensure_ascii=False, default=str) + "\n")


def read_json(path: Path) -> Any:
    """The JSON document in ``path``; :class:`RunFolderError` naming the file, line and column when it is not JSON."""
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RunFolderError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg} (column {exc.colno})") from None


def describe(exc: ValidationError) -> str:
    """The first problem of a validation error, with where it is."""
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "(top level)"
    return f"{err['msg']} at {where}"


def validate(model: type[ModelT], data: Any, where: str, what: str) -> ModelT:
    """``model`` validated from ``data``; :class:`RunFolderError` starting with ``where`` when it is not ``what``."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise RunFolderError(f"{where}: not a valid {what}: {describe(exc)}") from None


def read_model(path: Path, model: type[ModelT], what: str) -> ModelT:
    """A JSON file validated as ``model`` (strict: bad JSON or bad fields raise :class:`RunFolderError`)."""
    return validate(model, read_json(path), str(path), what)


def read_json_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) of every non-blank line of a JSONL file; a bad line raises :class:`RunFolderError`."""
    try:
        yield from json_lines(Path(path), RunFolderError)
    except (OSError, UnicodeDecodeError) as exc:
        raise RunFolderError(f"{path}: cannot be read: {exc}") from exc


def read_model_lines(path: Path, model: type[ModelT], what: str) -> list[ModelT]:
    """Every line of a JSONL file validated as ``model``; a bad line raises :class:`RunFolderError` naming ``path:line``."""
    return [validate(model, row, f"{path}:{lineno}", what) for lineno, row in read_json_lines(path)]


def quarantine(path: Path) -> Path:
    """Move an unreadable file aside to ``<name>.corrupt-<UTC time>`` (never deleted); returns where it went."""
    path = Path(path)
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}{QUARANTINE_SUFFIX}{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}{QUARANTINE_SUFFIX}{stamp}-{n}")
    os.replace(path, target)
    return target


def read_text(path: Path) -> str:
    """The text of ``path`` (UTF-8); :class:`RunFolderError` starting with the file (and line) when it cannot be read."""
    return read_user_text(path, RunFolderError)
