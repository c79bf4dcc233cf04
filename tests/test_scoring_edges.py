"""Issue 26: no wrong answer accepted at the edges. Each class has accept AND reject cases, checked through the
public surface only — `engine.score` on a record (what `tw-fin-eval score` does) and the `evaluate` metric
computations (`metric_fns`), which must give the same verdict item by item:

1. alternatives and ranges, however joined, are wrong; the same value restated in another unit is one answer;
2. decrease / loss words in Traditional, Simplified and Taiwan usage give the sign;
3. a negation before the predicate's verb flips a yes/no; the predicate itself is a yes; a categorical answer
   that names one label and rejects another is that label;
4. exact golds (FinChain) get no percentage-points leniency;
5. a corrected answer line is read after its correction;
6. a stated unit that contradicts the gold's unit is wrong;
7. 「答案是」/「答案為」/「最終答案是」 are answer lines; a reply without an answer line that refuses is `refused`;
8. FinChain's gold solutions get full step credit.
"""

from __future__ import annotations

import pytest

from tw_fin_eval.scoring import engine, metric_fns, scorers, selfcheck


# ---- records and verdicts --------------------------------------------------------------------------------
def _finqa(question: str, value: float | None, answer: str | None = None, scale: int | None = None,
           text: str | None = None) -> dict:
    return {"id": "finqa_tw-test-9001", "dataset": "FinQA-TW", "task_type": "numeric", "category": "C",
            "subcategory": "s", "difficulty": None, "question": question, "answer": answer if answer else text,
            "answer_value": value, "answer_text": text, "answer_scale": scale, "gold_status": "verified"}


def _finchain(question: str, *, value: float | None = None, answer: str, text: str | None = None,
              decimals: int | None = None, steps: list | None = None, template: str = "t_edge") -> dict:
    rec = {"id": "finchain_tw-9001", "dataset": "FinChain-TW", "task_type": "numeric_cot", "category": "c",
           "subcategory": "s", "difficulty": "中級", "question": question, "answer": answer, "answer_value": value,
           "answer_text": text, "steps": steps or [], "answer_type": "numeric" if value is not None else "categorical",
           "template_id": template, "seed": 0}
    if decimals is not None:
        rec["answer_decimals"] = decimals
    return rec


def _item(rec: dict, response: str, siblings: tuple[str, ...] = ()) -> scorers.ItemResult:
    others = [dict(rec, id=f"{rec['id']}~{i}", answer_text=s, answer=s) for i, s in enumerate(siblings)]
    runs = engine.RunsIndex()
    runs.success[(rec["id"], None)] = {"response": response}
    return next(it for it in engine.score([rec, *others], runs, progress=False).items if it.id == rec["id"])


def verdict(rec: dict, response: str, siblings: tuple[str, ...] = ()) -> bool | str:
    """The scorer's headline verdict (True / False / "pending"); for a FinQA record also checks that the
    numeric_match metric gives the same verdict."""
    item = _item(rec, response, siblings)
    got: bool | str = "pending" if item.status == scorers.PENDING else bool(item.correct)
    if rec["task_type"] == "numeric":
        ref = rec["answer_value"] if rec["answer_value"] is not None else rec["answer_text"]
        metric = metric_fns.numeric_match([response], [ref], questions=[rec["question"]],
                                          gold_answers=[rec["answer"]], answer_scales=[rec.get("answer_scale")],
                                          return_items=True)["items"][0]
        assert metric["correct"] == got, "metric and scorer disagree"
    return got


# ---- 1. alternatives and ranges --------------------------------------------------------------------------
RATE = _finqa("該公司 2019 年的淨利率是多少？", 0.125, "12.5%")
MONEY = _finqa("該筆交易的金額是多少元？", 1_234_000.0, "1234000")
RATIO = _finqa("該公司的速動比率是多少？", 0.35, "0.35")

