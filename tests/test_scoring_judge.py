"""The judge protocol: tolerant verdict parsing, the built-in protocols, and real HTTP calls against the
project's fake OpenAI-compatible server (judge up, judge down, unparseable replies, judged twice)."""

from __future__ import annotations

import json
import socket

import pytest

from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.errors import InputError
from tw_fin_eval.scoring import engine, judge, samples, scorers
from tw_fin_eval.scoring.judge import JudgeConfig, JudgeRequest

server_mod = pytest.importorskip("tw_fin_eval.testing.openai_server")


@pytest.mark.parametrize("reply", [
    '{"score": 8, "conclusion_correct": true}',
    '理由：結論正確，但缺少法規依據。\n```json\n{"score": 8, "conclusion_correct": true}\n```',
    "分析……\n｛“score”：8，“conclusion_correct”：true｝",  # Chinese punctuation
    "{'score': 8, 'conclusion_correct': True}",  # Python literal style
    '{"score": 8, "conclusion_correct": true,}',  # trailing comma
    '例如 {"score": 3, "conclusion_correct": false} 是錯的；本題：\n{"score": "8", "conclusion_correct": "是"}',
])
def test_score_protocol_parses_tolerantly(reply):
    p = judge.PROTOCOLS["score_0_10"]
    v = p.parse(reply, JudgeRequest(None, "", "score_0_10"))
    assert v.outcome == judge.SCORED
    assert v.score == 8 and v.correct is True


@pytest.mark.parametrize("reply,score,passed", [
    ('{"score": 7, "conclusion_correct": true}', 7, True),
    ('{"score": 6, "conclusion_correct": true}', 6, False),  # below 7
    ('{"score": 9, "conclusion_correct": false}', 9, False),  # conclusion wrong
    ('{"score": 0, "conclusion_correct": false}', 0, False),
])
def test_score_protocol_pass_rule(reply, score, passed):
    v = judge.PROTOCOLS["score_0_10"].parse(reply, JudgeRequest(None, "", "score_0_10"))
    assert (v.score, v.correct) == (score, passed)


@pytest.mark.parametrize("reply", [
    None, "", "我給 8 分。", '{"score": 11, "conclusion_correct": true}', '{"score": "高", "conclusion_correct": true}',
    '{"score": 8}', '{"score": 8, "conclusion_correct": "也許"}', '{"score": 8, "conclusion_correct": tru',
])
def test_unparseable_is_missing_never_zero(reply):
    v = judge.PROTOCOLS["score_0_10"].parse(reply, JudgeRequest(None, "", "score_0_10"))
    assert v.outcome == judge.MISSING
    assert v.score is None and v.correct is None and v.reason


def test_rubric_protocol():
    rec = samples.financeagent(1, "Q", "A", [("correctness", "甲"), ("correctness", "乙"), ("contradiction", "丙")])
    req = judge.PROTOCOLS["rubric"].build(rec, "回答")
    assert "[正確性]" in req.user and "[不矛盾]" in req.user and req.meta["n"] == 3
    p = judge.PROTOCOLS["rubric"]
    all_pass = p.parse('{"criteria": [{"id": 1, "pass": true}, {"id": 2, "pass": true}, {"id": 3, "pass": true}]}', req)
    assert all_pass.correct is True and all_pass.score == 10
    one_fail = p.parse('說明\n{"criteria": [{"id": 1, "pass": true}, {"id": 2, "pass": false}, {"id": 3, "pass": true}]}',
                       req)
    assert one_fail.correct is False and one_fail.score == pytest.approx(20 / 3)
    assert [c["operator"] for c in one_fail.detail["criteria"]] == ["correctness", "correctness", "contradiction"]
    partial = p.parse('{"criteria": [{"id": 1, "pass": true}]}', req)
    assert partial.outcome == judge.MISSING  # a criterion without a verdict is not a pass or a fail


