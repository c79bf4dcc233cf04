"""The residual-class sweep (issue 29): the table's unit note and its zh-TW caption in the prompt, the
pre-screen's checks (asked vs gold unit, operands in the prompt read value-aware, signs and directions),
the `sweep` field of the verdict files, the seeded audit sample, and that every unit the screen flags on the
committed data has been read."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from tw_fin_eval import prompts
from tw_fin_eval.build import assemble
from tw_fin_eval.errors import InputError
from tw_fin_eval.paths import TRANSLATIONS_DIR, VERIFICATION_DIR
from tw_fin_eval.records import table_unit_caption
from tw_fin_eval.sources.amount_scale import unit_note
from tw_fin_eval.sources.base import SourceItem
from tw_fin_eval.subsets import load_subset
from tw_fin_eval.verification.screen import (
    CHECKS,
    CLASSES,
    PENDING_FILE,
    REPORT_ONLY_CHECKS,
    PromptNumbers,
    ScreenUnit,
    asked_scale,
    base100_lines,
    gold_scale,
    load_pending,
    missing_operands,
    screen,
    screen_units,
    shared_headers,
    shows_negative,
)
from tw_fin_eval.verification.verdicts import Verdict, audit_sample, load_verdicts

TABLE = [["", "2008", "2007"], ["net income", "$ 56616", "$ 217692"]]


# ---- the unit note and the caption ------------------------------------------------------------------------

@pytest.mark.parametrize("sentence, scale, kind, per_share", [
    ("the following table reconciles the components ( in thousands ) : .", 3, "", False),
    ("the total purchase price was as follows ( dollars in millions ) : .", 6, "dollars", False),
    ("$ in millions december 2015 .", 6, "dollars", False),
    ("activity was as follows ( share awards in thousands ) :", 3, "shares", False),
    ("( in thousands , except per share data ) .", 3, "", True),
    ("amounts stated in billions .", 9, "", False),
])
def test_unit_note_read_from_the_sentence_before_the_table(sentence, scale, kind, per_share):
    plain = [["", "2008", "2007"], ["net income", "56616", "217692"]]  # no "$": the note alone says what it counts
    note = unit_note(plain, ["an earlier sentence in millions .", sentence])
    assert note is not None and (note.scale, note.kind, note.except_per_share) == (scale, kind, per_share)


@pytest.mark.parametrize("table, pre", [
    ([["( in millions )", "2008"], ["a", "1"]], ["the table below ( in thousands ) :"]),  # the table states one
    ([["", "amount ( $ in 000s )"], ["a", "1"]], ["the table below ( in thousands ) :"]),
    (TABLE, ["revenue was $ 5 million ; costs ( in thousands ) follow :"]),  # no "in millions" note, one scale
    (TABLE, ["( in millions ) except units in thousands :"]),                 # two scales: not told
    (TABLE, ["the company sold 5 million shares ."]),                         # no note at all
    (TABLE, []),
])
def test_no_unit_note_when_the_table_states_one_or_the_page_does_not(table, pre):
    note = unit_note(table, pre)
    if pre and "( in thousands ) follow" in pre[0]:
        assert note is not None and note.scale == 3  # only the thousands note is a note
    else:
        assert note is None


@pytest.mark.parametrize("sentence, kind, shares_excepted, caption", [
    # the except clause names what is NOT in thousands: share counts are never 「千股」 here (r29a: finqa 0040/0161)
    ("( in thousands , except share and per share amounts ) :", "", True, "單位：千，股數及每股金額除外"),
    ("( in thousands , except shares and per share data ) :", "", True, "單位：千，股數及每股金額除外"),
    ("( dollars in thousands , except number of shares ) :", "dollars", True, "單位：千美元，股數除外"),
    ("( in millions , except per share data ) :", "", False, "單位：百萬，每股金額除外"),
    ("( in thousands of shares ) :", "shares", False, "單位：千股"),
    ("( shares in millions ) :", "shares", False, "單位：百萬股"),
    ("( in millions of dollars ) :", "dollars", False, "單位：百萬美元"),
])
def test_the_except_clause_is_not_what_the_note_counts(sentence, kind, shares_excepted, caption):
    note = unit_note([["", "2008"], ["net income", "56616"]], [sentence])  # no "$" in the table: the note alone
    assert note is not None and (note.kind, note.except_shares) == (kind, shares_excepted)
    table = [["", "2008"], ["net income", "56616"], ["net income per share", "1.20"], ["shares outstanding", "47180"]]
    assert table_unit_caption(SourceItem("finqa", "x", 1, table=table, fields={"unit_note": note})) == caption


def test_an_exception_for_rows_the_table_does_not_have_is_left_out():
    """Review 3044 (finqa 0588): the page's 「except per share amounts」 covers every table on it; a table with no
    per-share (or share-count) row does not repeat it — 「單位：百萬美元」, not 「單位：百萬美元，每股金額除外」."""
    note = unit_note([["", "2008"], ["net income", "56616"]], ["( in thousands , except share and per share amounts ) :"])
    amounts = [["", "2008"], ["net income", "56616"], ["total", "60000"]]
    assert table_unit_caption(SourceItem("finqa", "x", 1, table=amounts, fields={"unit_note": note})) == "單位：千"
    eps = amounts + [["diluted earnings per share", "1.20"]]
    assert table_unit_caption(SourceItem("finqa", "x", 1, table=eps, fields={"unit_note": note})) == "單位：千，每股金額除外"
    shares = amounts + [["weighted average shares", "47180"]]
    assert table_unit_caption(SourceItem("finqa", "x", 1, table=shares, fields={"unit_note": note})) == "單位：千，股數除外"


def test_a_table_of_dollar_amounts_gives_a_bare_note_its_currency():
    """Issue 30 (e): 「單位：千」 under a table of "$" amounts reads 「單位：千美元」; a table that also counts
    shares (or prints no "$") keeps the bare scale."""
    note = unit_note(TABLE, ["the following table reconciles the components ( in thousands ) : ."])
    assert note is not None and note.kind == "dollars"
    assert table_unit_caption(SourceItem("finqa", "x", 1, fields={"unit_note": note})) == "單位：千美元"
    shares = TABLE + [["weighted average shares outstanding", "1200", "1100"]]
    assert unit_note(shares, ["( in thousands ) :"]).kind == ""
    assert unit_note([["", "2008"], ["barrels", "56616"]], ["( in thousands ) :"]).kind == ""


def test_caption_in_zh_and_in_the_prompt():
    item = SourceItem("finqa", "x", 1, table=TABLE + [["net income per share", "1.20", "1.10"]],
                      fields={"unit_note": unit_note(TABLE, ["( dollars in thousands , except per share amounts ) :"])})
    assert table_unit_caption(item) == "單位：千美元，每股金額除外"
    assert table_unit_caption(SourceItem("finqa", "y", 2, fields={"unit_note": None})) is None
    user = prompts.numeric_messages("問題？", TABLE, [], table_unit="單位：千")[1]["content"]
    assert user.startswith("表格（單位：千）：\n| ")
    assert prompts.numeric_messages("問題？", TABLE, [])[1]["content"].startswith("表格：\n| ")
    system, prefix = prompts.conversation_parts(TABLE, [], "單位：百萬")
    assert prefix.startswith("表格（單位：百萬）：")


def test_finqa_0714_prompt_states_the_thousands_of_its_page(sources_root):
    items = load_subset("finqa", sources_root)
    assert table_unit_caption(items[713]) == "單位：千"  # "( in thousands ) :" before the table
    assert table_unit_caption(items[0]) is None  # ETR: the header states 「金額（百萬）」


# ---- the screen's checks ------------------------------------------------------------------------------------

def test_asked_scale_english_and_zh():
    assert asked_scale("what was the average … from 2006 to 2008 in millions", "") == (6, None)
    assert asked_scale("how much in $ billions?", "是多少（以十億美元計）？") == (9, 9)
    assert asked_scale("", "平均是多少（以百萬計）？") == (None, 6)
    assert asked_scale("", "金額是多少（千美元）？") == (None, 3)
    assert asked_scale("what was the change?", "變動是多少？") == (None, None)


def test_gold_scale_follows_averages_and_rescales():
    note = unit_note(TABLE, ["( in thousands ) :"])
    avg = "add(56616, 217692), divide(#0, const_2)"
    assert gold_scale(avg, TABLE, [], note) == 3
    assert gold_scale(avg + ", divide(#1, const_1000)", TABLE, [], note) == 6
    assert gold_scale("56616", TABLE, [], note) == 3  # a bare lookup
    assert gold_scale("add(56616, 217692)", TABLE, [], None) is None  # no unit anywhere


@pytest.mark.parametrize("text, value, held", [
    ("已買回 86 億美元的股份", 8.6, True),      # $ 8.6 billion written as 億
    ("已買回 86 億美元的股份", 8600, True),     # … or read in millions
    ("淨營收為 $ 1,234", 1234, True),
    ("利率為 4.1%", 0.041, True),
    ("利率為 4.1%", 4.1, True),
    ("分 七年 攤銷", 7, True),
    ("-32 ( 32 )", 32, True),
    ("已買回 86 億美元的股份", 9, False),
    ("淨營收為 $ 1,234", 123.4, False),
])
def test_prompt_numbers_are_read_value_aware(text, value, held):
    assert PromptNumbers(text).holds(value) is held


def test_missing_operands_names_literals_and_non_trivial_constants():
    assert missing_operands("divide(8.6, const_10)", PromptNumbers("已買回 86 億美元")) == ["const_10"]
    assert missing_operands("divide(8.6, const_10)", PromptNumbers("已買回 86 億美元，計畫 100 億美元")) == []
    assert missing_operands("add(5, 7), divide(#0, const_2)", PromptNumbers("5 與 7")) == []  # an average's count
    assert missing_operands("multiply(#0, const_100)".replace("#0", "3"), PromptNumbers("3")) == []
    assert missing_operands("subtract(15, 28)", PromptNumbers("為 15。")) == ["28"]


def _unit(q_en: str, program: str, value: float, table=None, q_zh: str = "", status: str = "verified",
          turn=None, rid="convfinqa_tw-dev-9999", upstream=None, prompt=None) -> ScreenUnit:
    table = table or [["", "2008", "2007"], ["leases", "1371", "1703"]]
    return ScreenUnit("convfinqa", rid, turn, q_en, q_zh, program, value, status,
                      prompt if prompt is not None else json.dumps(table), table, [], None,
                      upstream if upstream is not None else program, value)


def test_sign_flags_positive_asks_and_change_direction():
    flags = screen([_unit("what is that expressed as a positive number?", "multiply(30584, const_m1)", -30584,
                          prompt="30584")])
    assert [f.cls for f in flags] == ["sign"]
    wrong = screen([_unit("what is the net change from 2007 to 2008?", "subtract(1703, 1371)", 332)])
    assert [f.why for f in wrong] == ["change from 2007 to 2008 computed 2007 − 2008"]
    assert screen([_unit("what is the net change from 2007 to 2008?", "subtract(1371, 1703)", -332)]) == []
    # "decrease" asks old − new
    assert screen([_unit("by how much did leases decrease from 2007 to 2008?", "subtract(1703, 1371)", 332)]) == []
    pct = screen([_unit("what was the percent change from 2007 to 2008?", "subtract(1371, 1703), divide(#0, 1371)",
                        -0.242)])
    assert [f.why for f in pct] == ["percent change divided by the later year (2008)"]


def test_sign_flags_a_turn_repeating_a_fixed_turns_upstream():
    t0 = _unit("what were leases in 2008?", "1371", 1371, status="fixed", turn=0, upstream="1703")
    t1 = _unit("and the change?", "subtract(1703, 1371)", 332, turn=1)
    flags = screen([t0, t1])
    assert [(f.cls, f.unit.turn) for f in flags] == [("sign", 1)]
    assert screen([t0, _unit("and the change?", "subtract(1371, 1703)", -332, turn=1, upstream="subtract(1,2)")]) == []


def test_unit_flag_when_the_question_asks_millions_of_a_thousands_table():
    table = [["( in thousands )", "2008", "2007"], ["net income", "$ 56616", "$ 217692"]]
    u = _unit("what was the total net income in millions?", "add(56616, 217692)", 274308, table=table)
    assert [f.why for f in screen([u])] == ["asks 10^6, gold is in 10^3 (gold 274308)"]
    ok = _unit("what was the total net income in millions?", "add(56616, 217692), divide(#0, const_1000)",
               274.308, table=table)
    assert screen([ok]) == []


def test_program_fit_flags_the_final_quantity_against_the_question():
    table = [["", "2015", "2014"], ["other", "63", "60"], ["total", "144", "140"], ["sales", "500", "450"]]
    def why(q: str, program: str, value: float) -> list[str]:
        return [f.why for f in screen([_unit(q, program, value, table=table, prompt="63 60 144 140 500 450")])]
    assert why("what was the average of other in 2014 and 2015?", "add(63, 60)", 123) == [
        "asks an average; the program sums without dividing"]
    assert why("what is the sum of the average other in 2014 and 2015?", "add(63, 60)", 123) == []
    assert why("what was the decrease in sales during 2014 and 2015?", "subtract(450, 500), divide(#0, 500)",
               -0.1) == ["asks an amount; the program ends in a division"]
    assert why("what is that change over the 2014 value?", "subtract(500, 450), divide(#0, 450)", 0.111) == []
    assert why("what portion of sales is other?", "subtract(500, 63)", 437) == [
        "asks a percentage/ratio; the program ends in subtract without dividing"]
    assert why("what is the annual cost of the 8.75% notes?", "multiply(500, 63)", 31500) == []  # a % in a name
    assert why("what percent of the total is other in 2015?", "divide(63, 500)", 0.126) == [
        "asks a share of a total; divides by the row 'sales'"]
    assert why("what percent of the total is other in 2015?", "divide(63, 144)", 0.4375) == []


def _checked(unit: ScreenUnit, table_zh=None) -> list[tuple[str, str, str]]:
    """(class, check, why) of the named checks' flags on `unit` (its zh-TW table as given)."""
    if table_zh is not None:
        unit = replace(unit, table_zh=table_zh)
    return [(f.cls, f.check, f.why) for f in screen([unit]) if f.check]


