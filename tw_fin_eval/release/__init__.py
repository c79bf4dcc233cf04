"""The Hugging Face release: `tw-fin-eval release` (hf_release/ = parquet + generated card + licenses +
scoring code + FinChain-TW templates), `tw-fin-eval push` and `tw-fin-eval review-sample`."""
