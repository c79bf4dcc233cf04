"""Table evidence rendered as Taiwan prose: unit kept, years as 「2015 年」, no nested brackets, numbers once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tw_fin_eval.evidence_zh import render_row
from tw_fin_eval.zhcheck.patterns import nested_brackets, repeated_lead


def test_the_issue_example():
    table = [["（百萬美元）", "金額"], ["2015 年淨營收", "$ 5829"]]
    assert render_row(table, 1) == "2015 年淨營收為 5,829（單位：百萬美元）。"


def test_unit_from_a_column_bracket_without_nesting():
    table = [["", "金額（百萬）"], ["2014 年淨營收", "$ 5735"]]
    text = render_row(table, 1)
    assert text == "2014 年淨營收為 5,735（單位：百萬美元）。"  # the row's 「$」 names the currency
    assert nested_brackets(text) == 0


@pytest.mark.parametrize("corner, unit", [
    ("（百萬美元）", "（單位：百萬美元）"),
    ("百萬美元", "（單位：百萬美元）"),
    ("（單位：千）", "（單位：千美元）"),  # the row's 「$」 names the currency
    ("截至 12 月 31 日止年度（百萬美元）", "（單位：百萬美元）"),
    ("（百萬美元，每股金額除外）", "（單位：百萬美元）"),  # an amount row states its own unit, not the exception
])
def test_the_corner_unit_is_never_dropped(corner, unit):
    text = render_row([[corner, "2015", "2014"], ["營收", "$ 10", "$ 9"]], 1)
    assert text.endswith(unit + "。"), text
    assert re.search(r"營收於 2015 及 2014 年(?:度)?分別為 10 及 9", text), text


def test_the_corner_header_goes_where_a_taiwan_analyst_puts_it():
    """r31a class A: no sentence opens with the corner header. A date joins the year columns, a fiscal year
    reads 「N 年度」, a category or a kind of date over labels that say it is dropped; a header phrase that
    completes its label, a category over a bare number and a time lead that cannot be joined stay."""
    table = [["12 月 31 日（百萬美元）", "2008", "2007"], ["第二類資本總額", "48616", "43496"]]
    assert render_row(table, 1) == "第二類資本總額於 2008 年及 2007 年 12 月 31 日分別為 48,616 及 43,496（單位：百萬美元）。"
    assert render_row([["截至 12 月 31 日止年度", "2015"], ["營收", "$ 10"]], 1) == "2015 年度營收為 $ 10。"
    assert render_row([["截至 9 月 30 日止年度", "2015", "2014"], ["營收", "$ 10", "$ 9"]], 1) == \
        "營收：2015 年 9 月 30 日止年度 $ 10、2014 年 9 月 30 日止年度 $ 9。"
    assert render_row([["合約義務", "合計", "2009"], ["營業租賃", "149.3", "38.2"]], 1) == "營業租賃：合計為 149.3、2009 年為 38.2。"
    assert render_row([["幣別", "2017", "2016"], ["歐元", "35", "38"]], 1) == "歐元於 2017 及 2016 年分別為 35 及 38。"
    assert render_row([["季度", "最高", "最低"], ["第一季", "$ 30.66", "$ 18.42"]], 1) == "第一季：最高 $ 30.66、最低 $ 18.42。"
    assert render_row([["支付日期", "每股金額"], ["2016 年", "$ 1.16"]], 1) == "2016 年每股金額為 $ 1.16。"
    assert render_row([["衡量時點 12 月 31 日", "指數"], ["2014", "188.69"]], 1) == "2014 年 12 月 31 日指數為 188.69。"
    # kept: a phrase the label completes, a category over a number, a time lead over a time label
    assert render_row([["提供（使用）之現金", "2019"], ["營業活動", "$ 2969.9"]], 1).startswith("提供（使用）之現金「營業活動」")
    assert render_row([["股數", "履約價格", "到期日"], ["809246", "$ 10.91", "2010"]], 1).startswith("股數「809246」")
    assert render_row([["年底金額", "2010 年合約義務", "2011 年合約義務"], ["長期債務", "$ 5", "$ 6"]], 1).startswith("年底金額，")
    # 「年度」 over a column of years adds nothing: dropped, the year label stays
    assert render_row([["年度", "攤銷金額（百萬美元）"], ["2017", "$ 45"]], 1) == "2017 年攤銷金額為 45（單位：百萬美元）。"


def test_a_year_section_over_a_quarter_reads_as_one_period():
    """Issue 30: a price table's year row over quarter rows reads 「2010 年第 4 季：…」, not 「2010 年，第 4 季：」;
    a year over any other label keeps the comma."""
    table = [["2010", "最高", "最低"], ["第 1 季", "$ 44.61", "$ 40.10"], ["第 4 季", "53.14", "49.61"],
             ["2009", "最高", "最低"], ["第 4 季", "43.84", "35.03"]]
    assert render_row(table, 2) == "2010 年第 4 季：最高 53.14、最低 49.61。"
    assert render_row(table, 4) == "2009 年第 4 季：最高 43.84、最低 35.03。"
    assert render_row([["2010", "最高", "最低"], ["10 月", "$ 4", "$ 3"]], 1) == "2010 年，10 月：最高 $ 4、最低 $ 3。"


def test_a_column_of_footnote_marks_is_no_column_of_negatives():
    """finqa 0096: the page's footnote marks (2), (3) … beside each holder are FinQA's 「-2 ( 2 )」; they read
    「（註 N）」, never as an amount −N. A column of real negatives (not numbered one after another) stays."""
    from tw_fin_eval.evidence_zh import display_table

    table = [["Fidelity Investments", "57162311", "-2 ( 2 )", "6.65%"], ["Steven P. Jobs", "5546451", "-3 ( 3 )", "*"],
             ["Arthur D. Levinson", "362400", "-4 ( 4 )", "*"]]
    shown = display_table(table)
    assert [row[2] for row in shown] == ["（註 2）", "（註 3）", "（註 4）"]
    assert "-4" not in render_row(table, 2)
    losses = [["", "2015", "2014"], ["其他", "-2 ( 2 )", "5"], ["減損", "-7 ( 7 )", "6"], ["稅", "-3 ( 3 )", "1"]]
    assert [row[1] for row in display_table(losses)[1:]] == ["-2", "-7", "-3"]


def test_year_and_us_date_labels_read_the_taiwan_way():
    text = render_row([["", "12/31/2011", "12/16"], ["餘額", "5", "6"]], 1)
    assert text == "餘額：2011 年 12 月 31 日為 5、2016 年 12 月為 6。"  # a bare number after a date says 為
    assert not re.search(r"(?:^|[：，])(?:19|20)\d\d(?:（|為)", render_row([["", "金額"], ["2021", "2549621"]], 1))


def test_duplicated_numbers_are_written_once_in_prose():
    text = render_row([["", "2007", "2006"], ["預期波動率", "27% ( 27 % )", "$ -32 ( 32 )"]], 1)
    assert text == "預期波動率於 2007 及 2006 年分別為 27% 及 $ -32。"
    # a label carries FinQA's duplicate too
    assert render_row([["", "金額"], ["3.50% ( 3.50 % ) 票據", "1000"]], 1) == "3.50% 票據為 1,000。"


def test_a_header_row_that_is_data_names_no_column():
    table = [["Metavante 普通股價值", "$ 4066.4"], ["總收購價格", "$ 4187.8"]]
    assert render_row(table, 1) == "總收購價格為 $ 4,187.8。"


def test_different_units_per_column_stay_with_their_values():
    table = [["", "耗用加侖數（單位：百萬）", "總成本（百萬美元）"], ["2012", "2723", "$ 8717"]]
    assert render_row(table, 1) == "2012 年：耗用加侖數 2,723（單位：百萬）、總成本 8,717（單位：百萬美元）。"


def test_every_cell_number_survives():
    table = [["（千美元）", "2015", "2014", "合計"], ["租金（註 1）", "$ 1,234.5", "-7 ( 7 )", "0.25%"]]
    text = render_row(table, 1)
    for number in ("1,234.5", "-7", "0.25%", "2015", "2014"):
        assert number in text, number
    assert nested_brackets(text) == 0


def test_ocr_dash_codes_read_as_a_dash_unless_a_gold_computes_with_them():
    """FinQA tables hold 2014 / 2013 / 2212 where the page printed —, – or −: prose says 「—」, not $ 2014."""
    table = [["（百萬美元）", "2012", "2011", "2010"], ["未攤銷折價", "$ 2014", "( 2013 )", "2212"],
             ["基礎營業利益", "$ 2098", "$ 2014", "$ 2014.5"]]
    assert render_row(table, 1) == "未攤銷折價：2012 年無、2011 年無、2010 年無（單位：百萬美元）。"  # a dash is nothing
    # a gold program that computes with 2014 makes it a value; other numbers are never touched
    assert "分別為 2,098、2,014 及 2,014.5" in render_row(table, 2, frozenset({2014.0}))
    # no program uses it: the table decides (dash_codes) — a code among 5 and 9 is the dash it stands for, one
    # between 2,098 and 2,014.5 of the same item is a number (tests/test_dash_codes.py reads each rule both ways)
    assert "分別為 2,098、2,014 及" in render_row(table, 2)
    small = [row[:] for row in table]
    small[2][1], small[2][3] = "5", "9"
    assert "2011 年無" in render_row(small, 2)
    assert render_row([["", "金額"], ["2015 年營收", "$ 2015"]], 1) == "2015 年營收為 $ 2,015。"  # not a dash code: a number


def test_columns_naming_one_quantity_for_several_years_say_it_once():
    table = [["（百萬美元）", "營收總額 2017", "營收總額 2016"], ["營收總額", "$ 10530", "$ 10281"],
             ["歐亞策略事業單位", "1590", "1670"]]
    assert render_row(table, 1) == "營收總額於 2017 及 2016 年分別為 10,530 及 10,281（單位：百萬美元）。"
    # under another row label the columns keep their names, year first, the shared name said once
    assert render_row(table, 2) == "歐亞策略事業單位：2017 年營收總額為 1,590、2016 年為 1,670（單位：百萬美元）。"
    assert render_row([["", "2017 年營收", "2016 年營收"], ["營收", "1", "2"]], 1) == "營收於 2017 及 2016 年分別為 1 及 2。"
    # a header that is not a name plus a year is left alone
    assert "依會計年度之應付款項—合計為 $ 8,290.6、2018 年為 604.2" in render_row(
        [["", "依會計年度之應付款項—合計", "依會計年度之應付款項—2018"], ["長期債務", "$ 8290.6", "604.2"]], 1)
    mixed = render_row([["", "百慕達子公司 2008", "美國子公司 2008"], ["法定資本", "$ 7001", "$ 1"]], 1)
    assert mixed == "法定資本：2008 年百慕達子公司 $ 7,001、美國子公司 $ 1。"
    # dates are labels, not "a name plus a year"
    assert render_row([["", "12/31/2011", "2015"], ["餘額", "5", "6"]], 1) == "餘額：2011 年 12 月 31 日為 5、2015 年為 6。"


def test_a_year_row_under_a_generic_column_keeps_the_column_word():
    assert render_row([["（單位：千美元）", "金額"], ["2018", "$ 760000"]], 1) == "2018 年金額為 760,000（單位：千美元）。"
    # with more columns or a named one the generic word is not needed
    assert render_row([["", "金額", "2015"], ["2018", "1", "2"]], 1) == "2018 年：1、2015 年為 2。"


def test_gold_operands_gather_every_program():
    from tw_fin_eval.records import gold_operands
    from tw_fin_eval.sources.base import SourceItem

    finqa = SourceItem("finqa", "X/2014/page_1.pdf-1", 1, fields={"program": "divide(2098, 2014), multiply(#0, const_100)"})
    assert gold_operands(finqa) == frozenset({2098.0, 2014.0})
    conv = SourceItem("convfinqa", "Single_X", 1, fields={"turns": [{"program": "2013"}, {"program": "subtract(5, 3)"}]})
    assert gold_operands(conv) == frozenset({2013.0, 5.0, 3.0})
    assert gold_operands(SourceItem("financeagent", "fa-1", 1)) == frozenset()


def test_a_table_of_years_without_a_label_column_keeps_its_unit_row():
    table = [["2004", "2003", "2002"], ["（單位：千）", "（單位：千）", "（單位：千）"], ["$ 61592", "$ 19064", "$ 7046"]]
    assert render_row(table, 2) == "2004 年 61,592、2003 年 19,064、2002 年 7,046（單位：千美元）。"
    assert render_row(table, 1) == "各年度金額（單位：千）。"
    # a row with a label is not "unlabelled", and a header that is not all years is rendered as before
    assert "營收" in render_row([["2004", "2003"], ["營收", "$ 5"]], 1)
    assert render_row([["", "2015", "2014"], ["營收", "$ 10", "$ 9"]], 1) == "營收於 2015 及 2014 年分別為 $ 10 及 $ 9。"


def test_rows_read_under_their_section_header_and_a_redundant_year_lead_is_dropped():
    table = [["2012:", "最高", "最低"], ["2012 年 1 月 1 日至 2012 年 3 月 31 日", "$ 37.79", "$ 29.26"],
             ["2011:", "最高", "最低"], ["第一季", "$ 24.19", "$ 19.78"]]
    assert render_row(table, 1) == "2012 年 1 月 1 日至 2012 年 3 月 31 日：最高 $ 37.79、最低 $ 29.26。"
    assert render_row(table, 3) == "2011 年，第一季：最高 $ 24.19、最低 $ 19.78。"  # not 2012: its own section
    # a row with numbers is data, not a section header
    assert render_row([["2012:", "最高"], ["第一季", "$ 1"], ["第二季", "$ 2"]], 2) == "2012 年，第二季：最高為 $ 2。"


def test_a_date_column_header_names_the_label_and_change_columns_between_years():
    assert render_row([["既得日", "限制型股票單位"], ["2011 年 1 月 25 日", "8000"]], 1) == \
        "既得日為 2011 年 1 月 25 日之限制型股票單位為 8,000。"
    # 「截至…止年度」 over a year column reads as the year's fiscal year
    assert render_row([["截至 12 月 31 日止年度", "2015"], ["營收", "$ 10"]], 1) == "2015 年度營收為 $ 10。"
    table = [["（百萬美元）", "2009", "2008 20142007"], ["部門銷貨淨額", "$ 7146", "( 41 ) % (  % )"]]
    assert render_row(table, 1) == "部門銷貨淨額：2009 年為 7,146、2008 年較 2007 年減少 41%（單位：百萬美元）。"
    assert render_row([["", "2015"], ["變動", "( 3.5 ) %"]], 1) == "2015 年變動為 -3.5%。"


def test_us_dates_inside_labels_footnote_header_rows_and_generic_period_leads():
    text = render_row([["", "10/01/04 2013 10/31/04", "基期 12/31/05"], ["股數", "5", "6"]], 1)
    assert text == "股數：2004 年 10 月 1 日至 10 月 31 日為 5、基期 2005 年 12 月 31 日為 6。"
    assert "2004 年 12 月 1 日至 2005 年 1 月 31 日" in render_row([["", "12/01/04 - 01/31/05"], ["股數", "6"]], 1)
    # a row of footnote letters over the real header row
    table = [["", "( a )", "( b )"], ["", "已發行", "庫藏"], ["普通股", "6015", "12"]]
    assert render_row(table, 2) == "普通股：已發行 6,015、庫藏 12。"
    # 「期間」 over the label column names nothing
    assert render_row([["期間", "買回股份總數"], ["合計", "7673266"]], 1) == "合計：買回股份總數為 7,673,266。"


def test_a_one_row_table_of_name_and_value_cells_says_each_once():
    table = [["員工離職", "2005 年 12 月 31 日負債 $ 20963", "2006 年現金支付 $ -12389 ( 12389 )",
              "2008 年 12 月 31 日負債 2014"]]
    assert render_row(table, 0) == "員工離職：2005 年 12 月 31 日負債 $ 20,963、2006 年現金支付 $ -12,389、2008 年 12 月 31 日負債 —。"
    # a four-digit amount after 「$」 is grouped too (v37: 「其他 $ -1743」); the years in the names are not
    four = [["員工離職", "2006 年 12 月 31 日負債 $ 7327", "其他 $ -1743", "2007 年費用 $ 633"]]
    assert render_row(four, 0) == "員工離職：2006 年 12 月 31 日負債 $ 7,327、其他 $ -1,743、2007 年費用 $ 633。"
    # a header row of years is not such a row
    assert "營收於 2015 及 2014 年分別為 $ 10" in render_row([["", "2015", "2014"], ["營收", "$ 10", "$ 9"]], 1)


def test_a_shared_lead_is_said_once_and_the_row_is_one_clause():
    """The issue's example: the column header is not repeated in every clause."""
    table = [["合約義務", "依期間劃分之應付款項 1 年以內", "依期間劃分之應付款項 1-3 年", "依期間劃分之應付款項 3-5 年",
              "依期間劃分之應付款項合計"], ["長期債務", "$ 38480", "$ 109436", "$ 327400", "$ 475316"]]
    text = render_row(table, 1)
    assert text == "長期債務：依期間劃分之應付款項 1 年以內 $ 38,480、1–3 年 $ 109,436、3–5 年 $ 327,400、合計 $ 475,316。"
    assert repeated_lead(text) == 0
    # a shared tail after the periods, a shared time lead before names; a repeated name starts a new group
    assert render_row([["", "2010 年度應付款項", "2011 年度應付款項", "2012 年度應付款項"], ["租賃", "$ 1", "$ 2", "$ 3"]], 1) == \
        "租賃：2010 年度應付款項 $ 1、2011 年度 $ 2、2012 年度 $ 3。"
    assert render_row([["", "2002 年最高", "2002 年最低", "2002 年最高", "2002 年最低"], ["9 月 30 日", "28.88", "21.40", "26.17", "21.60"]], 1) \
        == "9 月 30 日：2002 年最高 28.88、最低 21.40，2002 年最高 26.17、最低 21.60。"
    # words are not cut: 「全球工業」 and 「全球能源」 share no lead, nor 「買回股份總成本」 and 「…總數」; nor is a
    # date cut from its day
    assert render_row([["", "買回股份總成本", "買回股份總數"], ["2011 年", "$ 2997688", "36940.4"]], 1) == \
        "2011 年：買回股份總成本 $ 2,997,688、買回股份總數 36,940.4。"
    assert render_row([["", "全球工業", "全球機構", "全球能源"], ["2016 年", "$ 1", "$ 2", "$ 3"]], 1) == \
        "2016 年：全球工業 $ 1、全球機構 $ 2、全球能源 $ 3。"
    text = render_row([["", "截至 2013 年 12 月 28 日止三個月", "截至 2013 年 9 月 28 日止三個月", "截至 2012 年 12 月 29 日止三個月"],
                       ["淨營收", "$ 13834", "$ 13483", "$ 13000"]], 1)
    assert text == "淨營收：2013 年 12 月 28 日止三個月 $ 13,834、2013 年 9 月 28 日止三個月 $ 13,483、2012 年 12 月 29 日止三個月 $ 13,000。"