COST_EN = [["in millions", "december 31 2012 amortized cost", "december 31 2012 fair value",
            "december 31 2012 amortized cost", "fair value"],
           ["securities available for sale", "$ 49447", "$ 51052", "$ 48609", "$ 48568"]]
COST_ZH = [["百萬美元", "2012 年 12 月 31 日攤銷後成本", "2012 年 12 月 31 日公允價值", "2012 年 12 月 31 日攤銷後成本",
            "公允價值"], ["備供出售證券", "$ 49,447", "$ 51,052", "$ 48,609", "$ 48,568"]]


def test_shared_column_header_flags_operands_under_it_and_the_label_asked():
    assert shared_headers(COST_ZH) == {"2012 年 12 月 31 日攤銷後成本": [1, 3]}
    assert shared_headers([["", "2012", "2011"], ["a", "1", "2"]]) == {}
    under = _unit("what was the amortized cost?", "subtract(49447, 48609)", 838, table=COST_EN)
    assert _checked(under, COST_ZH) == [("table", "dup_column", "operand 49447, 48609 under a shared header: "
                                         "「2012 年 12 月 31 日攤銷後成本」 heads columns 1, 3")]
    named = _unit("what was the fair value?", "48568", 48568, table=COST_EN, q_zh="2012 年 12 月 31 日攤銷後成本之公允價值？")
    assert [c for _, c, _ in _checked(named, COST_ZH)] == ["dup_column"]
    # fair-value columns have headers of their own: the model can tell them apart
    assert _checked(_unit("what was the fair value?", "subtract(51052, 48568)", 2484, table=COST_EN), COST_ZH) == []
    # the English header repeats too, but the zh-TW one (what the model sees) tells the columns apart
    told = [COST_ZH[0][:3] + ["2011 年 12 月 31 日攤銷後成本", "2011 年公允價值"], COST_ZH[1]]
    assert _checked(under, told) == []


