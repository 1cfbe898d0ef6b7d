"""How faithfully runs export as regression suites (`python -m webtester.eval.benchmarks.export_faithfulness`)."""

from webtester.eval.benchmarks.export_faithfulness import main

if __name__ == "__main__":
    raise SystemExit(main())
