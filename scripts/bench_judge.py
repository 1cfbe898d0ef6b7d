"""Time the offline judge plus the metrics (`python -m webtester.eval.benchmarks.judge_speed`)."""

from webtester.eval.benchmarks.judge_speed import main

if __name__ == "__main__":
    raise SystemExit(main())
