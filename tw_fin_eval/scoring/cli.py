"""`tw-fin-eval score` / `python tools/score.py`: score a runs file against the records.

    tw-fin-eval score --data data/*.jsonl --runs runs/my_model.jsonl --out reports/my_model \\
        [--judge-base-url http://judge:8080/v1 --judge-model judge-model] [--judge-repeats 2]

Writes <out>/results.jsonl (per item: verdict, question, gold, response, think), <out>/summary.csv (by dataset,
task type, category, subcategory, difficulty), <out>/report.md, <out>/report.html (self-contained, charts),
<out>/results.json (versions, data hashes, generation settings, per-subset accuracy with bootstrap intervals)
and <out>/details.parquet (when pyarrow is installed). The judge's API key is read from the environment variable named by
--judge-api-key-env (default JUDGE_API_KEY, then OPENAI_API_KEY) and is never printed or written.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from tw_fin_eval import data_input
from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import OutputFolder, output_error
from tw_fin_eval.redact import key_from_env
from tw_fin_eval.reports import outputs, summary
from tw_fin_eval.schema import DEFAULT_TOLERANCE, tolerance_from
from tw_fin_eval.scoring import engine, judge


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", nargs="+", required=True,
                        help="records: data/*.jsonl (globs are expanded), parquet files, a release folder or Hub id "
                             "(with --config)")
    parser.add_argument("--config", action="append", metavar="NAME",
                        help="config(s) of a release folder or Hub id (repeatable or comma-separated)")
    parser.add_argument("--runs", nargs="+", required=True, help="runs file(s) written by `tw-fin-eval run`")
    parser.add_argument("--out", required=True, help="output folder (results.jsonl, summary.csv, report.md)")
    parser.add_argument("--rel-tol", type=float, default=None,
                        help=f"relative tolerance (default {DEFAULT_TOLERANCE.rel} = {100 * DEFAULT_TOLERANCE.rel:g}%%, "
                             "FinChain: its stated rounding; a flag applies to every subset)")
    parser.add_argument("--abs-tol", type=float, default=None,
                        help=f"absolute tolerance (default {DEFAULT_TOLERANCE.abs}; FinChain: its stated rounding)")
    add_judge_arguments(parser)
    parser.add_argument("--quiet", action="store_true", help="no summary table on stdout")


DEFAULT_JUDGE_CACHE = "judge_cache.jsonl"


def add_judge_arguments(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("LLM judge (OpenAI-compatible; use a different model from the one tested)")
    g.add_argument("--judge-base-url", help="e.g. http://judge-host:8080/v1 (no judge → judged items are pending)")
    g.add_argument("--judge-model", help="judge model name")
    g.add_argument("--judge-api-key-env", default=None,
                   help="environment variable holding the judge's API key (default JUDGE_API_KEY, then OPENAI_API_KEY)")
    g.add_argument("--judge-concurrency", type=int, default=4)
    g.add_argument("--judge-timeout", type=float, default=120.0)
    g.add_argument("--judge-retries", type=int, default=2)
    g.add_argument("--judge-repeats", type=int, default=1, help="judge every item N times (2 → agreement stats)")
    g.add_argument("--judge-cache", default=None, metavar="FILE",
                   help="keep every judge reply in FILE (JSONL) and reuse it on the next run: re-scoring, or "
                        "re-running after Ctrl-C or a judge failure, does not ask the judge again (default "
                        f"<out>/{DEFAULT_JUDGE_CACHE}: replies already paid for are never lost)")
    g.add_argument("--judge-max-consecutive-failures", type=int, default=10, metavar="N",
                   help="judge circuit breaker: stop with an error (exit 2) after N failed attempts of the same "
                        "kind in a row across different items (timeouts, 5xx, 429, dropped connections, unusable "
                        "replies); 0 turns it off (default 10)")
    g.add_argument("--allow-self-judge", action="store_true",
                   help="let the judge model be the model under test (refused by default: a model grading its "
                        "own answers is biased)")
    g.add_argument("--judge-extra", default=None,
                   help='JSON merged into each judge request, e.g. \'{"temperature": 0.7}\' (default temperature 0)')


def judge_config_from_args(args: argparse.Namespace) -> judge.JudgeConfig:
    if bool(args.judge_base_url) != bool(args.judge_model):
        raise InputError("--judge-base-url and --judge-model go together")
    if args.judge_repeats < 1 or args.judge_concurrency < 1:
        raise InputError("--judge-repeats and --judge-concurrency must be ≥ 1")
    breaker = getattr(args, "judge_max_consecutive_failures", 10)
    if breaker < 0:
        raise InputError("--judge-max-consecutive-failures must be ≥ 0")
    cache = args.judge_cache
    if cache is None and args.judge_base_url and getattr(args, "out", None):
        cache = os.path.join(args.out, DEFAULT_JUDGE_CACHE)
    params: dict = {"temperature": 0.0}
    if args.judge_extra:
        try:
            extra = json.loads(args.judge_extra)
        except json.JSONDecodeError as exc:
            raise InputError(f"--judge-extra is not valid JSON ({exc.msg})") from None
        if not isinstance(extra, dict):
            raise InputError("--judge-extra must be a JSON object")
        params.update(extra)
    key = key_from_env(args.judge_api_key_env, option="--judge-api-key-env",
                       defaults=("JUDGE_API_KEY", "OPENAI_API_KEY"))
    return judge.JudgeConfig(base_url=args.judge_base_url, model=args.judge_model, api_key=key,
                             timeout=args.judge_timeout, max_retries=args.judge_retries,
                             concurrency=args.judge_concurrency, repeats=args.judge_repeats, params=params,
                             cache_path=cache, allow_self_judge=getattr(args, "allow_self_judge", False),
                             max_consecutive_failures=breaker)


def expand(patterns: list[str]) -> list[str]:
    """Shell-style globs expanded here too (for Windows shells and quoted patterns); sorted, unique."""
    return data_input.expand_globs(patterns)


class _Terminated(KeyboardInterrupt):
    """SIGTERM, turned into an interrupt so every `finally` runs (temporaries removed, the lock released)."""


@contextmanager
def _signals() -> Iterator[None]:
    """Ctrl-C and SIGTERM stop `score` cleanly. Started with SIGINT ignored (`tw-fin-eval score … &` in a
    script: the shell ignores it for background jobs) Python would never see Ctrl-C: it is turned back on."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def term(signum: int, frame: object) -> None:
        raise _Terminated()

    old_int = signal.getsignal(signal.SIGINT)
    old_term = signal.signal(signal.SIGTERM, term)
    if old_int is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old_term)
        if old_int is signal.SIG_IGN:
            signal.signal(signal.SIGINT, old_int)