def test_fiscal_years_and_ocr_change_columns_read_as_a_taiwan_report_heads_them():
    table = [["（百萬美元）", "截至 2017 年 12 月 31 日止年度", "截至 2016 年 12 月 31 日止年度", "截至 12 月 31 日止年度變動 $",
              "% (  % )"], ["營業利益", "11503", "10815", "688", "6.4% ( 6.4 % )"]]
    assert render_row(table, 1) == "營業利益：2017 年度為 11,503、2016 年度為 10,815、變動金額為 688、變動百分比為 6.4%（單位：百萬美元）。"
    table = [["", "2009", "2008", "% (  % ) 變動 2009 年對 2008 年"], ["顧客滿意度指數", "88", "83", "5 點"],
             ["員工人數", "43531", "48242", "( 10 ) % (  % )"], ["營運比率", "76.0", "77.3", "( 1.3 ) 個百分點"]]
    assert render_row(table, 1) == "顧客滿意度指數：2009 年為 88、2008 年為 83、2009 年較 2008 年增加 5 點。"
    assert render_row(table, 2) == "員工人數：2009 年為 43,531、2008 年為 48,242、2009 年較 2008 年減少 10%。"
    assert render_row(table, 3).endswith("2009 年較 2008 年減少 1.3 個百分點。")


