"""FinLLM450's source adapter: `tw-fin-eval convert-finllm450 --xlsx PATH` / `tools/convert_finllm450.py`
turns the bank consortium's workbook 「FinLLM 450 評測訓練題.xlsx」 → `data/finllm450.jsonl` (docs/FORMATS.md §1: mcq / short_answer /
case_study) and `FinLLM450_資料問題清單.csv` (UTF-8 with BOM; columns 序號, 欄位, 問題, 建議修正).

Modules: `workbook` (sheet, header row, rows), `options` (option and answer codes, the APMIC reply's
conclusion), `converter` (records, the problem list, the command).

The workbook
------------
One sheet holds the questions (`--sheet NAME`; without it, the one sheet whose header row carries every
required header — zero or several such sheets is an error that lists the sheets). The header row is found
by its contents (the first 15 rows are searched), so a title row above it or a two-level header (a merged
group cell such as 「APMIC」 over 「最終回覆」「訓練思維鏈」) is fine; merged cells are read as if every cell of
the range held the value (this also covers a 能力 cell merged down several rows). Columns are matched by
name, in any order; extra columns are never read. Blank rows between questions are skipped; a run of 50
blank rows ends the questions (cells in the header's columns below it are listed as a problem, not read).
Only cells that hold a value are visited, so a sheet whose used range spans A1:XFD1048576 costs no more
than its contents. A header matches after NFKC (full-width → half-width),
removing whitespace, a trailing 「：」 or 「*」, and either a bracketed note (「題型（選擇題／短答題／案例題）」)
or just the brackets (「【APMIC】最終回覆」). Accepted headers (first = the name used in messages and in the
problem list; * = required):

    序號*            序號, 流水號, No.                     unique positive integer → id finllm450-0001…
    題號*            題號, 原題號, 題目編號, 題目代號       → source.orig_qid (may repeat)
    能力*            能力, 能力類別, 能力別, 四大能力, 能力分類
    科目*            科目, 子類別, 科目/子類別, 專業科目, 科目別, 科目類別 → subcategory
    題型*            題型, 題目類型 — 選擇題 / 單選題 / 複選題 → mcq; 短答題 / 簡答題 → short_answer;
                     案例題 / 案例分析題 → case_study (a bracketed note such as 「（複選）」 is ignored)
    題目*            題目, 題目內容, 題幹, 問題
    選項             選項, 選項內容 (optional: when a row's cell is filled, its options are read from it
                     and it is appended to the question; otherwise the options are inside 題目)
    正確答案*        正確答案, 標準答案, 答案, 參考答案
    APMIC 最終回覆*  APMIC最終回覆, APMIC回覆, 最終回覆
    訓練思維鏈*      訓練思維鏈, 思維鏈, CoT
    評分重點         評分重點, 評分要點 (optional)
    銀行團審題意見*  銀行團審題意見, 審題意見, 銀行團意見
    是否須修正*      是否須修正, 須修正, 是否需修正, 需修正 — yes: 是 V Y TRUE 1 ✓ ✔ ☑ 須修正; no: blank 否 N
                     FALSE 0 - 無; anything else is an error

Options are written inside the question text, as Taiwan exam papers do: 「(A)… (B)… (C)… (D)…」 (full-width
brackets too, or 「A.」 at a line start) or 「(1)…(4)」 / 「①…④」. A chain (A)(B)… wins over (1)(2)…, because
numbered statements inside a stem are often answered by lettered options; the last chain starting at (A)
(or (1)) is taken. Two to four options; more than D / 4 is an error (the scorer reads A–D and 1–4).
`options` are the codes; the question keeps the option text.

The record (FORMATS §1 plus the finllm450 features): `category` is one of the four abilities
(財富規劃與退休理財, 授信與財務分析, 法規判讀與合規, 金融知識查詢; a trailing 「能力」 is dropped), with
「銀行契約、擔保與支付法務能力」→ 法規判讀與合規 and 「國際貿易與金融」→ 金融知識查詢; the label as written is kept
in `ability_original`. `answer` is the list of option codes for mcq (null for short/case, which carry
`reference_answer`). `reference = {apmic_reply, training_cot}` is kept and never scored. `scoring_points`
keeps 評分重點 (null when blank). `meta.review_status`: ``bank_fixed`` (須修正 ticked; the workbook already
holds the corrected content), ``bank_commented`` (a comment, not ticked), ``bank_reviewed`` (neither);
`meta.review_comment` holds the comment.

Answers: a letter answer on (1)–(4) options is converted A→1, B→2 … (and a number answer on (A)–(D)
options 1→A …); both are listed as problems. Every MCQ answer is compared with the conclusion of the APMIC
reply (「答案：」, \\boxed{}, 「故選 (2)」, 「正確答案為 B」…); a disagreement or an unreadable conclusion is
listed — the answer is never changed to agree with the reply.

Stops (exit 2, nothing written, the message names sheet, cell and header): missing sheet or headers, an
unreadable or duplicate 序號, an empty 題目 or 正確答案, an unknown 題型 or 能力, MCQ options not found,
an answer that is not option codes or not among the options, an unreadable 是否須修正.
Listed as problems (the record is still written): duplicate 題號 (content different or the same), the same
question under different 題號, the
answer-format conversions, APMIC disagreements / unreadable conclusions, Simplified characters and PRC terms
(tw_fin_eval.zhcheck) in 題目, 正確答案, APMIC 最終回覆, 訓練思維鏈 and 評分重點, blank 題號 / 科目 / APMIC 最終回覆
/ 訓練思維鏈, blank 評分重點 of short-answer and case items, 須修正 ticked without a comment, cells left unread
below a run of blank rows.
"""

from tw_fin_eval.sources.finllm450.converter import (
    ABILITIES,
    DATASET,
    TASK_TYPES,
    Problem,
    Result,
    configure,
    convert,
    issues_csv,
    main,
    summary_lines,
    write_outputs,
)
from tw_fin_eval.sources.finllm450.options import parse_answer_codes, parse_options, reply_conclusion
from tw_fin_eval.sources.finllm450.workbook import HEADERS, Sheet, cell_text, header_name, read_sheet

__all__ = ["ABILITIES", "DATASET", "HEADERS", "TASK_TYPES", "Problem", "Result", "Sheet", "cell_text", "configure",
           "convert", "header_name", "issues_csv", "main", "parse_answer_codes", "parse_options", "read_sheet",
           "reply_conclusion", "summary_lines", "write_outputs"]
