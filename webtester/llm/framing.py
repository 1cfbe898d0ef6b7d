"""Untrusted data in prompts (page text, the app's instruction) between markers the data cannot forge.

A prompt frames data as ``<<<LABEL`` ... ``LABEL>>>`` (e.g. ``<<<PAGE`` ... ``PAGE>>>``).
Text put inside a frame goes through :func:`neutralize`, which turns every run of
three or more ``<`` or ``>`` into as many ``‹`` or ``›``: a page that writes
``PAGE>>>`` shows ``PAGE›››`` and cannot end the frame early or open a new one.
"""

from __future__ import annotations

import re

_MARKER_RUNS = re.compile(r"<{3,}|>{3,}")
_LOOKALIKE = {"<": "\u2039", ">": "\u203a"}


def neutralize(text: str) -> str:
    """``text`` with no frame marker left in it (runs of three or more ``<`` / ``>`` become ``‹`` / ``›``)."""
    return _MARKER_RUNS.sub(lambda m: _LOOKALIKE[m.group()[0]] * len(m.group()), text)


def frame(label: str, text: str) -> str:
    """``text`` between ``<<<LABEL`` and ``LABEL>>>``, neutralized so it cannot close the frame."""
    return f"<<<{label}\n{neutralize(text)}\n{label}>>>"