def test_values_in_words_have_no_stray_space_and_a_header_row_reads_its_cells_once():
    table = [["地點", "功能", "面積（平方英尺）", "產權"], ["波士頓（麻州）", "公司總部", "19600", "租賃"]]
    assert render_row(table, 1) == "波士頓（麻州）：功能為公司總部，面積為 19,600（單位：平方英尺），產權為租賃。"
    # a header merged with the first data row (issue 30 a), one name over every column said once
    table = [["土地改良物", "年限 3", "年限 -", "年限 40"], ["建築物", "3", "-", "60"]]
    assert render_row(table, 0) == "土地改良物：年限為 3、-、40。"
    assert render_row(table, 1) == "建築物：年限為 3、-、60。"


def test_a_header_row_merged_with_the_first_data_row_is_read_as_names_and_a_row():
    """Issue 30 (a), conv-0152: FinQA flattened 「2002 | high | low | 2001 | high | low」 and the first quarter
    into one row; each side-by-side block is its own clause, the year heading carried to later quarters."""
    table = [["2002 年第一季", "最高 $ 17.84", "最低 $ 4.11", "2001 年第一季", "最高 $ 60.15", "最低 $ 41.30"],
             ["第二季", "9.17", "3.55", "第二季", "52.25", "39.95"]]
    assert render_row(table, 1) == "2002 年第二季：最高 9.17、最低 3.55；2001 年第二季：最高 52.25、最低 39.95。"
    assert render_row(table, 0) == "2002 年第一季：最高 $ 17.84、最低 $ 4.11；2001 年第一季：最高 $ 60.15、最低 $ 41.30。"
    # the unit of both blocks is said once; a block that has run out of rows is left out
    table = [["頻道 A", "訂戶數（百萬） 246", "頻道 B", "訂戶數（百萬） 90"], ["Animal Planet", "183", "Quest", "26"],
             ["Turbo", "42", "-", "-"]]
    assert render_row(table, 1) == "Animal Planet：訂戶數為 183；Quest：訂戶數為 26（單位：百萬）。"
    assert render_row(table, 2) == "Turbo：訂戶數為 42（單位：百萬）。"
    # not merged: a lone 「標普 500」, footnote marks 「( 1 )」, years, a unit corner
    perf = [["日期", "花旗", "標普 500"], ["2008 年", "$ 100", "$ 100"]]
    assert render_row(perf, 1) == "2008 年：花旗 $ 100、標普 500 $ 100。"
    text = render_row([["（百萬美元）", "合計 ( 1 )", "2007 年 ( 1 )"], ["長期債務", "$ 4134", "$ 1340"]], 1)
    assert text.startswith("長期債務：") and text.endswith("（單位：百萬美元）。")
    assert "百慕達子公司" in render_row([["", "百慕達子公司 2008", "美國子公司 2008"], ["法定資本", "$ 7001", "$ 1"]], 1)