ALTERNATIVES_WRONG = [
    (RATE, "答案：12.5% 或大約 13%"), (RATE, "答案：12.5%或是13%"), (RATE, "答案：12.5% 或者 13%"),
    (RATE, "答案：12.5% 還是 13%"), (RATE, "答案：12.5% / 13%"), (RATE, "答案：12.5%／13%"),
    (RATE, "答案：12.5% vs 13%"), (RATE, "Answer: 12.5% or 13%"), (RATE, "Answer: 12.5% and 13%"),
    (RATE, "答案：介於 12.5% 與 13% 之間"), (RATE, "答案：介於 12.5% 和 13% 之間"), (RATE, "答案：約 12.5% 至約 13%"),
    (RATE, "Answer: between 12.5% and 13%"), (RATE, "答案：大約 12.5%，但也可能是 13%"),
    (RATE, "答案：12.5%，也可能是 13%"), (RATE, "答案：12.5%（也可能是 13%）"), (RATE, "答案：12.5%，或許是 13%"),
    (RATE, "Answer: 12.5%, but it could also be 13%"), (RATE, "答案：12.5%，或 13%"),
    (RATE, "答案：13% 或 12.5%"), (RATE, "答案：可能是 12.5%，也可能是 14%"),
    (RATIO, "答案：0.35 / 0.40"), (RATIO, "答案：0.35 vs 0.40"), (RATIO, "答案：0.35 或是 0.4"),
    (MONEY, "答案：約 123.4 萬至約 130 萬元"), (MONEY, "答案：1,234,000 元或 1,240,000 元"),
    (MONEY, "答案：123.4 萬元，但也可能是 130 萬元"), (MONEY, "答案：約 123 萬至 124 萬元"),
    (RATE, "答案：12.5%，亦可能為 13%"), (RATE, "答案：12.5%～13%"), (RATE, "答案：12.5% 到 13% 左右"), (RATE, "答案：12.5%（或 13%）"),
    (RATE, "答案：12.5% 或 13%（視計算方式而定）"), (RATE, "答案：若含稅為 12.5%，不含稅為 13%"), (RATE, "答案：12.5% 左右，13% 也有可能"),
    (RATE, "Answer: 12.5% (possibly 13%)"), (RATE, "Answer: 12.5%, or maybe 13%"), (RATE, "Answer: roughly 12.5%–13%"),
    (RATE, "Answer: 12.5% / 13.0%"), (RATE, "答案：12.5%，若四捨五入則為 13%"), (RATE, "答案：12.5%，否則為 13%"),
    (RATE, "答案：約為 12.5%，但亦有可能達 13%"), (RATE, "答案：14.46% 或 14.5%"),
]
ALTERNATIVES_RIGHT = [  # one value, restated or explained
    (RATE, "答案：12.5%（即 0.125）"), (RATE, "答案：12.5%，即 0.125"), (RATE, "答案：12.5% 或 0.125"),
    (RATE, "答案：約 12.5%"), (RATE, "答案：可能是 12.5%"), (RATE, "答案：12.5%，較前一年的 10% 增加 2.5 個百分點"),
    (MONEY, "答案：1,234,000 元（約 123.4 萬元）"), (MONEY, "答案：1,234,000 元，約 123.4 萬元"),
    (MONEY, "答案：1,234,000 元或 123.4 萬元"), (MONEY, "答案：123.4 萬元 / 1,234,000 元"),
    (MONEY, "Answer: NT$1,234,000 (about NT$1.23 million)"), (RATIO, "答案：0.35"),
    (RATE, "答案：約為 12.5% 上下"), (RATE, "答案：12.5%（2019 年）"), (RATE, "答案：12.5%，可能因為 2019 年成本下降"),
    (RATE, "答案：12.5%，比 2018 年高"), (RATE, "答案：若以百分比表示為 12.5%"), (RATE, "答案：12.5%，也就是 0.125"),
    (RATE, "答案：12.5%（四捨五入至小數點後一位）"), (RATIO, "答案：7/20"),
]

