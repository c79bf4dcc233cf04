"""Second reads: agreement (status, and for fixed the value), the disagreement rate, folding into the verdict
files without touching the final verdicts, and clear errors (file:line:id) on bad second-read files."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import read_jsonl
from tw_fin_eval.subsets import load_subset
from tw_fin_eval.verification.second import compare, fold, summary
from tw_fin_eval.verification.verdicts import load_verdicts

REPO = Path(__file__).resolve().parent.parent
V1 = {"id": "finqa_tw-test-0001", "turn": None, "status": "verified", "reason": None, "note": "", "reader": "a"}
F6 = {"id": "finqa_tw-test-0006", "turn": None, "status": "fixed", "reason": "wrong_operand", "note": "years",
      "reader": "a", "program": "subtract(100690000, 92710000), divide(#0, 92710000)", "answer_value": 0.08607}
U2 = {"id": "finqa_tw-test-0002", "turn": None, "status": "unanswerable", "reason": "other", "note": "x", "reader": "a"}
C0 = {"id": "convfinqa_tw-dev-0001", "turn": 0, "status": "verified", "reason": None, "note": "", "reader": "a"}


@pytest.fixture(scope="module")
def items(sources_root):
    return {s: load_subset(s, sources_root) for s in ("finqa", "convfinqa")}


def lines(path: Path, rows: list) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n" for r in rows),
                    encoding="utf-8")
    return path


@pytest.fixture
def firsts(tmp_path):
    ver = tmp_path / "ver"
    lines(ver / "finqa" / "0001-0010.jsonl", [V1, U2, F6])
    lines(ver / "convfinqa" / "0001-0001.jsonl", [C0])
    return ver


def test_agreement_rate_and_kinds(tmp_path, items, firsts):
    reads = lines(tmp_path / "b.jsonl", [
        {**V1, "reader": "b"},                                   # agree
        {**F6, "reader": "b", "reason": "swapped_years"},        # agree: same value, other reason
        {**U2, "reader": "b", "status": "verified", "reason": None},  # disagree
        {**C0, "reader": "b", "status": "fixed", "reason": "other", "note": "n", "program": "37.84",
         "answer_value": 37.84},                                 # disagree
    ])
    cs = compare(items, firsts, [reads])
    assert [c.agree for c in cs] == [True, True, False, False]
    text = "\n".join(summary(cs))
    assert "second reads: 4 read, 2 disagree (50.0%)" in text
    assert "finqa      3 read, 1 disagree (33.3%)" in text and "convfinqa  1 read, 1 disagree (100.0%)" in text
    assert "unanswerable→verified 1" in text and "verified→fixed 1" in text
    assert "convfinqa_tw-dev-0001 t0" in text and "fixed 37.84" in text


def test_a_different_corrected_value_is_a_disagreement(tmp_path, items, firsts):
    other = {**F6, "reader": "b", "program": "subtract(100690000, 86842000), divide(#0, 86842000)",
             "answer_value": 0.15946}
    cs = compare(items, firsts, [lines(tmp_path / "b.jsonl", [other])])
    assert not cs[0].agree


@pytest.mark.parametrize("row, message", [
    ({**V1, "reader": "a"}, "by the first reader"),
    ({**V1, "id": "finqa_tw-test-0003", "reader": "b"}, "no first read"),
    ({**V1, "reader": "b", "status": "maybe"}, "status must be one of"),
])
def test_bad_second_reads_name_file_line_and_id(tmp_path, items, firsts, row, message):
    path = lines(tmp_path / "b.jsonl", [{**C0, "reader": "b"}, row])
    with pytest.raises(InputError, match=message) as err:
        compare(items, firsts, [path])
    assert f"{path}:2" in str(err.value)


def test_duplicates_across_files(tmp_path, items, firsts):
    a = lines(tmp_path / "b1.jsonl", [{**V1, "reader": "b"}])
    b = lines(tmp_path / "b2.jsonl", [{**V1, "reader": "c"}])
    with pytest.raises(InputError, match=r"duplicate second read \(first at .*b1.jsonl:1\)"):
        compare(items, firsts, [a, b])


def test_fold_writes_second_read_and_keeps_the_final_verdicts(tmp_path, items, firsts):
    reads = lines(tmp_path / "b.jsonl", [{**U2, "reader": "b", "status": "verified", "reason": None, "note": "ok"},
                                         {**F6, "reader": "b", "note": "same"}])
    before = load_verdicts("finqa", items["finqa"], firsts)
    assert fold(compare(items, firsts, [reads]), firsts) == 2
    after = load_verdicts("finqa", items["finqa"], firsts)  # still valid verdict files
    assert {k: v.status for k, v in after.items()} == {k: v.status for k, v in before.items()}
    rows = read_jsonl(firsts / "finqa" / "0001-0010.jsonl")
    assert [r["id"] for r in rows] == ["finqa_tw-test-0001", "finqa_tw-test-0002", "finqa_tw-test-0006"]
    assert "second_read" not in rows[0]
    assert rows[1]["second_read"] == {"reader": "b", "status": "verified", "agree": False, "note": "ok"}
    assert rows[2]["second_read"]["agree"] is True and rows[2]["second_read"]["note"].startswith("fixed 0.08607 via")
    assert fold(compare(items, firsts, [reads]), firsts) == 0  # idempotent


def test_fold_keeps_untouched_lines_byte_for_byte(tmp_path, items, firsts):
    path = firsts / "finqa" / "0001-0010.jsonl"
    odd = '{"id":"finqa_tw-test-0001","turn":null,"status":"verified","reason":null,"note":"","reader":"a"}'
    text = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([odd, *text[1:]]) + "\n", encoding="utf-8")  # a compact line nobody re-read
    fold(compare(items, firsts, [lines(tmp_path / "b.jsonl", [{**F6, "reader": "b", "note": "same"}])]), firsts)
    after = path.read_text(encoding="utf-8").splitlines()
    assert after[:2] == [odd, text[1]]  # untouched lines: not re-serialised
    assert after[2].startswith('{"id": "finqa_tw-test-0006", "turn": null,') and '"second_read": {' in after[2]


def test_fold_refuses_to_overwrite_another_second_read(tmp_path, items, firsts):
    fold(compare(items, firsts, [lines(tmp_path / "b.jsonl", [{**V1, "reader": "b"}])]), firsts)
    snapshot = {p: p.read_bytes() for p in firsts.rglob("*.jsonl")}
    later = compare(items, firsts, [lines(tmp_path / "c.jsonl", [{**V1, "reader": "c", "note": "again"},
                                                                   {**C0, "reader": "c"}])])
    with pytest.raises(InputError, match="already has a different second read by 'b'"):
        fold(later, firsts)
    assert {p: p.read_bytes() for p in firsts.rglob("*.jsonl")} == snapshot  # nothing half-written
    assert fold(later, firsts, replace=True) == 2


def test_cli(tmp_path, firsts):
    reads = lines(tmp_path / "b.jsonl", [{**V1, "reader": "b"}])
    run = [sys.executable, "-m", "tw_fin_eval", "verify-second", str(reads), "--verification", str(firsts)]
    p = subprocess.run(run, cwd=REPO, capture_output=True, text=True)
    assert p.returncode == 0 and "second reads: 1 read, 0 disagree (0.0%)" in p.stdout
    lines(reads, ['{"id": '])
    p = subprocess.run(run, cwd=REPO, capture_output=True, text=True)
    assert p.returncode == 2 and f"{reads}:1" in p.stderr and "Traceback" not in p.stderr
