"""Hand-written table row sentences (overlay `evidence.table_N`): a row said the way a Taiwan report says it
replaces the rendered sentence in the record, and the rule checker holds it to the row's figures."""

import json

import pytest

from tw_fin_eval.build import run_build
from tw_fin_eval.jsonl import read_jsonl
from tw_fin_eval.zhcheck import written_row_issues
from tw_fin_eval.zhcheck.cli import check_paths

from .test_build import INTC, write_overlay

ROW_2 = "租賃設施（百萬平方英尺）：美國 2.1、其他國家 6.0，合計 8.1。"
ROW_3 = "設施合計（百萬平方英尺）：美國 32.8、其他國家 23.2，合計 56.0。"


def _build(tmp_path, sources_root, evidence):
    tr = tmp_path / "translations"
    write_overlay(tr, "finqa", "a.jsonl", [dict(INTC, evidence=evidence)])
    results = run_build(sources_root, tr, tmp_path / "data", subsets=["finqa"])
    return results[0], tr


def test_written_row_replaces_the_rendered_sentence(tmp_path, sources_root):
    result, _ = _build(tmp_path, sources_root, {})
    rendered = result.records[0]["context"]["evidence"]
    assert len(rendered) == 2 and ROW_2 not in rendered
    result, tr = _build(tmp_path, sources_root, {"table_2": ROW_2})
    assert not result.failing
    rec = read_jsonl(tmp_path / "data" / "finqa_tw_test.jsonl")[0]
    # the written row takes its place in the English order; the other row is still rendered
    assert rec["context"]["evidence"] == [ROW_2, rendered[1]]
    assert ROW_2 in rec["messages"][-1]["content"]
    assert [e["key"] for e in rec["original_en"]["evidence"]] == ["table_2", "table_3"]
    assert check_paths([str(tr)], str(sources_root))[1] == []


@pytest.mark.parametrize(
    ("sentence", "code"),
    [
        ("租賃設施（百萬平方英尺）：美國 2.1、其他國家 6.0，合計 8.2。", "numeral_missing"),  # a figure changed
        ("租賃設施（百萬平方英尺）：美國 2.1、其他國家 6.0，合計 8.1，較去年增加 0.5。", "row_figure_extra"),
        ("租赁设施（百万平方英尺）：美国 2.1、其他国家 6.0，合计 8.1。", "simplified"),
        ("leased facilities：美國 2.1、其他國家 6.0，合計 8.1。", "english_residue"),
    ],
)
def test_a_written_row_that_breaks_a_rule_keeps_the_item_out(tmp_path, sources_root, sentence, code):
    result, tr = _build(tmp_path, sources_root, {"table_2": sentence})
    assert not result.records and result.failing
    assert {i.field for i in result.failing} == {"evidence.table_2"}
    assert code in {i.code for i in result.failing} | {i.rule for i in result.failing}
    assert check_paths([str(tr)], str(sources_root))[1]


def test_row_figures_accept_and_reject():
    en = "the total of 2008 is $ 2089 ; the total of 2009 is $ 410 ;"
    row, header = ["合計", "$ 2,089", "$ 410"], ["", "2008 年 12 月 31 日", "2009"]
    assert written_row_issues(en, row, "合計：2008 年 12 月 31 日 $ 2,089、2009 年 $ 410。", header=header) == []
    # 「12」 of the translated header is no invented figure; a sum the row does not state is
    bad = written_row_issues(en, row, "合計：2008 年 $ 2,089、2009 年 $ 410，兩年共 $ 2,499。", header=header)
    assert [(f.code, f.found) for f in bad] == [("row_figure_extra", "2499")]


@pytest.mark.parametrize(
    ("sentence", "ok"),
    [
        ("其他：2015 年為 -14。", True),
        ("其他：2015 年為 (14)。", True),
        ("其他項目使 2015 年淨營收減少 14。", True),  # the direction said in words
        ("其他：2015 年為 14。", False),
    ],
)
def test_a_negative_cell_keeps_its_sign(sentence, ok):
    found = written_row_issues("the other of 2015 is -14 ( 14 ) ;", ["其他", "-14 ( 14 )"], sentence)
    assert (found == []) is ok, found


