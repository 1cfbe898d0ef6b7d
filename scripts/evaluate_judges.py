"""Measure the matching judges against the annotated development set (`python -m webtester.eval.judges.trained.evaluate`)."""

from webtester.eval.judges.trained.evaluate import main

if __name__ == "__main__":
    raise SystemExit(main())
