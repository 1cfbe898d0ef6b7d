"""The workflow's checkpoints, with every secret redacted before it is written (:mod:`webtester.redact`)."""

from __future__ import annotations

import sqlite3
from typing import Any

from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite import SqliteSaver

from webtester.redact import redact_data


class RedactingSerializer(JsonPlusSerializer):
    """LangGraph's serializer, applied to a redacted copy of what it serializes (checkpoints and pending writes:
    every string of the state, whatever node put it there)."""

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        return super().dumps_typed(redact_data(obj))


def sqlite_checkpointer(conn: sqlite3.Connection) -> SqliteSaver:
    """A SQLite checkpointer on ``conn`` that never writes a registered secret."""
    return SqliteSaver(conn, serde=RedactingSerializer())
