"""FinSearchComp judge protocol: for every one of the 635 rows the judge request is the row's own system
prompt and template filled exactly; verdicts are read from the LAST verdict in the reply, tolerant of
fences, prose and Chinese punctuation; "null" → no_ground_truth, anything unusable → missing."""

from __future__ import annotations

import json

import pytest

from tw_fin_eval.errors import InputError
from tw_fin_eval.scoring import finsearchcomp as fj
from tw_fin_eval.scoring import judge
from tw_fin_eval.sources import finsearchcomp as fsc


@pytest.fixture(autouse=True)
def _installed():
    fj.install()  # another test may have re-routed open_judge


@pytest.fixture(scope="module")
def records(sources_root) -> list[dict]:
    if not (sources_root / "finsearchcomp" / "finsearchcomp_data.json").is_file():
        pytest.skip("FinSearchComp source not available")
    return fsc.build_records(sources_root)


@pytest.fixture(scope="module")
def upstream(sources_root) -> dict[tuple[str, str], dict]:
    rows = json.loads((sources_root / "finsearchcomp" / "finsearchcomp_data.json").read_text(encoding="utf-8"))
    return {(r["prompt_id"], r["label"]): r for r in rows}


def independent_fill(row: dict, response: str) -> str:
    """The official fill, computed here without the module: str.replace on each slot of the upstream row."""
    reference = row["response_reference"]
    if reference is None:  # the HF version keeps the T1-Global criteria in the translation field
        reference = row["response_reference_translate"]
    text = row["judge_prompt_template"]
    text = text.replace("{prompt}", row["prompt"]).replace("{response_reference}", reference)
    if row["ground_truth"] is not None:
        text = text.replace("{ground_truth}", row["ground_truth"])
    return text.replace("{response}", response)


def test_judge_prompt_equals_the_official_fill_for_all_635_rows(records, upstream):
    protocol = judge.protocol_for("open_judge")
    assert isinstance(protocol, fj.FinSearchCompProtocol)
    translated = 0
    for i, rec in enumerate(records):
        row = upstream[tuple(rec["source"]["orig_id"].split("|"))]
        response = f"模型回答 #{i}: the answer is 42.5（单位：亿元）\n最终答案：42.5"
        req = protocol.build(rec, response)
        assert req.system == row["judge_system_prompt"], rec["id"]
        assert req.user == independent_fill(row, response), rec["id"]
        assert req.messages() == [{"role": "system", "content": row["judge_system_prompt"]},
                                  {"role": "user", "content": req.user}]
        for slot in fj.SLOTS:
            assert "{" + slot + "}" not in req.user
        if row["response_reference"] is None:
            translated += 1
            assert row["response_reference_translate"] in req.user
        if row["ground_truth"] is not None:
            assert row["ground_truth"] in req.user
    assert translated == 134


def test_verdict_key_follows_the_task(records):
    """T1 judges are told to answer {"score": …}, T2/T3 judges {"answer_score": …}."""
    for rec in records:
        req = fj.FinSearchCompProtocol().build(rec, "x")
        assert req.meta["key"] == ("score" if rec["task"] == "T1" else "answer_score"), rec["id"]
        assert req.meta["allow_null"] == (rec["task"] == "T1")


def test_fill_is_one_pass_and_think_is_removed(records):
    t1 = next(r for r in records if r["task"] == "T1")
    sneaky = "I copy {prompt} and {ground_truth} and {response_reference} literally"
    user = fj.FinSearchCompProtocol().build(t1, "<think>reasoning {prompt}</think>\n" + sneaky).user
    assert user.endswith(sneaky) and "reasoning" not in user
    assert user.count(t1["prompt"]) == 1
    # an answer with no think block goes in verbatim (whitespace included); an empty one is sent empty
    assert fj.FinSearchCompProtocol().build(t1, "  42  \n").user.endswith("  42  \n")
    assert fj.FinSearchCompProtocol().build(t1, "").user == independent_fill(t1, "")


def test_record_without_its_judge_fields_is_an_input_error(records):
    rec = dict(records[0])
    rec["judge_prompt_template"] = None
    with pytest.raises(InputError) as exc:
        fj.FinSearchCompProtocol().build(rec, "x")
    assert exc.value.item_id == rec["id"] and exc.value.field == "judge_prompt_template"


T1 = {"key": "score", "allow_null": True}
T23 = {"key": "answer_score", "allow_null": False}


