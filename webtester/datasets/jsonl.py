"""WebTestBench JSONL: one instance per line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from pydantic import ValidationError

from webtester.errors import InputError
from webtester.models import Instance
from webtester.textfile import read_user_text


class DatasetError(InputError):
    """A dataset file that cannot be read; the message names the file and line."""


def json_lines(path: Path, error: type[Exception] = ValueError) -> Iterator[tuple[int, dict]]:
    """(line number, object) for every non-blank line of a JSONL file.

    A file that cannot be read (missing, a folder, not UTF-8), a line that is
    not valid JSON, or not a JSON object, raises ``error`` with a message that
    starts with ``path`` (and ``:line``).
    """
    text = read_user_text(path, error, "JSONL file")
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise error(f"{path}:{lineno}: invalid JSON: {exc.msg} (column {exc.colno})") from None
        if not isinstance(row, dict):
            raise error(f"{path}:{lineno}: expected a JSON object, got {type(row).__name__}")
        yield lineno, row


def load_dataset(path: str | Path) -> list[Instance]:
    """Load a JSONL file, or every ``*.jsonl`` file of a folder in name order.

    Raises :class:`DatasetError` naming the file (and line) for anything unusable, including a file that holds
    no instance.
    """
    path = Path(path)
    if path.is_dir():
        files = sorted(path.glob("*.jsonl"))
        if not files:
            raise DatasetError(f"{path}: no *.jsonl files in this folder")
    elif path.exists():
        files = [path]
    else:
        raise DatasetError(f"{path}: no such file or folder")
    instances: list[Instance] = []
    seen: dict[str, str] = {}
    for file in files:
        count = len(instances)
        for lineno, record in json_lines(file, DatasetError):
            where = f"{file}:{lineno}"
            try:
                inst = Instance.model_validate(record)
            except ValidationError as exc:
                raise DatasetError(f"{where}: {_describe(exc)}") from exc
            if inst.index in seen:
                raise DatasetError(f"{where}: duplicate index {inst.index!r} (first at {seen[inst.index]})")
            seen[inst.index] = where
            instances.append(inst)
        if len(instances) == count:
            raise DatasetError(f"{file}: no instances (the file holds no JSON line)")
    return instances


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"])
        value = err.get("input")
        shown = repr(value) if not isinstance(value, (dict, list)) else type(value).__name__
        parts.append(f"field {loc!r}: {err['msg']} (got {shown})")
    return "; ".join(parts)


def instance_record(inst: Instance) -> dict:
    """The JSON record of an instance, with WebTestBench's field names and order."""
    return inst.model_dump(mode="json", by_alias=True, exclude_none=True)


def write_jsonl(instances: list[Instance], path: str | Path) -> None:
    """Write instances as JSONL (atomically: a temporary file renamed into place)."""
    path = Path(path)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for inst in instances:
            fh.write(json.dumps(instance_record(inst), ensure_ascii=False) + "\n")
    tmp.replace(path)
