"""The evaluate metrics give the scorer's verdict item by item when called with the dataset's columns, as
the cards document: numeric_match(predictions, references=answer_value (answer_text for yes/no),
questions=question, gold_answers=answer, answer_scales=answer_scale), conv_turn_match per turn likewise."""

from __future__ import annotations

import json

import pytest

from tw_fin_eval import paths, schema
from tw_fin_eval.scoring import engine, metric_fns


def _built(name):
    path = paths.DATA_DIR / name
    if not path.is_file():
        pytest.skip(f"data/{name} not built (run `python -m tw_fin_eval build`)")
    return [json.loads(line) for line in path.open(encoding="utf-8")]


def _variants(gold: dict) -> list[str]:
    """Several answers per unit: the display string, the value, ×100, ×1.1, flexible-only, a refusal, a
    direction word, a range."""
    if gold["answer_value"] is None:
        flip = "否" if gold["answer_text"] == "yes" else "是"
        return [f"答案：{gold['answer_text']}", f"答案：{flip}", "答案：無法判斷", "比較後可知：yes", f"<think>答案：{flip}</think>"]
    v = float(gold["answer_value"])
    out = [f"答案：{gold['answer']}", f"答案：{v}", f"答案：{100 * v:.4g}", f"答案：{1.1 * v:.6g}",
           f"\\boxed{{{gold['answer']}}}", "答案：資料不足", f"答案：減少 {abs(v):.6g}", f"答案：{v:.4g} 至 {2 * v + 1:.4g}"]
    if gold.get("answer_scale") is not None:  # the amount restated in 億 (right) and 1,000× too large (wrong)
        out += [f"答案：{v * 10 ** gold['answer_scale'] / 1e8:.8g} 億美元",
                f"答案：{v * 10 ** (gold['answer_scale'] + 3) / 1e8:.8g} 億美元"]
    return out


def _scorer_verdicts(records, runs_rows):
    runs = engine.RunsIndex()
    for key, text in runs_rows.items():
        runs.success[key] = text
    out = engine.score(records, runs, progress=False)
    return {(it.id, it.turn): (it.correct, it.flexible_correct) for it in out.items}


def _parity(records, units, metric_call):
    """Every unit's answer variants scored by the metric (called with the dataset's columns) and by the scorer;
    returns (metric verdicts keyed (id, turn, variant), the mismatches)."""
    cols: dict[str, list] = {name: [] for name in ("preds", "refs", "questions", "golds", "scales", "cids")}
    keys, per_variant = [], {}
    for rec, turn, gold in units:
        for k, text in enumerate(_variants(gold)):
            cols["preds"].append(text)
            cols["refs"].append(gold["answer_value"] if gold["answer_value"] is not None else gold["answer_text"])
            cols["questions"].append(gold["question"])
            cols["golds"].append(gold["answer"])
            cols["scales"].append(gold.get("answer_scale"))
            cols["cids"].append(rec["id"])
            keys.append((rec["id"], turn, k))
            per_variant.setdefault(k, {})[(rec["id"], turn)] = text
    items = metric_call(cols)["items"]
    metric = {key: (it["correct"], it["flexible_correct"]) for key, it in zip(keys, items)}
    mismatches = []
    for k, rows in per_variant.items():
        for (rid, turn), verdict in _scorer_verdicts(records, rows).items():
            if (rid, turn) in rows and (bool(verdict[0]), bool(verdict[1])) != metric[(rid, turn, k)]:
                mismatches.append((rid, turn, k, rows[(rid, turn)], verdict, metric[(rid, turn, k)]))
    return metric, mismatches


def test_numeric_match_gives_the_scorers_verdicts_on_every_finqa_record():
    records = _built("finqa_tw_test.jsonl")
    metric, mismatches = _parity(records, [(rec, None, rec) for rec in records], lambda c: metric_fns.numeric_match(
        c["preds"], metric_fns.reference_strings(c["refs"]), questions=c["questions"], gold_answers=c["golds"],
        answer_scales=c["scales"], return_items=True))
    assert len(metric) >= 5 * len(records) and not mismatches, mismatches[:10]
    # the variants exercise both verdicts
    assert {v[0] for v in metric.values()} == {True, False}


def test_conv_turn_match_gives_the_scorers_verdicts_on_every_convfinqa_turn():
    records = _built("convfinqa_tw_dev.jsonl")
    units = [(rec, turn, rec["turns"][turn]) for rec in records for turn in schema.units(rec)]
    metric, mismatches = _parity(records, units, lambda c: metric_fns.conv_turn_match(
        c["preds"], metric_fns.reference_strings(c["refs"]), c["cids"], questions=c["questions"],
        gold_answers=c["golds"], answer_scales=c["scales"], return_items=True))
    assert len(metric) >= 5 * len(units) and not mismatches, mismatches[:10]
    assert {v[0] for v in metric.values()} == {True, False}


def _card_block(metric: str) -> str:
    card = (paths.REPO_ROOT / "metrics" / metric / "README.md").read_text(encoding="utf-8")
    usage = card.split("## How to Use", 1)[1]
    return usage.split("```python\n", 1)[1].split("```", 1)[0]


@pytest.mark.parametrize(("metric", "config", "data_file"), [("numeric_match", "finqa", "finqa_tw_test.jsonl"),
                                                            ("conv_turn_match", "convfinqa", "convfinqa_tw_dev.jsonl")])
def test_card_usage_block_runs_on_the_release_rows(metric, config, data_file, monkeypatch):
    """The documented call runs as written on the release's rows (load_dataset served from the built data with
    the declared features) and scores the gold display strings 100% on the answerable units."""
    datasets = pytest.importorskip("datasets")
    from tw_fin_eval.features import project
    from tw_fin_eval.subsets import features_for

    records = _built(data_file)
    feats = features_for(config)
    rows = datasets.Dataset.from_list([project(r, feats) for r in records], features=feats)

    def fake_load_dataset(path, name=None, split=None, **kw):
        assert (path, name, split) == ("APMIC/tw_fin_eval_basic", config, "test")
        return rows

    monkeypatch.setattr(datasets, "load_dataset", fake_load_dataset)
    monkeypatch.chdir(paths.REPO_ROOT)  # evaluate.load("metrics/…") by path, as the card says
    ns: dict = {}
    exec(compile(_card_block(metric), f"metrics/{metric}/README.md", "exec"), ns)
    result = ns["result"]
    units = [u for r in records for u in (r["turns"] if config == "convfinqa" else [r])]
    kept = sum(1 for u in units if u.get("gold_status") != "unanswerable")
    assert kept < len(units)  # the block really leaves the unanswerable units out
    if config == "finqa":
        assert result["n"] == kept and result["accuracy"] == 1.0
    else:
        assert result["n_turns"] == kept and result["turn_accuracy"] == 1.0 and result["conversation_accuracy"] == 1.0