DASH_EN = [["", "2008", "2007"], ["restructuring charges", "2014", "$ 35"], ["other", "12", "2013"]]
DASH_ZH = [["", "2008", "2007"], ["重組費用", "—", "$ 35"], ["其他", "12", "—"]]


def test_an_operand_whose_cell_shows_a_dash_is_flagged():
    u = _unit("what were total charges?", "add(2014, 35)", 2049, table=DASH_EN)
    assert _checked(u, DASH_ZH) == [("table", "dash_cell", "operand 2014 is the cell '重組費用' / '2008', shown as "
                                     "「—」 (English '2014')")]
    code = [DASH_ZH[0], ["重組費用", "$ 2014", "$ 35"], DASH_ZH[2]]  # the code itself kept in the overlay
    assert [c for _, c, _ in _checked(u, code)] == ["dash_cell"]
    en_dash = _unit("what was other in 2007?", "2013", 2013, table=DASH_EN)
    assert [c for _, c, _ in _checked(en_dash, DASH_ZH)] == ["dash_cell"]
    # a real 2,014 the model sees (a value, not a dash) is no flag, even where another cell of 2014 is a dash
    real_en = DASH_EN + [["operating profit", "$ 2014", "$ 2109"]]
    real_zh = DASH_ZH + [["營業利益", "$ 2,014", "$ 2,109"]]
    assert _checked(_unit("what was operating profit?", "2014", 2014, table=real_en), real_zh) == []
    assert _checked(_unit("what was other in 2008?", "12", 12, table=DASH_EN), DASH_ZH) == []


