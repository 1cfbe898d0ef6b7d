#!/usr/bin/env bash
# Run the test suite (bootstraps the machine first). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
# one thread per PyTorch process: the workers below already keep both cores busy, and two threads each made the
# encoder's tests several times slower than alone
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
# three workers on 2 cores (the tests wait on browsers and servers as much as on the CPU); WEBTESTER_TEST_WORKERS=0 runs serially
workers=${WEBTESTER_TEST_WORKERS:-3}
exec .venv/bin/python -m pytest -q -n "$workers" --dist loadfile "$@"
