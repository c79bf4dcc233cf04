"""`tw-fin-eval push` / push_to_hf.py: dry-run plan without network, the refusals (schema, check-zh,
partial release, no token, public repo without --public), private by default, stale files deleted,
offline failure with a clear message, and the token never printed."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
import pytest  # noqa: E402

from tw_fin_eval.paths import REPO_ROOT  # noqa: E402
from tw_fin_eval.release import push, writer  # noqa: E402
from tw_fin_eval.release.synthetic import write_synthetic_data  # noqa: E402

TOKEN = "hf_testTOKENthatMustNeverBePrinted123"


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("push")
    write_synthetic_data(root / "data")
    out = root / "hf_release"
    writer.write_release(root / "data", out, log=lambda *_: None)
    return out


@pytest.fixture()
def copy(release, tmp_path) -> Path:
    return Path(shutil.copytree(release, tmp_path / "hf_release"))


def _args(root: Path, **kw) -> argparse.Namespace:
    base = {"release": str(root), "repo_id": "APMIC/tw_fin_eval_basic", "public": False, "dry_run": False,
            "allow_partial": False, "revision": None, "message": None}
    return argparse.Namespace(**{**base, **kw})


def test_dry_run_lists_every_file_with_size_and_sha256(release, capsys, monkeypatch):
    monkeypatch.delenv("HF_TOKEN", raising=False)  # a dry run needs no token and no network
    assert push.main(_args(release, dry_run=True)) == 0
    out = capsys.readouterr().out
    files = sorted(p for p in release.rglob("*") if p.is_file())
    assert f"would upload {len(files)} files" in out and "(private)" in out
    for p in files:
        rel = p.relative_to(release).as_posix()
        line = next(ln for ln in out.splitlines() if ln.endswith("  " + rel))
        assert f"sha256:{hashlib.sha256(p.read_bytes()).hexdigest()}" in line
        assert f"{p.stat().st_size:,}" in line
    assert "checks passed" in out


def test_refuses_when_check_zh_finds_simplified_text(copy, capsys):
    path = copy / "data" / "finqa" / "test-00000-of-00001.parquet"
    table = pq.read_table(path)
    rows = table.to_pylist()
    rows[0]["question"] = "这个软件的质量如何？"  # Simplified characters and PRC terms
    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), path)
    assert push.main(_args(copy, dry_run=True)) == 2
    err = capsys.readouterr().err
    assert "refusing" in err and "check-zh: finqa id=finqa_tw-test-0001" in err and "[simplified]" in err


def test_refuses_when_schema_differs(copy, capsys):
    path = copy / "data" / "financeagent" / "test-00000-of-00001.parquet"
    rows = pq.read_table(path).to_pylist()
    for r in rows:
        r["answer_value"] = "not a number"  # the column becomes string: features no longer the declared ones
    pq.write_table(pa.Table.from_pylist(rows), path)
    assert push.main(_args(copy)) == 2
    err = capsys.readouterr().err
    assert "schema:" in err and "financeagent" in err and "declared features" in err


def test_refuses_partial_release_unless_allowed(tmp_path, capsys):
    from tw_fin_eval.configs import CONFIGS

    write_synthetic_data(tmp_path / "data")
    out = tmp_path / "hf_release"
    writer.write_release(tmp_path / "data", out, configs=[CONFIGS["finqa"], CONFIGS["finchain"]], log=lambda *_: None)
    assert push.main(_args(out, dry_run=True)) == 2
    assert "release configs missing: convfinqa, financeagent" in capsys.readouterr().err
    assert push.main(_args(out, dry_run=True, allow_partial=True)) == 0


def test_refuses_without_token(release, capsys, monkeypatch):
    monkeypatch.delenv("HF_TOKEN", raising=False)
    assert push.main(_args(release)) == 2
    assert "HF_TOKEN" in capsys.readouterr().err


class FakeApi:
    """Stands in for huggingface_hub.HfApi: records calls, no network."""

    calls: list = []
    remote_private = True
    remote_files = [".gitattributes", "README.md", "data/old_config/test-00000-of-00001.parquet"]

    def __init__(self, token=None):
        assert token == TOKEN
        FakeApi.calls.append(("init",))

    def create_repo(self, repo_id, **kw):
        FakeApi.calls.append(("create_repo", repo_id, kw))

    def repo_info(self, repo_id, **kw):
        return argparse.Namespace(private=FakeApi.remote_private)

    def list_repo_files(self, repo_id, **kw):
        return list(FakeApi.remote_files)

    def create_commit(self, repo_id, operations, **kw):
        FakeApi.calls.append(("create_commit", repo_id, list(operations), kw))
        return argparse.Namespace(oid="abc123")


@pytest.fixture()
def fake_hub(monkeypatch):
    import huggingface_hub

    FakeApi.calls = []
    FakeApi.remote_private = True
    monkeypatch.setattr(huggingface_hub, "HfApi", FakeApi)
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    return FakeApi


def test_push_private_by_default_and_deletes_stale_files(release, fake_hub, capsys):
    from huggingface_hub import CommitOperationAdd, CommitOperationDelete

    assert push.main(_args(release)) == 0
    create = next(c for c in fake_hub.calls if c[0] == "create_repo")
    assert create[2]["private"] is True and create[2]["repo_type"] == "dataset"
    commit = next(c for c in fake_hub.calls if c[0] == "create_commit")
    adds = [op.path_in_repo for op in commit[2] if isinstance(op, CommitOperationAdd)]
    deletes = [op.path_in_repo for op in commit[2] if isinstance(op, CommitOperationDelete)]
    assert sorted(adds) == sorted(p.relative_to(release).as_posix() for p in release.rglob("*") if p.is_file())
    assert deletes == ["data/old_config/test-00000-of-00001.parquet"]  # README.md is re-added, .gitattributes kept
    captured = capsys.readouterr()
    assert "(private)" in captured.out and TOKEN not in captured.out + captured.err


def test_public_needs_explicit_flag(release, fake_hub, capsys):
    fake_hub.remote_private = False  # the repo already exists and is public
    assert push.main(_args(release)) == 2
    assert "pass --public" in capsys.readouterr().err
    assert not [c for c in fake_hub.calls if c[0] == "create_commit"]
    assert push.main(_args(release, public=True)) == 0
    create = [c for c in fake_hub.calls if c[0] == "create_repo"][-1]
    assert create[2]["private"] is False


def test_offline_upload_fails_clearly_without_leaking_token(release):
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_TOKEN": TOKEN}
    proc = subprocess.run([sys.executable, str(REPO_ROOT / "push_to_hf.py"), "--release", str(release),
                           "--repo-id", "APMIC/tw_fin_eval_basic"],
                          capture_output=True, text=True, env=env, timeout=120, cwd=REPO_ROOT)
    assert proc.returncode == 1
    assert "offline mode" in proc.stderr and "nothing was uploaded" in proc.stderr
    assert TOKEN not in proc.stdout + proc.stderr


def test_push_error_messages_drop_the_token_in_every_form():
    token = "hf_Ab/Cd\\Ef"
    msg = f"401 for {token} ({token.upper()}) body={json.dumps({'t': token})}"
    scrubbed = push._scrub(msg, token)
    assert "Ab/Cd" not in scrubbed and "AB/CD" not in scrubbed and scrubbed.count("[REDACTED]") == 3
    assert push._scrub("no secret here", None) == "no secret here"