LOSS_EN = [["", "2018", "2017"], ["net loss", "$ -9402", "$ -8011"], ["revenue", "( 1250 )", "1190"]]
LOSS_ZH = [["", "2018", "2017"], ["淨損", "$ -9,402", "$ -8,011"], ["營收", "( 1,250 )", "1,190"]]


@pytest.mark.parametrize("cell, negative", [("$ -9,402", True), ("-32 ( 32 )", True), ("( 1,234 )", True),
                                            ("-4.1%", True), ("$ 9,402", False), ("2019-20", False),
                                            ("9,402 ( a )", False)])
def test_shows_negative_reads_the_sign_the_model_sees(cell, negative):
    assert shows_negative(cell) is negative


def test_a_loss_looked_up_with_the_sign_the_table_does_not_show_is_reported():
    u = _unit("what was the net loss in 2018?", "9402", 9402, table=LOSS_EN)
    assert _checked(u, LOSS_ZH) == [("sign", "loss_sign", "asks the loss/outflow itself; the table shows 「$ -9,402」, "
                                     "gold 9402")]
    assert "loss_sign" in REPORT_ONLY_CHECKS and CHECKS["loss_sign"] == "sign"
    assert _checked(_unit("what was the net loss in 2018?", "-9402", -9402, table=LOSS_EN), LOSS_ZH) == []
    # not a loss asked, or not the amount itself (a change of the loss keeps its own sign rules)
    assert _checked(_unit("what was revenue in 2017?", "1190", 1190, table=LOSS_EN), LOSS_ZH) == []
    assert _checked(_unit("what was the change in net loss?", "subtract(9402, 8011)", 1391, table=LOSS_EN),
                    LOSS_ZH) == []
    zh_only = _unit("", "1250", 1250, table=LOSS_EN, q_zh="2018 年營收的損失是多少？")  # 「( 1,250 )」 is negative
    assert [c for _, c, _ in _checked(zh_only, LOSS_ZH)] == ["loss_sign"]


GRAPH = [["", "12/31/2010", "12/31/2011", "12/31/2012"], ["company", "$ 100.00", "$ 148.92", "$ 160.00"],
         ["s&p 500", "$ 100.00", "$ 102.11", "$ 118.45"]]


