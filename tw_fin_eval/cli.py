"""`tw-fin-eval` / `python -m tw_fin_eval`: one registry of subcommands, each a module with
`configure(parser)` and `main(args) -> int`. Modules are imported only when their command runs, so a
heavy dependency of one command (datasets, opencc) never slows or breaks another."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from dataclasses import dataclass

from tw_fin_eval.errors import InputError
from tw_fin_eval.redact import process_redactor


@dataclass(frozen=True)
class Command:
    module: str
    help: str


COMMANDS: dict[str, Command] = {
    "build": Command("tw_fin_eval.build", "build data/*.jsonl from the English sources and the zh-TW overlays"),
    "check-zh": Command("tw_fin_eval.zhcheck.cli", "rule-check overlays, data/*.jsonl, runs files or plain text"),
    "translation-todo": Command("tw_fin_eval.todo", "print the English text an overlay batch must translate"),
    "plan": Command("tw_fin_eval.plan", "before a run: records per subset for a ±3-point interval, and the tokens "
                    "and time of a full run"),
    "run": Command("tw_fin_eval.runner.cli", "ask an OpenAI-compatible server every question (resumable)"),
    "score": Command("tw_fin_eval.scoring.cli", "score a runs file: per-item results, summary CSV, Markdown report"),
    "compare": Command("tw_fin_eval.reports.compare", "compare scored runs: paired differences with intervals, "
                       "McNemar tests, ranking (JSON, Markdown, HTML)"),
    "selfcheck": Command("tw_fin_eval.scoring.selfcheck", "score gold answers as predictions (offline sanity check)"),
    "release": Command("tw_fin_eval.release.cli", "write hf_release/ (parquet + generated dataset card)"),
    "push": Command("tw_fin_eval.release.push", "upload hf_release/ to the Hugging Face Hub (private by default)"),
    "review-sample": Command("tw_fin_eval.release.review_sample", "write the stratified human review sheet (CSV)"),
    "verify-locate": Command("tw_fin_eval.verification.locate_cli",
                             "print FinQA/ConvFinQA items with every program operand located (gold verification)"),
    "verify-check": Command("tw_fin_eval.verification.check_cli",
                            "validate the gold verdict files; counts per status and reason"),
    "batch": Command("tw_fin_eval.runner.batch_cli",
                     "batch export (OpenAI Batch / vllm run-batch input) and batch import (output → runs file)"),
    "lm-eval-path": Command("tw_fin_eval.integrations.lm_eval.path_cli",
                            "print the folder of the lm-evaluation-harness tasks (for lm_eval --include_path)"),
    "lm-eval-runs": Command("tw_fin_eval.integrations.lm_eval.runs_cli",
                            "turn lm-eval's logged samples into a runs file for `score`"),
    "verify-screen": Command("tw_fin_eval.verification.screen_cli",
                             "pre-screen every FinQA/ConvFinQA unit for the residual gold classes (unit, "
                             "program, missing fact, sign, unanswerable)"),
    "verify-second": Command("tw_fin_eval.verification.second_cli",
                             "compare blind second reads with the first reads; fold them in with --write"),
    "twins": Command("tw_fin_eval.twins.cli", "write contamination-resistant twins of FinQA-TW / ConvFinQA-TW "
                     "(perturbed numbers, recomputed gold) at a private seed"),
    "finchain-private": Command("tw_fin_eval.twins.finchain",
                                "generate FinChain-TW at seeds you choose (a private set; not the release's 0–9)"),
    "convert-finllm450": Command("tw_fin_eval.sources.finllm450", "convert the FinLLM 450 Excel workbook to data/finllm450.jsonl"),
}


# third-party modules some commands need (module → PyPI name); the runner and the scorer need none
OPTIONAL_PACKAGES = {"opencc": "opencc", "openpyxl": "openpyxl", "datasets": "datasets",
                     "huggingface_hub": "huggingface_hub", "pyarrow": "pyarrow", "evaluate": "evaluate"}


def _top_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tw-fin-eval",
        description="tw_fin_eval_basic: Taiwan financial LLM evaluation set (build, check, run, score, release)",
    )
    parser.add_argument("-V", "--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, cmd in COMMANDS.items():
        sub.add_parser(name, help=cmd.help, add_help=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] in (["--version"], ["-V"]):
        from tw_fin_eval import DATA_VERSION, __version__

        print(f"tw-fin-eval {__version__} (data v{DATA_VERSION})")
        return 0
    if not argv or argv[0] in {"-h", "--help"} or argv[0] not in COMMANDS:
        parser = _top_parser()
        if argv and argv[0] not in {"-h", "--help"}:
            parser.print_usage(sys.stderr)
            print(f"tw-fin-eval: unknown command {argv[0]!r}", file=sys.stderr)
            return 2
        parser.print_help()
        return 0
    name, rest = argv[0], argv[1:]
    cmd = COMMANDS[name]
    try:
        module = importlib.import_module(cmd.module)
        parser = argparse.ArgumentParser(prog=f"tw-fin-eval {name}", description=cmd.help)
        module.configure(parser)
        args = parser.parse_args(rest)
        return int(module.main(args) or 0)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] in OPTIONAL_PACKAGES:
            pip = OPTIONAL_PACKAGES[exc.name.split(".")[0]]
            print(f"tw-fin-eval {name}: error: needs the package {pip!r}, which is not installed "
                  f"(pip install -e . in the repository, or pip install {pip})", file=sys.stderr)
            return 2
        raise
    except InputError as exc:
        print(process_redactor().scrub(f"tw-fin-eval {name}: error: {exc}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"tw-fin-eval {name}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `… | head`: the reader left; stop quietly as Unix tools do (no traceback)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush cannot raise again
        return 141
    except Exception:  # a bug: show the traceback, but never a key this process read (in any escaped form)
        print(process_redactor().scrub(traceback.format_exc()), end="", file=sys.stderr)
        print(f"tw-fin-eval {name}: internal error (a bug; please report it with the traceback above)",
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
