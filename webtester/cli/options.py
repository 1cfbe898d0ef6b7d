"""Options several subcommands share."""

from __future__ import annotations

from enum import Enum
from typing import Any, Optional

import typer


class Trace(str, Enum):
    """When Playwright traces of the items are kept (``Settings.trace``)."""

    on = "on"
    off = "off"
    retain_on_failure = "retain-on-failure"


#: ``--trace on|off|retain-on-failure`` (default: settings / ``WEBTESTER_TRACE``).
TRACE_OPTION: Any = typer.Option(
    None, "--trace", case_sensitive=False,
    help="Playwright traces of the items: on, off, or retain-on-failure (kept only for items that fail or end in "
    "error). Default: settings / WEBTESTER_TRACE.",
)

#: ``--json``: one JSON summary on stdout (:mod:`webtester.cli.summary`); everything else on stderr.
JSON_OPTION: Any = typer.Option(
    False, "--json", help="Print one JSON summary on stdout (run folder, statuses, reports, scores); progress and "
    "tables go to stderr.",
)


def trace_value(trace: Optional[Trace]) -> str | None:
    """The settings override of ``--trace`` (None: not given)."""
    return trace.value if trace is not None else None
