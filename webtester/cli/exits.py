"""Exit codes of the ``webtester`` command and how its errors reach the user.

Like pytest and ruff, for CI:

* ``0``: the command did its job; ``test``: no item failed and at least one passed; ``bench`` and ``demo``:
  every instance ran (Fails found in the apps are measurements, not errors of the command);
* ``1``: ``test``: a Fail was found, nothing could be checked (every verdict is an error) or the instance failed
  (the app did not start, no checklist); ``bench`` / ``demo``: an instance failed or ran out of time; any
  other command: a step that could not be done;
* ``2``: usage or input errors: a bad flag, a dataset, config or instruction file that cannot be used, a
  missing app, a run folder another process holds. Nothing is run then;
* ``130``: interrupted (Ctrl-C).

``--exit-zero`` turns the ``1`` of ``test`` and ``bench`` into ``0``; usage and input errors stay ``2``.
Errors go to stderr as one line ``error: ...``; the traceback is shown only with ``webtester --debug`` or
``WEBTESTER_DEBUG=1``.
"""

from __future__ import annotations

import os
import sys
import traceback
from typing import TYPE_CHECKING

import typer

from webtester.errors import InputError, WebtesterError

if TYPE_CHECKING:
    from rich.console import Console

    from webtester.eval.bench import BenchReport
    from webtester.models import InstanceResult

OK, FOUND, USAGE, INTERRUPTED = 0, 1, 2, 130
DEBUG_VAR = "WEBTESTER_DEBUG"

#: The exit codes as the subcommands' ``--help`` tells them.
TEST_CODES = ("Exit codes: 0 no item failed and at least one passed; 1 a Fail was found, every verdict is an error "
              "(nothing could be checked) or the instance failed; 2 usage or input errors (nothing is run); "
              "130 interrupted. --exit-zero turns 1 into 0.")
BENCH_CODES = ("Exit codes: 0 every instance ran (the Fails found are the measurement; instances whose app is absent "
               "are listed); 1 an instance failed or ran out of time; 2 usage or input errors (a bad flag, dataset, "
               "config or --apps, a run folder held by another process): nothing is run; 130 interrupted (rerun "
               "with the same --out to resume).")


def stderr_console() -> Console:
    """The console errors and warnings are printed on (redacted: :mod:`webtester.redact`)."""
    from webtester.cli.console import console

    return console(stderr=True)


def print_error(message: object, label: str = "error") -> None:
    """Print ``<label>: <message>`` on stderr (the message verbatim: brackets in it are not markup)."""
    from rich.text import Text

    stderr_console().print(Text.assemble((f"{label}:", "red"), " ", str(message)), soft_wrap=True, highlight=False)


def input_error(exc: BaseException | str) -> typer.Exit:
    """Print ``error: <exc>`` on stderr and return the exit (code 2) to raise."""
    print_error(exc)
    return typer.Exit(USAGE)


def error_exit(exc: Exception) -> typer.Exit:
    """Print ``error: <exc>`` on stderr and return the exit to raise: 2 for bad input (``ValueError``, of which
    :class:`~webtester.errors.InputError` is one), else 1 (a step that could not be done)."""
    print_error(exc)
    return typer.Exit(USAGE if isinstance(exc, ValueError) else FOUND)


def test_exit_code(result: InstanceResult, exit_zero: bool = False) -> int:
    """``webtester test``'s exit code for ``result`` (see the module docstring)."""
    statuses = {v.status.value for v in result.verdicts}
    found = result.status != "ok" or "fail" in statuses or "pass" not in statuses
    return FOUND if found and not exit_zero else OK


def bench_exit_code(report: BenchReport, exit_zero: bool = False) -> int:
    """``webtester bench``'s (and ``demo``'s) exit code for ``report``: 1 when an instance failed."""
    return FOUND if report.failed and not exit_zero else OK


def debug_enabled() -> bool:
    """Whether tracebacks are shown (``webtester --debug`` or ``WEBTESTER_DEBUG=1``)."""
    return os.environ.get(DEBUG_VAR, "").strip().lower() not in ("", "0", "false", "no")


def unexpected(exc: Exception) -> int:
    """Report an exception no command handled, in one line on stderr (the traceback too when debugging);
    the exit code: 2 for input errors, else 1."""
    if debug_enabled():
        from webtester.redact import redact

        sys.stderr.write(redact("".join(traceback.format_exception(exc))))
    if isinstance(exc, WebtesterError):
        message = str(exc)
    else:
        message = f"unexpected {type(exc).__name__}: {exc}"
        if not debug_enabled():
            message += f" (run with --debug or {DEBUG_VAR}=1 for the traceback)"
    print_error(message)
    return USAGE if isinstance(exc, InputError) else FOUND