def test_one_unnamed_amount_under_a_time_label_gets_a_subject():
    """Issue 30 (b), finqa-0955: 「2018 年為 $ 64」 names nothing; the table's total names the quantity, else
    「金額」 (a period) or 「餘額」 (a date)."""
    assert render_row([["", "（百萬美元）"], ["2018", "$ 64"], ["2019", "54"]], 2) == "2019 年金額為 54（單位：百萬美元）。"
    table = [["2014", "$ 11057"], ["2015", "8985"], ["以後年度", "16812"], ["未來最低租賃給付總額", "$ 57096"]]
    assert render_row(table, 1).startswith("2015 年未來最低租賃給付為 ")
    assert render_row(table, 0).startswith("2014 年未來最低租賃給付為 $ ")  # a first row of data is a row
    assert render_row(table, 2).startswith("以後年度未來最低租賃給付為 ")
    assert render_row(table, 3).startswith("未來最低租賃給付總額為 $ ")  # not a time: its own subject
    assert render_row([["2003 年 12 月 31 日", "$ 438"], ["2004 年 12 月 31 日", "527"]], 1) == "2004 年 12 月 31 日餘額為 527。"
    # a named column is the subject already
    assert render_row([["年度", "攤銷金額"], ["2017", "$ 45"]], 1) == "2017 年攤銷金額為 $ 45。"


def test_a_sentence_cut_after_an_abbreviation_is_one_evidence_entry():
    """Issue 30 (c), conv-0168: 「…係依 APB 第」 | 「25 號意見書…」 was two entries; the English run decides."""
    from tw_fin_eval.records import evidence_runs, join_fragments
    from tw_fin_eval.sources.base import Evidence, SourceItem

    item = SourceItem("convfinqa", "x", 1, evidence=[
        Evidence("text_0", "we accounted for payments under apb no ."), Evidence("text_1", "25 's intrinsic value method ."),
        Evidence("text_2", "revenue grew ."), Evidence("text_4", "as of dec ."), Evidence("table_1", "row")])
    assert [[e.key for e in run] for run in evidence_runs(item)] == [["text_0", "text_1"], ["text_2"], ["text_4"], ["table_1"]]
    # a translation that ends its sentence there (or marks a cut 「……」) says the source lost words: not joined
    from tw_fin_eval.overlay import Overlay

    ov = Overlay(path=Path("x.jsonl"), line=1, data={"evidence": {"text_0": "本公司依相關的美國……"}})
    assert [[e.key for e in run] for run in evidence_runs(item, ov)][:2] == [["text_0"], ["text_1"]]
    assert join_fragments(["本公司係依 APB 第", "25 號意見書之內含價值法處理。"]) == "本公司係依 APB 第 25 號意見書之內含價值法處理。"
    assert join_fragments(["設有部分美國", "事業單位。"]) == "設有部分美國事業單位。"


def test_thousands_separators_group_every_amount_and_leave_years_alone():
    assert render_row([["", "2015", "2014"], ["營收", "$ 2140", "$ 13893"]], 1) == "營收於 2015 及 2014 年分別為 $ 2,140 及 $ 13,893。"
    assert render_row([["", "2015", "2014"], ["營收", "$ 2140", "$ 1893"]], 1) == "營收於 2015 及 2014 年分別為 $ 2,140 及 $ 1,893。"
    # a column of years, a year in a row about dates, a year in a header: years
    assert render_row([["", "到期年度", "面額"], ["票據", "2018", "$ 25000"]], 1) == "票據：到期年度為 2018、面額為 $ 25,000。"
    table = [["", "金額"], ["到期年度", "2019"], ["面額", "5000"]]
    assert render_row(table, 1) == "到期年度為 2019。" and render_row(table, 2) == "面額為 5,000。"
    from tw_fin_eval.evidence_zh import display_table

    # a label that only mentions dates is no date field: its year-looking figure is an amount (v35: 0393's 1941)
    notes = [["", "2015", "2014"], ["營收", "$ 8150", "$ 1400"], ["2016 年至 2036 年到期之票據", "1941", "1941"],
             ["本年度淨變動", "4977", "-2083"]]
    assert display_table(notes)[2][1:] == ["1,941", "1,941"] and display_table(notes)[3][2] == "-2,083"


def test_the_table_prints_what_the_evidence_prints():
    """Issue 30 (f, g): the record's table is printed as a Taiwan table is — duplicates once, a dash code as
    「—」 (a number where a gold computes with it, in the gold's rows), separators — and every sentence reads
    its figures from it."""
    from tw_fin_eval.evidence_zh import display_table

    table = [["（百萬美元）", "2013", "2012"], ["K 專案", "-34 ( 34 )", "2014"], ["營業利益", "$ 2098", "$ 2014"],
             ["成長率", "6.5% ( 6.5 % )", "71%/79% ( 71%/79 % )"]]
    shown = display_table(table, frozenset({2014.0}), frozenset({2}))
    assert shown == [["（百萬美元）", "2013", "2012"], ["K 專案", "-34", "—"], ["營業利益", "$ 2,098", "$ 2,014"],
                     ["成長率", "6.5%", "71%/79%"]]
    assert display_table(shown, frozenset({2014.0}), frozenset({2})) == shown  # idempotent
    assert display_table(table)[2][2] == "$ 2,014"  # no gold needs it, but beside 2,098 the table reads a number
    assert display_table(table)[1][2] == "—"  # beside -34: the dash it stands for
    for row in range(1, 4):
        sentence = render_row(shown, row, frozenset({2014.0}))
        figures = re.findall(r"(?<![\d,.])\d[\d,]*(?:\.\d+)?%?(?![\d,.%]| ?年)", re.split("：|分別為", sentence, maxsplit=1)[-1])
        assert figures or "—" in sentence
        cells = " ".join(shown[row][1:])
        assert all(f in cells for f in figures), (sentence, cells)
    # a header of years over label-less rows groups the first column too; header and labels are left alone
    assert display_table([["2004", "2003"], ["$ 61592", "$ 7046"]]) == [["2004", "2003"], ["$ 61,592", "$ 7,046"]]
    assert display_table([["", "2015"], ["2015 年 12.25% ( 12.25 % ) 票據", "1000"]])[1] == ["2015 年 12.25% 票據", "1,000"]


