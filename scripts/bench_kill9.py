"""kill -9 of a running bench at random moments, each followed by a rerun (`python -m webtester.eval.benchmarks.kill9`)."""

from webtester.eval.benchmarks.kill9 import main

if __name__ == "__main__":
    raise SystemExit(main())