def test_conclusion_protocol():
    p = judge.PROTOCOLS["conclusion"]
    req = p.build({"question": "q", "answer_text": "高風險"}, "答案：高風險")
    assert "高風險" in req.user
    assert p.parse('{"correct": true}', req).correct is True
    assert p.parse("```\n{\"correct\": false}\n```", req).correct is False
    assert p.parse('{"correct": "maybe"}', req).outcome == judge.MISSING


def test_plugin_protocol_registration():
    from tw_fin_eval.scoring.plugins import load_plugins

    load_plugins()
    """A new benchmark registers its own protocol for its task type (FinSearchComp does this)."""

    class Binary(judge.JudgeProtocol):
        name = "test_binary"

        def build(self, record, response, turn=None):
            return JudgeRequest(record["judge_system"], record["judge_template"].format(response=response), self.name)

        def parse(self, raw, request):
            obj = judge.last_object_with(raw, ["score"])
            if obj is None:
                return judge.missing(raw, "no score")
            if obj["score"] == "null":
                return judge.Verdict("no_ground_truth", raw=raw)
            return judge.Verdict(judge.SCORED, correct=obj["score"] == 1, raw=raw)

    before = judge.TASK_PROTOCOLS.get("open_judge")  # FinSearchComp's, when its plug-in is loaded
    judge.register_protocol(Binary())
    judge.register_task_protocol("open_judge", "test_binary")
    try:
        recs = [{"id": f"x-{i}", "dataset": "X", "task_type": "open_judge", "question": "q",
                 "judge_system": "sys", "judge_template": "答：{response}"} for i in range(3)]
        replies = {"答：a": '{"score":1}', "答：b": '{"score":"null"}', "答：c": "???"}
        with server_mod.FakeOpenAIServer(lambda body: replies[body["messages"][-1]["content"]]) as srv:
            runs = engine.RunsIndex(success={("x-0", None): "a", ("x-1", None): "b", ("x-2", None): "c"})
            out = engine.score(recs, runs, judge_config=JudgeConfig(srv.url, "j", max_retries=0), progress=False)
            assert srv.requests[0]["messages"][0] == {"role": "system", "content": "sys"}
        assert [it.status for it in out.items] == [scorers.SCORED, "no_ground_truth", scorers.MISSING]
        assert out.items[0].correct is True and out.items[0].decided_by == scorers.JUDGE
        from tw_fin_eval.reports import markdown, summary

        rows = summary.summary_rows(out.items)
        assert rows[0]["accuracy"] == 1.0 and rows[0]["other_outcomes"] == 1 and rows[0]["missing"] == 1
        md = markdown.report_markdown(out, rows, inputs={})
        assert "| dataset | scored | missing | no_ground_truth |" in md and "| X | 1 | 1 | 1 |" in md
    finally:
        if before is None:
            judge.TASK_PROTOCOLS.pop("open_judge", None)
        else:
            judge.TASK_PROTOCOLS["open_judge"] = before
        judge.PROTOCOLS.pop("test_binary", None)


def _judge_reply(body: dict) -> str:
    user = body["messages"][-1]["content"]
    if "評分要點" in user:
        return '{"criteria": [{"id": 1, "pass": true}, {"id": 2, "pass": true}, {"id": 3, "pass": false}]}'
    if "疑似洗錢" in user:
        return "理由：正確。\n```json\n{\"conclusion_correct\": true, \"score\": 9}\n```"
    if "流動比率" in user:
        return "這題我無法評分。"  # unparseable → missing
    return '{"correct": false}'


def _outputs(recs):
    from tw_fin_eval.scoring import selfcheck

    return engine.RunsIndex(success=selfcheck.build_outputs(recs))