def test_the_data_checker_accepts_the_taiwan_printing_and_nothing_else():
    from tw_fin_eval.zhcheck.rules import displayed_as, table_issues

    en = [["", "2013", "2012"], ["k project", "-34 ( 34 )", "2014"], ["profit", "$ 2098", "( 41 ) % (  % )"]]
    zh = [["", "2013", "2012"], ["K 專案", "-34", "—"], ["利益", "$ 2,098", "-41%"]]
    assert table_issues(en, zh, displayed=True) == []
    assert table_issues(en, zh)  # an overlay must copy the cells as they are
    assert not displayed_as("$ 2098", "$ 2,089") and not displayed_as("1234", "—") and not displayed_as("-34 ( 34 )", "34")


def test_every_number_of_every_committed_evidence_row_survives(sources_root):
    """Over the committed overlays: each figure of an evidence row's cells is in its sentence (thousands
    separators and a change's sign, said as 增加/減少, aside; an OCR dash code reads —)."""
    from tw_fin_eval.overlay import load_overlays
    from tw_fin_eval.paths import TRANSLATIONS_DIR
    from tw_fin_eval.records import gold_operands
    from tw_fin_eval.subsets import get_spec

    def figures(text: str) -> set[float]:
        return {abs(float(x.replace(",", ""))) for x in re.findall(r"\d[\d,]*(?:\.\d+)?|\.\d+", text)}

    checked = 0
    for name in ("finqa", "convfinqa"):
        spec = get_spec(name)
        items = spec.load_source(sources_root)
        by_id = {it.source_id: it for it in items}
        for sid, ov in load_overlays(spec, items, TRANSLATIONS_DIR).items():
            item, table = by_id[sid], ov.data["table"]
            keep = gold_operands(item)
            for e in item.evidence:
                if not e.is_table:
                    continue
                text = render_row(table, e.row, keep)
                dash = {2013.0, 2014.0, 2212.0} - set(keep)
                missing = {f for c in table[e.row][1:] for f in figures(c)} - figures(text) - dash  # the label may be a date
                assert not missing, (sid, e.row, missing, text)
                checked += 1
    assert checked > 1500


def test_footnote_marks_are_full_width_in_the_table_and_the_evidence_alike():
    """r31b C1: 「購買義務 ( a )」 → 「購買義務（a）」, 「買回股份總數 ( 1 )」 → 「（註 1）」 (a bare 「(1)」 reads as −1),
    in label, header and data cells and in the sentence read from them; a negative 「( 14 )」 and FinQA's
    duplicate 「-34 ( 34 )」 are no marks."""
    from tw_fin_eval.evidence_zh import display_table, footnote_marks

    table = [["期間", "買回股份總數 ( 1 ) ( 2 )", "可發行數量（不含 ( a ) 欄）( c )"],
             ["購買義務 ( a )", "18322320 ( 1 )", "135696 ( a )"],
             ["其他", "( 14 )", "-34 ( 34 )"]]
    shown = display_table(table)
    assert shown[0] == ["期間", "買回股份總數（註 1）（註 2）", "可發行數量（不含 a 欄）（c）"]
    assert shown[1] == ["購買義務（a）", "18,322,320（註 1）", "135,696（a）"]
    assert shown[2] == ["其他", "( 14 )", "-34"]  # a negative stays a number
    assert display_table(shown) == shown  # idempotent
    text = render_row(table, 1)
    assert "購買義務（a）" in text and "買回股份總數（註 1）（註 2）為 18,322,320（註 1）" in text
    assert "( " not in text and "（不含 a 欄）" in text  # no nested bracket, the column named as in the table
    # marks after Latin names, a percent, a closing bracket; 「401 ( k )」 after a figure in a label is no note
    assert footnote_marks("Visa Inc. ( 1 )") == "Visa Inc.（註 1）"
    assert footnote_marks("利率為 4.40% ( 2 )") == "利率為 4.40%（註 2）"
    assert footnote_marks("預期存續期間（年）( 1 )") == "預期存續期間（年）（註 1）"
    assert footnote_marks("( 2.5 )") == "( 2.5 )" and footnote_marks("$ ( 26 )", figures=True) == "$ ( 26 )"
    assert footnote_marks("1,234 ( 567 )", figures=True) == "1,234 ( 567 )"  # three digits: no note number


def test_a_column_of_note_references_is_not_read_as_negatives():
    """finqa 0096: the page's 「(2)」「(3)」… beside each owner, which FinQA printed 「-2 ( 2 )」, print as 「（註 2）」
    and mark the row's label in the evidence; a column of real negatives (not counting up by one) stays."""
    from tw_fin_eval.evidence_zh import display_table

    table = [["名稱", "股數", "附註", "比例"], ["甲", "57162311", "-2 ( 2 )", "6.65%"], ["乙", "48637731", "-3 ( 3 )", "*"],
             ["丙", "362400", "-4 ( 4 )", "*"]]
    shown = display_table(table)
    assert [r[2] for r in shown[1:]] == ["（註 2）", "（註 3）", "（註 4）"]
    assert render_row(table, 3) == "丙（註 4）：股數為 362,400、比例為 *。"
    assert "-4" not in render_row(table, 3)
    losses = [["", "2014", "2013"], ["甲", "-2 ( 2 )", "5"], ["乙", "-5 ( 5 )", "6"], ["丙", "-9 ( 9 )", "7"]]
    assert [r[1] for r in display_table(losses)[1:]] == ["-2", "-5", "-9"]
    two = [["名稱", "股數", "附註"], ["甲", "1", "-2 ( 2 )"], ["乙", "2", "-3 ( 3 )"]]
    assert [r[2] for r in display_table(two)[1:]] == ["-2", "-3"]  # two rows are too few to tell


def test_the_data_checker_accepts_printed_marks_and_rejects_a_changed_note():
    from tw_fin_eval.zhcheck.rules import displayed_as

    assert displayed_as("18322320 ( 1 )", "18,322,320（註 1）") and displayed_as("-10 ( 10 )", "（註 10）")
    assert displayed_as("( 3 )", "（註 3）")
    assert not displayed_as("-10 ( 10 )", "（註 1）") and not displayed_as("18322320 ( 1 )", "18,322,320（註 2）")
    assert not displayed_as("-10 ( 10 )", "-10（註 10）") and not displayed_as("1,234", "1,234（註 1）")