@pytest.mark.parametrize("rec, response", ALTERNATIVES_WRONG)
def test_two_values_for_the_asked_quantity_are_wrong(rec, response):
    assert verdict(rec, response) is False


@pytest.mark.parametrize("rec, response", ALTERNATIVES_RIGHT)
def test_one_value_restated_is_one_answer(rec, response):
    assert verdict(rec, response) is True


def test_either_end_of_a_range_is_wrong():
    # neither value of a range is the answer, whichever the gold is
    assert verdict(dict(RATE, answer_value=0.13, answer="13%"), "答案：12.5% 或大約 13%") is False
    assert verdict(_finqa("淨利是多少元？", 3.4e8, "3.4億"), "答案：約 3.2 億至約 3.4 億") is False
    assert verdict(_finqa("淨利是多少元？", 3.2e8, "3.2億"), "答案：介於 3.2 億與 3.4 億之間") is False


# ---- 2. decrease and loss words ---------------------------------------------------------------------------
CHANGE_Q = "該公司營收的變動百分比是多少？"
DECREASE_WORDS = ["減少", "减少", "下降", "下滑", "下跌", "下挫", "衰退", "縮水", "缩水", "縮減", "缩减", "萎縮", "萎缩",
                  "走低", "滑落", "跌", "減", "减", "降低", "降", "負成長", "负增长", "負增長", "下修", "調降", "调降",
                  "下調", "下调", "短少", "流失", "減少了", "减少了约", "衰退了", "年減", "年减"]


@pytest.mark.parametrize("word", DECREASE_WORDS)
def test_a_decrease_word_gives_the_sign(word):
    fell = _finqa(CHANGE_Q, -0.052, "-5.2%")
    rose = _finqa(CHANGE_Q, 0.052, "5.2%")
    assert verdict(fell, f"答案：{word} 5.2%") is True
    assert verdict(rose, f"答案：{word} 5.2%") is False


LOSS_WORDS = ["虧損", "亏损", "淨損", "净损", "損失", "损失", "赤字", "淨流出", "净流出", "虧損為", "亏损约", "淨損失"]


@pytest.mark.parametrize("word", LOSS_WORDS)
def test_a_loss_word_gives_the_sign(word):
    q = "該公司本期的淨損益是多少（百萬元）？"
    assert verdict(_finqa(q, -320.0, "-320"), f"答案：{word} 320 百萬元") is True
    assert verdict(_finqa(q, 320.0, "320"), f"答案：{word} 320 百萬元") is False


@pytest.mark.parametrize("response", ["答案：營收年減 5.2%", "答案：較去年同期衰退 5.2%", "答案：减幅 5.2%", "答案：跌幅為 5.2%",
                                      "答案：降幅達 5.2%", "答案：衰退幅度為 5.2%", "答案：净利润同比下降 5.2%", "答案：环比减少 5.2%",
                                      "Answer: a decline of 5.2%", "Answer: down 5.2%", "Answer: revenue fell by 5.2%",
                                      "Answer: 5.2% lower", "答案：5.2% 的跌幅", "答案：營收縮水了 5.2%", "答案：营收下滑约 5.2%"])
def test_a_decrease_phrased_in_a_sentence_gives_the_sign(response):
    assert verdict(_finqa(CHANGE_Q, -0.052, "-5.2%"), response) is True
    assert verdict(_finqa(CHANGE_Q, 0.052, "5.2%"), response) is False


@pytest.mark.parametrize("response", ["答案：下降至 5.2%", "答案：減少到 5.2%", "答案：降至 5.2%", "答案：增加 5.2%",
                                      "答案：成長 5.2%", "答案：上升 5.2%", "答案：由 6% 降為 5.2%", "答案：利率減為 5.2%"])
def test_a_level_or_a_gain_keeps_its_sign(response):
    # 「下降至 5.2%」 states the level it fell to, not a change of −5.2%
    assert verdict(_finqa("目前的利率是多少？", 0.052, "5.2%"), response) is True


