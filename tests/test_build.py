"""Overlays → records: the build keeps only complete, rule-clean items, names file:line:id on bad input,
and never leaves data/ half-written."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tw_fin_eval.build import run_build
from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import read_jsonl

REPO = Path(__file__).resolve().parent.parent

ETR_TABLE = [
    ["", "金額（百萬）"],
    ["2014 年淨營收", "$ 5735"],
    ["零售電價", "187"],
    ["用電量／天候", "95"],
    ["Waterford 3 號機組蒸汽產生器更換準備", "-32 ( 32 )"],
    ["MISO 遞延", "-35 ( 35 )"],
    ["路易斯安那州業務合併之客戶抵減", "-107 ( 107 )"],
    ["其他", "-14 ( 14 )"],
    ["2015 年淨營收", "$ 5829"],
]
ETR = {"id": "ETR/2016/page_23.pdf-2", "question": "Entergy Corporation 在 2015 年的淨營收淨變動是多少？",
       "table": ETR_TABLE, "evidence": {}}
INTC = {
    "id": "INTC/2015/page_41.pdf-4",
    "question": "以平方英尺計，全部設施中租賃設施所占的百分比是多少？",
    "table": [["（平方英尺，百萬）", "美國", "其他國家", "合計"], ["自有設施 1", "30.7", "17.2", "47.9"],
              ["租賃設施 2", "2.1", "6.0", "8.1"], ["設施合計", "32.8", "23.2", "56.0"]],
    "evidence": {},
}


def write_overlay(folder: Path, subset: str, name: str, lines: list) -> Path:
    path = folder / subset / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x, ensure_ascii=False)) + "\n" for x in lines),
                    encoding="utf-8")
    return path


def test_build_merges_overlay_into_records(tmp_path, sources_root):
    tr = tmp_path / "translations"
    write_overlay(tr, "finqa", "0001-0002.jsonl", [ETR, INTC])
    out = tmp_path / "data"
    results = run_build(sources_root, tr, out, subsets=["finqa"])
    assert results[0].line().startswith("FinQA-TW")
    assert len(results[0].records) == 2 and results[0].untranslated == 1145 and not results[0].failing
    recs = read_jsonl(out / "finqa_tw_test.jsonl")
    first = recs[0]
    assert first["id"] == "finqa_tw-test-0001" and first["source"]["orig_id"] == "ETR/2016/page_23.pdf-2"
    assert first["answer_value"] == 94.0 and first["task_type"] == "numeric" and first["lang"] == "zh-TW"
    # the record's table is the overlay's as a Taiwan table prints it: separators, FinQA's duplicates once
    assert first["context"]["table"][1] == ["2014 年淨營收", "$ 5,735"] and first["context"]["setting"] == "gold_evidence"
    assert first["context"]["table"][4] == ["Waterford 3 號機組蒸汽產生器更換準備", "-32"]
    assert [row[0] for row in first["context"]["table"]] == [row[0] for row in ETR_TABLE]
    # table evidence is rendered from that table, in the English evidence's order
    assert first["context"]["evidence"] == ["2014 年淨營收為 5,735（單位：百萬美元）。", "2015 年淨營收為 5,829（單位：百萬美元）。"]
    assert [e["key"] for e in first["original_en"]["evidence"]] == ["table_1", "table_8"]
    assert first["messages"][-1]["content"].endswith("問題：" + ETR["question"])
    assert "| 2014 年淨營收 | $ 5,735 |" in first["messages"][-1]["content"]
    assert "答案：" in first["messages"][0]["content"]
    manifest = json.loads((out / "build_manifest.json").read_text(encoding="utf-8"))
    assert manifest["finqa"]["translated"] == 2 and manifest["finqa"]["excluded"] == []


def test_rule_failures_keep_the_item_out(tmp_path, sources_root):
    tr = tmp_path / "translations"
    bad = dict(INTC, question="以平方英尺计，全部设施中租赁设施所占的百分比是多少？")  # Simplified characters
    write_overlay(tr, "finqa", "a.jsonl", [ETR, bad])
    res = run_build(sources_root, tr, tmp_path / "data", subsets=["finqa"])[0]
    assert [r["source"]["orig_id"] for r in res.records] == ["ETR/2016/page_23.pdf-2"]
    assert res.failing_ids == ["INTC/2015/page_41.pdf-4"]
    assert {i.rule for i in res.failing} >= {"simplified"}
    assert all(i.line == 2 and i.field == "question" for i in res.failing)


@pytest.mark.parametrize(
    "line, message",
    [
        ("{not json", r"a\.jsonl:2: broken JSON"),
        (json.dumps(dict(INTC, id="NOPE/2015/page_1.pdf-1")), r"a\.jsonl:2 id=NOPE/2015/page_1\.pdf-1: unknown finqa"),
        (json.dumps(ETR), r"a\.jsonl:2 id=ETR/2016/page_23\.pdf-2: duplicate id"),
        (json.dumps(dict(INTC, table=INTC["table"][:-1])), r"a\.jsonl:2 id=INTC/2015/page_41\.pdf-4 field=table"),
        (json.dumps(dict(INTC, evidence={"text_0": "多出的證據"})),
         r"field=evidence: evidence keys must be the English text evidence keys.*unknown \['text_0'\]"),
        # a written row sentence for a row that is not the item's table evidence
        (json.dumps(dict(INTC, evidence={"table_1": "自有設施合計 47.9 百萬平方英尺。"})),
         r"field=evidence: .*unknown \['table_1'\]"),
        (json.dumps({k: v for k, v in INTC.items() if k != "question"}), r"field=question: missing"),
    ],
)
def test_bad_overlay_stops_the_build_and_keeps_old_data(tmp_path, sources_root, line, message):
    tr = tmp_path / "translations"
    out = tmp_path / "data"
    write_overlay(tr, "finqa", "a.jsonl", [ETR])
    run_build(sources_root, tr, out, subsets=["finqa"])
    before = (out / "finqa_tw_test.jsonl").read_bytes()
    write_overlay(tr, "finqa", "a.jsonl", [ETR, line])
    with pytest.raises(InputError, match=message):
        run_build(sources_root, tr, out, subsets=["finqa"])
    assert (out / "finqa_tw_test.jsonl").read_bytes() == before
    assert not list(out.glob(".*.tmp"))


def test_convfinqa_record_turns(tmp_path, sources_root):
    from tw_fin_eval.subsets import load_subset
    from tw_fin_eval.todo import english_overlay

    item = load_subset("convfinqa", sources_root)[0]
    en = english_overlay(item)
    zh = {
        "id": en["id"],
        "turns": ["2007 年每股加權平均行使價格是多少？", "那 2005 年呢？", "那麼，這幾年間的變動是多少？",
                  "2005 年每股加權平均行使價格是多少？", "這個變動相對於 2005 年的每股加權平均行使價格占多少比例？"],
        "table": [["", "2007", "2006", "2005"], ["每股加權平均行使價格", "$ 60.94", "$ 37.84", "$ 25.14"],
                  ["預期每股年度股利", "$ 0.96", "$ 0.80", "$ 0.66"], ["預期存續年數", "5.0", "5.1", "5.5"],
                  ["預期波動率", "27% ( 27 % )", "28% ( 28 % )", "28% ( 28 % )"],
                  ["無風險利率", "4.1% ( 4.1 % )", "5.0% ( 5.0 % )", "3.8% ( 3.8 % )"],
                  ["當年度給與之股票選擇權獎酬於給與日之加權平均公允價值", "$ 17.24", "$ 10.19", "$ 6.15"]],
        "evidence": {},
    }
    assert set(zh) == set(en) and len(zh["turns"]) == len(en["turns"])
    write_overlay(tmp_path / "tr", "convfinqa", "0001.jsonl", [zh])
    res = run_build(sources_root, tmp_path / "tr", tmp_path / "data", subsets=["convfinqa"])[0]
    assert not res.failing, [i.format() for i in res.failing]
    rec = res.records[0]
    assert rec["id"] == "convfinqa_tw-dev-0001" and rec["subcategory"] == "單題拆解"
    assert [t["answer_value"] for t in rec["turns"]] == [60.94, 25.14, 35.8, 25.14, 1.42403]
    assert rec["turns"][1]["question"] == "那 2005 年呢？" and rec["turns"][1]["question_en"] == "and what was it in 2005?"
    assert rec["messages"][1]["content"] == rec["first_user_prefix"] + zh["turns"][0]
    assert res.extra["turns"] == "5/1,490"


def test_cli_build_and_check_zh_exit_codes(tmp_path, sources_root):
    tr = tmp_path / "translations"
    write_overlay(tr, "finqa", "a.jsonl", [ETR])
    env_cmd = [sys.executable, "-m", "tw_fin_eval"]
    ok = subprocess.run([*env_cmd, "build", "--subset", "finqa", "--translations", str(tr), "--out", str(tmp_path / "d"),
                         "--sources", str(sources_root)], capture_output=True, text=True, cwd=REPO)
    assert ok.returncode == 0, ok.stderr
    assert "FinQA-TW" in ok.stdout and "1/1,147 items translated, 0 failing" in ok.stdout
    write_overlay(tr, "finqa", "a.jsonl", [ETR, "{oops"])
    bad = subprocess.run([*env_cmd, "build", "--subset", "finqa", "--translations", str(tr), "--out", str(tmp_path / "d"),
                          "--sources", str(sources_root)], capture_output=True, text=True, cwd=REPO)
    assert bad.returncode == 2 and "a.jsonl:2" in bad.stderr
    text = tmp_path / "notes.txt"
    text.write_text("財務報表的品質\n这个软件的质量\n", encoding="utf-8")
    chk = subprocess.run([*env_cmd, "check-zh", str(text)], capture_output=True, text=True, cwd=REPO)
    assert chk.returncode == 1 and "notes.txt:2" in chk.stdout and "notes.txt:1" not in chk.stdout


def test_check_zh_recognises_an_overlay_copy_outside_translations(tmp_path, sources_root):
    copy = write_overlay(tmp_path, "elsewhere", "batch.jsonl", [ETR, dict(INTC, question="租赁设施占多少？")])
    from tw_fin_eval.zhcheck.cli import check_paths

    files, issues = check_paths([str(copy)], str(sources_root))
    assert files == 1
    assert {(i.item_id, i.field, i.rule) for i in issues} >= {("INTC/2015/page_41.pdf-4", "question", "simplified")}
    assert all(i.line == 2 for i in issues)
    # numeral-only cells must stay identical: a changed number is a rule finding naming line and cell …
    bad = dict(ETR, table=[row[:] for row in ETR_TABLE])
    bad["table"][1][1] = "$ 5753"
    copy = write_overlay(tmp_path, "elsewhere", "bad.jsonl", [bad])
    _, issues = check_paths([str(copy)], str(sources_root))
    assert [(i.line, i.field, i.rule) for i in issues] == [(1, "table", "table_cell")]
    assert "第 1 列第 1 欄" in issues[0].message and "$ 5735" in issues[0].message
    # … while a table of the wrong shape is a structural error that stops the check
    bad["table"] = bad["table"][:-1]
    copy = write_overlay(tmp_path, "elsewhere", "bad.jsonl", [bad])
    with pytest.raises(InputError, match=r"bad\.jsonl:1 id=ETR/2016/page_23\.pdf-2 field=table"):
        check_paths([str(copy)], str(sources_root))


def test_check_zh_on_built_records(tmp_path, sources_root):
    from tw_fin_eval.zhcheck.cli import check_jsonl

    write_overlay(tmp_path / "tr", "finqa", "a.jsonl", [ETR, INTC])
    out = tmp_path / "data"
    run_build(sources_root, tmp_path / "tr", out, subsets=["finqa"])
    path = out / "finqa_tw_test.jsonl"
    assert check_jsonl(path) == []  # gold answers and original_en.answer are not translations
    recs = read_jsonl(path)
    recs[1]["question"] = "租赁设施占多少？"
    recs[0]["context"]["table"][2][1] = "188"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8")
    found = {(i.line, i.field, i.rule) for i in check_jsonl(path)}
    assert (2, "question", "simplified") in found
    assert (1, "context.table", "table_cell") in found


def test_full_build_writes_every_subset_and_finsearchcomp(tmp_path, sources_root):
    from tw_fin_eval.paths import TRANSLATIONS_DIR
    from tw_fin_eval.zhcheck.cli import check_jsonl

    results = run_build(sources_root, TRANSLATIONS_DIR, tmp_path)
    by = {r.subset: r for r in results}
    assert set(by) == {"finqa", "convfinqa", "financeagent", "finchain", "finsearchcomp"}
    assert len(by["finchain"].records) == 2900 and len(by["finsearchcomp"].records) == 635
    fsc = read_jsonl(tmp_path / "finsearchcomp.jsonl")
    assert {r["lang"] for r in fsc} == {"zh-CN", "en"}
    assert check_jsonl(tmp_path / "finsearchcomp.jsonl") == []  # original-language records are not zh-TW-checked
    manifest = json.loads((tmp_path / "build_manifest.json").read_text(encoding="utf-8"))
    assert manifest["finsearchcomp"]["translated"] == 635 and manifest["finqa"]["translated"] == 1147
