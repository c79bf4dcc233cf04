"""FinLLM450 conversion of the synthetic workbook: the exact records, the exact problem list, the files
written (JSONL + CSV with BOM), the command line (`tw-fin-eval convert-finllm450` and tools/ by path), and
the records against the declared `finllm450` features."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_finllm450_synth import LAYOUT, ROWS, SHEET, write_workbook
from tw_fin_eval import DATA_VERSION, prompts
from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.sources import finllm450 as conv

REPO = Path(__file__).resolve().parent.parent
BLANK_POINTS = ("評分重點", "評分重點空白", "補上評分重點（目前以參考答案評分；補上後可改為逐條評分）")
DUP_FIX = "為重複的題目另編題號（轉檔 id 以序號產生，不受影響）"

EXPECTED_PROBLEMS = [
    ("1", "題號", "題號「W-001」重複（序號 1、16），題目內容不同", DUP_FIX),
    ("2", "題號", "題號「W-002」重複（序號 2、9），題目內容不同", DUP_FIX),
    ("4", "題號", "題號「C-011」重複（序號 4、17），與序號 17 題目內容相同", "確認是否重複收錄；若是，刪除其中一題"),
    ("5", "題號", "題號「L-005」重複（序號 5、6），題目內容不同", DUP_FIX),
    ("6", "題號", "題號「L-005」重複（序號 5、6），題目內容不同", DUP_FIX),
    ("6", *BLANK_POINTS),
    ("9", "題號", "題號「W-002」重複（序號 2、9），題目內容不同", DUP_FIX),
    ("9", "APMIC 最終回覆", "中國用語「杠杆」（萬元，並可考慮定期定額投資，但不宜使用杠杆投資以免风险過高。）", "改用「槓桿」"),
    ("9", "APMIC 最終回覆", "簡體字「风险」（考慮定期定額投資，但不宜使用杠杆投資以免风险過高。）", "改為「風險」"),
    ("9", *BLANK_POINTS),
    ("10", "訓練思維鏈", "簡體字「该」（依 5P 原則逐項檢視：该公司的负债比率偏高，還款來源不足。）", "改為「該」"),
    ("10", "訓練思維鏈", "簡體字「负债」（依 5P 原則逐項檢視：该公司的负债比率偏高，還款來源不足。）", "改為「負債」"),
    ("10", *BLANK_POINTS),
    ("11", "正確答案", "選項為 (1)–(4)，正確答案卻寫成字母「B」", "改為「2」（轉檔已依 A→1、B→2、C→3、D→4 轉換）"),
    ("12", "正確答案", "選項為 (1)–(4)，正確答案卻寫成字母「C」", "改為「3」（轉檔已依 A→1、B→2、C→3、D→4 轉換）"),
    ("12", "APMIC 最終回覆", "回覆結論為「2」，與正確答案「3」不一致", "確認正確答案；若回覆有誤，用於訓練前修正回覆"),
    ("13", "APMIC 最終回覆", "無法從回覆判讀選項結論，未能與正確答案比對", "在回覆最後一行寫明「答案：<選項>」"),
    ("14", "APMIC 最終回覆", "APMIC 最終回覆空白", "補上 APMIC 最終回覆"),
    ("14", "訓練思維鏈", "中國用語「信息」（可查詢中央存款保險公司公布的信息。）", "改用「資訊」"),
    ("14", *BLANK_POINTS),
    ("14", "銀行團審題意見", "勾選「須修正」但審題意見空白", "補上審題意見，說明修正內容"),
    ("15", *BLANK_POINTS),
    ("16", "題號", "題號「W-001」重複（序號 1、16），題目內容不同", DUP_FIX),
    ("17", "題號", "題號「C-011」重複（序號 4、17），與序號 4 題目內容相同", "確認是否重複收錄；若是，刪除其中一題"),
    ("17", *BLANK_POINTS),
    ("18", "正確答案", "選項為 (A)–(D)，正確答案卻寫成數字「3」", "改為「C」（轉檔已依 1→A、2→B、3→C、4→D 轉換）"),
]

W, C, L, K = "財富規劃與退休理財", "授信與財務分析", "法規判讀與合規", "金融知識查詢"
ABCD, N14 = ["A", "B", "C", "D"], ["1", "2", "3", "4"]
# id, orig_qid, category, ability_original, subcategory, task_type, options, option_format, answer, review
EXPECTED_TABLE = [
    ("finllm450-0001", "W-001", W, "財富規劃與退休理財能力", "退休規劃", "mcq", ABCD, "letter", ["C"], "bank_reviewed"),
    ("finllm450-0002", "W-002", W, "財富規劃與退休理財能力", "信託實務", "mcq", ABCD, "letter", ["D"], "bank_reviewed"),
    ("finllm450-0003", "C-010", C, "授信與財務分析能力", "財務報表分析", "mcq", ABCD, "letter", ["B"], "bank_reviewed"),
    ("finllm450-0004", "C-011", C, "授信與財務分析能力", "授信實務", "short_answer", None, None, None, "bank_reviewed"),
    ("finllm450-0005", "L-005", L, "法規判讀與合規能力", "洗錢防制", "mcq", ABCD, "letter", ["B"], "bank_reviewed"),
    ("finllm450-0006", "L-005", L, "法規判讀與合規能力", "洗錢防制", "short_answer", None, None, None, "bank_reviewed"),
    ("finllm450-0007", "101", K, "金融知識查詢能力", "外匯業務", "mcq", ABCD, "letter", ["B"], "bank_reviewed"),
    ("finllm450-0008", "L-020", L, "法規判讀與合規能力", "個人資料保護", "mcq", ABCD, "letter", ["A", "C"], "bank_reviewed"),
    ("finllm450-0009", "W-002", W, "財富規劃與退休理財能力", "退休規劃", "case_study", None, None, None, "bank_fixed"),
    ("finllm450-0010", "C-030", C, "授信與財務分析能力", "授信實務", "case_study", None, None, None, "bank_commented"),
    ("finllm450-0011", "L-031", L, "銀行契約、擔保與支付法務能力", "票據法", "mcq", N14, "number", ["2"], "bank_reviewed"),
    ("finllm450-0012", "L-032", L, "銀行契約、擔保與支付法務能力", "擔保物權", "mcq", N14, "number", ["3"], "bank_reviewed"),
    ("finllm450-0013", "T-001", K, "國際貿易與金融", "國際貿易融資", "mcq", ABCD, "letter", ["B"], "bank_reviewed"),
    ("finllm450-0014", "K-001", K, "金融知識查詢能力", "存款業務", "short_answer", None, None, None, "bank_fixed"),
    ("finllm450-0015", "K-002", K, "金融知識查詢能力", "衍生性金融商品", "case_study", None, None, None, "bank_fixed"),
    ("finllm450-0016", "W-001", W, "財富規劃與退休理財能力", "投資規劃", "mcq", ABCD, "letter", ["A"], "bank_reviewed"),
    ("finllm450-0017", "C-011", C, "授信與財務分析能力", "授信實務", "short_answer", None, None, None, "bank_reviewed"),
    ("finllm450-0018", "C-040", C, "授信與財務分析能力", "財務報表分析", "mcq", ABCD, "letter", ["C"], "bank_reviewed"),
]

FULL_0011 = {
    "id": "finllm450-0011",
    "dataset": "FinLLM450",
    "source": {"name": "FinLLM 450 評測訓練題", "paper": None, "orig_id": "11", "orig_qid": "L-031", "url": None,
               "license": "內部使用（APMIC × 銀行團），不對外發布"},
    "category": "法規判讀與合規",
    "subcategory": "票據法",
    "task_type": "mcq",
    "difficulty": None,
    "lang": "zh-TW",
    "question": ROWS[10]["題目"],
    "context": {"table": None, "evidence": [], "setting": None},
    "answer": ["2"],
    "answer_value": None,
    "answer_text": None,
    "program": None,
    "options": ["1", "2", "3", "4"],
    "option_format": "number",
    "reference_answer": None,
    "reference": {"apmic_reply": "支票退票後，執票人仍可向發票人追索。\n答案：(2)",
                  "training_cot": "空頭支票仍是有效票據，執票人可行使追索權。"},
    "scoring_points": None,
    "ability_original": "銀行契約、擔保與支付法務能力",
    "messages": [
        {"role": "system", "content": "你是一位熟悉台灣金融法規與銀行實務的專業人員。請閱讀題目與選項，使用繁體中文簡要說明理由後作答。"
                                      "最後一行務必以「答案：<選項>」的格式寫出答案，例如「答案：2」；複選題請寫出所有正確選項，"
                                      "以頓號分隔，例如「答案：1、3」。"},
        {"role": "user", "content": ROWS[10]["題目"]},
    ],
    "meta": {"translation": "原為繁體中文，未翻譯", "review_status": "bank_reviewed", "version": DATA_VERSION,
             "review_comment": None},
}
FULL_0015 = {
    "id": "finllm450-0015",
    "dataset": "FinLLM450",
    "source": {"name": "FinLLM 450 評測訓練題", "paper": None, "orig_id": "15", "orig_qid": "K-002", "url": None,
               "license": "內部使用（APMIC × 銀行團），不對外發布"},
    "category": "金融知識查詢",
    "subcategory": "衍生性金融商品",
    "task_type": "case_study",
    "difficulty": None,
    "lang": "zh-TW",
    "question": "某出口商預計三個月後收到 100 萬美元貨款，擔心新臺幣升值。\n請說明可使用哪些避險工具，並比較其優缺點。",
    "context": {"table": None, "evidence": [], "setting": None},
    "answer": None,
    "answer_value": None,
    "answer_text": None,
    "program": None,
    "options": None,
    "option_format": None,
    "reference_answer": "可預售遠期外匯（鎖定匯率、無權利金但放棄有利變動）或買入美元賣權（付權利金、保留有利變動）。",
    "reference": {"apmic_reply": "可承作預售遠期外匯鎖定匯率，或買入美元賣權保留匯率上漲的利益。\n答案：遠期外匯或買入賣權。",
                  "training_cot": "出口商的風險是美元貶值，應鎖定未來賣出美元的價格。"},
    "scoring_points": None,
    "ability_original": "金融知識查詢能力",
    "messages": [
        {"role": "system", "content": prompts.SYSTEM_CASE},
        {"role": "user", "content": "某出口商預計三個月後收到 100 萬美元貨款，擔心新臺幣升值。\n請說明可使用哪些避險工具，並比較其優缺點。"},
    ],
    "meta": {"translation": "原為繁體中文，未翻譯", "review_status": "bank_fixed", "version": DATA_VERSION,
             "review_comment": "情境數字已更新為 100 萬美元"},
}


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    book = write_workbook(tmp_path_factory.mktemp("finllm450") / "FinLLM 450 評測訓練題.xlsx")
    sheet = conv.read_sheet(book)
    return book, conv.convert(sheet)


def test_exact_problem_list(converted):
    _, result = converted
    assert [p.row() for p in result.problems] == EXPECTED_PROBLEMS


def test_record_table(converted):
    _, result = converted
    got = [(r["id"], r["source"]["orig_qid"], r["category"], r["ability_original"], r["subcategory"], r["task_type"],
            r["options"], r["option_format"], r["answer"], r["meta"]["review_status"]) for r in result.records]
    assert got == EXPECTED_TABLE


def test_full_records(converted):
    _, result = converted
    by_id = {r["id"]: r for r in result.records}
    assert by_id["finllm450-0011"] == FULL_0011  # letter answer on (1)–(4) options, converted
    assert by_id["finllm450-0015"] == FULL_0015  # _x000D_ removed, review comment + 須修正 (a real TRUE cell)


def test_texts_are_the_cells(converted):
    """Question, reference answer, replies and review comments are the workbook's cells, unchanged."""
    _, result = converted
    for row, rec in zip(ROWS, result.records):
        if "_x000D_" not in row["題目"]:
            assert rec["question"] == row["題目"]
            assert rec["messages"][-1]["content"] == row["題目"]  # (no multi-answer note: 「（複選）」 is in the text)
        assert rec["reference"] == {"apmic_reply": row.get("APMIC 最終回覆"), "training_cot": row["訓練思維鏈"]}
        assert rec["meta"]["review_comment"] == row.get("銀行團審題意見")
        assert rec["scoring_points"] == row.get("評分重點")
        if rec["task_type"] != "mcq":
            assert rec["reference_answer"] == row["正確答案"] and rec["answer"] is None
            assert rec["messages"][0]["content"] == (prompts.SYSTEM_CASE if rec["task_type"] == "case_study"
                                                     else prompts.SYSTEM_SHORT)