def test_simplified_decrease_words_give_the_step_sign():
    rec = _finchain("請計算營收變動（減少以負數表示）。", value=-500.0, answer="-500", decimals=0,
                    steps=[{"label": "營收變動", "value": -500.0}, {"label": "變動率", "value": -0.05}])
    item = _item(rec, "营收减少 500，变动率下降 5%。\n答案：营收减少 500")
    assert item.step_recall == 1.0


# ---- 3. negated yes/no, the predicate as the answer, a categorical answer that rejects a label --------------
YN = [
    ("該公司的負債比率是否超過上限？", "答案：未超過上限", "no"), ("該交易是否須揭露？", "答案：不須揭露", "no"),
    ("是否須申報？", "答案：無須申報", "no"), ("營收是否達到門檻？", "答案：沒有達到", "no"),
    ("營收是否達到門檻？", "答案：尚未達到門檻", "no"), ("是否須提列減損？", "答案：毋須提列", "no"),
    ("該公司的負債比率是否超過上限？", "答案：負債比率沒有超過上限", "no"),
    ("該公司的負債比率是否超過上限？", "答案：目前並未實際超過上限", "no"),
    ("是否需要申報？", "答案：无须申报", "no"), ("是否需要申報？", "答案：不需要申报", "no"),
    ("是否需要申報？", "答案：没有需要申报", "no"), ("是否須提列減損？", "答案：公司无需提列减损", "no"),
    ("是否須提列減損？", "答案：須提列", "yes"), ("是否需要申報？", "答案：需要申報", "yes"),
    ("是否需要申報？", "答案：需要申报", "yes"), ("是否須提列減損？", "答案：须提列减损", "yes"),
    ("負債比率是否超過上限？", "答案：已超過上限", "yes"), ("負債比率是否超過上限？", "答案：不僅超過上限，還超過兩倍", "yes"),
    ("負債比率是否超過上限？", "答案：預計未來超過上限", "yes"), ("是否符合規定？", "答案：沒有問題，符合規定", "yes"),
    ("是否須申報？", "答案：並無超過門檻，毋庸申報", "no"), ("是否須申報？", "答案：未達門檻，不需申報", "no"),
    ("是否須申報？", "答案：不必申報", "no"), ("是否須申報？", "答案：免申報", "no"), ("是否須申報？", "答案：不用", "no"),
    ("是否須申報？", "答案：不應申報", "no"), ("是否須申報？", "答案：不应申报", "no"), ("是否須提列減損？", "答案：應提列", "yes"),
    ("是否須申報？", "答案：应当申报", "yes"), ("是否須申報？", "答案：須要", "yes"), ("是否須申報？", "答案：需申報", "yes"),
    ("負債比率是否超過上限？", "答案：並無超過上限", "no"), ("負債比率是否超過上限？", "答案：不會", "no"),
    ("負債比率是否超過上限？", "答案：確實超過上限", "yes"), ("負債比率是否超過上限？", "答案：有，超過上限", "yes"),
    ("負債比率是否超過上限？", "答案：沒有，並未超過", "no"), ("是否須申報？", "Answer: No, it does not need to be reported", "no"),
]


@pytest.mark.parametrize("question, response, want", YN)
def test_yes_no_reads_the_negation_before_the_predicate(question, response, want):
    other = "no" if want == "yes" else "yes"
    assert verdict(_finqa(question, None, text=want), response) is True
    assert verdict(_finqa(question, None, text=other), response) is False


PLAN_Q = "甲方案與乙方案何者淨現值較高？（請回答甲方案或乙方案）"


