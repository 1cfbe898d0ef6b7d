"""The real-model lane's figures: what the tests measure, appended to one file, and the summary printed at the end.

The lane script sets ``WEBTESTER_LANE_FIGURES`` (a text file it starts with the build/install and server-start
lines) and ``WEBTESTER_LANE_SERVER_LOG`` (the server's log); the tests append their lines with :func:`record`,
and ``python tests/local_model/lane_figures.py`` prints the file and the generation speed from the log.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from webtester.llm.conversation import CHECKLIST_CHANNEL

_REQUEST = re.compile(r'"POST /v1/chat/completions HTTP/[\d.]+" (\d+)')
_EVAL = re.compile(r"^llama_perf_context_print:\s+eval time =\s+([\d.]+) ms /\s+(\d+) runs", re.M)
_PROMPT_EVAL = re.compile(r"^llama_perf_context_print:\s+prompt eval time =\s+([\d.]+) ms /\s+(\d+) tokens", re.M)


def record(line: str) -> None:
    """Append one line to the lane's figures file (nothing when the lane did not name one)."""
    path = os.environ.get("WEBTESTER_LANE_FIGURES")
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(line.rstrip("\n") + "\n")


def server_log() -> Path | None:
    """The server log the lane script names, if any."""
    path = os.environ.get("WEBTESTER_LANE_SERVER_LOG")
    return Path(path) if path else None


def server_requests(log: Path | None) -> int:
    """How many chat-completion requests the server has answered so far (any status), per its log."""
    if log is None or not log.exists():
        return 0
    return len(_REQUEST.findall(log.read_text(encoding="utf-8", errors="replace")))


def _timed(pattern: re.Pattern[str], log_text: str) -> tuple[int, float]:
    timings = [(int(count), float(ms)) for ms, count in pattern.findall(log_text)]
    return sum(count for count, _ in timings), sum(ms for _, ms in timings) / 1000


def generation_speed(log_text: str) -> tuple[int, float]:
    """Generated tokens and seconds of generation, summed over llama.cpp's per-completion timings."""
    return _timed(_EVAL, log_text)


def prompt_speed(log_text: str) -> tuple[int, float]:
    """Prompt tokens evaluated (those not already in the server's cache) and the seconds it took."""
    return _timed(_PROMPT_EVAL, log_text)


def _exchanges(path: Path) -> Iterator[dict[str, Any]]:
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                yield json.loads(line)


def stage_requests(exchanges: Path) -> dict[str, int]:
    """Model calls per stage (checklist, detection) in one instance's ``exchanges.jsonl``, failed calls included."""
    counts = {"checklist": 0, "detection": 0}
    for entry in _exchanges(exchanges):
        counts["checklist" if entry.get("channel") == CHECKLIST_CHANNEL else "detection"] += 1
    return counts


def summary(figures: str, log_text: str, model: str) -> str:
    """The block the lane prints at its end: the recorded figures and the server's generation speed."""
    lines = [f"==> lane figures ({model})", *figures.splitlines()]
    for label, (tokens, seconds) in (("generation", generation_speed(log_text)), ("prompt", prompt_speed(log_text))):
        lines.append(f"{label} speed: {tokens / seconds:.1f} tokens/s ({tokens} tokens in {seconds:.0f} s, server log)"
                     if seconds else f"{label} speed: none timed in the server log")
    return "\n".join(lines)


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""


def main(argv: list[str]) -> int:
    """``lane_figures.py FIGURES SERVER_LOG MODEL``: print the summary block."""
    figures, log, model = Path(argv[0]), Path(argv[1]), argv[2]
    print(summary(_text(figures), _text(log), model))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