def test_a_return_over_a_graph_based_at_100_whose_gold_is_dollars_is_flagged():
    assert base100_lines(GRAPH) and base100_lines([list(r) for r in zip(*GRAPH)])  # a column or a row of 100s
    assert not base100_lines([["", "2011", "2010"], ["a", "100", "95"], ["b", "120", "100"]])
    assert not base100_lines([["", "2010", "2011"], ["company", "$ 100.00", "$ 148.92"]])  # one 100 is no base
    q = "what was the cumulative total return of the company by 2011?"
    minus = _checked(_unit(q, "subtract(148.92, const_100)", 48.92, table=GRAPH, prompt="100 148.92"))
    assert minus == [("unit", "base100_return", "asks a return over a table based at 100; gold 48.92 is value − 100 "
                      "(148.92), a dollar amount (as a fraction: 0.4892)")]
    itself = _unit("", "148.92", 148.92, table=GRAPH, q_zh="該公司至 2011 年的累積報酬率是多少（百分比）？")
    assert [w.split("; ")[-1] for _, _, w in _checked(itself)] == ["the question asks a percentage"]
    # the glossary's wording for the graph's value (p34h): 「累積報酬指數」 is the value, 「…減去基期 100」 value − 100
    index = _unit("what is the price of the company in 2011?", "148.92", 148.92, table=GRAPH,
                  q_zh="該公司於 2011 年的累積報酬指數是多少？")
    assert _checked(index) == []
    less = _unit("what is the price of the company in 2011 less an initial 100?", "subtract(148.92, const_100)", 48.92,
                 table=GRAPH, q_zh="該公司於 2011 年的累積報酬指數減去基期 100 是多少？")
    assert _checked(less) == []
    fraction = _unit(q, "subtract(148.92, const_100), divide(#0, const_100)", 0.4892, table=GRAPH)
    assert _checked(fraction) == []
    assert _checked(_unit("what was the value of the investment in 2011?", "148.92", 148.92, table=GRAPH)) == []
    flat = [GRAPH[0], ["company", "$ 90.00", "$ 148.92", "$ 160.00"], ["s&p 500", "$ 95.00", "$ 102.11", "$ 118.45"]]
    assert _checked(_unit(q, "subtract(148.92, const_100)", 48.92, table=flat)) == []


@pytest.mark.parametrize("line, message", [
    ({"id": "finqa_tw-test-0068", "turn": None, "check": "dup_col", "routed": "lead"}, "check must be one of"),
    ({"id": "finqa_tw-test-0068", "turn": -1, "check": "dup_column", "routed": "lead"}, "turn must be null"),
    ({"id": "finqa_tw-test-0068", "turn": None, "check": "dup_column", "routed": ""}, "routed must say"),
    ({"id": "finqa_tw-test-0068", "turn": None, "check": "dup_column"}, "fields must be exactly"),
])
def test_bad_pending_line_is_rejected_with_file_line_and_id(tmp_path, line, message):
    path = tmp_path / PENDING_FILE
    good = {"id": "finqa_tw-test-0852", "turn": None, "check": "dup_column", "routed": "lead"}
    path.write_text(json.dumps(good) + "\n" + json.dumps(line) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=message) as exc:
        load_pending(path)
    assert f"{PENDING_FILE}:2" in str(exc.value) and "finqa_tw-test-0068" in str(exc.value)
    path.write_text(json.dumps(good) + "\n" + json.dumps(good) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="pending twice"):
        load_pending(path)
    path.write_text(json.dumps(good) + "\n", encoding="utf-8")
    assert load_pending(path) == {("finqa_tw-test-0852", None, "dup_column")}
    assert load_pending(tmp_path / "absent.jsonl") == set()


# ---- the sweep field and the audit sample -------------------------------------------------------------------

SWEPT = {"id": "finqa_tw-test-0002", "turn": None, "status": "verified", "reason": None, "note": "", "reader": "a",
         "sweep": {"class": "unit", "reader": "b", "was": "verified", "changed": False}}


def _verdicts(tmp_path: Path, items, lines: list[dict]):
    path = tmp_path / "finqa" / "0001-0050.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return load_verdicts("finqa", items, tmp_path)


@pytest.mark.parametrize("sweep, message", [
    ({"class": "units", "reader": "b", "was": "verified", "changed": False}, "sweep.class must be one of"),
    ({"class": "unit", "reader": "b", "was": "fixed", "changed": False}, "changed must be true"),
    ({"class": "unit", "reader": "", "was": "verified", "changed": False}, "sweep.reader is required"),
    ({"class": "unit", "reader": "b", "was": "verified"}, "sweep must be an object with exactly"),
])
def test_bad_sweep_is_rejected_with_file_line_and_id(tmp_path, sources_root, sweep, message):
    items = load_subset("finqa", sources_root)
    with pytest.raises(InputError, match=message) as exc:
        _verdicts(tmp_path, items, [{**SWEPT, "sweep": sweep}])
    assert "0001-0050.jsonl:1" in str(exc.value) and "finqa_tw-test-0002" in str(exc.value)


