"""Agreement with hand-adjudicated sets of realistic model outputs over real FinQA-TW / ConvFinQA-TW /
FinChain-TW items, each verdict written before the scorer was run:

- tests/fixtures/adversarial_outputs.jsonl: 174 outputs in six model styles — Qwen3 <think>, Llama-3
  English-leaning, GPT-4o markdown, DeepSeek-R1 long reasoning, Breeze/TAIDE, small rambling models;
- tests/fixtures/adversarial_outputs_2.jsonl: 308 outputs in eight styles (the six plus TAIDE and JSON-answering
  models) written blind — by a writer who read only the stated rules (README, metric cards), not the scorer.
  The scorer agreed on 300 of 308 (97.4%) when it was first run; the 8 disagreements were classes fixed since
  (scientific notation, 「減少了百分之多少」, a unit named without brackets, 「個百分點」 golds, options the
  question lists, bracketed asides in a categorical conclusion);
- tests/fixtures/adversarial_outputs_3.jsonl: 359 outputs in nine styles (adding Gemma and Mistral), a second blind
  writer who avoided the first set's items. First run: 350 of 359 (97.5%). Two of the nine were adjudication
  slips, re-adjudicated with the reason in the case's note (a gold recomputed from the table instead of the
  stored one; a rule sentence the writer had not seen yet); seven were classes fixed since (hedged yes/no
  «應該是», «一成» = 10%, «由 A 減 B 得 C», a basis-point question answered in points, a bare unconverted figure
  for «換算成百萬», numbers in English words, «2.9%–3.0%» as a range);
- tests/fixtures/adversarial_outputs_4.jsonl: 316 outputs in twelve styles (adding Claude, Phi, Yi), a third blind
  writer avoiding both earlier sets. First run: 304 of 316 (96.2%); all twelve were classes fixed since (years are
  exact — 2039 was accepted for 2022 within 1% —, a space or Indian grouping inside a number, 「百分之七十點二」,
  「FY2010」, 「下修 8.23%」, 「98 萬 1,300 元」, a rate word such as 攤銷率 asks for a percent);
- tests/fixtures/adversarial_outputs_5.jsonl: 356 outputs in ten styles (adding Simplified-leaning and
  Japanese-punctuation writers), a fourth blind writer. First run: 352 of 356 (98.9%); the four were two classes
  fixed since (「負成長 3.19%」 gives the sign; Simplified 万/亿 read as 萬/億);
- tests/fixtures/adversarial_outputs_6.jsonl: 238 outputs in eight styles, a fifth writer (responses generated from
  each unit's program and solution, verdicts by case type). First run: 232 of 238 (97.5%); the six were one class
  fixed since (a bracketed amount with a currency, 「(US$6)」, is an accounting negative). The zero-word lines
  («持平», «不變») that the writer marked wrong but flagged as right for a human were re-adjudicated when the rule
  began reading them as 0 (each note says so);
- tests/fixtures/adversarial_outputs_7.jsonl: 232 outputs in nine styles focused on uncertainty (issue 26: hedges,
  ranges, corrections, negations, mixed scripts, Taiwan phrasing), a sixth writer who read only the docs, verdicts
  (correct / wrong / refused / pending) written before scoring. The writer's records held only some fields (a
  ConvFinQA turn flattened into the record); they were filled once from the built data records, by id, keeping
  each case's `label_set`. First run — on the scorer before issue 26 part 2 (2a06954^): 138 of 232 (59.5%; an
  earlier count said 139). The 94 misses: 44 wrong-accepted (alternatives and ranges however joined, a hedge then
  another value, a decrease word for a gain in Simplified or Taiwan usage, a stated unit contradicting the gold's,
  the first clause of a correction, a negated predicate, «可能是符合» read as yes), 45 right-rejected (Simplified and
  Taiwan decrease and loss words, corrections, the loose markers «答案是»/«答案為»/«最終答案是», a categorical answer
  that rejects the other label, Simplified «无须»/«需要»), 3 wrong answers left pending (a rejected label) and 5
  refusals not reported as refused. Part 2 fixed all but 12 (220/232); those were classes fixed since: «或是» read as
  the copula «是» (wrong-accepted), a hedge, a direction word, then another value «也可能下修 14.5%» (wrong-accepted),
  a negation whose verb differs from the question's «未超過風險胃納» for «是否超出», «未達列為», «沒有達到»
  (wrong-accepted / right-rejected), an uncertain conclusion «可能是符合» (wrong-accepted), «比門檻報酬率低 6.31 個
  百分點» (right-rejected), and refusals — with no answer line, ending in a closing courtesy, or on the answer line —
  that the harness could not report as `refused`;
- tests/fixtures/adversarial_outputs_8.jsonl: 227 outputs in nine styles, uncertainty-focused again (hedges, a hedge
  then another value, alternatives and ranges with every joiner, unit restatements against contradicting scales,
  decrease and loss words in both scripts, negated yes/no and categorical answers, corrections, loose markers,
  refusals, mixed script, Taiwan phrasing), a seventh writer who read only the docs, verdicts written before
  scoring; its records are the built data records. First run (scorer 4e829b7, issue 26 parts 3–3d): 227 of 227
  (100%) — no wrong answer accepted, no right answer rejected. (For reference, the scorer of this session's start,
  72024ca, with the harness of the time: 220/227, the seven misses all refusals it could not report as `refused`.)

Three cases adjudicated `wrong` under the former rule «signs always count» (1104, 4145, 4335: «這兩年之間的差額», «兩者的
差額», «2015 年與 2014 年間，自由現金流量的差額» answered with the magnitude of a negative gold) were re-adjudicated `correct`
when the scorer began accepting either sign for an undirected difference (issue 29, path `undirected_difference`); each
case's note says so. Five more (1037, 1038, 1061, 1081, 5049: «累積其他綜合損失餘額的淨變動», «淨流出的差額», «外幣換算損失的
最小金額», a loss-to-gain ratio) were re-adjudicated `correct` when it began accepting either sign for a loss or an outflow
asked by name (path `loss_named`).

Every case must agree with the headline (strict) verdict — `refused` is a wrong answer that declines, so a case
adjudicated `wrong` also agrees with it; a regression in any class shows up as the cases it breaks."""

