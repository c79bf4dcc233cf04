"""The gold's unit (answer_scale) read from where the operands stand, and the scorer's use of it: an amount
restated in 億／萬 (as the zh-TW evidence writes it) counts; a wrong scale does not."""

from __future__ import annotations

import pytest

from tw_fin_eval.answers.match import PATH_CONTEXT, match_numeric
from tw_fin_eval.sources.amount_scale import program_scale, table_scale

TEXT = ["the balance was $ 772 million , compared to $ 843 million at december 31 , 2011 .",
        "total assets were $ 25.0 billion and $ 24.0 billion , respectively .",
        "employees purchased 1.8 , 1.9 and 2.0 million shares .",
        "rent expense was $ 496 mil- lion in 2006 ."]
TABLE = [["( in thousands )", "2012", "2011"], ["revenue", "$ 5829", "$ 5735"]]


@pytest.mark.parametrize("program, table, expected", [
    ("subtract(772, 843)", None, 6),                  # "$ 772 million"
    ("add(25.0, 24.0)", None, 9),                     # "$ 25.0 billion"
    ("496", None, 6),                                 # a lookup; OCR "mil- lion"
    ("add(5829, 5735)", TABLE, 3),                    # the table's stated unit
    ("table_sum(revenue, none)", TABLE, 3),
    ("divide(772, 843)", None, None),                 # a ratio has no unit
    ("subtract(772, 843), multiply(#0, const_1000)", None, None),  # rescaled: unknown
    ("add(772, 25.0)", None, None),                   # mixed units
    ("add(5829, 17)", [["", "2012"], ["shares", "5829"]], None),  # nowhere stated
    # the unit followed step by step (r29b/c29a: shares × price and "ratio − 1" were given the table's unit)
    ("divide(772, 843), subtract(#0, const_1)", None, None),   # a percent change is a ratio
    ("divide(5829, 5735), subtract(const_1, #0)", TABLE, None),
    ("multiply(5829, 5735)", TABLE, None),                     # amount × amount (shares × price): no unit
    ("add(772, 843), divide(#0, const_2)", None, 6),           # an average keeps the unit
    ("add(5829, 5735), add(#0, 5829), divide(#1, const_3)", TABLE, 3),
    ("add(772, 843), divide(#0, const_3)", None, None),        # ÷ 3 of a two-value sum: not an average
    ("divide(772, const_10)", None, None),                     # const_10 may be "$ 10 billion": unknown
    ("divide(772, 9%)", None, 6),                              # grossing up by a percentage keeps it
    ("add(const_1, 25%), divide(25.0, #0)", None, 9),
    ("multiply(772, 12)", None, 6),                            # × a count stated nowhere with a unit
    ("divide(772, 46.7)", None, None),                         # ÷ an unplaced literal: unknown
])
def test_program_scale(program, table, expected):
    assert program_scale(program, table, TEXT) == expected


def test_table_scale_reads_header_and_first_column():
    assert table_scale([["", "amount ( in millions )"], ["a", "1"]]) == 6
    assert table_scale([["( dollars in thousands )", "2012"], ["a", "1"]]) == 3
    assert table_scale([["", "2012"], ["a", "1"]]) is None


@pytest.mark.parametrize("answer, ok", [
    ("答案：7.72 億美元", True), ("答案：772", True), ("答案：772,000,000", True), ("答案：77,200 萬美元", True),
    ("答案：7.72 十億美元", False), ("答案：77.2 億美元", False), ("答案：7.72 萬美元", False), ("答案：0.772", False),
])
def test_an_amount_restated_in_the_gold_unit_counts(answer, ok):
    m = match_numeric(answer, 772.0, questions=["該等貸款 2012 年底的餘額是多少？"], answer_scale=6)
    assert m.correct is ok
    if ok and "億" in answer:
        assert m.path == PATH_CONTEXT


def test_without_a_known_unit_a_restated_amount_is_not_guessed():
    assert not match_numeric("答案：7.72 億美元", 772.0, questions=["餘額是多少？"]).correct


def test_the_question_unit_wins_over_the_record_unit():
    # the question asks in 百萬美元: 「5,000 萬美元」 is 50 of them, whatever the page's unit
    m = match_numeric("答案：5,000 萬美元", 50.0, questions=["金額是多少（百萬美元）？"], answer_scale=3)
    assert m.correct and m.path != PATH_CONTEXT
