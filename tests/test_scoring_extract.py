"""Number parsing, answer extraction and matching: every format of the spec, accepted and rejected."""

from __future__ import annotations

import pytest

from tw_fin_eval.answers import extract, match
from tw_fin_eval.answers.numbers import find_numbers, parse_number
from tw_fin_eval.schema import Tolerance


@pytest.mark.parametrize("text,value", [
    ("94", 94.0),
    ("1,234,567", 1234567.0),
    ("１２３．４", 123.4),
    ("−5.2", -5.2),
    ("－7", -7.0),
    ("(1,234)", -1234.0),
    ("（1,234）", -1234.0),
    ("14.1%", 0.141),
    ("14.1％", 0.141),
    ("百分之 14.1", 0.141),
    ("NT$ -1,234 元", -1234.0),
    ("US$94 million", 94e6),
    ("$ 5735", 5735.0),
    ("1.2億", 1.2e8),
    ("3,500萬元", 3.5e7),
    ("1億2,000萬", 1.2e8),
    ("2.5 千萬", 2.5e7),
    ("3 十億", 3e9),
    ("1.5兆", 1.5e12),
    ("4 千元", 4000.0),
    ("94 百萬美元", 94e6),
    ("25 bps", 0.0025),
    ("2.5 個百分點", 0.025),
    (".5", 0.5),
    ("-$94", -94.0),
    ("負 4.4%", -0.044),
    ("負94", -94.0),
])
def test_parse_number_values(text, value):
    n = parse_number(text)
    assert n is not None
    assert n.value == pytest.approx(value)


def test_separators_and_ranges_are_not_misread():
    assert [n.value for n in find_numbers("94，2015")] == [94.0, 2015.0]  # full-width comma is not a separator
    assert [n.value for n in find_numbers("2015-2016")] == [2015.0, 2016.0]  # a range, not a minus
    assert [n.value for n in find_numbers("Q3 營收 5")] == [5.0]  # Q3 is a name
    assert [n.value for n in find_numbers("答案：94（百萬美元）")] == [94.0]
    assert [n.value for n in find_numbers("負債總額為 94")] == [94.0]  # 負債 is not a sign


@pytest.mark.parametrize("output,mode,extracted", [
    ("計算如下……\n答案：94", "strict", "94"),
    ("答案: 94", "strict", "94"),
    ("Answer: 94", "strict", "94"),
    ("ANSWER：94", "strict", "94"),
    ("最終答案：94", "strict", "94"),
    ("**答案**：\n\n**94**", "strict", "94"),
    ("答案：12\n再檢查一次。\n答案：94", "strict", "94"),  # the LAST marker
    ("答案：2015 年為 94", "strict", "94"),  # a leading year is skipped
    ("答案：$\\boxed{94}$", "strict", "94"),
    ("所以結果是 \\boxed{94}。", "boxed", "94"),
    ("\\boxed{\\frac{1}{2}} 不對，應為 \\boxed{94}", "boxed", "94"),
    ("兩年相差 94。", "last_number", "94"),
    ("無法計算。", "refusal", None),  # no answer line, and the reply declines: refused (issue 26)
    ("答案：1.52\n計算結果為 \\boxed{151.9\\%}", "strict", "1.52"),  # the marker line wins over a later boxed
    ("答案：5,829 − 5,735 = 94", "strict", "94"),  # the result side of a restated computation
    ("答案：94 ÷ 5,735 ≈ 1.64%", "strict", "1.64%"),
    ("答案：等於 94", "strict", "94"),
])
def test_extraction_modes(output, mode, extracted):
    ext = extract.extract_number(output)
    assert ext.mode == mode
    assert ext.extracted == extracted


def test_think_is_stripped_first():
    out = "<think>答案：5829 嗎？不，要相減。</think>\n答案：94"
    assert extract.extract_number(out).extracted == "94"
    assert extract.extract_number("<think>答案：94</think>").mode == "none"  # only thinking, no answer
    assert extract.extract_number("<think>還在想 94").mode == "none"  # ran out of tokens while thinking
    assert extract.strip_think("推理……</think>答案：7") == "答案：7"  # a stray closing tag


