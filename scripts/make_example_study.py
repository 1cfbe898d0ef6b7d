"""Build the worked example correlation study (`python -m webtester.eval.correlation.example_study`)."""

from webtester.eval.correlation.example_study import main

if __name__ == "__main__":
    raise SystemExit(main())