def test_change_column_debris_in_the_header_is_named_where_it_is_unambiguous():
    """r31a class D: 「截至 12 月 31 日止年度變動 $ | % (  % )」 heads 「變動金額 | 變動 %」 in the record's table;
    the evidence still says 變動金額 / 變動百分比 and a change between years 增加 / 減少; a lone 「% (  % )」 after
    a column that is no change says too little and stays."""
    from tw_fin_eval.evidence_zh import display_table

    table = [["（百萬美元）", "截至 2017 年 12 月 31 日止年度", "截至 2016 年 12 月 31 日止年度", "截至 12 月 31 日止年度變動 $",
              "% (  % )"], ["營業利益", "11503", "10815", "688", "6.4% ( 6.4 % )"]]
    shown = display_table(table)
    assert shown[0][3:] == ["變動金額", "變動 %"] and display_table(shown) == shown
    assert render_row(table, 1) == render_row(shown, 1) == \
        "營業利益：2017 年度為 11,503、2016 年度為 10,815、變動金額為 688、變動百分比為 6.4%（單位：百萬美元）。"
    years = [["", "2009", "2008", "% (  % ) 變動 2009 年對 2008 年"], ["銷貨", "100", "90", "11% ( 11 % )"]]
    assert display_table(years)[0][3] == "2009 年較 2008 年變動 %"
    assert render_row(display_table(years), 1).endswith("2009 年較 2008 年增加 11%。")
    assert display_table([["", "公允價值占帳面價值之 % (  % )"], ["甲", "120%"]])[0][1] == "公允價值占帳面價值之百分比"
    assert display_table([["", "2009", "% (  % )"], ["甲", "5", "6%"]])[0][2] == "% (  % )"  # not after a change
    assert display_table([["", "2009", "$"], ["甲", "5", "6"]])[0][2] == "$"  # a bare $ is no change column


def test_a_footnote_number_glued_to_an_english_label_prints_as_a_note():
    """r31a class C: 「securities borrowed2」 translated 「借入證券 2」 or 「總資產1」 prints 「借入證券（註 2）」 (f31's
    style); 「tier 1」 is a name, 「CET1」 keeps its Latin, a data cell and a label whose English has no glued
    number are left alone; and an amount after a mark reads 「（註 1）為 $ 150」."""
    from tw_fin_eval.evidence_zh import glued_notes

    en = [["in millions", "as of december 2015", "total assets1"],
          ["securities borrowed2", "172099", "5"], ["tier 1", "3", "4"], ["basel iii cet1", "1", "2"], ["level 2", "2", "1"]]
    zh = [["（百萬美元）", "截至 2015 年 12 月", "總資產1"],
          ["借入證券 2", "172099", "5"], ["第一類資本 1", "3", "4"], ["Basel III CET1", "1", "2"], ["第二級 2", "2", "1"]]
    fixed = glued_notes(zh, en)
    assert fixed[0][2] == "總資產（註 1）" and fixed[1][0] == "借入證券（註 2）"
    assert fixed[2][0] == "第一類資本 1" and fixed[3][0] == "Basel III CET1" and fixed[4][0] == "第二級 2"
    assert fixed[1][1:] == zh[1][1:] and glued_notes(fixed, en) == fixed and glued_notes(zh, None) == zh
    assert render_row(fixed, 1).startswith("借入證券（註 2）：")
    table = [["（十億美元）", "2008 年 12 月 31 日", "2007 年 12 月 31 日 ( 1 )"], ["擔保品池", "$ 85", "$ 150"]]
    assert render_row(table, 1) == "擔保品池：2008 年 12 月 31 日為 85、2007 年 12 月 31 日（註 1）為 150（單位：十億美元）。"


def test_a_range_dash_code_inside_a_cell_prints_as_a_range_in_table_and_evidence():
    from tw_fin_eval.evidence_zh import display_table
    from tw_fin_eval.zhcheck.rules import table_issues

    en = [["", "2007", "2005"], ["range of risk free interest rates", "4.98% ( 4.98 % ) 20145.05% ( 20145.05 % )",
                                  "0.26% ( 0.26 % ) 2013 0.36% ( 0.36 % )"],
          ["grant-date fair value", "$ 81.99 2013 $ 85.05", "$ 12 2014"]]
    zh = [["", "2007", "2005"], ["無風險利率區間", en[1][1], en[1][2]], ["給與日公允價值", en[2][1], en[2][2]]]
    shown = display_table(zh)
    # the meaning error this fixes: 4.98%–5.05% printed as 「4.98% 20,145.05%」 (a rate of 20,145%)
    assert shown[1][1:] == ["4.98% 至 5.05%", "0.26% 至 0.36%"]
    assert shown[2][1] == "$ 81.99 至 $ 85.05" and "至" not in shown[2][2]  # no second figure: not a range
    assert "4.98% 至 5.05%" in render_row(zh, 1) and "20,145" not in render_row(zh, 1)
    assert table_issues(en, shown, displayed=True) == []
    wrong = [list(r) for r in shown]
    wrong[1][1] = "4.98% 至 5.15%"
    assert table_issues(en, wrong, displayed=True)  # a changed figure is still caught


def test_the_data_checker_accepts_a_named_change_header_only_in_the_header_row():
    from tw_fin_eval.zhcheck.rules import table_issues

    en = [["( in millions )", "for the years ended december 31 , 2017", "for the years ended december 31 , $", "% (  % )"],
          ["revenue", "$ 5", "$ 1", "25% ( 25 % )"]]
    zh = [["（百萬美元）", "截至 2017 年 12 月 31 日止年度", "變動金額", "變動 %"], ["營收", "$ 5", "$ 1", "25%"]]
    assert table_issues(en, zh, displayed=True) == []
    bad = [zh[0], ["營收", "$ 5", "變動金額", "25%"]]  # a data cell is not a header
    assert table_issues(en, bad, displayed=True)
    renamed = [["（百萬美元）", "截至 2017 年 12 月 31 日止年度", "變動 %", "變動 %"], zh[1]]
    assert table_issues([["( in millions )", "for the years ended december 31 , 2017", "2016", "% (  % )"], en[1]],
                        renamed, displayed=True)  # a year column is not change debris


def test_a_row_over_period_columns_says_its_periods_once_with_fen_bie_wei():
    """#30 point 1 (register review): 「X 於 2015、2014 及 2013 年分別為 A、B 及 C」, a Taiwan report's sentence,
    for two to four amounts under distinct years or one year-end date; anything else keeps the listing."""
    three = [["（百萬美元）", "2015", "2014", "2013"], ["營收", "$ 10", "$ 9", "$ 8"]]
    assert render_row(three, 1) == "營收於 2015、2014 及 2013 年分別為 10、9 及 8（單位：百萬美元）。"
    dated = [["", "2012 年 12 月 31 日", "2011 年 12 月 31 日"], ["Other", "81", "120"]]
    assert render_row(dated, 1) == "Other 於 2012 年及 2011 年 12 月 31 日分別為 81 及 120。"
    opening = [["", "2013", "2012", "2011"], ["1 月 1 日餘額", "$ 5", "$ 4", "$ 3"]]
    assert render_row(opening, 1) == "2013、2012 及 2011 年 1 月 1 日餘額分別為 $ 5、$ 4 及 $ 3。"
    assert render_row([["", "2015", "2014"], ["減：庫藏股", "$ 7", "$ 6"]], 1) == "庫藏股於 2015 及 2014 年分別為 $ 7 及 $ 6。"
    # kept as a listing: five periods, a dash, a value in words, two dates of different days, a change column
    five = [["", "2015", "2014", "2013", "2012", "2011"], ["營收", "1", "2", "3", "4", "5"]]
    assert render_row(five, 1).startswith("營收：2015 年")
    assert "分別為" not in render_row([["", "2015", "2014"], ["營收", "$ 10", "—"]], 1)
    assert "分別為" not in render_row([["", "2015", "2014"], ["產權", "租賃", "自有"]], 1)
    days = [["", "2012 年 12 月 29 日", "2013 年 12 月 28 日"], ["標普 500", "$ 100.00", "$ 134.11"]]
    assert render_row(days, 1) == "標普 500：2012 年 12 月 29 日 $ 100.00、2013 年 12 月 28 日 $ 134.11。"
    assert "分別為" not in render_row([["", "2015", "2014"], ["合計", "$ 10", "$ 9"]], 1)  # 「合計分別為」 (v35)
    change = [["", "2017", "2016", "變動"], ["營收", "10", "8", "2"]]
    assert "分別為" not in render_row(change, 1)


