"""`tw-fin-eval verify-check`: validate the verdict files (file:line:id on any problem, exit 2) and print
the counts per status and reason, and the second-read disagreement rate."""

from __future__ import annotations

import argparse
from pathlib import Path

from tw_fin_eval import paths
from tw_fin_eval.errors import InputError
from tw_fin_eval.subsets import load_subset
from tw_fin_eval.verification import audit
from tw_fin_eval.verification.locate_cli import common_options
from tw_fin_eval.verification.verdicts import (
    STATUSES,
    VERIFIED_SUBSETS,
    audit_sample,
    counts_markdown,
    coverage,
    load_verdicts,
)


def configure(parser: argparse.ArgumentParser) -> None:
    common_options(parser)
    parser.add_argument("--all", action="store_true", help="check every verified subset (ignores --subset)")
    parser.add_argument("--markdown", action="store_true",
                        help="print only the counts tables of docs/VERIFICATION.md (after validating)")
    parser.add_argument("--audit-sample", type=int, metavar="N",
                        help="print N seeded random verified units without a sweep that no other seed's audit read "
                             "(the independent audit sample; with --all)")
    parser.add_argument("--seed", type=int, default=2029, help="seed of --audit-sample (default: %(default)s)")
    parser.add_argument("--audit", action="store_true",
                        help="print only the audit tables of docs/VERIFICATION.md (every verification/audit_<seed>.jsonl)")


def main(args: argparse.Namespace) -> int:
    if args.audit_sample and not args.all:
        raise InputError("--audit-sample draws over every verified subset and excludes what other audits read: "
                         "add --all", field="--audit-sample")
    root = paths.sources_dir(args.sources)
    covs, loaded = {}, {}
    for subset in VERIFIED_SUBSETS if args.all else [args.subset]:
        items = load_subset(subset, root)
        verdicts = loaded[subset] = load_verdicts(subset, items, Path(args.verification))
        cov = covs[subset] = coverage(subset, items, verdicts)
        if args.markdown or args.audit_sample or args.audit:
            continue
        print(f"{subset}: {cov.line()}")
        for status in STATUSES[1:]:
            for (s, reason), n in sorted(cov.reasons.items()):
                if s == status:
                    print(f"  {status:<13} {reason:<24} {n:>5}")
        if cov.second_reads:
            print(f"  second reads {cov.second_reads}, disagreements {cov.disagreements} "
                  f"({cov.disagreements / cov.second_reads:.1%})")
    audits = _check_audits(Path(args.verification), loaded) if args.all else []
    if args.audit:
        for seed, lines in audits:
            print(f"Audit seed {seed}:\n")
            print(audit.markdown(seed, lines))
        return 0
    if args.audit_sample:
        try:
            by_seed = {seed: frozenset((ln.id, ln.turn) for ln in lines) for seed, lines in audits}
            elsewhere = frozenset().union(*(keys for seed, keys in by_seed.items() if seed != args.seed))
            sample = audit_sample(loaded, args.audit_sample, args.seed, audited_elsewhere=elsewhere,
                                  read_here=by_seed.get(args.seed, frozenset()))
        except ValueError as exc:
            raise InputError(str(exc), field="--audit-sample") from None
        for v in sample:
            print(v.id if v.turn is None else f"{v.id}\t{v.turn}")
        return 0
    if args.markdown:
        print(counts_markdown(covs), end="")
    return 0


def _check_audits(verification_dir: Path, loaded: dict) -> list[tuple[int, list[audit.AuditLine]]]:
    """Every audit file, validated: each line is a unit with a verdict (file:line:id otherwise)."""
    out = []
    known = {key for verdicts in loaded.values() for key in verdicts}
    for seed, path in audit.audit_files(verification_dir):
        lines = audit.load_audit(path)
        for ln in lines:
            if (ln.id, ln.turn) not in known:
                path_s, _, line = ln.where.rpartition(":")
                raise InputError("no such unit in the verdict files", path=Path(path_s), line=int(line), item_id=ln.id)
        out.append((seed, lines))
    return out
