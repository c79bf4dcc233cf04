"""convert-finllm450 reads only the header's columns and stops after a run of empty rows (issue 17 point 11):
a tiny workbook whose used range spans the whole sheet (cells A1 and XFD1048576) is refused in seconds, not
minutes, and stray cells far below the questions are listed, never read as questions."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

openpyxl = pytest.importorskip("openpyxl")

from tests.test_finllm450_synth import ROWS, SHEET, write_workbook  # noqa: E402
from tw_fin_eval.sources import finllm450 as conv  # noqa: E402
from tw_fin_eval.sources.finllm450.workbook import EMPTY_RUN  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


def test_a_sheet_spanning_every_cell_is_refused_quickly_and_in_little_memory(tmp_path):
    book = tmp_path / "corners.xlsx"
    wb = openpyxl.Workbook()
    wb.active["A1"] = "序號"
    wb.active["XFD1048576"] = "x"
    wb.save(book)
    assert book.stat().st_size < 10_000
    # peak RSS from VmHWM (this process's own memory; ru_maxrss would include the forking pytest process)
    code = ("import re, time; from pathlib import Path; from tw_fin_eval.cli import main; t = time.perf_counter(); "
            f"rc = main(['convert-finllm450', '--xlsx', {str(book)!r}, '--out', {str(tmp_path / 'o.jsonl')!r}, "
            f"'--issues', {str(tmp_path / 'i.csv')!r}]); "
            "hwm = re.search(r'VmHWM:\\s*(\\d+)', Path('/proc/self/status').read_text()).group(1); "
            "print(rc, time.perf_counter() - t, hwm)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120)
    rc, seconds, max_rss_kb = proc.stdout.split()
    assert rc == "2" and "missing headers" in proc.stderr, proc.stderr
    assert float(seconds) < 10, seconds  # was > 60 s
    assert int(max_rss_kb) < 400_000, max_rss_kb  # was 4.9 GB
    assert not (tmp_path / "o.jsonl").exists()


def test_stray_cells_far_below_are_listed_not_read(tmp_path):
    book = write_workbook(tmp_path / "book.xlsx")
    wb = openpyxl.load_workbook(book)
    ws = wb[SHEET]
    ws.cell(1_048_576, 16_384, "far corner")  # outside the header's columns: never read
    ws.cell(1_000_000, 2, "stray")  # in a header column, below a long blank run: listed
    wb.save(book)
    start = time.perf_counter()
    sheet = conv.read_sheet(book)
    result = conv.convert(sheet)
    assert time.perf_counter() - start < 10
    assert len(result.records) == len(ROWS)
    assert sheet.trailing is not None and sheet.trailing[0] == "B1000000" and sheet.trailing[1] == 1
    unread = [p for p in result.problems if p.kind == "unread_cells"]
    assert len(unread) == 1 and "B1000000" in unread[0].problem and f"連續 {EMPTY_RUN} 列空白" in unread[0].problem
    assert unread[0].row()[0] == ""  # no 序號: it concerns the sheet


def test_blank_rows_inside_the_questions_are_skipped_not_a_stop(tmp_path):
    gap = [{}] * (EMPTY_RUN - 1)
    rows = ROWS[:2] + gap + ROWS[2:]
    book = write_workbook(tmp_path / "gap.xlsx", rows)
    result = conv.convert(conv.read_sheet(book))
    assert len(result.records) == len(ROWS) and not [p for p in result.problems if p.kind == "unread_cells"]