def test_summary_counts(converted):
    _, result = converted
    s = result.stats
    assert (s["mcq"], s["short_answer"], s["case_study"]) == (11, 4, 3)
    assert [s[f"category:{a}"] for a in conv.ABILITIES] == [4, 5, 5, 4]
    assert (s["ability_remapped"], s["duplicate_qid_groups"], s["multi_answer"]) == (3, 4, 1)
    assert (s["answer_converted"], s["answer_converted_apmic_agrees"], s["apmic_agrees"]) == (3, 2, 9)


def test_multi_answer_note_when_the_question_does_not_say(tmp_path):
    rows = [dict(ROWS[7], 題目="下列哪些屬於特種個人資料？(A)病歷 (B)電子郵件地址 (C)犯罪前科 (D)職業")]
    result = conv.convert(conv.read_sheet(write_workbook(tmp_path / "b.xlsx", rows, merged_data=[])))
    assert result.records[0]["messages"][-1]["content"].endswith("\n\n" + prompts.MULTI_NOTE)
    assert result.records[0]["answer"] == ["A", "C"]


def test_options_column_is_used_when_filled(tmp_path):
    layout = [x for x in LAYOUT if x[2] != "備註"] + [(None, "選項", "選項")]
    rows = [dict(ROWS[0], 題目="雇主提繳退休金的比率不得低於每月工資的多少？", 選項="(A)2%\n(B)4%\n(C)6%\n(D)8%")]
    result = conv.convert(conv.read_sheet(write_workbook(tmp_path / "b.xlsx", rows, layout=layout, merged_data=[])))
    rec = result.records[0]
    assert rec["question"] == "雇主提繳退休金的比率不得低於每月工資的多少？\n(A)2%\n(B)4%\n(C)6%\n(D)8%"
    assert rec["options"] == ABCD and rec["answer"] == ["C"]