def test_a_status_changed_after_the_sweep_by_a_disagreeing_second_read_keeps_changed_false(tmp_path, sources_root):
    items = load_subset("finqa", sources_root)
    later = {**SWEPT, "status": "unanswerable", "reason": "other", "note": "second read c: two readings",
             "second_read": {"reader": "c", "status": "unanswerable", "agree": False, "note": "two readings"}}
    assert _verdicts(tmp_path, items, [later])[("finqa_tw-test-0002", None)].status == "unanswerable"
    agreeing = {**later, "second_read": {**later["second_read"], "agree": True}}
    with pytest.raises(InputError, match="changed must be true"):  # nobody explains the change
        _verdicts(tmp_path, items, [agreeing])


def test_audit_sample_is_seeded_and_excludes_swept_units(tmp_path, sources_root):
    items = load_subset("finqa", sources_root)
    lines = [{"id": f"finqa_tw-test-{i:04d}", "turn": None, "status": "verified", "reason": None, "note": "",
              "reader": "a"} for i in range(3, 51)] + [SWEPT]
    verdicts = {"finqa": _verdicts(tmp_path, items, lines)}
    a, b = audit_sample(verdicts, 20, 7), audit_sample(verdicts, 20, 7)
    assert [v.key for v in a] == [v.key for v in b] and len({v.key for v in a}) == 20
    assert all(v.id != "finqa_tw-test-0002" for v in audit_sample(verdicts, 48, 1))
    assert [v.key for v in audit_sample(verdicts, 20, 8)] != [v.key for v in a]
    with pytest.raises(ValueError, match="only 48 verified units without a sweep"):
        audit_sample(verdicts, 49, 1)


def _pool(subset: str, n: int, status: str = "verified") -> dict:
    vs = [Verdict(id=f"{subset}_tw-x-{i:04d}", turn=None, status=status, reason=None, note="", reader="a")
          for i in range(n)]
    return {v.key: v for v in vs}


def test_audit_sample_interleaves_subsets_so_a_partial_read_stays_random():
    verdicts = {"finqa": _pool("finqa", 400), "convfinqa": _pool("convfinqa", 600)}
    for seed in (2031, 2032, 7):
        sample = audit_sample(verdicts, 150, seed)
        assert 40 <= sum(v.id.startswith("finqa") for v in sample) <= 80  # about 40% FinQA, as in the pool
        head = sample[:40]  # what an auditor who stops early has read
        assert 6 <= sum(v.id.startswith("finqa") for v in head) <= 28


def test_audit_sample_is_stable_under_later_corrections_and_skips_other_audits():
    verdicts = {"finqa": _pool("finqa", 400), "convfinqa": _pool("convfinqa", 600)}
    first = audit_sample(verdicts, 100, 2032)
    # the audit reads the first 30 and three of them are corrected: they keep their place, the rest do not move
    read = frozenset(v.key for v in first[:30])
    for v in first[:3]:
        verdicts["finqa" if v.id.startswith("finqa") else "convfinqa"][v.key] = Verdict(
            id=v.id, turn=None, status="unanswerable", reason="other", note="audit 2032", reader="lead")
    # an unread unit further down is corrected by someone else: it leaves, the others keep their order
    gone = first[50]
    verdicts["finqa" if gone.id.startswith("finqa") else "convfinqa"][gone.key] = Verdict(
        id=gone.id, turn=None, status="fixed", reason="other", note="", reader="lead")
    again = audit_sample(verdicts, 99, 2032, read_here=read)
    assert [v.key for v in again] == [v.key for v in first if v.key != gone.key]
    # without read_here the corrected units drop out (they are no longer verified)
    assert first[0].key not in {v.key for v in audit_sample(verdicts, 99, 2032)}
    # units another seed's audit read are not drawn again
    other = frozenset(v.key for v in first[:10])
    assert not other & {v.key for v in audit_sample(verdicts, 200, 2032, audited_elsewhere=other)}
    with pytest.raises(ValueError, match="without a sweep or an earlier audit"):
        audit_sample(verdicts, 1000, 2032, audited_elsewhere=other)


def test_audit_sample_cli_needs_all_and_excludes_committed_audits(capsys, sources_root):
    from tw_fin_eval.cli import main
    from tw_fin_eval.verification import audit as audit_mod

    assert main(["verify-check", "--audit-sample", "5", "--sources", str(sources_root)]) != 0
    assert "add --all" in capsys.readouterr().err
    assert main(["verify-check", "--all", "--audit-sample", "300", "--seed", "4242", "--sources", str(sources_root)]) == 0
    drawn = {tuple(line.split("\t")) for line in capsys.readouterr().out.splitlines()}
    audited = {(ln.id,) if ln.turn is None else (ln.id, str(ln.turn))
               for _, path in audit_mod.audit_files(VERIFICATION_DIR) for ln in audit_mod.load_audit(path)}
    assert len(drawn) == 300 and not drawn & audited


# ---- the committed sweep is complete ---------------------------------------------------------------------------