def test_judge_end_to_end_with_fake_server(tmp_path):
    recs = samples.sample_records()
    with server_mod.FakeOpenAIServer(_judge_reply) as srv:
        out = engine.score(recs, _outputs(recs), judge_config=JudgeConfig(srv.url, "judge-m", max_retries=0),
                           progress=False)
        assert all(r["model"] == "judge-m" for r in srv.requests)
        assert len(srv.requests) == 3  # short_answer, case_study, financeagent; the rest were decided by rules
    by = {(it.id, it.turn): it for it in out.items}
    sa, cs, fa = by[("finllm450-0003", None)], by[("finllm450-0004", None)], by[("financeagent_tw-0001", None)]
    assert (sa.status, sa.correct, sa.score, sa.decided_by) == (scorers.SCORED, True, 9.0, scorers.JUDGE)
    assert "conclusion_correct" in sa.judge_raw
    assert cs.status == scorers.MISSING and cs.correct is None and cs.score is None
    assert fa.status == scorers.SCORED and fa.correct is False
    assert by[("finqa_tw-test-0001", None)].decided_by == scorers.RULE
    from tw_fin_eval.reports import outputs

    md = outputs.write_outputs(tmp_path, out, inputs={})["report"].read_text(encoding="utf-8")
    section = md.split("## FinLLM450: pass rate and mean score")[1].split("## Extraction modes")[0]
    # per ability: 法規判讀與合規 holds the judged short answer (pass, 9/10)
    assert "| 法規判讀與合規 | 1 | 1 | 100.0% |  | 100.0% | 9.00 | 0 | 0 |" in section
    # per question type: the case study's verdict was unparseable → missing, not 0
    assert "| case_study | 1 | 0 |  |  |  |  | 0 | 1 |" in section


def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_unreachable_judge_stops_scoring_with_a_clear_error():
    """Fail fast like the runner: not a report with every judged item pending."""
    recs = samples.sample_records()
    cfg = JudgeConfig(f"http://127.0.0.1:{_closed_port()}/v1", "judge-m", max_retries=0, concurrency=1)
    runner = judge.JudgeRunner(cfg, progress=False)
    with pytest.raises(judge.JudgeUnavailable, match="unreachable.*--judge-base-url"):
        engine.score(recs, _outputs(recs), judge_config=cfg, judge_runner=runner, progress=False)
    assert runner.calls == 3  # after 3 unreachable calls the rest are not made


def test_unreachable_judge_cli_exits_2_and_writes_no_report(tmp_path, capsys):
    data, runs = tmp_path / "data.jsonl", tmp_path / "runs.jsonl"
    recs = samples.sample_records()
    from tw_fin_eval.jsonl import write_jsonl

    write_jsonl(data, recs)
    write_jsonl(runs, [{"id": k[0], "turn": k[1], "response": v, "error": None, "model": "m"}
                       for k, v in _outputs(recs).success.items()])
    code = cli_main(["score", "--data", str(data), "--runs", str(runs), "--out", str(tmp_path / "rep"), "--quiet",
                     "--judge-base-url", f"http://127.0.0.1:{_closed_port()}/v1", "--judge-model", "j",
                     "--judge-retries", "0"])
    err = capsys.readouterr().err
    assert code == 2 and "judge unreachable" in err and "Traceback" not in err
    assert not (tmp_path / "rep" / "results.jsonl").exists()


def test_self_judge_is_refused_unless_allowed():
    recs = [r for r in samples.sample_records() if r["task_type"] == "short_answer"]
    runs = engine.RunsIndex(success={(r["id"], None): "答案" for r in recs}, models={"same-model"})
    cfg = JudgeConfig("http://127.0.0.1:1/v1", "same-model")
    with pytest.raises(InputError, match="model under test.*--allow-self-judge"):
        engine.score(recs, runs, judge_config=cfg, progress=False)
    with server_mod.FakeOpenAIServer(lambda body: '{"conclusion_correct": true, "score": 8}') as srv:
        cfg = JudgeConfig(srv.url, "same-model", allow_self_judge=True, max_retries=0)
        out = engine.score(recs, runs, judge_config=cfg, progress=False)
    assert all(it.status == scorers.SCORED for it in out.items)