def test_a_header_repeated_inside_the_table_keeps_its_years():
    # v40: convfinqa 0204 printed its second block's header 「9 月 30 日 | 2016 | 2015」 as 2,016 | 2,015
    from tw_fin_eval.evidence_zh import display_table

    table = [["9 月 30 日", "2016", "2015"], ["短期借款", "$ 935.8", "$ 1494.3"], ["9 月 30 日", "2016", "2015"],
             ["銀行借款", "$ 133.1", "$ 2343"], ["加權平均股數", "5978", "2024"]]
    shown = display_table(table)
    assert shown[2] == ["9 月 30 日", "2016", "2015"] and shown[3][2] == "$ 2,343"
    assert shown[4][1:] == ["5,978", "2,024"]  # a year-looking amount in a row that is no header is an amount


def test_an_ocr_year_pair_beside_a_change_column_is_named_and_the_checker_accepts_it():
    # v36: convfinqa 0188 printed the header 「2008 20142007」 (the page's 2008—2007 change column) as it came
    from tw_fin_eval.evidence_zh import display_table
    from tw_fin_eval.zhcheck.rules import table_issues

    en = [["( in millions )", "2009", "2008", "2007", "change 2009 vs 2008", "2008 20142007"], ["sales", "1", "2", "3", "-41%", "-36%"]]
    zh = [["（百萬美元）", "2009", "2008", "2007", "2009 年較 2008 年變動", "2008 20142007"], ["銷貨淨額", "1", "2", "3", "-41%", "-36%"]]
    shown = display_table(zh)
    assert shown[0][5] == "2008 年較 2007 年變動"
    assert not table_issues(en, shown, displayed=True)
    # not beside a change column, or the years the wrong way round: left as it came, and a wrong name is caught
    assert display_table([["", "2008 20142007"], ["a", "1"]])[0][1] == "2008 20142007"
    wrong = [row[:] for row in shown]
    wrong[0][5] = "2008 年較 2006 年變動"
    assert table_issues(en, wrong, displayed=True)


def test_a_table_whose_first_row_is_data_is_printed_under_a_named_header():
    from tw_fin_eval.evidence_zh import prompt_header
    from tw_fin_eval.prompts import render_table

    amounts = [["2013 年 1 月 1 日餘額", "$ 180,993"], ["本期稅務處理之增加", "27,229"]]
    assert prompt_header(amounts) == ["項目", "金額"]
    lines = render_table(amounts, prompt_header(amounts)).splitlines()
    assert lines[:3] == ["| 項目 | 金額 |", "| --- | --- |", "| 2013 年 1 月 1 日餘額 | $ 180,993 |"]
    assert prompt_header([["2017", "—"], ["2018", "150"]], "單位：百萬美元") == ["年度", "金額"]
    assert prompt_header([["土地改良", "20"], ["建築物", "39-40"]]) == ["項目", "數值"]
    schedule = [["2015", "$ 5"], ["2016", "4"], ["2020 年及以後年度", "9"], ["合計", "$ 18"]]
    assert prompt_header(schedule) == ["年度", "金額"]
    assert prompt_header([["2003 年 12 月 31 日", "$ 5"], ["2004 年 12 月 31 日", "4"]]) == ["日期", "金額"]
    # a balance roll-forward opens and closes on dated balances: its rows are items
    assert prompt_header([["2007 年 4 月 1 日餘額", "$ 224"], ["減少", "-56"], ["2008 年 3 月 31 日餘額", "$ 168"]]) \
        == ["項目", "金額"]
    assert prompt_header([["甲", "1", "2"], ["乙", "3", "4"]]) == ["項目", "", ""]
    # a real header (years, words, an OCR year pair) keeps its row as the header
    assert prompt_header([["", "2017", "2016"], ["營收", "$ 5", "$ 4"]]) is None
    assert prompt_header([["", "2008 20142007"], ["營收", "5"]]) is None
    assert prompt_header([["幣別", "金額"], ["英鎊", "$ 42"]]) is None
    assert render_table(amounts).splitlines()[0] == "| 2013 年 1 月 1 日餘額 | $ 180,993 |"


def test_built_prompts_give_a_headerless_table_a_header_row():
    import json

    from tw_fin_eval.evidence_zh import header_is_data
    from tw_fin_eval.paths import DATA_DIR

    path = DATA_DIR / "finqa_tw_test.jsonl"
    if not path.exists():
        pytest.skip("data/ not built")
    seen = 0
    for line in path.open(encoding="utf-8"):
        rec = json.loads(line)
        table = rec["context"]["table"]
        if table and len(table) > 1 and len(table[0]) == 2 and header_is_data(table[0]):
            user = rec["messages"][1]["content"]
            first = "| " + " | ".join(table[0]) + " |"
            assert first in user and user.index("| --- |") < user.index(first), rec["id"]
            seen += 1
    assert seen > 50


@pytest.mark.parametrize("corner, label, values, unit", [
    ("（百萬美元，每股金額除外）", "每股盈餘", ["$ 1.2", "$ 1.1"], None),
    ("（百萬美元，每股金額除外）", "淨利", ["$ 12", "$ 11"], "（單位：百萬美元）"),
    ("截至 12 月 31 日止年度（百萬美元，比率除外）", "淨利息收益率", ["2.50%", "2.36%"], None),
    ("截至 12 月 31 日止年度（百萬美元，比率除外）", "CIB 淨利息收益率（c）", ["0.51", "0.86"], None),
    ("截至 12 月 31 日止年度（百萬美元，比率除外）", "平均生息資產", ["$ 2,229", "$ 2,180"], "（單位：百萬美元）"),
    ("（千，股數及每股金額除外）", "加權平均流通在外股數", ["100", "90"], None),
    ("（千，股數及每股金額除外）", "每股股利", ["1.2", "1.1"], None),
    ("（千，股數及每股金額除外）", "淨利", ["10", "9"], "（單位：千）"),
    ("（百萬，每股金額除外）", "普通股買回股數", ["29.0", "36.6"], "（單位：百萬股）"),
    ("（千）", "加權平均流通在外股數", ["100", "90"], "（單位：千股）"),
    ("（千）", "每股盈餘之股數調整", ["1", "2"], "（單位：千）"),  # a per-share label is no share count
    ("（百萬）", "淨營收", ["$ 2,045", "$ 1,854"], "（單位：百萬美元）"),
    ("（百萬）", "核能發電量", ["-33", "36"], "（單位：百萬）"),  # no 「$」 of its own: no currency guessed
    ("（百萬美元）", "營業利益率", ["10%", "9%"], None),
    ("（百萬美元）", "營業利益率", ["10%", "9"], "（單位：百萬美元）"),  # not all percentages: kept
    ("（百萬美元，員工人數除外）", "員工人數", ["10", "9"], "（單位：百萬美元，員工人數除外）"),  # unread: kept
])
def test_a_row_states_the_unit_that_is_its_own(corner, label, values, unit):
    """v38–v40: 「淨利息收益率…分別為 2.50%…（單位：百萬美元，比率除外）」 — a rate row under an amount unit."""
    text = render_row([[corner, "2015", "2014"], [label, *values]], 1)
    if unit is None:
        assert "單位" not in text, text
    else:
        assert text.endswith(unit + "。"), text
    for v in values:  # the figure is kept; a 「$」 goes where the stated unit already says 美元
        assert (v.replace("$ ", "") if unit and "美元" in unit else v) in text