def test_check_zh_reports_the_written_row_field(tmp_path, sources_root):
    tr = tmp_path / "translations"
    bad = dict(INTC, evidence={"table_3": "設施合計：美國 32.8、其他國家 23.2，合計 56.0，另有 9.9。"})
    write_overlay(tr, "finqa", "a.jsonl", [json.dumps(bad, ensure_ascii=False)])
    _, issues = check_paths([str(tr)], str(sources_root))
    assert [(i.field, i.code) for i in issues] == [("evidence.table_3", "row_figure_extra")]
    assert "9.9" in issues[0].format()


def test_a_row_says_its_label_and_years_once():
    # FinQA repeats "the s&p 500 index" and the header date in every clause; the written row says them once
    en = ("the s&p 500 index of 12/31/08 is $ 100 ; the s&p 500 index of 12/31/09 is $ 126.46 ; "
          "the s&p 500 index of 12/31/10 is $ 145.51 ;")
    row, header = ["標普 500 指數", "$ 100", "$ 126.46", "$ 145.51"], ["", "12/31/08", "12/31/09", "12/31/10"]
    ok = "標普 500 指數：2008 年 12 月 31 日 $ 100、2009 年 $ 126.46、2010 年 $ 145.51。"
    assert written_row_issues(en, row, ok, header=header) == []
    # a value dropped is still missing, and a year that is not the header's two-digit year is extra
    dropped = written_row_issues(en, row, "標普 500 指數：2008 年 12 月 31 日 $ 100、2009 年 $ 126.46。", header=header)
    assert {(f.code, f.found) for f in dropped} == {("numeral_missing", "10"), ("numeral_missing", "145.51")}
    wrong_year = written_row_issues(en, row, ok.replace("2010 年", "2011 年"), header=header)
    assert ("row_figure_extra", "2011") in {(f.code, f.found) for f in wrong_year}


def test_a_shared_value_is_written_for_each_cell_unless_a_word_says_so():
    en = "the base of 2014 is 100.00 ; the base of 2015 is 100.00 ; the base of 2016 is 120.5 ;"
    row, header = ["基期", "100.00", "100.00", "120.5"], ["", "2014", "2015", "2016"]
    assert written_row_issues(en, row, "基期：2014 年 100.00、2015 年 100.00、2016 年 120.5。", header=header) == []
    assert written_row_issues(en, row, "基期：2014 年及 2015 年皆為 100.00，2016 年 120.5。", header=header) == []
    once = written_row_issues(en, row, "基期：2014 年、2015 年 100.00，2016 年 120.5。", header=header)
    assert [(f.code, f.found) for f in once] == [("numeral_missing", "100.00")]


def test_footnote_markers_and_printed_dashes_may_go():
    en = "the owned facilities 1 of united states is 30.7 ; the owned facilities 1 of other countries is 2014 ;"
    en_row = ["owned facilities 1", "30.7", "2014"]
    row, header = ["自有設施（註 1）", "30.7", "—"], ["（百萬平方英尺）", "美國", "其他國家"]
    assert written_row_issues(en, row, "自有設施：美國 30.7，其他國家無。", header=header, en_row=en_row) == []
    # without the printed dash the dash code is a figure to keep
    no_dash = written_row_issues(en, ["自有設施（註 1）", "30.7", "5.0"], "自有設施：美國 30.7。", header=header,
                                 en_row=["owned facilities 1", "30.7", "5.0"])
    assert "numeral_missing" in {f.code for f in no_dash}


def test_a_figure_after_a_full_width_comma_is_its_own_figure():
    en = "the long-term debt of less than 1 year is $ 44048 ; the long-term debt of 1-3 years is $ 8 ;"
    row, header = ["長期債務", "$ 44,048", "$ 8"], ["", "1 年以內", "1-3 年"]
    assert written_row_issues(en, row, "長期債務：$ 44,048，1 年以內；$ 8，1-3 年。", header=header) == []


