"""The no-model tester on the real dev apps, cross-validated (`python -m webtester.eval.benchmarks.real_apps`)."""

from webtester.eval.benchmarks.real_apps import main

if __name__ == "__main__":
    raise SystemExit(main())
