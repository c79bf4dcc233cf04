"""All-or-nothing outputs: `AtomicFiles` and the scorer's report files. A write failure (a full disk)
changes no file and leaves no temporary; the scorer says so and exits 2 without a traceback."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from tests.test_scoring_cli import gold_runs, write_jsonl
from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.jsonl import AtomicFiles
from tw_fin_eval.scoring import samples


def fail_nth_fsync(monkeypatch, n: int) -> None:
    real = os.fsync
    calls = {"n": 0}

    def fsync(fd: int) -> None:
        calls["n"] += 1
        if calls["n"] == n:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)


def test_atomic_files_replace_all_together(tmp_path: Path):
    with AtomicFiles() as out:
        out.write_text(tmp_path / "a.txt", "new a")
        out.write_text(tmp_path / "sub" / "b.txt", "new b")
        assert not (tmp_path / "a.txt").exists()  # nothing is visible before the end
    assert (tmp_path / "a.txt").read_text() == "new a"
    assert (tmp_path / "sub" / "b.txt").read_text() == "new b"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a.txt", "b.txt", "sub"]


@pytest.mark.parametrize("failing", [1, 2, 3])
def test_atomic_files_full_disk_changes_nothing(tmp_path: Path, monkeypatch, failing: int):
    for name in "abc":
        (tmp_path / f"{name}.txt").write_text(f"old {name}")
    fail_nth_fsync(monkeypatch, failing)
    with pytest.raises(OSError, match="No space"):
        with AtomicFiles() as out:
            for name in "abc":
                out.write_text(tmp_path / f"{name}.txt", f"new {name}")
    assert {p.name: p.read_text() for p in tmp_path.iterdir()} == {f"{n}.txt": f"old {n}" for n in "abc"}


def test_an_exception_in_the_caller_changes_nothing(tmp_path: Path):
    (tmp_path / "a.txt").write_text("old")
    with pytest.raises(RuntimeError):
        with AtomicFiles() as out:
            out.write_text(tmp_path / "a.txt", "new")
            raise RuntimeError("render failed")
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"] and (tmp_path / "a.txt").read_text() == "old"


def test_scorer_full_disk_keeps_the_previous_report_and_exits_2(tmp_path: Path, monkeypatch, capsys):
    data = write_jsonl(tmp_path / "data.jsonl", samples.sample_records())
    runs = write_jsonl(tmp_path / "runs.jsonl", gold_runs())
    out = tmp_path / "rep"
    assert cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(out), "--quiet"]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert len(before) >= 3
    write_jsonl(runs, gold_runs(exclude={("finqa_tw-test-0001", None)}))  # a different report now
    capsys.readouterr()
    fail_nth_fsync(monkeypatch, len(before))  # the last file's fsync fails
    rc = cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert rc == 2
    assert "cannot write the report" in err and "No space left" in err and "Traceback" not in err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # same files, same bytes, no temporaries


def test_scorer_out_below_a_file_is_a_clear_error(tmp_path: Path, capsys):
    data = write_jsonl(tmp_path / "data.jsonl", samples.sample_records())
    runs = write_jsonl(tmp_path / "runs.jsonl", gold_runs())
    blocker = tmp_path / "file"
    blocker.write_text("x")
    rc = cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(blocker / "rep"), "--quiet"])
    err = capsys.readouterr().err
    assert rc == 2 and "cannot write the report" in err and "Traceback" not in err