def test_marker_without_number_does_not_take_reasoning_numbers():
    assert extract.extract_number("先算 5829 − 5735。\n答案：無法判斷").mode == "none"


def ok(output, gold, gold_answer=None, question=None, tol=match.DEFAULT_TOLERANCE):
    return match.match_numeric(output, gold, gold_answer=gold_answer, questions=[question], tol=tol)


@pytest.mark.parametrize("output,gold,gold_answer,question", [
    ("答案：14.1%", 0.141, "14.1%", None),
    ("答案：0.141", 0.141, "14.1%", None),
    ("答案：14.1", 0.141, None, "營收成長率為何？"),
    ("答案：14%", 0.141, None, "營收成長率為何？"),  # within 1% relative
    ("答案：16.94%", 16.93811, "16.93%", "what percentage"),  # gold already in percentage points
    ("答案：0.1694", 16.93811, "16.93%", "what percentage"),
    ("答案：約 1.2 億元", 1.2e8, None, None),
    ("答案：3,500萬元", 3.5e7, None, None),
    ("答案：NT$ 5,829.00", 5829.0, None, None),
    ("答案：(1,234)", -1234.0, None, None),
    ("答案：−1,234", -1234.0, None, None),
    ("答案：１２３", 123.0, None, None),
    ("答案：94.9", 94.0, None, None),  # 0.96% relative
    ("答案：0.004", 0.0, None, None),  # absolute 0.005
    ("答案：25 bps", 25.0, None, "利差變動了幾個基點？"),
    ("答案：25 bps", 0.0025, None, "利差變動為何？"),
    ("答案：127.5%", 1.275, None, "2018 年的總額相對於 2017 年為何？"),
])
def test_numeric_accepts(output, gold, gold_answer, question):
    assert ok(output, gold, gold_answer, question).correct


@pytest.mark.parametrize("output,gold,gold_answer,question", [
    ("答案：940", 94.0, "94", None),  # contains the right digits, wrong value
    ("答案：1994", 94.0, "94", None),
    ("答案：9.4", 94.0, "94", None),
    ("答案：-94", 94.0, "94", None),  # sign counts
    ("答案：95", 94.0, "94", None),  # 1.06%
    ("答案：0.0141", 0.141, "14.1%", None),  # percent scale ×10 off
    ("答案：1410%", 0.141, "14.1%", None),
    ("答案：1.2 億", 1.2e7, None, None),
    ("答案：15.51%", 0.141, "14.1%", None),  # ×1.1
    ("答案：94", 94.0 * 1e6, None, None),  # bare numeral of a value in units
    ("答案：80.5", 0.805, "0.80", "負債對權益比率（以倍數表示）"),  # a multiple, not a percentage
])
def test_numeric_rejects(output, gold, gold_answer, question):
    assert not ok(output, gold, gold_answer, question).correct


def test_unit_restating_path_is_counted():
    m = ok("答案：94 百萬美元", 94.0, "94", "淨營收增加多少？")  # the unit restates a table's scale
    assert m.correct and m.path == match.PATH_BARE
    # the question names its unit: the answer's value in that unit is the same amount
    m = ok("答案：94 百萬美元", 94.0, "94", "淨營收增加多少（百萬美元）？")
    assert m.correct and m.path == match.PATH_SCALE
    m = ok("答案：9,400 萬美元", 94.0, "94", "淨營收增加多少（以百萬美元計）？")
    assert m.correct and m.path == match.PATH_SCALE
    assert not ok("答案：9,400 萬美元", 94.0, "94", "淨營收增加多少（以千美元計）？").correct
    m = ok("答案：9,400 萬美元", 94e6, None, None)
    assert m.correct and m.path == match.PATH_VALUE
    assert ok("答案：14.1", 0.141, None, "成長率？").path == match.PATH_PERCENT


def test_tolerance_is_configurable():
    assert ok("答案：95", 94.0).correct is False
    assert ok("答案：95", 94.0, tol=Tolerance(rel=0.02, abs=0.0)).correct
    assert ok("答案：0.004", 0.0, tol=Tolerance(rel=0.01, abs=0.001)).correct is False