def test_prompts_state_the_numeric_tolerance_and_equivalent_units():
    recs = {r["task_type"]: r for r in samples.sample_records()}
    cat = next(r for r in samples.sample_records() if r.get("answer_type") == "categorical")
    for request in (judge.PROTOCOLS["score_0_10"].build(recs["short_answer"], "x"),
                    judge.PROTOCOLS["rubric"].build(recs["open_rubric_agent"], "x"),
                    judge.PROTOCOLS["conclusion"].build(cat, "x")):
        assert "1%" in request.user and "14 十億美元 = 140 億美元" in request.user and "四捨五入" in request.user


class _EchoKeyClient:
    """A judge client that puts the key into its reply, in other letter cases (no client-side scrub)."""

    def __init__(self, key):
        self.key = key

    def chat(self, messages, model=None, **params):
        class R:
            error = None
            content = f'Authorization: Bearer {self.key.upper()} {{"correct": true}}'
            raw_content = f"<think>key={self.key.lower()}</think>" + content
        return R()


@pytest.mark.parametrize("key", ["sk-Secret-Judge-Key-1234567", "k9Z"])
def test_judge_key_never_reaches_results_or_cache(tmp_path, key):
    cache = tmp_path / "cache.jsonl"
    cache.write_text(json.dumps({"key": "old", "model": "j", "raw": f"echo {key}", "raw_content": None}) + "\n",
                     encoding="utf-8")
    cfg = JudgeConfig("http://judge/v1", "j", api_key=key, cache_path=str(cache))
    runner = judge.JudgeRunner(cfg, client=_EchoKeyClient(key), progress=False)
    cat = [r for r in samples.sample_records() if r.get("answer_type") == "categorical"]
    runs = engine.RunsIndex(success={(r["id"], None): "答案：不是中風險，應屬中高風險" for r in cat})
    out = engine.score(cat, runs, judge_config=cfg, judge_runner=runner, progress=False)
    results = json.dumps([it.to_json() for it in out.items], ensure_ascii=False)
    assert any(it.decided_by == scorers.JUDGE for it in out.items)
    assert key.lower() not in results.lower() and "[REDACTED]" in results
    text = cache.read_text(encoding="utf-8")
    assert key.lower() not in text.split("\n", 1)[1].lower()  # new lines scrubbed
    assert judge.JudgeCache(cache, redactor=runner.redactor).get("old")[0] == "echo [REDACTED]"  # old line too


def test_no_judge_configured_is_pending():
    recs = samples.sample_records()
    out = engine.score(recs, _outputs(recs), progress=False)
    pend = [it for it in out.items if it.status == scorers.PENDING]
    assert {it.task_type for it in pend} == {"short_answer", "case_study", "open_rubric_agent"}
    assert all(it.reason == "no judge configured" for it in pend)


def test_judged_twice_reports_agreement():
    calls = {"n": 0}

    def flaky(body):
        user = body["messages"][-1]["content"]
        if "疑似洗錢" in user:
            return '{"conclusion_correct": true, "score": 8}'
        calls["n"] += 1  # the case study flips between runs
        score = 8 if calls["n"] % 2 else 5
        return json.dumps({"conclusion_correct": True, "score": score})

    recs = [r for r in samples.sample_records() if r["task_type"] in {"short_answer", "case_study"}]
    with server_mod.FakeOpenAIServer(flaky) as srv:
        cfg = JudgeConfig(srv.url, "j", max_retries=0, repeats=2, concurrency=1)
        out = engine.score(recs, _outputs(recs), judge_config=cfg, progress=False)
    a = out.agreement["all"]
    assert a["items_judged_twice"] == 2 and a["both_scored"] == 2
    assert a["agreement"] == 0.5 and a["mean_abs_score_diff"] == pytest.approx(1.5)
    assert isinstance(out.items[0].judge_verdict, list) and len(out.items[0].judge_verdict) == 2