@pytest.mark.parametrize("response, want", [
    ("答案：選擇甲方案，不選乙方案", True),
    ("答案：應選甲方案，而非乙方案", True),
    ("答案：不選乙方案，選甲方案", True),
    ("答案：选择甲方案，不选乙方案", True),
    ("答案：甲方案（不選乙方案）", True),
    ("答案：選乙方案，不選甲方案", False),
    ("答案：甲方案或乙方案", "pending"), ("答案：不選乙方案", "pending"),
    ("答案：應採甲方案，不宜採乙方案", True), ("答案：甲方案優於乙方案", True), ("答案：乙方案優於甲方案", False),
    ("答案：甲方案，而不是乙方案", True), ("答案：不是乙方案，是甲方案", True), ("答案：乙方案不可行，選甲方案", "pending"),
])
def test_a_categorical_answer_that_rejects_a_label_is_the_other_label(response, want):
    assert verdict(_finchain(PLAN_Q, answer="甲方案", text="甲方案"), response) == want


BUY_Q = "晴嵐食品今年是否需要在市場上購買排放額度？（請回答是或否）"


@pytest.mark.parametrize("response, want", [
    ("答案：需要购买", "是"), ("答案：不需要购买", "否"), ("答案：無須購買", "否"),
    ("答案：无需购买", "否"), ("答案：今年沒有需要購買", "否"),
    ("答案：今年并没有需要购买", "否"),
])
def test_finchain_yes_no_in_either_script(response, want):
    other = "否" if want == "是" else "是"
    assert verdict(_finchain(BUY_Q, answer=want, text=want), response) is True
    assert verdict(_finchain(BUY_Q, answer=other, text=other), response) is False


# ---- 4. exact golds: no 100× leniency ---------------------------------------------------------------------
FC_RATE = "請計算該債券的年化報酬率。（請以百分比表示，四捨五入至小數點後第 2 位）"


@pytest.mark.parametrize("response, want", [
    ("答案：8.25%", True), ("答案：8.25", True), ("答案：0.0825", True), ("答案：8.25 個百分點", True),
    ("答案：0.0825%", False), ("答案：0.08%", False), ("答案：825%", False),
])
def test_exact_gold_percent_means_percent(response, want):
    assert verdict(_finchain(FC_RATE, value=0.0825, answer="8.25%", decimals=4), response) is want


def test_finqa_gold_in_points_keeps_its_leniency():
    # FinQA stores some percent golds in points without a %: 「0.141%」 for 0.141 stays accepted (README)
    assert verdict(_finqa("佔總額的百分比為何？", 0.141, "0.141"), "答案：0.141%") is True
    assert verdict(_finqa("佔總額的百分比為何？", 0.141, "0.141"), "答案：14.1%") is True


# ---- 5. corrections -----------------------------------------------------------------------------------------
CORRECTIONS = ["答案：先前誤算為 8.1，正確為 7.6", "答案：不是 8.1，而是 7.6", "答案：8.1，修正後為 7.6",
               "答案：8.1（更正為 7.6）", "答案：8.1，應為 7.6", "答案：8.1 有誤，更正為 7.6", "答案：8.1，正確答案應為 7.6",
               "Answer: not 8.1 but 7.6", "Answer: 8.1, corrected to 7.6", "答案：8.1，修正为 7.6", "答案：8.1 → 7.6（修正）",
               "答案：修正：7.6", "答案：更正：答案應為 7.6", "答案：8.1。抱歉，重新計算後為 7.6", "Answer: 8.1 — correction: 7.6",
               "Answer: 8.1, I mean 7.6", "Answer: 8.1. Actually 7.6", "答案：8.1，不對，應該是 7.6", "答案：8.1，更正一下，7.6"]


@pytest.mark.parametrize("response", CORRECTIONS)
def test_a_correction_is_read_after_it(response):
    q = "該公司的利息保障倍數是多少？"
    assert verdict(_finqa(q, 7.6, "7.6"), response) is True
    assert verdict(_finqa(q, 8.1, "8.1"), response) is False


@pytest.mark.parametrize("response", ["答案：7.6（先前誤算為 8.1）", "答案：7.6，而非 8.1", "答案：正確為 7.6，先前誤植為 8.1"])
def test_the_corrected_value_first(response):
    q = "該公司的利息保障倍數是多少？"
    assert verdict(_finqa(q, 7.6, "7.6"), response) is True
    assert verdict(_finqa(q, 8.1, "8.1"), response) is False


