"""The checker's findings are data (rule, code, found, fix): callers read those fields, never the message
text, and record rows are checked in memory through the library."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tw_fin_eval.finding import Finding, Issue
from tw_fin_eval.zhcheck.rules import check_translation, convention_issues, table_issues

REPO = Path(__file__).resolve().parent.parent


def test_codes_name_the_kind_of_problem():
    assert Finding("prc_term", "m", "t").code == "prc_term"  # a one-kind rule: the rule itself
    codes = {f.code for f in convention_issues("2015年12月31日 與 December 31", "december 31 , 2015")}
    assert {"date_spacing", "month_name"} <= codes
    to = [f for f in convention_issues("5 to 10", in_table=True) if f.code == "table_to"]
    assert to and to[0].found == "to" and to[0].fix == "至"
    shape = table_issues([["a", "b"], ["1", "2"]], [["甲", "乙"]])
    assert [f.code for f in shape] == ["table_rows"]
    assert [f.code for f in table_issues([["a", "b"]], [["甲"]])] == ["table_columns"]
    cell = table_issues([["net revenue", "5"]], [["淨營收", "6"]])
    assert [(f.code, f.found, f.fix) for f in cell] == [("table_cell", "6", "5")]


def test_table_to_is_found_by_code_not_by_message(monkeypatch):
    """check_translation drops the residue finding for a table "to" the convention rule reports; it must
    recognise that finding by its code, whatever the message says."""
    from tw_fin_eval.zhcheck import rules

    real = rules.convention_issues

    def reworded(*args, **kwargs):
        return [Finding(f.rule, "reworded message", f.text, f.found, f.fix, f.code) for f in real(*args, **kwargs)]

    monkeypatch.setattr(rules, "convention_issues", reworded)
    found = check_translation("5 to 10", "5 to 10", in_table=True)
    assert [f.code for f in found] == ["table_to"]  # no extra english_residue finding for "to"


def test_finllm450_problems_use_the_structured_fields(monkeypatch):
    from tw_fin_eval.sources.finllm450 import converter as convert

    monkeypatch.setattr(convert, "find_prc_terms", lambda text: [
        Finding("prc_term", "a message in any wording", "…杠杆比率…", found="杠杆", fix="槓桿")])
    monkeypatch.setattr(convert, "find_simplified", lambda text: [
        Finding("simplified", "wording changed", "…杠杆…", found="杠", fix="槓"),  # inside the term: once
        Finding("simplified", "wording changed", "…这个…", found="这", fix="這")])
    problems = convert._zh_problems(7, "題目", "這段文字")
    assert [(p.problem, p.fix, p.kind) for p in problems] == [
        ("中國用語「杠杆」（…杠杆比率…）", "改用「槓桿」", "prc_term"),
        ("簡體字「这」（…这个…）", "改為「這」", "simplified"),
    ]


def test_issue_carries_the_finding_fields():
    f = Finding("simplified", "簡體字「软」→ 改用繁體「軟」", "软件", found="软", fix="軟")
    issue = Issue.of(f, path=Path("a.jsonl"), line=3, item_id="x", field="question")
    assert (issue.path, issue.line, issue.code, issue.found, issue.fix) == ("a.jsonl", 3, "simplified", "软", "軟")
    assert issue.format().startswith("a.jsonl:3 id=x field=question [simplified]")


def test_records_are_checked_in_memory():
    from tw_fin_eval.zhcheck.records import check_records

    rows = [{"id": "r1", "dataset": "FinQA-TW", "lang": "zh-TW", "question": "租赁设施占多少？",
             "original_en": {"question": "what share of facilities is leased?"}, "messages": []},
            {"id": "r2", "dataset": "FinSearchComp", "lang": "zh-CN", "question": "这个", "messages": []},
            {"id": "r3", "dataset": "FinanceAgent-TW", "lang": "zh-TW", "question": "營收成長多少？",
             "answer": "营收成长 5%。", "original_en": {"question": "How much did revenue grow?",
                                                    "answer": "Revenue grew 5%."}, "messages": []}]
    found = [(i.line, i.item_id, i.field, i.rule) for i in check_records(rows)]
    assert (1, "r1", "question", "simplified") in found
    assert not any(i == "r2" for _, i, _, _ in found)  # not zh-TW: not checked
    assert (3, "r3", "answer", "simplified") in found  # FinanceAgent's answer is a translation …
    rows[0]["answer"] = "营收"  # … FinQA's answer is a gold value, never checked as a translation
    rows[0]["original_en"]["answer"] = "x"
    assert not any(i.field == "answer" and i.item_id == "r1" for i in check_records(rows))


def test_release_checks_do_not_go_through_the_cli_module(tmp_path):
    code = ("import sys; from tw_fin_eval.release.verify import zh_findings; "
            f"assert zh_findings({str(tmp_path)!r}) == []; "
            "assert 'tw_fin_eval.zhcheck.cli' not in sys.modules, 'release imported the CLI module'")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stderr


def test_a_bare_year_header_may_take_its_groups_name_and_nothing_else():
    """FinQA flattened 「bermuda subsidiaries 2008 | … | 2006」: the last header is a bare year; the zh header may
    name it like its siblings (「2006 年美國子公司」), but not change its year, add a figure, or touch a data row."""
    en = [["( in millions )", "bermuda subsidiaries 2007", "2006"], ["statutory net income", "$ 1535", "$ 724"]]
    ok = [["（百萬美元）", "2007 年百慕達子公司", "2006 年美國子公司"], ["法定淨利", "$ 1535", "$ 724"]]
    assert table_issues(en, ok) == []
    for bad in ("2007 年美國子公司", "2006 年 12 月美國子公司", "美國子公司"):
        zh = [ok[0][:2] + [bad], ok[1]]
        assert [f.code for f in table_issues(en, zh)] == ["table_cell"], bad
    data_row = [["", "2006"], ["2006", "5"]]
    assert [f.code for f in table_issues(data_row, [["", "2006"], ["2006 年美國子公司", "5"]])] == ["table_cell"]
