"""FinLLM450 bad input: the converter stops with sheet, row and column named, exits 2 and writes nothing
(earlier outputs stay as they were)."""

from __future__ import annotations

import pytest

from tests.test_finllm450_synth import LAYOUT, ROWS, SHEET, rows, write_workbook
from tw_fin_eval.cli import main as cli_main


def _set(serial: int, **changes):
    def mutate(data):
        for r in data:
            if str(r["序號"]).strip().removesuffix(".0") == str(serial):
                r.update(changes)
        return data
    return mutate


def _dup_serial(data):
    data[4]["序號"] = 2
    return data


CASES = [
    # (mutation, expected pieces of the message)
    (_set(1, 正確答案="E"), ["book.xlsx:4", "id=finllm450-0001", f"sheet '{SHEET}' cell I4 (正確答案)",
                            "answer 'E' is not among the options A、B、C、D"]),
    (_set(11, 正確答案="5"), ["book.xlsx:14", "cell I14 (正確答案)", "answer '5' is not among the options 1、2、3、4"]),
    (_set(2, 正確答案="甲"), ["cell I5 (正確答案)", "answer '甲' is not option codes"]),
    (_set(5, 正確答案=None), ["book.xlsx:8", "cell I8 (正確答案)", "empty answer"]),
    (_set(6, 正確答案=None), ["cell I9 (正確答案)", "empty answer"]),
    (_set(3, 題目=None), ["book.xlsx:6", "id=finllm450-0003", "cell F6 (題目)", "empty question"]),
    (_set(10, 題型="是非題"), ["cell C13 (題型)", "unknown 題型 '是非題'"]),
    (_set(7, 能力="投資能力"), ["cell D10 (能力)", "unknown ability '投資能力'"]),
    (_set(9, 序號="九"), ["book.xlsx:12", "cell A12 (序號)", "序號 '九' is not a positive integer"]),
    (_dup_serial, ["book.xlsx:8", "cell A8 (序號)", "duplicate 序號 2 (first on row 5)"]),
    (_set(14, 是否須修正="X"), ["cell L17 (是否須修正)", "cannot read 'X' as yes/no"]),
    (_set(16, 題目="定期定額投資的主要優點是什麼？"), ["cell F19 (題目)", "no options (A)–(D) or (1)–(4) found"]),
    (_set(16, 題目="何者正確？(A)甲 (B)乙 (C)丙 (D)丁 (E)戊"), ["cell F19 (題目)", "5 options; the scorer reads A–D"]),
]


@pytest.mark.parametrize("mutate,pieces", CASES)
def test_bad_row_stops_and_writes_nothing(tmp_path, capsys, mutate, pieces):
    book = write_workbook(tmp_path / "book.xlsx", mutate(rows()))
    out, issues = tmp_path / "out.jsonl", tmp_path / "issues.csv"
    out.write_text("old\n", encoding="utf-8")  # an earlier run's output must survive a failed one
    code = cli_main(["convert-finllm450", "--xlsx", str(book), "--out", str(out), "--issues", str(issues)])
    err = capsys.readouterr().err
    assert code == 2
    for piece in pieces:
        assert piece in err, (piece, err)
    assert out.read_text(encoding="utf-8") == "old\n" and not issues.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.xlsx", "out.jsonl"]  # no temporaries left


@pytest.mark.parametrize("args,pieces", [
    (["--sheet", "題庫"], ["no sheet named '題庫'", "'說明'", f"'{SHEET}'", "'統計'"]),
    (["--sheet", "說明"], ["sheet '說明': missing headers 序號、題號、能力", "first 15 rows"]),
])
def test_sheet_errors(tmp_path, capsys, args, pieces):
    book = write_workbook(tmp_path / "book.xlsx")
    out = tmp_path / "out.jsonl"
    assert cli_main(["convert-finllm450", "--xlsx", str(book), "--out", str(out), *args]) == 2
    err = capsys.readouterr().err
    for piece in pieces:
        assert piece in err, (piece, err)
    assert not out.exists()


def test_missing_header_names_it(tmp_path, capsys):
    book = write_workbook(tmp_path / "book.xlsx", layout=[x for x in LAYOUT if x[2] != "題型"])
    assert cli_main(["convert-finllm450", "--xlsx", str(book), "--sheet", SHEET, "--out",
                     str(tmp_path / "o.jsonl")]) == 2
    assert f"sheet '{SHEET}': missing headers 題型 (best match: row 3)" in capsys.readouterr().err


def test_not_a_workbook_and_missing_file(tmp_path, capsys):
    fake = tmp_path / "fake.xlsx"
    fake.write_text("not a zip", encoding="utf-8")
    assert cli_main(["convert-finllm450", "--xlsx", str(fake), "--out", str(tmp_path / "o.jsonl")]) == 2
    assert "fake.xlsx: cannot read the workbook" in capsys.readouterr().err
    assert cli_main(["convert-finllm450", "--xlsx", str(tmp_path / "none.xlsx"), "--out",
                     str(tmp_path / "o.jsonl")]) == 2
    assert "none.xlsx: workbook not found" in capsys.readouterr().err
    assert not (tmp_path / "o.jsonl").exists()


def test_header_only_sheet_is_an_error(tmp_path, capsys):
    book = write_workbook(tmp_path / "book.xlsx", [], merged_data=[], trailing=[{}])
    assert cli_main(["convert-finllm450", "--xlsx", str(book), "--out", str(tmp_path / "o.jsonl")]) == 2
    assert "has no question rows below the header (row 3)" in capsys.readouterr().err


def test_unwritable_output_is_a_clear_error(tmp_path, capsys):
    book = write_workbook(tmp_path / "book.xlsx", ROWS[:2], merged_data=[])
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    code = cli_main(["convert-finllm450", "--xlsx", str(book), "--out", str(blocker / "o.jsonl"), "--issues",
                     str(tmp_path / "i.csv")])
    assert code == 2 and "cannot write outputs" in capsys.readouterr().err
    assert not (tmp_path / "i.csv").exists()