@pytest.mark.parametrize("raw,meta,outcome,correct", [
    ('分析：\n学生答出了必答点：是；\n最终分数：{"score":1}', T1, "scored", True),
    ('Analysis:\nDid the student answer the Required Content: No;\nFinal score: {"score":0}', T1, "scored", False),
    ('分析：实时信息为空。\n{"score":"null"}', T1, "no_ground_truth", None),
    ('{"score": null}', T1, "no_ground_truth", None),
    ('- 【评分依据】：一致。\n- 【JSON】：\n``` \n{"answer_score": 1} \n```', T23, "scored", True),
    ('-   Scoring Basis: wrong.\n-   JSON:\n    ```json\n    {"answer_score": 0}\n    ```', T23, "scored", False),
    ("最终分数：｛“score”：１｝", T1, "scored", True),  # full-width braces, quotes, colon, digit
    ("【JSON】：```\n{「answer_score」：0}\n``", T23, "scored", False),  # 「」 quotes, broken fence
    ('{"answer_score": [[1]]}', T23, "scored", True),  # the nesting the official parser expects
    ("{'score': 1.0}", T1, "scored", True),
    ('{"answer_score": "1分"}', T23, "scored", True),
    ("{score: 0}", T1, "scored", False),
    ('example {"score":1} … my verdict {"score":0}', T1, "scored", False),  # the last verdict decides
    ('{"score":1} … but finally {"score": 10}', T1, "missing", None),  # last one unusable: not guessed
    ('{"answer_score": "null"}', T23, "missing", None),  # null exists only for T1
    ('{"answer_score": 1}', T1, "missing", None),  # wrong key for a T1 judge
    ("Final score: 1", T1, "missing", None),  # prose, no JSON verdict
    ('{"answer_score": your score}', T23, "missing", None),
    ("我无法判断。", T23, "missing", None),
    ("", T1, "missing", None),
    (None, T1, "missing", None),
])
def test_parse_verdicts(raw, meta, outcome, correct):
    req = judge.JudgeRequest("s", "u", fj.PROTOCOL, meta=meta)
    v = judge.PROTOCOLS[fj.PROTOCOL].parse(raw, req)
    assert (v.outcome, v.correct) == (outcome, correct), v.reason
    if outcome == "missing":
        assert v.reason and v.score is None
    if outcome == "scored":
        assert v.score == (1.0 if correct else 0.0) and v.raw == raw


def test_a_judge_echoing_its_system_prompt_examples_is_read_at_its_last_verdict(records):
    """Every system prompt contains example verdicts: a reply that repeats the whole prompt before its own
    verdict is scored by its own verdict, whichever way the examples went."""
    seen = set()
    for rec in records:
        system = rec["judge_system_prompt"]
        if system in seen:
            continue
        seen.add(system)
        req = fj.FinSearchCompProtocol().build(rec, "x")
        examples = judge.PROTOCOLS[fj.PROTOCOL].parse(system, req)
        assert examples.outcome == "scored" and examples.detail["verdicts_in_reply"] >= 3
        key = req.meta["key"]
        for final, want in ((0, False), (1, True)):
            v = judge.PROTOCOLS[fj.PROTOCOL].parse(system + f'\n\n最终分数：{{"{key}": {final}}}', req)
            assert (v.outcome, v.correct) == ("scored", want)
    assert len(seen) == 4


def test_summary_counts_outcomes_apart_and_never_averages_them():
    def item(task, region, status, correct=None):
        return {"dataset": "FinSearchComp", "category": f"{task}_X", "subcategory": region, "status": status,
                "correct": correct}

    items = [item("T1", "Global", "scored", True), item("T1", "Global", "scored", False),
             item("T1", "Global", "no_ground_truth"), item("T1", "Global", "missing"),
             item("T2", "Greater China", "scored", True), item("T2", "Greater China", "error", False),
             item("T3", "Global", "pending"), {"dataset": "FinQA-TW", "status": "scored", "correct": True}]
    rows = {(r["task"], r["region"]): r for r in fj.summarize(items)}
    t1g = rows[("T1", "Global")]
    assert (t1g["items"], t1g["scored"], t1g["correct"], t1g["accuracy"]) == (4, 2, 1, 0.5)
    assert (t1g["no_ground_truth"], t1g["missing"]) == (1, 1)
    assert rows[("T2", "Greater China")]["accuracy"] == 0.5  # a failed generation counts wrong
    assert rows[("T3", "Global")]["accuracy"] is None and rows[("T3", "Global")]["pending"] == 1
    everything = rows[("all", "all")]
    assert everything["items"] == 7 and everything["accuracy"] == pytest.approx(2 / 4)
    assert rows[("all", "Global")]["items"] == 5 and rows[("T1", "all")]["items"] == 4
    assert list(rows)[-1] == ("all", "all")
    md = fj.summary_markdown(fj.summarize(items))
    assert "| T1 | Global | 4 | 50.0% | 2 | 1 | 1 | 1 | 0 | 0 | 0 |" in md