def test_percent_question_detection():
    assert match.is_percent_question("14.1%")
    assert match.is_percent_question("0.141", "營收成長率為何？")
    assert match.is_percent_question("0.141", "", "what is the percentage change?")
    assert match.is_percent_question("0.29", "", "what portion of the total is related to stock awards?")
    assert match.is_percent_question(None, "變動幅度為何？（以 % 表示）")
    assert not match.is_percent_question("94", "淨營收增加多少？")
    assert not match.is_percent_question("0.80", "負債對權益比率（以倍數表示）")
    assert not match.is_percent_question("0.14", "請計算現金比率。本題答案填現金比率（倍）。")
    assert not match.is_percent_question("NT$0.16", "權益占 55%，每股可發放的現金股利為何？")  # gold in NT$
    assert not match.is_percent_question(None, "權益占 55%，每股可發放多少現金股利？")  # % only in the set-up
    assert not match.is_percent_question(None, "殖利率上升了幾個基點？")
    assert match.is_percent_question("4.88%", "資金成本調降 40 個基點，企業價值增加幾 %？")


def test_percent_questions_compare_in_points():
    """The absolute tolerance is 0.005 of a percentage point, not half a point."""
    assert ok("答案：2.9%", 0.02899, "2.9%").correct
    assert ok("答案：2.85%", 0.0259, "2.59%").correct is False  # ×1.1: wrong, though |0.0285 − 0.0259| < 0.005
    assert ok("答案：0.03", 0.02899, "2.9%").correct is False  # 3.5% off
    assert ok("答案：4.88", 0.04878, "4.88%", "調降 40 個基點後企業價值增加幾 %？").correct
    assert ok("答案：NT$0.16", 0.164, "NT$0.16", "權益占 55%，每股股利？").correct  # not a percent question


@pytest.mark.parametrize("output,gold,expected", [
    ("答案：是", "yes", True), ("答案：否", "no", True), ("答案：不是", "no", True), ("答案：不是", "yes", False),
    ("Answer: Yes.", "yes", True), ("Answer: no", "yes", False), ("答案：是的，較高。", "yes", True),
    ("<think>答案：否</think>答案：是", "yes", True), ("答案：對", "yes", True), ("答案：沒有", "no", True),
    ("答案：\\boxed{否}", "no", True), ("答案：無法判斷", "no", False), ("無法判斷。", "yes", False),
    ("答案：無法確定", "no", False), ("答案：資料不足", "yes", False), ("Answer: cannot determine", "no", False),
])
def test_yes_no(output, gold, expected):
    assert match.match_yes_no(output, gold).correct is expected


@pytest.mark.parametrize("output,gold", [("綜上，結果為 \\boxed{否}", "no"), ("比較後可知：yes", "yes")])
def test_yes_no_without_marker_is_only_flexible(output, gold):
    m = match.match_yes_no(output, gold)
    assert m.correct is False and m.flexible is True and m.mode != "strict"


def test_refusals_are_never_yes_or_no():
    for text in ("答案：無法判斷", "答案：無法確定", "答案：不確定", "答案：資料不足", "Answer: cannot determine"):
        m = match.match_yes_no(text, "no")
        assert not m.correct and not m.flexible and m.refused, text
    assert not match.match_yes_no("答案：否", "no").refused