@pytest.mark.parametrize("reply,codes", [
    ("分析……\n答案：(B)", ["B"]),
    ("依規定應選 (3)。", ["3"]),
    ("故本題答案為(1)(3)", ["1", "3"]),
    ("正確答案是 A 與 D，因為 B 不符。", ["A", "D"]),
    ("此題涉及選擇權，答案：AC", ["A", "C"]),
    ("<think>先想想，答案：A</think>最後結論：\\boxed{D}", ["D"]),
    ("期限為 1 年，屬於短期授信。", []),
    ("選擇權的買方支付權利金。", []),
])
def test_reply_conclusion(reply, codes):
    assert conv.reply_conclusion(reply) == codes


def test_outputs_written_jsonl_and_bom_csv(converted, tmp_path):
    book, result = converted
    out, issues = tmp_path / "data" / "finllm450.jsonl", tmp_path / "FinLLM450_資料問題清單.csv"
    assert cli_main(["convert-finllm450", "--xlsx", str(book), "--out", str(out), "--issues", str(issues),
                     "--quiet"]) == 0
    assert [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()] == result.records
    raw = issues.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    table = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    assert table[0] == ["序號", "欄位", "問題", "建議修正"]
    assert [tuple(r) for r in table[1:]] == EXPECTED_PROBLEMS
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["FinLLM450_資料問題清單.csv", "finllm450.jsonl"]


