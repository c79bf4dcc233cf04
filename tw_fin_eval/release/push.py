"""`tw-fin-eval push` / `push_to_hf.py`: upload hf_release/ to the Hugging Face Hub as a dataset repo.

- **Private by default**; a public repo needs `--public`, and pushing into an existing public repo without
  `--public` is refused.
- Refused (exit 2) when the release fails verification (card, declared features, row schema, nothing
  internal) or the zh-TW rule checker finds anything in the released records.
- `--dry-run` prints the planned `CommitOperationAdd` list (path, size, sha256) and uses no network.
- The token comes only from the environment (`HF_TOKEN`); it is passed explicitly, so a token cached
  on disk is never used, and it never appears in any output.
- Files in the Hub repo that are not in the release (e.g. an old config) are deleted in the same commit."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from tw_fin_eval import paths
from tw_fin_eval.redact import Redactor
from tw_fin_eval.release.card import DEFAULT_REPO_ID

TOKEN_ENV = "HF_TOKEN"
KEEP_REMOTE = {".gitattributes"}  # Hub-managed files a release never deletes


@dataclass(frozen=True)
class PlannedFile:
    path_in_repo: str
    local: Path
    size: int
    sha256: str


def plan(root: Path) -> tuple[list, list[PlannedFile]]:
    """The CommitOperationAdd list for every file of the release (sorted), computed locally."""
    from huggingface_hub import CommitOperationAdd

    ops, planned = [], []
    for p in sorted(root.rglob("*")):
        if not p.is_file() or any(part.startswith(".") or part == "__pycache__" for part in p.relative_to(root).parts):
            continue
        rel = p.relative_to(root).as_posix()
        op = CommitOperationAdd(path_in_repo=rel, path_or_fileobj=str(p))
        ops.append(op)
        planned.append(PlannedFile(rel, p, op.upload_info.size, op.upload_info.sha256.hex()))
    return ops, planned


def _scrub(text: str, token: str | None) -> str:
    """The token removed in every form a library message may carry it (any case, JSON-escaped): the one
    redaction rule of the runner and the judge."""
    return Redactor([token]).scrub(text)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--release", default=str(paths.RELEASE_DIR), help="release folder (default: %(default)s)")
    parser.add_argument("--repo-id", default=DEFAULT_REPO_ID, help="Hub dataset repo (default: %(default)s)")
    parser.add_argument("--public", action="store_true", help="create the repo public (default: private)")
    parser.add_argument("--dry-run", action="store_true", help="print the planned uploads; no network")
    parser.add_argument("--allow-partial", action="store_true",
                        help="publish even when some release configs are missing from the release")
    parser.add_argument("--revision", default=None, help="branch to commit to (default: the repo's main branch)")
    parser.add_argument("--message", default=None, help="commit message")


def _card_repo_id(root: Path) -> str | None:
    readme = root / "README.md"
    if not readme.is_file():
        return None
    text = readme.read_text(encoding="utf-8")
    marker = 'load_dataset("'
    i = text.find(marker)
    return text[i + len(marker): text.find('"', i + len(marker))] if i >= 0 else None


def main(args: argparse.Namespace) -> int:
    from tw_fin_eval.release.verify import verify_release, zh_findings

    root = Path(args.release)
    visibility = "public" if args.public else "private"
    problems = verify_release(root, allow_partial=args.allow_partial)
    findings = zh_findings(root) if root.is_dir() else []

    if args.dry_run and root.is_dir():
        _, planned = plan(root)
        total = sum(f.size for f in planned)
        print(f"dry run: would upload {len(planned)} files ({total:,} bytes) to dataset {args.repo_id} ({visibility}); "
              f"no network used")
        for f in planned:
            print(f"  add {f.size:>12,}  sha256:{f.sha256}  {f.path_in_repo}")
    card_repo = _card_repo_id(root)
    if card_repo and card_repo != args.repo_id:
        print(f"warning: the card's usage examples name {card_repo!r}, not {args.repo_id!r} "
              f"(re-run `tw-fin-eval release --repo-id {args.repo_id}`)", file=sys.stderr)

    if problems or findings:
        print(f"tw-fin-eval push: refusing to publish {root}:", file=sys.stderr)
        for p in problems[:30]:
            print(f"  schema: {p}", file=sys.stderr)
        for f in findings[:30]:
            print(f"  check-zh: {f}", file=sys.stderr)
        hidden = max(0, len(problems) - 30) + max(0, len(findings) - 30)
        if hidden:
            print(f"  … {hidden} more", file=sys.stderr)
        print(f"  ({len(problems)} schema problem(s), {len(findings)} check-zh finding(s))", file=sys.stderr)
        return 2
    if args.dry_run:
        print("checks passed: the release would be accepted")
        return 0

    token = os.environ.get(TOKEN_ENV)
    if not token:
        print(f"tw-fin-eval push: error: no token: set ${TOKEN_ENV} in the environment (never on the command line)",
              file=sys.stderr)
        return 2
    return _upload(root, args, token, visibility)


def _upload(root: Path, args: argparse.Namespace, token: str, visibility: str) -> int:
    from huggingface_hub import CommitOperationDelete, HfApi
    from huggingface_hub.errors import HfHubHTTPError, OfflineModeIsEnabled

    ops, planned = plan(root)
    api = HfApi(token=token)
    try:
        api.create_repo(args.repo_id, repo_type="dataset", private=not args.public, exist_ok=True, token=token)
        info = api.repo_info(args.repo_id, repo_type="dataset", token=token)
        if not info.private and not args.public:
            print(f"tw-fin-eval push: error: {args.repo_id} exists and is public; pass --public to publish to it",
                  file=sys.stderr)
            return 2
        if info.private and args.public:
            print(f"note: {args.repo_id} exists and stays private (change its visibility on the Hub)")
        wanted = {f.path_in_repo for f in planned}
        remote = api.list_repo_files(args.repo_id, repo_type="dataset", revision=args.revision, token=token)
        stale = sorted(p for p in remote if p not in wanted and p not in KEEP_REMOTE)
        ops = ops + [CommitOperationDelete(path_in_repo=p) for p in stale]
        message = args.message or f"tw_fin_eval_basic release ({len(planned)} files)"
        commit = api.create_commit(args.repo_id, ops, commit_message=message, repo_type="dataset",
                                   revision=args.revision, token=token)
    except OfflineModeIsEnabled:
        print("tw-fin-eval push: error: offline mode (HF_HUB_OFFLINE=1) — nothing was uploaded; unset it to push, "
              "or use --dry-run", file=sys.stderr)
        return 1
    except (HfHubHTTPError, OSError) as exc:
        print(f"tw-fin-eval push: error: upload to {args.repo_id} failed: {_scrub(str(exc), token)}", file=sys.stderr)
        return 1
    print(f"pushed {len(planned)} files to https://huggingface.co/datasets/{args.repo_id} ({visibility}); "
          f"deleted {len(stale)} stale file(s); commit {getattr(commit, 'oid', '?')}")
    return 0
