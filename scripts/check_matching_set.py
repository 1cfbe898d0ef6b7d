"""Validate the labelled matching set (`python -m webtester.eval.judges.trained.check_matching_set`)."""

from webtester.eval.judges.trained.check_matching_set import main

if __name__ == "__main__":
    raise SystemExit(main())