from __future__ import annotations

import json
from pathlib import Path

from tw_fin_eval.scoring import engine

FIXTURES = [Path(__file__).parent / "fixtures" / name
            for name in ("adversarial_outputs.jsonl", "adversarial_outputs_2.jsonl", "adversarial_outputs_3.jsonl",
                         "adversarial_outputs_4.jsonl", "adversarial_outputs_5.jsonl", "adversarial_outputs_6.jsonl",
                         "adversarial_outputs_7.jsonl", "adversarial_outputs_8.jsonl")]
VERDICTS = {"correct", "wrong", "refused", "pending"}


def load_cases(fixture: Path | None = None) -> list[dict]:
    return [json.loads(line) for path in ([fixture] if fixture else FIXTURES) for line in path.open(encoding="utf-8")]


def score_cases(cases: list[dict]) -> list[tuple[dict, str]]:
    """(case, verdict) with verdict correct / wrong / refused / pending — each case scored on its own. `refused`
    is a wrong answer that declines (the item's `refused` flag: «資料不足，無法判斷», with or without an answer line)."""
    out = []
    for case in cases:
        rec = {k: v for k, v in case["record"].items() if k != "label_set"}
        siblings = [dict(rec, id=f"{rec['id']}~{i}", answer_text=label)
                    for i, label in enumerate(case["record"].get("label_set") or [])]
        runs = engine.RunsIndex()
        key = (rec["id"], case["turn"])
        runs.success[key] = {"response": case["response"], "finish_reason": case["finish_reason"]}
        result = engine.score([rec, *siblings], runs, progress=False)
        item = next(it for it in result.items if it.id == rec["id"] and it.turn == case["turn"])
        if item.status == "pending":
            verdict = "pending"
        elif item.correct:
            verdict = "correct"
        else:
            verdict = "refused" if item.refused else "wrong"
        out.append((case, verdict))
    return out


def agrees(expected: str, verdict: str) -> bool:
    """A refusal is a wrong answer: a case adjudicated `wrong` agrees with `refused` (sets 1–6 were adjudicated
    before `refused` was a verdict of its own); a case adjudicated `refused` needs the scorer to say refused."""
    return expected == verdict or (expected == "wrong" and verdict == "refused")


def agreement(scored: list[tuple[dict, str]]) -> float:
    return sum(agrees(c["expected"], v) for c, v in scored) / len(scored)


def test_fixtures_are_broad():
    for fixture in FIXTURES:
        cases = load_cases(fixture)
        assert len(cases) >= 150
        assert len({c["style"] for c in cases}) >= 5
        assert {c["record"]["dataset"] for c in cases} == {"FinQA-TW", "ConvFinQA-TW", "FinChain-TW"}
        assert {c["expected"] for c in cases} >= {"correct", "wrong"}
    assert len({c["case"] for c in load_cases()}) == len(load_cases())  # case numbers are unique


def test_fixture_records_carry_the_scoring_fields():
    # a case is scored on its record alone: each record must hold what its scorer reads (a FinChain answer_type
    # and steps, a ConvFinQA conversation with the case's turn), and the verdict must be one the harness gives
    for case in load_cases():
        rec, where = case["record"], f"case {case['case']}"
        assert case["expected"] in VERDICTS, where
        assert {"id", "task_type", "question", "answer", "answer_value", "answer_text"} <= rec.keys(), where
        if rec["dataset"] == "FinChain-TW":
            assert rec["answer_type"] in {"numeric", "categorical"} and isinstance(rec["steps"], list), where
        if rec["dataset"] == "ConvFinQA-TW":
            assert isinstance(case["turn"], int) and 0 <= case["turn"] < len(rec["turns"]), where
        else:
            assert case["turn"] is None, where


def test_scorer_agrees_with_every_adjudicated_case():
    scored = score_cases(load_cases())
    wrong = [(c["case"], c["class"], c["response"][-60:], c["expected"], v) for c, v in scored
             if not agrees(c["expected"], v)]
    assert not wrong, f"agreement {agreement(scored):.1%}; disagreements: {wrong}"
