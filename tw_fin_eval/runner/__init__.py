"""The runner: ask an OpenAI-compatible server every question (standard library only).

`client.ChatClient` is the project's one HTTP client (the LLM judge uses it too); `runner` holds the
resumable, concurrent run loop; `cli` the `tw-fin-eval run` / `tools/run.py` command line."""