def test_tools_script_by_path_prints_summary(converted, tmp_path):
    book, _ = converted
    out, issues = tmp_path / "f.jsonl", tmp_path / "p.csv"
    proc = subprocess.run([sys.executable, str(REPO / "tools" / "convert_finllm450.py"), "--xlsx", str(book),
                           "--sheet", SHEET, "--out", str(out), "--issues", str(issues)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "18 questions" in proc.stdout and "mcq 11 / short_answer 4 / case_study 3" in proc.stdout
    assert "problems: 26 in 15 questions" in proc.stdout
    assert len(out.read_text(encoding="utf-8").splitlines()) == 18


def test_records_fit_the_declared_features(converted):
    datasets = pytest.importorskip("datasets")
    from tw_fin_eval.configs import CONFIGS
    from tw_fin_eval.features import project
    from tw_fin_eval.release.validate import record_errors, undeclared_fields
    from tw_fin_eval.subsets import features_for

    _, result = converted
    features = features_for("finllm450")
    assert [record_errors(r, CONFIGS["finllm450"], features) for r in result.records] == [[]] * len(result.records)
    assert undeclared_fields(result.records, features) == []
    ds = datasets.Dataset.from_list([project(r, features) for r in result.records], features=features)
    back = ds.to_list()
    assert back == [project(r, features) for r in result.records]
    assert back[7]["answer"] == ["A", "C"] and back[3]["answer"] is None


def test_builder_offers_finllm450_only_with_the_file_and_yields_typed_rows(converted, tmp_path):
    """tw_fin_eval_basic.py reads its configs at import, so it runs in a fresh process for each data folder."""
    book, _ = converted
    data = tmp_path / "data"
    script = (
        "import sys, json; import tw_fin_eval_basic as b\n"
        "names = [c.name for c in b.TwFinEvalBasic.BUILDER_CONFIGS]\n"
        "if 'finllm450' in names:\n"
        "    bl = b.TwFinEvalBasic(config_name='finllm450', data_dir=sys.argv[1], cache_dir=sys.argv[2])\n"
        "    bl.download_and_prepare(); ds = bl.as_dataset(split='test')\n"
        "    print(json.dumps([names, ds.num_rows, ds[7]['answer'], ds[10]['source']['orig_qid']]))\n"
        "else:\n"
        "    print(json.dumps([names]))\n"
    )
    env = {**os.environ, "TW_FIN_EVAL_DATA": str(data), "HF_HUB_OFFLINE": "1",
           "PYTHONPATH": str(REPO)}

    def run() -> list:
        proc = subprocess.run([sys.executable, "-c", script, str(data), str(tmp_path / "cache")], cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr[-2000:]
        return json.loads(proc.stdout.strip().splitlines()[-1])

    data.mkdir()
    assert "finllm450" not in run()[0]
    assert cli_main(["convert-finllm450", "--xlsx", str(book), "--out", str(data / "finllm450.jsonl"),
                     "--issues", str(tmp_path / "i.csv"), "--quiet"]) == 0
    names, rows, answer, qid = run()
    assert "finllm450" in names and (rows, answer, qid) == (18, ["A", "C"], "L-031")


@pytest.mark.parametrize("label,task_type", [("選擇題（複選）", "mcq"), (" 單選題 ", "mcq"), ("簡答題", "short_answer"),
                                             ("案例分析題", "case_study")])
def test_task_type_labels(tmp_path, label, task_type):
    row = dict(ROWS[7], 題型=label)
    result = conv.convert(conv.read_sheet(write_workbook(tmp_path / "b.xlsx", [row], merged_data=[])))
    assert result.records[0]["task_type"] == task_type


def test_same_question_under_another_qid_and_qids_compared_loosely(tmp_path):
    rows = [dict(ROWS[0]), dict(ROWS[15], 序號=2, 題號="Ｗ-001 "), dict(ROWS[0], 序號=3, 題號="W-900",
                                                                 題目=ROWS[0]["題目"] + " ")]
    result = conv.convert(conv.read_sheet(write_workbook(tmp_path / "b.xlsx", rows, merged_data=[])))
    assert [p.row() for p in result.problems] == [
        ("1", "題號", "題號「W-001」重複（序號 1、2），題目內容不同", DUP_FIX),
        ("1", "題目", "題目與序號 3 完全相同（題號不同）", "確認是否重複收錄；若是，刪除其中一題"),
        ("2", "題號", "題號「W-001」重複（序號 1、2），題目內容不同", DUP_FIX),
        ("3", "題目", "題目與序號 1 完全相同（題號不同）", "確認是否重複收錄；若是，刪除其中一題"),
    ]
    assert [r["source"]["orig_qid"] for r in result.records] == ["W-001", "Ｗ-001", "W-900"]
