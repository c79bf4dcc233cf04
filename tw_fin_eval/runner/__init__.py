"""The runner: ask an OpenAI-compatible server every question (standard library only).

Modules by job:
- `requests`: data records → (id, turn) tasks → request bodies (`build_request`, `request_body`);
- `client`: `ChatClient`, the project's one HTTP client (the LLM judge uses it too);
- `runsfile`: the append-only, crash-safe, resumable runs file;
- `loop`: the concurrent run loop (`RunConfig`, `run`); `progress`: its progress output;
- `cli`: the `tw-fin-eval run` / `tools/run.py` command line."""
