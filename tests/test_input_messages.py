"""Messages say what is wrong (issue 17 point 12): a wrong type in an overlay is not an "empty translation",
a folder is not "file not found", and every message names the file, line, id and field."""

from __future__ import annotations

import json

import pytest

from tests.test_build import ETR, INTC, write_overlay
from tw_fin_eval.build import run_build
from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import read_jsonl

ADI = "ADI/2011/page_61.pdf-2"  # a FinQA item with one text evidence sentence (text_22)


def _finqa(tmp_path, sources_root, line: dict) -> None:
    write_overlay(tmp_path / "tr", "finqa", "a.jsonl", [ETR, line])
    run_build(sources_root, tmp_path / "tr", tmp_path / "data", subsets=["finqa"])


@pytest.mark.parametrize("change, field, message", [
    ({"question": 5}, "question", "expected a string, got number"),
    ({"question": ["a"]}, "question", "expected a string, got list"),
    ({"question": "  "}, "question", "empty translation"),
    ({"question": None}, "question", "expected a string, got null"),
    ({"table": "表"}, "table", "expected a list, got string"),
    ({"table": [["（平方英尺，百萬）", 1, "其他國家", "合計"]]}, r"table\[0\]\[1\]", "a table cell must be a string, got number"),
    ({"table": ["row"]}, r"table\[0\]", "a table row must be a list of strings, got string"),
    ({"evidence": []}, "evidence", "expected an object, got list"),
])
def test_overlay_type_errors_say_what_is_wrong(tmp_path, sources_root, change, field, message):
    with pytest.raises(InputError, match=rf"a\.jsonl:2 id={INTC['id']} field={field}: {message}") as info:
        _finqa(tmp_path, sources_root, {**INTC, **change})
    assert "empty translation" not in str(info.value) or message == "empty translation"


def test_evidence_and_list_items_say_which_one(tmp_path, sources_root):
    from tw_fin_eval.subsets import load_subset

    adi = next(it for it in load_subset("finqa", sources_root) if it.source_id == ADI)
    line = {"id": ADI, "question": "問題？", "table": adi.table, "evidence": {"text_22": 7}}
    with pytest.raises(InputError, match=r"field=evidence\.text_22: expected a string, got number"):
        _finqa(tmp_path, sources_root, line)
    with pytest.raises(InputError, match=r"field=evidence\.text_22: empty translation"):
        _finqa(tmp_path, sources_root, {**line, "evidence": {"text_22": ""}})
    fa = load_subset("financeagent", sources_root)[0]
    n = len(fa.fields["rubric"])
    base = {"id": fa.source_id, "question": "問題？", "answer": "答案。"}
    for rubric, field, message in [
        ([1] + ["準則"] * (n - 1), r"rubric\[0\]", "expected a string, got number"),
        (["準則"] * (n - 1) + [""], rf"rubric\[{n - 1}\]", "empty translation"),
        (["準則"] * (n + 1), "rubric", f"needs {n} rubric criteria"),
    ]:
        write_overlay(tmp_path / "tr", "financeagent", "a.jsonl", [{**base, "rubric": rubric}])
        with pytest.raises(InputError, match=rf"a\.jsonl:1 id={fa.source_id} field={field}: {message}"):
            run_build(sources_root, tmp_path / "tr", tmp_path / "data", subsets=["financeagent"])


def test_a_folder_is_not_file_not_found(tmp_path, sources_root, capsys):
    folder = tmp_path / "runs.jsonl"
    folder.mkdir()
    with pytest.raises(InputError, match="runs.jsonl: is a folder, not a file"):
        read_jsonl(folder)
    with pytest.raises(InputError, match="file not found"):
        read_jsonl(tmp_path / "nothing.jsonl")
    book = tmp_path / "book.xlsx"
    book.mkdir()
    assert cli_main(["convert-finllm450", "--xlsx", str(book), "--out", str(tmp_path / "o.jsonl"),
                     "--issues", str(tmp_path / "i.csv")]) == 2
    assert "book.xlsx: is a folder, not a workbook" in capsys.readouterr().err
    a_file = tmp_path / "sources.txt"
    a_file.write_text("")
    assert cli_main(["build", "--sources", str(a_file)]) == 2
    assert "sources.txt: is a file, not a sources folder" in capsys.readouterr().err
    data = tmp_path / "data"
    (data / "finqa_tw_test.jsonl").mkdir(parents=True)
    from tw_fin_eval.release.validate import load_records
    from tw_fin_eval.subsets import get_spec

    with pytest.raises(InputError, match="finqa_tw_test.jsonl: is a folder, not a data file"):
        load_records(data, get_spec("finqa"))
    (tmp_path / "src" / "finqa").mkdir(parents=True)
    (tmp_path / "src" / "finqa" / "test_core.json").mkdir()
    with pytest.raises(InputError, match="test_core.json: is a folder, not a source file"):
        get_spec("finqa").load_source(tmp_path / "src")


def test_a_non_object_overlay_line_names_its_line(tmp_path, sources_root):
    write_overlay(tmp_path / "tr", "finqa", "a.jsonl", [ETR, json.dumps([1, 2])])
    with pytest.raises(InputError, match=r"a\.jsonl:2: expected a JSON object, got list"):
        run_build(sources_root, tmp_path / "tr", tmp_path / "data", subsets=["finqa"])