@pytest.mark.parametrize("output,gold,fmt,expected", [
    ("答案：B", ["B"], "letter", True),
    ("答案：(B)", ["B"], "letter", True),
    ("答案：選項 B：銀行的 A 級客戶", ["B"], "letter", True),  # option text does not add codes
    ("答案：b", ["B"], "letter", True),
    ("答案：Ｃ", ["C"], "letter", True),
    ("答案：A、C", ["A", "C"], "letter", True),
    ("答案：A 和 C", ["A", "C"], "letter", True),
    ("答案：AC", ["A", "C"], "letter", True),
    ("答案：(ABD)", ["A", "B", "D"], "letter", True),
    ("答案：AB", ["A", "C"], "letter", False),
    ("答案：B) 存款保險", ["B"], "letter", True),
    ("答案：(A)(C)", ["A", "C"], "letter", True),
    ("答案：(1)(3)", ["1", "3"], "number", True),
    ("答案：（1）（3）", ["1", "3"], "number", True),
    ("答案：③", ["3"], "number", True),
    ("答案：①、④", ["1", "4"], "number", True),
    ("答案：⑵", ["2"], "number", True),
    ("答案：(A)(C)", ["A"], "letter", False),
    ("答案：A", ["A", "C"], "letter", False),  # multi-answer needs all
    ("答案：A、B、C", ["A", "C"], "letter", False),  # and nothing else
    ("答案：(2)", ["2"], "number", True),
    ("答案：（1）、（3）", ["1", "3"], "number", True),
    ("答案：2", ["B"], "letter", True),  # cross format, counted
    ("所以選 \\boxed{D}", ["D"], "letter", True),
    ("答案：D", ["B"], "letter", False),
    ("我認為是 B 或 C", ["B"], "letter", False),
])
def test_choice(output, gold, fmt, expected):
    assert match.match_choice(output, gold, fmt).correct is expected


def test_choice_cross_format_flag():
    m = match.match_choice("答案：2", ["B"], "letter")
    assert m.cross_format and m.predicted == ["B"]
    assert not match.match_choice("答案：B", ["B"], "letter").cross_format


def test_every_percent_cue_in_the_asked_clause_makes_a_percent_question():
    cues = match._PERCENT_WORDS.split("|") + ["PERCENTAGE"]
    assert all(match.is_percent_question(None, f"請問{c}是多少？") for c in cues)
    assert all(match.is_percent_question(None, f"請計算變動（{c}）。") for c in ["以 % 表示", "%", "單位：%"])


@pytest.mark.parametrize("question", [
    "所得稅率 20%，請問每年的稅後成本綜效是多少？",            # a rate in the set-up only
    "請問投資組合的夏普比率是多少？（取到小數第二位）",           # a named ratio
    "空服員總數與維修人員總數的比率是多少？",                   # A 與 B 的比率: a multiple
    "請計算利息保障倍數。（四捨五入至小數點後第 2 位）",
    "股票預期報酬率 12.0%、標準差 15.5%，請問流動比率是多少？",
])
def test_not_percent_questions(question):
    assert not match.is_percent_question(None, question)
    # so a 100× answer is not accepted for a ratio of 0.5229
    assert not ok("答案：52.29", 0.5229, None, question).correct


@pytest.mark.parametrize("text", [
    "(" + " " * 5000 + "x", "-" + " " * 5000 + "x", "答案" + " " * 5000 + "x", "NT$" + " " * 5000, "負" + " " * 5000 + "x",
    "( " * 3000, "1 " * 5000, "答案：" + "(A" * 2000, "{" * 3000, '{"score": "' + " " * 5000 + '8"}', "<think>" * 3000,
    "</think>" * 3000 + "答案：1", "步驟 1：" * 2000,
], ids=lambda t: f"{t[:6]!r}x{len(t)}")
def test_degenerate_outputs_are_linear_time(text):
    """A model that loops (runs of spaces, brackets, tags) must not stall the scorer (no catastrophic
    backtracking): every reader finishes quickly on 5–20 kB of junk."""
    import time

    from tw_fin_eval.scoring import judge, scorers

    start = time.perf_counter()
    extract.extract_number(text)
    extract.extract_choice(text)
    extract.extract_yes_no(text)
    extract.extract_conclusion(text)
    match.match_numeric(text, 1.0, questions=[text])
    scorers.step_recall(text, [{"label": text[:40], "value": 1.0}])
    judge.PROTOCOLS["score_0_10"].parse(text, judge.JudgeRequest(None, "", "score_0_10"))
    # catastrophic backtracking takes minutes on these inputs; linear readers take milliseconds — the
    # bound is loose so a loaded CI machine never trips it
    assert time.perf_counter() - start < 15.0
