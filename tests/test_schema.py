"""The shared schema layer: status enum, tolerance, think-splitter, unit expansion and the one acceptance
rule that chooses gold display strings and scores answers."""

import json

import pytest

from tw_fin_eval import paths, schema
from tw_fin_eval.answers.match import answer_matches, gold_display
from tw_fin_eval.schema import DEFAULT_TOLERANCE, Status, Tolerance, split_think
from tw_fin_eval.scoring import scorers


def test_status_is_its_value():
    assert Status.SCORED == "scored" and f"{Status.NOT_RUN}" == "not_run" and str(Status.ERROR) == "error"
    assert json.dumps({"s": Status.PENDING}) == '{"s": "pending"}'
    assert scorers.SCORED is Status.SCORED


def test_tolerance_default_and_stated_rounding():
    assert DEFAULT_TOLERANCE.close(101.0, 100.0) and not DEFAULT_TOLERANCE.close(101.5, 100.0)
    assert DEFAULT_TOLERANCE.close(0.004, 0.0) and not DEFAULT_TOLERANCE.close(0.006, 0.0)
    two = Tolerance.for_decimals(2)  # "rounded to 2 decimals": half a cent either side of the exact value
    assert two.close(1.50, 1.4953880) and not two.close(1.49, 1.4953880)
    assert Tolerance.for_decimals(0).close(16800.0, 16800.3) and not Tolerance.for_decimals(0).close(16801, 16800)
    assert not DEFAULT_TOLERANCE.close(float("nan"), 1.0)


@pytest.mark.parametrize("text, expected", [
    (None, (None, None)),
    ("答案：1", ("答案：1", None)),
    ("  <think>\nx\n</think>\n\n答案：1", ("答案：1", "x")),
    ("<think>a</think>中間<think>b</think>答案：2", ("中間答案：2", "a\nb")),
    ("推理……</think>答案：7", ("答案：7", "推理……")),          # the template opened the tag
    ("<think>還在想 94", ("", "還在想 94")),                   # cut off while thinking
    ("答案：1 <think>", ("答案：1 <think>", None)),            # a literal tag after the answer
    ("<THINK>x</THINK>答案：3", ("答案：3", "x")),
])
def test_split_think(text, expected):
    assert split_think(text) == expected


def test_split_think_is_linear_on_degenerate_output():
    assert split_think("<think>" * 20000)[0] == ""
    assert split_think("</think>" * 20000 + "答案：1")[0] == "答案：1"


def test_units():
    assert schema.units({"id": "a"}) == [None]
    assert schema.units({"id": "a", "turns": [{}, {}, {}]}) == [0, 1, 2]
    assert schema.unit_keys({"id": "c", "turns": [{}, {}]}) == [("c", 0), ("c", 1)]


def test_answer_matches_accepts_and_rejects():
    assert answer_matches("答案：14.1%", 0.141, questions=["營收成長率為何？"])
    assert not answer_matches("答案：15%", 0.141, questions=["營收成長率為何？"])
    assert answer_matches("答案：否", None, gold_answer="no") and not answer_matches("答案：是", None, gold_answer="no")
    assert not answer_matches("最後是 94", 94.0)  # strict: no 「答案：」, no acceptance


@pytest.mark.parametrize("human, value, question, expected", [
    ("142.4%", 1.42403, "成長率是多少？", "142.4%"),       # states the value precisely enough: kept
    ("14%", 0.14464, "占多少百分比？", "14.5%"),            # too rough: the same style, one more decimal
    ("5.38%", 0.0585, "比率是多少？", "5.85%"),             # within 0.005 as a fraction, not in points
    ("10%", -0.09709, "變動百分比？", "-0.09709"),          # states another value: the executed value
    ("$ 27.8 per share", 27.80639, "每股價值？", "27.80639"),  # not a plain number
    (None, 16750002.0, "多少？", "16750002"),
    # the digits must be the value's at the string's own last place (audit 2032: upstream slips shown as gold history)
    ("7304", 7301.0, "多少（百萬美元）？", "7301"),              # 3 units off in its last place: restated
    ("112.7%", 1.1167, "成長多少百分比？", "111.7%"),            # restated with the decimals it showed
    ("822.06", 822.06667, "平均是多少？", "822.07"),             # cut, not rounded: restated (v35: 0896's 2.9266)
    ("163%", 1.6383, "占多少百分比？", "164%"),                  # 163.83% cut to 163%: rounded (v35: 0280)
    ("6.88", 6.88402, "是多少？", "6.88"),                       # rounded at its last place: kept
    ("2270000", 2272727.27273, "多少美元？", "2270000"),         # rounded at 10^4 (trailing zeros): kept
])
def test_gold_display(human, value, question, expected):
    shown = gold_display(human, value, questions=[question])
    assert shown == expected
    assert answer_matches("答案：" + shown, value, gold_answer=shown, questions=[question])


def _built(name):
    path = paths.DATA_DIR / name
    if not path.is_file():
        pytest.skip(f"data/{name} not built (run `python -m tw_fin_eval build`)")
    return [json.loads(line) for line in path.open(encoding="utf-8")]


@pytest.mark.parametrize("name", ["finqa_tw_test.jsonl", "convfinqa_tw_dev.jsonl"])
def test_every_gold_display_string_is_accepted_by_the_scorer(name):
    """「答案：」 + `answer` is right for every FinQA record and every ConvFinQA turn (the model sees these
    strings as gold history, and users read them as the answer)."""
    records = _built(name)
    ctx = scorers.ScoreSettings()
    rejected = []
    for rec in records:
        scorer = scorers.SCORERS[rec["task_type"]]
        for turn in schema.units(rec):
            gold = rec if turn is None else rec["turns"][turn]
            item = scorer.score(rec, turn, "答案：" + str(gold["answer"]), ctx)
            if not (item.correct and item.mode == "strict"):
                rejected.append((rec["id"], turn, gold["answer"], gold["answer_value"]))
    assert records and not rejected, rejected[:10]
