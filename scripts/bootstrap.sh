#!/usr/bin/env bash
# Prepare a fresh Debian machine: Chromium, a virtual environment, and the package with all extras.
# Idempotent and quick when everything is already in place.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else echo "need root for: $*" >&2; return 1; fi; }

if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ] && [ -z "${WEBTESTER_BROWSER:-}" ]; then
  echo "==> installing Chromium (Debian package)"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "==> installing Node.js and npm (Debian packages)"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv"
  "$PY" -m venv .venv
fi
stamp=.venv/.webtester-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "==> installing webtester and its dependencies into .venv"
  .venv/bin/python -m pip install -q --upgrade pip
  # torch is pinned to the CPU build in the 'embeddings' extra.
  .venv/bin/python -m pip install -q -e ".[embeddings,notebooks,dev]"
  touch "$stamp"
fi