def main(args: argparse.Namespace) -> int:
    with _signals():
        return _main(args)


def _main(args: argparse.Namespace) -> int:
    start = time.monotonic()
    cfg = judge_config_from_args(args)
    if any(v is not None and v < 0 for v in (args.rel_tol, args.abs_tol)):
        raise InputError("--rel-tol and --abs-tol must be ≥ 0")
    tol = tolerance_from(args.rel_tol, args.abs_tol)  # None: each scorer picks
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        raise InputError("--out must be a folder, not a file", path=args.out)
    data_paths, runs_paths = expand(args.data), expand(args.runs)
    issues = engine.Issues()
    records = engine.RecordFiles(data_paths, issues, configs=args.config)  # validated now, streamed while scoring
    runs = engine.load_runs(runs_paths)
    inputs = {"data": [str(p) for p in records.paths], "runs": runs_paths, "rel_tol": (tol or DEFAULT_TOLERANCE).rel,
              "abs_tol": (tol or DEFAULT_TOLERANCE).abs}
    folder = OutputFolder(args.out)
    try:  # one writer at a time, from before the judge cache is opened to the swap of the new report
        folder.lock()
    except OSError as exc:
        raise output_error(exc, "report") from None
    spool = None
    try:
        spool = outputs.DetailsSpool()
        outcome = engine.score(records, runs, issues=issues, judge_config=cfg, tolerance=tol,
                               progress=not args.quiet, on_item=spool)
        mismatch = engine.check_runs_match(outcome, data_paths, runs_paths)  # none matching: InputError, exit 2
        if mismatch:
            print(f"score: warning: {mismatch}", file=sys.stderr)
        paths = outputs.write_outputs(folder, outcome, inputs=inputs, spool=spool)
    except OSError as exc:  # full disk, read-only folder …: no report file was changed
        raise output_error(exc, "report") from None
    except KeyboardInterrupt as exc:
        kept = (f"; the judge replies received so far are kept in {cfg.cache_path} and the same command reuses them"
                if cfg.enabled and cfg.cache_path else "")
        print(f"tw-fin-eval score: {'terminated' if isinstance(exc, _Terminated) else 'interrupted'} — no report "
              f"was written, {folder.path} holds the previous one unchanged (if any){kept}", file=sys.stderr)
        return 143 if isinstance(exc, _Terminated) else 130
    finally:
        if spool is not None:
            spool.close()
        folder.unlock()
    if not args.quiet:
        doc = json.loads(paths["results_json"].read_text(encoding="utf-8"))
        print(f"headline: {doc['headline']['text']}")
        rows = [dict(r, group="pooled (all units)") if r["dimension"] == "all" else r
                for r in summary.summary_rows(outcome.items) if r["dimension"] in {"all", "dataset"}]
        summary.print_table(rows, ["group", "items", "run", "decided", "accuracy", "strict_accuracy", "judge_accuracy",
                                   "pending", "missing", "error", "not_run", "stale", "other_outcomes"])
        print(not_scored_line(rows[0], outcome.issues))
        print("note: the pooled row weighs larger subsets more; the headline is the macro average")
    print(f"wrote {', '.join(str(p) for p in paths.values())} "
          f"({len(outcome.items)} items, {time.monotonic() - start:.2f}s)", file=sys.stderr)
    return 0


def not_scored_line(total: dict, iss: engine.Issues) -> str:
    """Every count of units that are not in the accuracy, and of input lines that were not used."""
    parts = [f"not run {total['not_run']}", f"stale (prompt changed; re-run) {total['stale']}",
             f"pending {total['pending']}", f"missing verdict {total['missing']}",
             f"failed generations (counted wrong) {total['error']}",
             f"unanswerable gold (excluded) {total['unanswerable_excluded']}",
             f"other outcomes {total['other_outcomes']}"]
    share = iss.unmatched_share()
    lines = [f"runs lines matching no record {len(iss.unknown_run_keys)} of {iss.run_keys} keys"
             + (f" ({100 * share:.0f}%)" if share else ""),
             f"duplicate record ids {len(iss.duplicate_record_ids)}",
             f"keys answered more than once {len(iss.duplicate_generations)}"]
    return "not scored: " + "; ".join(parts) + "\ninputs not used: " + "; ".join(lines)


def run_path(argv: list[str] | None = None) -> int:
    """Entry for tools/score.py."""
    from tw_fin_eval.cli import main as cli_main

    return cli_main(["score", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(run_path())