def test_card_line_counts_the_sweep_per_class():
    from tw_fin_eval.subsets.spec import gold_status_lines

    lines = gold_status_lines([{"gold_status": "verified", "gold_sweep": "unit"}, {"gold_status": "verified"},
                               {"gold_status": "fixed", "gold_reason": "unit_mismatch", "gold_sweep": "unit"},
                               {"gold_status": "unanswerable", "gold_reason": "other", "gold_sweep": "unanswerable"}])
    assert lines[-1].endswith("3 個單位 units（unit 2、unanswerable 1）")
    assert not any("sweep" in line for line in gold_status_lines([{"gold_status": "verified"}]))


@pytest.fixture(scope="module")
def built(sources_root):
    return assemble(sources_root, TRANSLATIONS_DIR, subsets=["finqa", "convfinqa"], finchain=False,
                    verification=VERIFICATION_DIR)


def test_records_and_card_carry_the_sweep_of_the_verdict_files(built, sources_root):
    from collections import Counter

    from tw_fin_eval.subsets import get_spec

    for res in built:
        verdicts = load_verdicts(res.subset, load_subset(res.subset, sources_root), VERIFICATION_DIR)
        want = Counter(v.sweep["class"] for v in verdicts.values() if v.sweep)
        units = res.records if res.subset == "finqa" else [t for r in res.records for t in r["turns"]]
        assert Counter(u["gold_sweep"] for u in units if u["gold_sweep"]) == want
        card = "\n".join(get_spec(res.subset).card.details(res.records))
        assert f"{sum(want.values()):,} 個單位 units" in card
    finqa = next(r for r in built if r.subset == "finqa").records
    r714 = finqa[713]
    assert r714["answer_value"] == pytest.approx(139.801) and r714["gold_sweep"] == "unit"
    assert r714["messages"][1]["content"].startswith("表格（單位：千）：")
    assert r714["context"]["table_unit"] == "單位：千"
    r629 = finqa[628]
    assert r629["answer_text"] == "yes" and "是非題" in r629["messages"][0]["content"]


@pytest.fixture(scope="module")
def screened(built, sources_root):
    results = built
    flags = []
    for res in results:
        items = load_subset(res.subset, sources_root)
        verdicts = load_verdicts(res.subset, items, VERIFICATION_DIR)
        flags += [(f, verdicts[(f.unit.record_id, f.unit.turn)])
                  for f in screen(list(screen_units(res.subset, items, res.records, verdicts)))]
    return flags


def test_every_flagged_unit_was_read(screened):
    # read = swept, or given its status by a (disagreeing) second read, which the adjudication then re-read;
    # a flag of a named check (added after the second read) is read only by a sweep of its class, else it is
    # routed and listed in verification/screen_pending.jsonl; a report-only check needs no read
    pending = load_pending(VERIFICATION_DIR / PENDING_FILE)
    unread = []
    for f, v in screened:
        if f.check in REPORT_ONLY_CHECKS:
            continue
        if f.check:
            if (v.sweep is None or v.sweep["class"] != f.cls) and (v.id, v.turn, f.check) not in pending:
                unread.append(f.line())
        elif v.sweep is None and v.second_read is None:
            unread.append(f.line())
    assert unread == []
    assert {f.cls for f, _ in screened} == set(CLASSES)


def test_pending_flags_are_still_flagged(screened, sources_root):
    """A pending line whose unit the screen no longer flags (and nobody changed) is stale: remove it."""
    flagged = {(f.unit.record_id, f.unit.turn, f.check) for f, _ in screened}
    verdicts = {k: v for s in ("finqa", "convfinqa")
                for k, v in load_verdicts(s, load_subset(s, sources_root), VERIFICATION_DIR).items()}
    pending = load_pending(VERIFICATION_DIR / PENDING_FILE)
    # empty once every routed flag is read (the table checks by k33, the restated operands by q33)
    stale = [key for key in pending if key not in flagged and verdicts[key[:2]].status == "verified"
             and verdicts[key[:2]].sweep is None]
    assert stale == []


# ---- evidence additions (class 3: a needed page sentence added to the evidence) ---------------------------

SLB_EN = ("on july 18 , 2013 , the board approved a new $ 10 billion share repurchase program to be completed at the "
          "latest by june 30 , 2018 .")
SLB_ZH = "董事會於 2013 年 7 月 18 日核准一項新的 100 億美元股票買回計畫，最遲須於 2018 年 6 月 30 日前完成。"
ADD = {"id": "finqa_tw-test-1028", "page": 0, "en": SLB_EN, "zh": SLB_ZH, "reader": "r", "note": "the $10 billion"}


def _by_id(subset: str, sources_root: Path) -> dict:
    from tw_fin_eval.subsets import get_spec

    return {get_spec(subset).record_id(it.index): it for it in load_subset(subset, sources_root)}


def _additions(tmp_path: Path, lines: list[dict]) -> Path:
    path = tmp_path / "evidence_additions.jsonl"
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    return path


