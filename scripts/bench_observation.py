"""Observation size and action round-trip benchmark (`python -m webtester.eval.benchmarks.observation`)."""

from webtester.eval.benchmarks.observation import main

if __name__ == "__main__":
    raise SystemExit(main())
