"""A build never shrinks or damages data/ silently (issue 17 points 8 and 9): no overlays at all is refused
unless --allow-empty, --strict refuses before writing anything (rule findings, a shrinking build without
--allow-shrink), and all data files + the manifest are replaced together or not at all."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from tests.test_build import ETR, INTC, write_overlay
from tw_fin_eval.build import run_build
from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import read_jsonl


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _build(tmp_path: Path, sources_root: Path, tr: Path, *extra: str) -> int:
    return cli_main(["build", "--subset", "finqa", "--sources", str(sources_root), "--translations", str(tr),
                     "--out", str(tmp_path / "data"), "--verification", str(tmp_path / "no-verdicts"), *extra])


@pytest.fixture
def built(tmp_path, sources_root):
    """data/ built from two FinQA overlays."""
    tr = tmp_path / "tr"
    write_overlay(tr, "finqa", "a.jsonl", [ETR, INTC])
    assert _build(tmp_path, sources_root, tr) == 0
    return tr, tmp_path / "data"


@pytest.mark.parametrize("layout", ["missing", "empty folder", "other subset only", "a file"])
def test_no_overlays_is_refused_unless_allow_empty(tmp_path, sources_root, capsys, layout):
    tr = tmp_path / "tr"
    if layout == "empty folder":
        tr.mkdir()
    elif layout == "other subset only":
        write_overlay(tr, "convfinqa", "a.jsonl", [])
    elif layout == "a file":
        tr.write_text("")
    assert _build(tmp_path, sources_root, tr) == 2
    err = capsys.readouterr().err
    assert "--allow-empty" in err and str(tr) in err and "Traceback" not in err
    if layout == "a file":
        assert "not a folder" in err
    assert not (tmp_path / "data").exists()  # nothing written
    if layout != "a file":
        assert _build(tmp_path, sources_root, tr, "--allow-empty") == 0
        assert read_jsonl(tmp_path / "data" / "finqa_tw_test.jsonl") == []


def test_library_build_refuses_too(tmp_path, sources_root):
    with pytest.raises(InputError, match="translations folder not found"):
        run_build(sources_root, tmp_path / "typo", tmp_path / "data", subsets=["finqa"])
    assert not (tmp_path / "data").exists()


def test_strict_rule_finding_writes_nothing(built, tmp_path, sources_root, capsys):
    tr, data = built
    before = _snapshot(data)
    bad = dict(INTC, question="以平方英尺计，全部设施中租赁设施所占的百分比是多少？")
    write_overlay(tr, "finqa", "a.jsonl", [ETR, bad])
    assert _build(tmp_path, sources_root, tr, "--strict") == 1
    assert "nothing written" in capsys.readouterr().err
    assert _snapshot(data) == before  # data files and manifest untouched
    assert _build(tmp_path, sources_root, tr) == 0  # without --strict the clean item is kept, the bad one out
    assert [r["source"]["orig_id"] for r in read_jsonl(data / "finqa_tw_test.jsonl")] == [ETR["id"]]


def test_a_shrinking_build_is_named_and_needs_allow_shrink_when_strict(built, tmp_path, sources_root, capsys):
    tr, data = built
    before = _snapshot(data)
    write_overlay(tr, "finqa", "a.jsonl", [ETR])  # INTC's overlay is gone
    assert _build(tmp_path, sources_root, tr, "--strict") == 1
    err = capsys.readouterr().err
    assert "drops 1 item(s)" in err and "finqa_tw-test-0002" in err and "--allow-shrink" in err
    assert _snapshot(data) == before
    assert _build(tmp_path, sources_root, tr, "--strict", "--allow-shrink") == 0
    assert [r["id"] for r in read_jsonl(data / "finqa_tw_test.jsonl")] == ["finqa_tw-test-0001"]
    # a growing build is not a shrink; a plain build only notes the drop
    write_overlay(tr, "finqa", "a.jsonl", [ETR, INTC])
    assert _build(tmp_path, sources_root, tr, "--strict") == 0
    write_overlay(tr, "finqa", "a.jsonl", [INTC])
    assert _build(tmp_path, sources_root, tr) == 0
    assert "note: this build drops 1 item(s)" in capsys.readouterr().err


def test_a_full_disk_mid_build_changes_nothing(built, tmp_path, sources_root, monkeypatch, capsys):
    import tempfile

    tr, data = built
    write_overlay(tr, "finqa", "a.jsonl", [ETR])
    before = _snapshot(data)
    real = tempfile.mkstemp

    def full(*args, prefix="", **kw):  # the data file is written; the manifest's temporary hits ENOSPC
        if prefix.startswith(".build_manifest.json"):
            raise OSError(errno.ENOSPC, "No space left on device", str(kw.get("dir")))
        return real(*args, prefix=prefix, **kw)

    monkeypatch.setattr(tempfile, "mkstemp", full)
    assert _build(tmp_path, sources_root, tr, "--allow-shrink") == 2
    err = capsys.readouterr().err
    assert "No space left on device" in err and "nothing was changed" in err and "Traceback" not in err
    assert _snapshot(data) == before  # the new data file was not swapped in without its manifest
    assert not list(data.glob(".*.tmp"))
    monkeypatch.setattr(tempfile, "mkstemp", real)
    assert _build(tmp_path, sources_root, tr) == 0
    manifest = json.loads((data / "build_manifest.json").read_text(encoding="utf-8"))
    assert manifest["finqa"]["translated"] == 1 == len(read_jsonl(data / "finqa_tw_test.jsonl"))


def test_an_unwritable_output_folder_is_a_clear_error(tmp_path, sources_root, capsys):
    tr = tmp_path / "tr"
    write_overlay(tr, "finqa", "a.jsonl", [ETR])
    blocker = tmp_path / "data"
    blocker.write_text("a file where the output folder should be")
    assert _build(tmp_path, sources_root, tr) == 2
    err = capsys.readouterr().err
    assert "cannot write the build output" in err and "Traceback" not in err
    assert blocker.read_text() == "a file where the output folder should be"