def test_a_corrected_conclusion():
    rec = _finchain(PLAN_Q, answer="甲方案", text="甲方案")
    assert verdict(rec, "答案：不是乙方案，而是甲方案") is True
    assert verdict(rec, "答案：先前誤判為乙方案，正確為甲方案") is True
    assert verdict(rec, "答案：先前誤判為甲方案，正確為乙方案") is False
    assert verdict(_finqa("是否須申報？", None, text="no"), "答案：先前判斷為是，更正為否") is True


# ---- 6. a stated unit that contradicts the gold's unit ------------------------------------------------------
MILLIONS = _finqa("該公司 2019 年的營收是多少？", 45.2, "45.2", scale=6)
MILLIONS_Q = _finqa("該公司 2019 年的營收是多少（以百萬美元計）？", 45.2, "45.2")


@pytest.mark.parametrize("rec, response, want", [
    (MILLIONS, "答案：45.2 億美元", False),
    (MILLIONS, "答案：45.2 千美元", False),
    (MILLIONS, "Answer: $45.2 billion", False),
    (MILLIONS_Q, "答案：45.2 億美元", False),
    (MILLIONS_Q, "答案：45.2 萬美元", False),
    (MILLIONS, "答案：45.2 百萬美元", True), (MILLIONS, "答案：4,520 萬美元", True), (MILLIONS, "Answer: $45.2 million", True),
    (MILLIONS, "答案：45.2", True), (MILLIONS, "答案：45.2 美元", True), (MILLIONS_Q, "答案：45.2 百萬美元", True),
    (MILLIONS_Q, "答案：4,520 萬美元", True), (MILLIONS, "答案：45.2 十億美元", False), (MILLIONS, "Answer: 45.2 bn", False),
    (MILLIONS, "答案：NT$45.2 億", False), (MILLIONS, "答案：45.2（百萬美元）", True), (MILLIONS, "答案：45,200 千美元", True),
])
def test_a_contradicting_unit_is_wrong(rec, response, want):
    assert verdict(rec, response) is want


def test_without_a_known_unit_the_bare_numeral_still_decides():
    rec = _finqa("該公司 2019 年的營收是多少？", 45.2, "45.2")
    item = _item(rec, "答案：45.2 億美元")
    assert item.correct and item.match_path == "bare_numeral"


# ---- 7. answer markers a careful grader reads; a refusal without an answer line ---------------------------------
@pytest.mark.parametrize("response", [
    "計算如上。\n答案是 45.2", "所以最終答案為 45.2。", "最終答案是：45.2", "本題答案為：45.2", "The answer is 45.2.",
    "答案應為 45.2", "**答案是** 45.2", "答案为 45.2", "【答案】45.2"])
def test_loose_answer_markers_are_answer_lines(response):
    rec = _finqa("該公司 2019 年的營收是多少？", 45.2, "45.2")
    item = _item(rec, response)
    assert item.correct and item.mode == "strict"
    assert verdict(dict(rec, answer_value=46.0, answer="46"), response) is False


@pytest.mark.parametrize("response", ["答案是否正確需要再確認，先計算：45.2 − 1 = 44.2", "答案為何？我們計算 45.2。"])
def test_a_question_about_the_answer_is_not_an_answer_line(response):
    assert _item(_finqa("營收是多少？", 45.2, "45.2"), response).mode != "strict"


@pytest.mark.parametrize("response", ["計算得 45.2。\n資料不足，無法判斷。", "由表可得 45.2 與 47.1。\n因此無法確定。",
                                      "I computed 45.2, but the table is incomplete.\nThe answer cannot be determined.",
                                      "数据不足，无法判断", "計算得 3。\nI cannot determine this from the given data.",
                                      "計算如上。\n無法從表格得知營收。"])
