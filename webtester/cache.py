"""Where the tester keeps what it can reuse between runs (unpacked apps, shared dependencies, builds)."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "WEBTESTER_CACHE"


def cache_root() -> Path:
    """The cache folder: ``$WEBTESTER_CACHE``, else ``~/.cache/webtester``."""
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "webtester").expanduser()
