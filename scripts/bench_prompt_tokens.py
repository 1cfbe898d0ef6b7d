"""Prompt tokens of the first detection request per bundled item (`python -m webtester.eval.benchmarks.prompt_tokens`)."""

from webtester.eval.benchmarks.prompt_tokens import main

if __name__ == "__main__":
    raise SystemExit(main())
