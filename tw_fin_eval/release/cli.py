"""`tw-fin-eval release`: data/*.jsonl → hf_release/ (parquet per config with declared features, a card
generated from the data, LICENSES.md, the scoring code, the FinChain-TW templates).

Refuses (exit 2, nothing written) when a release config's data file is missing, empty or holds a record
that does not match the declared features."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tw_fin_eval import paths, subsets
from tw_fin_eval.release.card import DEFAULT_REPO_ID


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", default=str(paths.DATA_DIR), help="folder of built records (default: %(default)s)")
    parser.add_argument("--out", default=str(paths.RELEASE_DIR), help="release folder to write (default: %(default)s)")
    parser.add_argument("--repo-id", default=DEFAULT_REPO_ID,
                        help="Hub dataset id the card's usage examples name (default: %(default)s)")
    parser.add_argument("--config", action="append", metavar="NAME", choices=[c.name for c in subsets.released()],
                        help="release only these configs (repeatable; a partial release, e.g. for testing)")
    parser.add_argument("--no-check-zh", action="store_true", help="skip the (non-fatal) zh-TW rule check summary")


def main(args: argparse.Namespace) -> int:
    from tw_fin_eval.release.writer import config_list, write_release

    out = Path(args.out)
    stats = write_release(Path(args.data), out, repo_id=args.repo_id, configs=config_list(args.config))
    total = sum(s.items for s in stats)
    print(f"wrote {out}/ ({len(stats)} configs, {total:,} records)")
    if not args.no_check_zh:
        from tw_fin_eval.release.verify import zh_findings

        findings = zh_findings(out)
        if findings:
            print(f"note: check-zh finds {len(findings)} issue(s) in the released records; `tw-fin-eval push` will "
                  f"refuse until they are fixed. First ones:", file=sys.stderr)
            for line in findings[:10]:
                print("  " + line, file=sys.stderr)
    return 0
