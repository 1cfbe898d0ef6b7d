"""Train the offline matching judge (`python -m webtester.eval.judges.trained.train`)."""

from webtester.eval.judges.trained.train import main

if __name__ == "__main__":
    raise SystemExit(main())