def test_addition_loads_and_its_sentence_reaches_the_prompt(tmp_path, sources_root):
    from tw_fin_eval.verification.evidence_additions import apply_additions, load_additions

    items = _by_id("finqa", sources_root)
    adds = load_additions(_additions(tmp_path, [ADD]), items)
    assert [a.key for a in adds["finqa_tw-test-1028"]] == ["page_0"]
    assert load_additions(_additions(tmp_path, [ADD]), _by_id("convfinqa", sources_root)) == {}
    rec = {"id": "finqa_tw-test-1028", "question": "百分比是多少？", "answer_text": None,
           "context": {"table": [["", "2015"], ["a", "1"]], "evidence": ["已買回 86 億美元。"], "table_unit": None},
           "original_en": {"evidence": [{"key": "text_1", "text": "…"}]}, "messages": []}
    assert apply_additions("finqa", items, [rec], tmp_path) == 1
    assert rec["context"]["evidence"][-1] == SLB_ZH and rec["original_en"]["evidence"][-1]["key"] == "page_0"
    assert SLB_ZH in rec["messages"][1]["content"]
    assert missing_operands("divide(8.6, const_10)", PromptNumbers(rec["messages"][1]["content"])) == []


@pytest.mark.parametrize("change, message", [
    ({"en": SLB_EN.replace("10 billion", "12 billion")}, "en differs from page sentence 0"),
    ({"page": 99}, "page must be a sentence index"),
    ({"page": 1, "en": "schlumberger had repurchased $ 8.6 billion of shares under this new share repurchase "
                       "program as of december 31 , 2015 ."}, "already in the evidence"),
    ({"zh": SLB_ZH.replace("董事會", "董事会")}, "zh fails the zh-TW rules"),
    ({"zh": SLB_ZH.replace("2018 年", "2017 年")}, "zh fails the zh-TW rules"),
    ({"extra": 1}, "fields must be exactly"),
    ({"id": "finqa_tw-test-9999"}, "unknown id"),
])
def test_bad_addition_is_rejected_with_file_line_and_id(tmp_path, sources_root, change, message):
    from tw_fin_eval.verification.evidence_additions import load_additions

    path = _additions(tmp_path, [{**ADD, **change}])
    with pytest.raises(InputError, match=message) as exc:
        load_additions(path, _by_id("finqa", sources_root))
    assert "evidence_additions.jsonl:1" in str(exc.value)


def test_an_addition_twice_is_rejected(tmp_path, sources_root):
    from tw_fin_eval.verification.evidence_additions import load_additions

    with pytest.raises(InputError, match="added twice"):
        load_additions(_additions(tmp_path, [ADD, ADD]), _by_id("finqa", sources_root))


def test_committed_additions_are_in_the_built_prompts(built):
    recs = {r["id"]: r for res in built for r in res.records}
    assert SLB_ZH in recs["finqa_tw-test-1028"]["messages"][1]["content"]
    assert recs["finqa_tw-test-1028"]["gold_status"] == "verified"
    conv = recs["convfinqa_tw-dev-0138"]
    assert "因收購奧克拉荷馬州之 STACK 資產而增加 34 百萬桶油當量" in conv["first_user_prefix"]
    assert conv["turns"][1]["gold_status"] == "fixed" and conv["turns"][1]["answer_value"] == 34


def test_restated_only_tells_an_amount_shown_only_in_another_unit():
    from tw_fin_eval.verification.screen import PromptNumbers

    shown = PromptNumbers("維修及保養費用總額分別為 22 億美元及 20 億美元；應付帳款 $ 819（單位：百萬美元）。")
    assert shown.restated_only(2.2) and shown.restated_only(2200)  # the page's $ 2.2 billion, seen only as 22 億
    assert not shown.restated_only(819) and not shown.restated_only(22)  # written as it is
    assert not shown.restated_only(5.5)  # not in the prompt at all (missing_fact's business)


def test_restated_operand_reads_added_constants_but_not_counts():
    # v37: convfinqa 0296 — the credit line 「由 50 億美元提高至 70 億美元」, program subtract(const_7, const_5), gold 2
    # (billions) and no unit asked; a constant that multiplies or divides is a count (七大洲, 分八期), not an amount
    prompt = "本公司有權要求將該額度由 50 億美元提高至 70 億美元，分七期支付。"

    def flagged(program: str, value: float) -> bool:
        unit = _unit("what would be the change?", program, value, q_zh="變動會是多少？", prompt=prompt)
        return any(f.check == "restated_operand" for f in screen([unit]))
    assert flagged("subtract(const_7, const_5)", 2)
    assert not flagged("divide(455, const_7)", 65)


def test_restated_operand_is_not_flagged_once_the_question_names_the_unit():
    # q33: a question that asks 「（以美元計）」 names the gold's unit as surely as 「（以百萬美元計）」 does
    prompt = "已買回 86 億美元的股份。"

    def flagged(q_zh: str) -> bool:
        unit = _unit("how much was bought back?", "multiply(8.6, const_1000)", 8600, q_zh=q_zh, prompt=prompt)
        return any(f.check == "restated_operand" for f in screen([unit]))
    assert flagged("買回金額是多少？")
    assert not flagged("買回金額是多少（以百萬美元計）？")
    assert not flagged("買回金額是多少（以美元計）？") and not flagged("買回金額是多少（美元）？")
