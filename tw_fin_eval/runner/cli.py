"""`tw-fin-eval run` and `python tools/run.py`: ask an OpenAI-compatible server every question.

Standard library only. Re-running the same command resumes: finished (id, turn) keys are skipped,
failed ones are asked again. The API key is read from the environment only (never a command-line
argument, which other users could see in `ps`) and is never printed or written."""

from __future__ import annotations

import argparse
import json

from tw_fin_eval import data_input
from tw_fin_eval.data_input import expand_globs
from tw_fin_eval.errors import InputError
from tw_fin_eval.redact import key_from_env
from tw_fin_eval.runner.client import DEFAULT_MAX_RESPONSE_BYTES
from tw_fin_eval.runner.loop import RunConfig, run
from tw_fin_eval.runner.requests import HISTORY_MODES

DEFAULT_KEY_ENV = "OPENAI_API_KEY"


EPILOG = """\
Resume: re-run the same command. Finished (id, turn) keys are skipped, failed ones are asked again;
a partial last line left by a killed run is cut off and reported. One runs file holds one model.

Output (docs/FORMATS.md §3), one line per finished request:
  id, turn, dataset, model, messages_sha256, messages, response (raw content), reasoning
  (reasoning_content / reasoning / leading <think> block), finish_reason, usage, latency_s, attempts,
  error, created, and history (gold/self) on ConvFinQA turns.

Reliability (docs/RELIABILITY.md): --timeout bounds a whole attempt; replies over --max-response-bytes,
3xx redirects, 4xx and null content are item errors; the circuit breaker stops a run against a hung or
failing server; a failed write leaves the file ending at its last complete line.

Ctrl-C once: stop sending, wait for requests in flight. Twice: cancel them.
Exit status: 0 all done; 1 some items failed, or the server was unreachable / refused every request /
tripped the circuit breaker (re-run to retry); 2 bad input (nothing sent) or --out cannot be written;
130 interrupted.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG
    add_data_arguments(parser)
    parser.add_argument("--base-url", required=True, help="server base URL, e.g. http://localhost:8000/v1")
    parser.add_argument("--model", required=True, help="model name sent to the server and stored in --out")
    parser.add_argument("--out", required=True, help="runs file to append to (runs/<model>.jsonl)")
    add_generation_arguments(parser)
    parser.add_argument("--concurrency", type=int, default=8, help="requests in parallel (default 8)")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds one attempt may take in total, from connecting to the last byte of the "
                             "reply (a slow trickle cannot stretch it; default 300)")
    parser.add_argument("--max-retries", type=int, default=4,
                        help="retries after the first attempt on 429/5xx/timeouts/dropped connections/unusable "
                             "replies (default 4); every request sent counts")
    parser.add_argument("--max-retry-after", type=float, default=120.0, metavar="S",
                        help="longest wait honoured from a server's Retry-After header (default 120)")
    parser.add_argument("--max-response-bytes", type=int, default=DEFAULT_MAX_RESPONSE_BYTES, metavar="N",
                        help="largest reply body accepted; a larger one is that item's error "
                             f"(default {DEFAULT_MAX_RESPONSE_BYTES} = 16 MiB)")
    parser.add_argument("--max-consecutive-failures", type=int, default=10, metavar="N",
                        help="circuit breaker: stop after N failed attempts of the same kind in a row across "
                             "different items (timeouts, 5xx, 429, dropped connections); re-run to continue. "
                             "0 turns it off (default 10)")
    parser.add_argument("--history", choices=HISTORY_MODES, default="gold",
                        help="ConvFinQA history: gold answers (paper setting, default) or the model's own")
    parser.add_argument("--api-key-env", default=None, metavar="NAME",
                        help=f"environment variable holding the API key (default {DEFAULT_KEY_ENV}; "
                             "no key is sent when it is unset)")
    parser.add_argument("--no-store-messages", action="store_true",
                        help="store only messages_sha256, not the full request messages")
    parser.add_argument("--progress-every", type=float, default=30.0,
                        help="seconds between progress lines when stderr is not a terminal (default 30)")
    parser.add_argument("--quiet", action="store_true", help="no progress output")
    parser.add_argument("--dry-run", action="store_true",
                        help="check the data and --out, print what would be asked and the first request; send nothing")


def add_data_arguments(parser: argparse.ArgumentParser) -> None:
    """--data / --config / --limit / --sample: which records (shared with `batch export`)."""
    parser.add_argument("--data", nargs="+", required=True, metavar="DATA",
                        help="records: JSONL files (data/*.jsonl; quoted globs are expanded), parquet files, a "
                             "release folder (with --config) or a Hub dataset id (with --config; needs datasets)")
    parser.add_argument("--config", action="append", metavar="NAME",
                        help="config(s) of a release folder or Hub id: finqa, convfinqa, finchain, financeagent "
                             "(repeatable or comma-separated)")
    parser.add_argument("--limit", type=int,
                        help="only the first N records of each data file (a ConvFinQA conversation is one "
                             "record with all its turns)")
    parser.add_argument("--sample", type=int, metavar="N",
                        help="a stratified random sample of N records of each data file over its subcategories, "
                             "difficulties and categories (FinChain difficulty/domain/topic, FinQA calculation "
                             "type, ConvFinQA 單題/雙題 …); proportional by default, so its accuracy estimates the "
                             "subset's; reproducible with --sample-seed")
    parser.add_argument("--sample-allocation", choices=data_input.ALLOCATIONS, default=data_input.PROPORTIONAL,
                        help="proportional (default: each stratum's share of the sample is its share of the file, "
                             "largest-remainder rounding, at least one per stratum when N allows) or equal (the "
                             "same count per first-level stratum; `score` weights strata back to their shares)")
    parser.add_argument("--sample-seed", type=int, default=None, metavar="S",
                        help=f"seed that picks the --sample (default {data_input.DEFAULT_SAMPLE_SEED}); "
                             "independent of --seed")


def _temperature(text: str) -> float | None:
    if text.strip().lower() in {"none", "server"}:
        return None  # leave it to the server's default (not recommended: unrepeatable)
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r} (or 'none' for the server's default)") from None
    if not 0.0 <= value <= 2.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 2, got {value}")
    return value


def add_generation_arguments(parser: argparse.ArgumentParser) -> None:
    """What goes into every request besides the messages (shared with `batch export`)."""
    parser.add_argument("--temperature", type=_temperature, default=0.0,
                        help="sampling temperature sent with every request (default 0: greedy, repeatable); "
                             "'none' sends none and leaves it to the server")
    parser.add_argument("--max-tokens", type=int, default=None, help="sent only when given")
    parser.add_argument("--seed", type=int, default=None,
                        help="generation seed sent to the server with every request (not sent when unset); "
                             "the sample is picked by --sample-seed")
    parser.add_argument("--extra", default=None, metavar="JSON",
                        help='JSON object merged into every request body, e.g. '
                             '\'{"chat_template_kwargs": {"enable_thinking": false}}\'')


def data_specs(args: argparse.Namespace) -> list[str]:
    return expand_globs(list(args.data))


def _api_key(name: str | None) -> str | None:
    return key_from_env(name, option="--api-key-env", defaults=(DEFAULT_KEY_ENV,))


def extra_from_json(text: str | None) -> dict:
    if text is None:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"--extra is not valid JSON ({exc.msg} at column {exc.colno})", field="extra") from None
    if not isinstance(value, dict):
        raise InputError(f"--extra must be a JSON object, got {type(value).__name__}", field="extra")
    return value


def main(args: argparse.Namespace) -> int:
    cfg = RunConfig(
        data=data_specs(args), configs=args.config, base_url=args.base_url, model=args.model, out=args.out,
        api_key=_api_key(args.api_key_env), limit=args.limit, sample=args.sample, seed=args.seed,
        sample_seed=args.sample_seed, sample_allocation=args.sample_allocation, extra=extra_from_json(args.extra),
        concurrency=args.concurrency, timeout=args.timeout, max_retries=args.max_retries,
        temperature=args.temperature, max_tokens=args.max_tokens, history=args.history,
        store_messages=not args.no_store_messages, progress_every=args.progress_every,
        progress=not args.quiet, dry_run=args.dry_run, max_retry_after=args.max_retry_after,
        max_response_bytes=args.max_response_bytes, max_consecutive_failures=args.max_consecutive_failures,
    )
    for name, value in (("--timeout", cfg.timeout), ("--max-retries", cfg.max_retries)):
        if value < 0 or (name == "--timeout" and value == 0):
            raise InputError(f"{name} must be positive", field=name.lstrip("-"))
    return run(cfg).exit_code
