#!/usr/bin/env bash
# The main job: test the bundled apps and score the run against gold (bootstraps the machine first).
# With no model configured it uses the built-in rule-based baseline. Extra arguments go to `webtester demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
exec .venv/bin/webtester demo "$@"
