"""Verdicts under load: one run of an app alone, then several at once (`python -m webtester.eval.benchmarks.load`)."""

from webtester.eval.benchmarks.load import main

if __name__ == "__main__":
    raise SystemExit(main())
