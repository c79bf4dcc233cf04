"""FinQA's OCR dash codes (2014 = —, 2013 = –, 2212 = −) told from real values by the table's own evidence
(tw_fin_eval/dash_codes.py): each rule read both ways — the real value kept, the dash still a dash."""

from __future__ import annotations

from tw_fin_eval.dash_codes import number_cells, readings
from tw_fin_eval.evidence_zh import display_table, render_row

# finqa_tw-test-0509's block: reported − mark-to-market − project K = underlying, in three years
BLOCK = [["（百萬美元）", "2013", "2012", "2011"],
         ["報告之營業利益", "$ 2837", "$ 1562", "$ 1427"],
         ["市價評價調整", "947", "-452 ( 452 )", "-682 ( 682 )"],
         ["K 專案", "-208 ( 208 )", "2014", "2014"],
         ["基礎營業利益", "$ 2098", "$ 2014", "$ 2109"]]


def test_a_value_the_block_needs_is_a_number_and_the_empty_adjustment_a_dash():
    # 1562 + 452 − 0 = 2014: the underlying profit is 2,014; project K (2012, 2011) is —
    assert readings(BLOCK) == {(3, 2): False, (3, 3): False, (4, 2): True}
    shown = display_table(BLOCK)
    assert shown[4][2] == "$ 2,014" and shown[3][2] == shown[3][3] == "—"
    text = render_row(BLOCK, 4)
    assert "分別為 2,098、2,014 及" in text and "—" not in text
    assert "2012 年無" in render_row(BLOCK, 3)


def test_the_block_read_the_other_way_keeps_the_dash():
    # the same layout where the underlying figure is a real 2109 and project K is the code: a dash
    table = [row[:] for row in BLOCK]
    table[4][2] = "$ 2109"
    table[1][2] = "$ 1427"
    table[2][2] = "-682 ( 682 )"
    assert readings(table)[(3, 2)] is False
    assert display_table(table)[3][2] == "—"


def test_a_total_that_adds_up_without_the_code_makes_it_a_dash_and_one_that_needs_it_a_number():
    dash = [["", "2016", "2015"], ["a", "$ 463", "$ 400"], ["b", "2014", "100"], ["c", "497", "500"],
            ["合計", "$ 960", "$ 1000"]]
    assert readings(dash) == {(2, 1): False}
    # the other column shows the total's arithmetic; in this column it holds only with 2,014
    number = [["", "2016", "2015"], ["a", "$ 463", "$ 400"], ["b", "2014", "100"], ["c", "497", "500"],
              ["合計", "$ 2974", "$ 1000"]]
    assert readings(number) == {(2, 1): True}
    assert display_table(number)[2][1] == "2,014"


def test_a_column_of_years_keeps_its_year():
    # convfinqa_tw-dev-0151: the lease-expiration column; a real year 2014 among 2022 ( 2 ), 2023, n/a
    table = [["", "用途", "租約到期", "面積"], ["總部", "辦公", "2022 ( 2 )", "400000"], ["資料中心", "營運", "不適用", "1000"],
             ["附屬資料中心", "營運持續", "2014", "100000"], ["辦公室", "辦公", "2017", "5000"]]
    assert readings(table) == {(3, 2): True}
    assert display_table(table)[3][2] == "2014"
    # a code among amounts (not years) is not a year: 「2014」 in a column of 19, 21, 7 is a dash
    table = [["", "件數"], ["a", "19"], ["b", "2014"], ["c", "21"], ["d", "7"]]
    assert readings(table) == {(2, 1): False} and display_table(table)[2][1] == "—"


def test_a_total_the_page_states_decides():
    # finqa_tw-test-0653: 2017 $ 2014 | 2018 150 | 2019 175 | 2020 2756, and the page says $ 3081 outstanding
    table = [["2017", "$ 2014"], ["2018", "150"], ["2019", "175"], ["2020", "2756"]]
    assert readings(table, 0, 1, frozenset({3081.0})) == {(0, 1): False}
    assert readings(table, 0, 1, frozenset({5095.0})) == {(0, 1): True}  # 150 + 175 + 2756 + 2014
    # years and the code itself in the text say nothing: the reading falls to size (2,014 beside 2756)
    assert readings(table, 0, 1, frozenset({2014.0, 2016.0})) == readings(table, 0, 1) == {(0, 1): True}


def test_size_decides_only_what_arithmetic_leaves_and_undecided_codes_stay_numbers():
    # a row of dash codes only is a row of dashes; a code among its row's 2098 and 2109 fits, among 5 and 9 not
    assert readings([["", "2012", "2011", "2010"], ["未攤銷折價", "$ 2014", "( 2013 )", "2212"], ["x", "1", "2", "3"]]) \
        == {(1, 1): False, (1, 2): False, (1, 3): False}
    assert readings([["", "2013", "2012", "2011"], ["利益", "$ 2098", "$ 2014", "$ 2109"]]) == {(1, 2): True}
    assert readings([["", "2013", "2012", "2011"], ["費用", "5", "2014", "9"]]) == {(1, 2): False}
    assert readings([["", "2013", "2012"], ["價格", "$ 0.00", "2014"]]) == {(1, 2): False}  # among zeros
    # nothing to tell by: the number is printed, never dropped on a guess
    lone = [["", "金額"], ["合計", "$ 2014"]]
    assert readings(lone) == {} and number_cells(lone) == {(1, 1)}
    assert number_cells(lone, keep_undecided=False) == frozenset()
    assert display_table(lone)[1][1] == "$ 2,014"


def test_display_is_idempotent_on_decided_tables():
    for table in (BLOCK, [["", "2016"], ["a", "$ 463"], ["b", "2014"], ["合計", "$ 463"]]):
        shown = display_table(table)
        assert display_table(shown) == shown