def test_an_as_of_month_column_reads_as_a_month_end():
    """Goldman's "as of december 2014" columns: 「截至 2014 年 12 月 $ 8,368、截至 2013 年 12 月 …」 read as a listing."""
    table = [["（百萬美元）", "截至 2014 年 12 月", "截至 2013 年 12 月"], ["薪酬及福利", "$ 8,368", "$ 7,874"]]
    assert render_row(table, 1) == "薪酬及福利於 2014 年及 2013 年 12 月底分別為 8,368 及 7,874（單位：百萬美元）。"
    # a different month in each column is no common month-end: a listing, each dated
    mixed = [["", "截至 2014 年 12 月", "截至 2014 年 6 月"], ["風險性資產", "$ 5", "$ 4"]]
    assert render_row(mixed, 1) == "風險性資產：2014 年 12 月底 $ 5、2014 年 6 月底 $ 4。"
    # 「截至 2014 年 12 月 31 日止年度」 (a year) is not a month-end
    year = [["", "截至 2014 年 12 月 31 日止年度", "截至 2013 年 12 月 31 日止年度"], ["營收", "$ 5", "$ 4"]]
    assert "月底" not in render_row(year, 1)


def test_a_long_column_name_says_is_before_its_value():
    """v40 0336: 「…重大不可觀察輸入值之範圍（平均數／中位數） $ 47」 runs a long name into its amount."""
    table = [["", "股數", "加權平均給與日公允價值"], ["既得", "-302", "41"]]
    assert render_row(table, 1) == "既得：股數為 -302、加權平均給與日公允價值為 41。"
    short = [["", "股數", "公允價值"], ["既得", "-302", "$ 41"]]
    assert render_row(short, 1) == "既得：股數 -302、公允價值 $ 41。"


def test_a_dash_cell_is_said_as_nothing_not_read_out_as_a_value():
    """Review 3044/3045: 「未攤銷折價為 —」 reads a dash as a value. A thing takes 「無」 before it, a period after
    it, a long name, a total or a name opening with its period 「：無」 — and a real zero stays a number."""
    table = [["（百萬美元）", "到期金額", "未攤銷折價", "帳面金額"], ["2014 年到期之 3.50% 票據", "$ 1000", "2014", "$ 1000"]]
    text = render_row(table, 1)
    assert "無未攤銷折價" in text and "—" not in text and "為 —" not in text, text
    years = [["", "合計", "1 年以內", "1-3 年", "5 年以上"], ["購買義務", "177.3", "176.6", "—", "—"]]
    text = render_row(years, 1)
    assert "1–3 年無" in text and "5 年以上無" in text and "合計為 177.3" in text, text
    long_name = [["計畫類別", "行使時應發行之證券數量", "未來仍可發行之證券數量（不含 a 欄所列證券）"],
                 ["未經股東會核准之計畫", "5978", "—"]]
    assert "未來仍可發行之證券數量（不含 a 欄所列證券）：無" in render_row(long_name, 1)
    assert "為 0" in render_row([["", "2012", "2011"], ["其他", "0", "5"]], 1)


def test_a_fiscal_corner_dates_a_year_label_and_a_shared_column_name_goes_to_the_label_first():
    """r31a class A, the rest: 「截至 3 月 31 日止會計年度，2007 年營業租賃為 1,703」 → the label's own period;
    columns 「2017 年營收總額」… under 「截至 12 月 31 日止年度」 say the name once and the fiscal years once."""
    fiscal = [["截至 3 月 31 日止會計年度", "營業租賃"], ["2007", "1703"], ["2008", "1371"]]
    assert render_row(fiscal, 1) == "2007 年 3 月 31 日止會計年度營業租賃為 1,703。"
    calendar = [["截至 12 月 31 日止年度", "各年到期金額（百萬美元）"], ["2011", "$ 463"], ["2012", "$ 500"]]
    assert render_row(calendar, 1) == "2011 年度各年到期金額為 463（單位：百萬美元）。"
    shared = [["截至 12 月 31 日止年度", "2017 年營收總額", "2016 年營收總額", "2015 年營收總額"],
              ["營收總額", "$ 10530", "$ 10281", "$ 11260"]]
    assert render_row(shared, 1) == "營收總額於 2017、2016 及 2015 年度分別為 $ 10,530、$ 10,281 及 $ 11,260。"


def test_a_bare_date_row_is_the_balance_and_date_cells_read_the_taiwan_way():
    """Review 3045/3046: 「12 月 31 日於 2012 及 2011 年分別為」 used a date as the subject; 「到期日為 11/2004」
    kept a US month; 「淨 MW分別為」 ran a Latin unit into the verb."""
    roll = [["（百萬美元）", "2012", "2011"], ["1 月 1 日", "$ 47", "$ 40"], ["12 月 31 日", "$ 43", "$ 47"]]
    assert render_row(roll, 2) == "2012 及 2011 年 12 月 31 日餘額分別為 43 及 47（單位：百萬美元）。"
    swaps = [["", "名目本金", "到期日", "交割日"], ["利率交換", "$ 65000", "8/2005", "11/23/2010"]]
    text = render_row(swaps, 1)
    assert "到期日為 2005 年 8 月" in text and "2010 年 11 月 23 日" in text and "/" not in text, text
    mw = [["", "2002", "2001"], ["12 月 31 日運轉中之淨 MW", "3955", "3445"]]
    assert "淨 MW 分別為 3,955 及 3,445" in render_row(mw, 1)


def test_a_span_of_years_whose_dash_was_read_as_a_year_prints_as_a_span():
    """Review 3051: 「2016 2014 2020」, 「年度 2012 2013 2016」 in a label cell are FinQA's OCR of 2016–2020; the table
    and its sentence print the span, the data checker accepts it, and years that do not ascend stay as they are."""
    from tw_fin_eval.evidence_zh import display_table
    from tw_fin_eval.zhcheck.rules import table_issues

    table = [["", "退休金", "其他"], ["2015", "900", "100"], ["2016 2014 2020", "4959", "989"]]
    shown = display_table(table)
    assert shown[2][0] == "2016–2020" and shown[2][1] == "4,959"
    assert render_row(table, 2).startswith("2016 年至 2020 年")
    en = [["", "pension", "other"], ["2015", "900", "100"], ["2016 2014 2020", "4959", "989"]]
    assert table_issues(en, shown, displayed=True) == []
    assert [f.code for f in table_issues(en, [*shown[:2], ["2016–2021", "4,959", "989"]], displayed=True)] == ["table_cell"]
    words = display_table([["", "金額"], ["年度 2012 2013 2016", "9530"]])
    assert words[1][0] == "年度 2012–2016"
    assert display_table([["", "金額"], ["2018 2014 2016", "5"]])[1][0] == "2018 2014 2016"