def test_a_refusal_without_an_answer_line_is_refused(response):
    item = _item(_finqa("營收是多少？", 45.2, "45.2"), response)
    assert item.refused and not item.correct


def test_a_yes_no_refusal_without_an_answer_line_is_refused():
    item = _item(_finqa("是否須申報？", None, text="yes"), "依資料看不出是否超過門檻。\n資料不足，無法判斷。")
    assert item.refused and not item.correct


# ---- 8. FinChain gold solutions get full step credit -----------------------------------------------------------
def test_every_finchain_gold_solution_scores_full_step_recall():
    gen = pytest.importorskip("finchain_tw_templates.generate")
    recs = gen.generate_records()
    short = []
    for r in recs:
        s = scorers.step_scores(selfcheck.gold_output(r, None), r.get("steps") or [], question=r.get("question"))
        if s.recall is not None and s.recall < 1.0:
            short.append((r["template_id"], r["id"], s.recall))
    assert not short, short[:10]


def test_steps_that_repeat_a_value_are_one_step():
    steps = [{"label": "排放量減可用額度", "value": 83700.0}, {"label": "需購買的額度", "value": 83700.0}]
    assert scorers.step_scores("差額 = 83,700 公噸，取較大者 = 83,700 公噸", steps).recall == 1.0
    assert scorers.step_scores("差額 = 80,000 公噸", steps).recall == 0.0


def test_a_question_number_written_as_a_result_counts_only_where_nothing_else_does():
    q = "權益資金成本 8.00%，稅前負債資金成本 7.00%，所得稅率 20%。請計算 WACC。"
    steps = [{"label": "權益權重", "value": 0.5824}, {"label": "加權平均資金成本", "value": 0.06998}]
    # the WACC happens to round to the cost of debt: written as the result of the line it counts
    assert scorers.step_scores("權益權重 = 58.24%\nWACC = 58.24% × 8.00% + 41.76% × 7.00% × 0.8 = 7.00%", steps,
                             question=q).recall == 1.0
    # merely copied from the question it does not
    assert scorers.step_scores("權益權重 = 58.24%，負債成本 7.00%", steps, question=q).recall == 0.5
    # and an unused result does not lower the precision
    full = scorers.step_scores("權益權重 = 58.24%\nWACC = 6.998%\n稅率 = 20%", steps, question=q)
    assert full.recall == 1.0 and full.precision == 1.0


def test_the_answer_readers_script_table_is_the_checkers():
    """The Simplified → Traditional table answer reading uses is the zh-TW checker's (OpenCC s2tw) on CJK."""
    import json
    from pathlib import Path

    from tw_fin_eval.answers.script import SIMPLIFIED, to_traditional

    table = json.loads((Path(scorers.__file__).parents[1] / "zhcheck" / "s2tw_chars.json").read_text("utf-8"))
    cjk = {k: v for k, v in table["changes"].items()
           if len(k) == 1 and len(v) == 1 and "\u4e00" <= k <= "\u9fff" and k != v}
    assert set(SIMPLIFIED) == set(cjk)
    assert all(to_traditional(k) == v for k, v in cjk.items())


def test_the_share_of_replies_without_the_exact_answer_line_is_reported():
    from tw_fin_eval.reports import summary as report

    recs = [dict(_finqa("營收是多少？", 45.2, "45.2"), id=f"finqa_tw-test-90{i:02d}") for i in range(4)]
    replies = ["答案：45.2", "答案是 45.2", "計算得 45.2", "**答案**：45.2"]
    runs = engine.RunsIndex()
    for rec, reply in zip(recs, replies):
        runs.success[(rec["id"], None)] = {"response": reply}
    items = engine.score(recs, runs, progress=False).items
    assert [it.exact_format for it in items] == [True, False, False, True]
    assert [it.correct for it in items] == [True, True, False, True]  # 「答案是」 is an answer line; none is not
    assert report.summarize(items)["nonexact_format"] == 0.5
    assert "nonexact_format" in report.COLUMNS