def test_agreement_kappa():
    v = judge.Verdict
    pairs = [[v("scored", correct=True), v("scored", correct=True)], [v("scored", correct=False), v("scored", correct=False)],
             [v("scored", correct=True), v("scored", correct=False)], [v("missing"), v("scored", correct=True)]]
    a = judge.agreement(pairs)
    assert a["both_scored"] == 3 and a["agreement"] == pytest.approx(2 / 3)
    pe = (2 / 3) * (1 / 3) + (1 / 3) * (2 / 3)  # run 1 passes 2 of 3, run 2 passes 1 of 3
    assert a["kappa"] == pytest.approx((2 / 3 - pe) / (1 - pe))
    assert a["outcome_disagreements"] == 1


def test_plugins_load_from_environment(tmp_path, monkeypatch):
    """A benchmark's own protocol and task type arrive as a plug-in module named in $TW_FIN_EVAL_PLUGINS."""
    from tw_fin_eval.scoring import plugins

    (tmp_path / "my_bench_plugin.py").write_text(
        "from tw_fin_eval.scoring import judge, scorers\n"
        "class P(judge.JudgeProtocol):\n"
        "    name = 'my_bench'\n"
        "    def build(self, record, response, turn=None):\n"
        "        return judge.JudgeRequest(None, record['question'] + '|' + response, self.name)\n"
        "    def parse(self, raw, request):\n"
        "        return judge.Verdict(judge.SCORED, correct=raw == 'ok', raw=raw)\n"
        "judge.register_protocol(P())\n"
        "judge.register_task_protocol('my_bench_task', 'my_bench')\n"
        "scorers.register(scorers.JudgedScorer('my_bench_task', [('question', 'a question')]))\n",
        encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(plugins.ENV, "my_bench_plugin")
    try:
        data = tmp_path / "d.jsonl"
        data.write_text(json.dumps({"id": "b-1", "task_type": "my_bench_task", "question": "q"}) + "\n",
                        encoding="utf-8")
        recs = engine.load_records([data], engine.Issues())  # the unknown task type is known once loaded
        with server_mod.FakeOpenAIServer(lambda body: "ok") as srv:
            out = engine.score(recs, engine.RunsIndex(success={("b-1", None): "a"}),
                               judge_config=JudgeConfig(srv.url, "j", max_retries=0), progress=False)
            assert srv.requests[0]["messages"] == [{"role": "user", "content": "q|a"}]
        assert out.items[0].correct is True and out.items[0].decided_by == scorers.JUDGE
    finally:
        scorers.SCORERS.pop("my_bench_task", None)
        judge.TASK_PROTOCOLS.pop("my_bench_task", None)
        judge.PROTOCOLS.pop("my_bench", None)


def test_categorical_conclusions_keyword_first_judge_when_undecided():
    recs = [r for r in samples.sample_records() if r.get("answer_type") == "categorical"]
    answers = {"finchain_tw-0003": "答案：高風險",  # keyword decides (right)
               "finchain_tw-0004": "答案：不是中風險，應屬中高風險",  # negated / glued labels: undecided
               "finchain_tw-0005": "答案：否"}  # yes/no conclusion: keyword decides (wrong)
    runs = engine.RunsIndex(success={(k, None): v for k, v in answers.items()})
    seen = []

    def reply(body):
        seen.append(body["messages"][-1]["content"])
        return '結論一致。{"correct": true}'

    with server_mod.FakeOpenAIServer(reply) as srv:
        out = engine.score(recs, runs, judge_config=JudgeConfig(srv.url, "j", max_retries=0), progress=False)
    by = {it.id: it for it in out.items}
    assert (by["finchain_tw-0003"].decided_by, by["finchain_tw-0003"].correct) == (scorers.KEYWORD, True)
    assert (by["finchain_tw-0005"].decided_by, by["finchain_tw-0005"].correct) == (scorers.KEYWORD, False)
    assert (by["finchain_tw-0004"].decided_by, by["finchain_tw-0004"].correct) == (scorers.JUDGE, True)
    assert len(seen) == 1 and "中風險" in seen[0]
    # without a judge the undecided one is pending (never counted wrong), and says so
    out = engine.score(recs, runs, progress=False)
    item = next(it for it in out.items if it.id == "finchain_tw-0004")
    assert item.status == scorers.PENDING and item.correct is None and "no judge" in item.reason


def test_judge_refusing_auth_stops_calling():
    with server_mod.FakeOpenAIServer(lambda body: '{"correct": true}', api_key="right-key") as srv:
        cfg = JudgeConfig(srv.url, "m", api_key="wrong-key", max_retries=0, concurrency=1)
        runner = judge.JudgeRunner(cfg, progress=False)
        with pytest.raises(judge.JudgeUnavailable) as exc:
            runner.run([JudgeRequest(None, f"q{i}", "conclusion") for i in range(6)])
    assert runner.calls == 1
    assert "refused" in str(exc.value) and "wrong-key" not in str(exc.value)


def test_finsearchcomp_protocol_is_loaded_by_default():
    from tw_fin_eval.scoring.plugins import load_plugins

    load_plugins()
    protocol = judge.protocol_for("open_judge")
    assert protocol is not None and protocol.name == "finsearchcomp"


def test_judge_cache_reuses_replies_across_runs(tmp_path):
    """--judge-cache: a re-run asks the judge only for what it has not answered yet (after Ctrl-C, a judge
    outage or to re-score); a line cut short by an interruption is skipped."""
    recs = samples.sample_records()
    runs = _outputs(recs)
    cache = tmp_path / "judge_cache.jsonl"

    def reply(body):
        return _judge_reply(body).replace("這題我無法評分。", '{"conclusion_correct": false, "score": 3}')

    with server_mod.FakeOpenAIServer(reply) as srv:
        cfg = JudgeConfig(srv.url, "j", max_retries=0, cache_path=str(cache))
        first = engine.score(recs, runs, judge_config=cfg, progress=False)
        assert first.judge_calls == 3 and first.judge_cache_hits == 0
    lines = cache.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3 and all(json.loads(x)["key"] for x in lines)
    cache.write_text("\n".join(lines) + '\n{"key": "cut-sho', encoding="utf-8")  # interrupted mid-line

    # the judge is down now: everything it already answered still counts
    down = JudgeConfig(f"http://127.0.0.1:{_closed_port()}/v1", "j", max_retries=0, cache_path=str(cache))
    second = engine.score(recs, runs, judge_config=down, progress=False)
    assert second.judge_cache_hits == 3
    by1 = {it.id: (it.status, it.correct, it.score) for it in first.items}
    by2 = {it.id: (it.status, it.correct, it.score) for it in second.items}
    assert by1 == by2

    # a different judge model does not reuse another model's replies
    with server_mod.FakeOpenAIServer(reply) as srv:
        other = engine.score(recs, runs, judge_config=JudgeConfig(srv.url, "j2", max_retries=0, cache_path=str(cache)),
                             progress=False)
        assert other.judge_calls == 3 and other.judge_cache_hits == 0
    rows = [json.loads(x) for x in cache.read_text(encoding="utf-8").splitlines() if x.startswith('{"key": "') and
            x.endswith("}")]
    assert len(rows) == 6 and {r["model"] for r in rows} == {"j", "j2"}


def test_score_0_10_prompt_carries_scoring_points_only_when_given():
    p = judge.PROTOCOLS["score_0_10"]
    rec = {"question": "某銀行辦理授信時應注意哪些事項？", "reference_answer": "應依授信 5P 原則審核。", "scoring_points": None}
    assert "【評分重點】" not in p.build(rec, "答案：依 5P 原則").user
    rec["scoring_points"] = "1. 提到 5P 原則\n2. 說明還款來源"
    user = p.build(rec, "答案：依 5P 原則").user
    assert "【評分重點】\n1. 提到 5P 原則\n2. 說明還款來源" in user
    assert user.index("【參考答案】") < user.index("【評分重點】") < user.index("【受評回答】")
