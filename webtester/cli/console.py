"""The consoles the subcommands print on: redacted (:mod:`webtester.redact`), and as wide as their content when
the stream is not a terminal.

Piped to a file or ``cat``, rich would lay everything out in 80 columns and cut table cells (``community_for…``);
a console on a pipe or file gets :data:`PIPE_WIDTH` columns instead, so tables keep their natural width and no cell
is shortened. ``COLUMNS`` set in the environment still decides the width, as it does for rich.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

#: Columns of a console whose stream is not a terminal: wider than any table the command prints.
PIPE_WIDTH = 1000


def _width(stderr: bool) -> int | None:
    stream = sys.stderr if stderr else sys.stdout
    isatty = getattr(stream, "isatty", None)
    if (isatty is not None and isatty()) or os.environ.get("COLUMNS", "").strip().isdigit():
        return None  # rich asks the terminal (or COLUMNS)
    return PIPE_WIDTH


def console(*, stderr: bool = False) -> Console:
    """A redacting console on stdout (``stderr``: on stderr), full width when the stream is not a terminal."""
    from webtester.redact import redacting_console

    return redacting_console(stderr=stderr, width=_width(stderr))