def test_a_dash_code_the_overlay_keeps_raw_may_be_said_as_nothing():
    """r38f: ConvFinQA overlays keep FinQA's raw dash code (「2014」) in the zh table; the record prints it 「—」, so
    the checker reads the row as printed — 「5 年以上無」 passes, a dropped real figure still fails."""
    from types import SimpleNamespace

    from tw_fin_eval.overlay import written_rows

    en_row = ["purchase obligations", "177.3", "176.6", "0.7", "2014", "2014"]
    en = ("the purchase obligations of total is 177.3 ; the purchase obligations of less than 1 year is 176.6 ; "
          "the purchase obligations of 1-3 years is 0.7 ; the purchase obligations of 3-5 years is 2014 ; "
          "the purchase obligations of more than 5 years is 2014 ;")
    header = ["（百萬美元）", "合計", "1 年以內", "1-3 年", "3-5 年", "5 年以上"]
    item = SimpleNamespace(table=[header, en_row], evidence=[SimpleNamespace(is_table=True, key="table_1", row=1, text=en)])
    said = "購買義務：合計 177.3，其中 1 年以內 176.6、1–3 年 0.7，3–5 年及 5 年以上均無（百萬美元）。"
    data = {"table": [header, ["購買義務", "177.3", "176.6", "0.7", "2014", "2014"]], "evidence": {"table_1": said}}
    [(field, en_text, row, hdr, raw, zh)] = written_rows(item, data)
    assert field == "evidence.table_1" and row[-1] == "—"
    assert written_row_issues(en_text, row, zh, header=hdr, en_row=raw) == []
    dropped = said.replace("1–3 年 0.7，", "")
    assert "numeral_missing" in {f.code for f in written_row_issues(en_text, row, dropped, header=hdr, en_row=raw)}


def test_a_calendar_year_end_may_be_said_as_the_year_or_its_quarter_and_a_month_name_as_its_number():
    """r38b/r38d: "year ended december 31 2014 1st qtr" is 「2014 年第 1 季」 and "for the years ended december 31"
    is 「2014 年度」 — the 31 need not be written; 「12 月 31 日」 for "december 31" is no extra figure. Another
    day (「september 30」) still has to be said, and a month the English does not name is still extra."""
    en = "the net earnings of year ended december 31 2014 1st qtr is 90 ; the net earnings of year ended december 31 2014 2nd qtr is 100 ;"
    row, header = ["淨利", "90", "100"], ["（百萬美元）", "2014 年度第 1 季", "2014 年度第 2 季"]
    assert written_row_issues(en, row, "淨利：2014 年第 1 季 90、第 2 季 100（百萬美元）。", header=header) == []
    assert written_row_issues(en, row, "淨利：截至 2014 年 12 月 31 日止年度第 1 季 90、第 2 季 100。", header=header) == []
    other_day = en.replace("december 31", "september 30")
    assert ("numeral_missing", "30") in {(f.code, f.found) for f in
                                         written_row_issues(other_day, row, "淨利：2014 年第 1 季 90、第 2 季 100。", header=header)}
    no_month = "the net earnings of 2014 is 90 ;"
    assert ("row_figure_extra", "12") in {(f.code, f.found) for f in
                                          written_row_issues(no_month, ["淨利", "90"], "淨利：2014 年 12 月 90。", header=["", "2014"])}


def test_a_header_row_that_is_data_need_not_be_said_in_another_rows_sentence():
    """r39b/r39e: FinQA names each value of a headerless table by its first row's cells ("the 2009 of $ 4935 is
    $ 5010"); those are the first row's figures, not this row's — the written row may leave them out, and still
    may not drop or add a figure of its own."""
    en = "2008 the 2009 of $ 4935 is $ 5010 ;"  # FinQA opens with the first row's label too
    row, header = ["2009", "$ 5010"], ["2008", "$ 4935"]
    assert written_row_issues(en, row, "2009 年到期之長期債務為 $ 5,010。", header=header) == []
    assert "numeral_missing" in {f.code for f in written_row_issues(en, row, "2009 年到期之長期債務。", header=header)}
    assert "row_figure_extra" in {f.code for f in written_row_issues(en, row, "2009 年為 $ 5,011。", header=header)}
    # a real header (years, names) is still said: its numerals are the row's periods
    named = written_row_issues("the debt of 2009 is $ 5010 ;", ["長期債務", "$ 5010"], "長期債務為 $ 5,010。",
                               header=["", "2009"])
    assert ("numeral_missing", "2009") in {(f.code, f.found) for f in named}
