"""The ready-built zh-TW prompts (`messages`) of every record. Standard library only: the FinChain
generator and the runner import it. Every prompt asks for a last line 「答案：…」 because the scorer's
strict extraction reads the value after the last 「答案：」."""

from __future__ import annotations

SYSTEM_NUMERIC = (
    "你是一位嚴謹的台灣財務分析師。請根據題目提供的表格與資料逐步推理並計算，"
    "使用繁體中文作答。最後一行務必以「答案：<數值>」的格式寫出最終答案，"
    "數值只寫阿拉伯數字（可含小數點、負號或 %），不要加上其他文字。"
)
SYSTEM_YES_NO_HINT = "若題目是是非題，最後一行寫「答案：是」或「答案：否」。"
SYSTEM_CATEGORICAL = (
    "你是一位嚴謹的台灣金融專業人員。請逐步說明推理與計算過程，使用繁體中文作答。"
    "最後一行務必以「答案：<結論>」的格式寫出最終結論。"
)
SYSTEM_COT_NUMERIC = (
    "你是一位嚴謹的台灣金融專業人員。請以「步驟 1：」「步驟 2：」……的方式逐步列出計算過程，"
    "使用繁體中文作答。最後一行務必以「答案：<數值>」的格式寫出最終答案，數值只寫阿拉伯數字（可含小數點、負號或 %）。"
)
SYSTEM_OPEN = (
    "你是一位專業的金融分析師。請使用繁體中文，完整且精確地回答問題，列出關鍵數字、日期與依據。"
    "回答最後以「答案：」開頭的一段文字總結你的結論。"
)


def render_table(table: list[list[str]] | None, header: list[str] | None = None) -> str:
    """A Markdown table; the first row is the header, unless `header` is given: then it heads the table
    and every row of `table` is a body row (a table whose first row is data, evidence_zh.prompt_header).
    Pipes inside cells are escaped."""
    if not table:
        return ""
    rows = [header, *table] if header else table
    width = max(len(row) for row in rows)

    def line(row: list[str]) -> str:
        cells = [str(c).replace("|", "\\|").replace("\n", " ") for c in row] + [""] * (width - len(row))
        return "| " + " | ".join(cells) + " |"

    out = [line(rows[0]), "| " + " | ".join(["---"] * width) + " |"]
    out.extend(line(row) for row in rows[1:])
    return "\n".join(out)


def context_block(table: list[list[str]] | None, evidence: list[str], table_unit: str | None = None,
                  header: list[str] | None = None) -> str:
    """The table (captioned with its unit when the page states it outside the table: 「表格（單位：千）：」)
    and the evidence sentences."""
    parts = []
    if table:
        caption = f"（{table_unit}）" if table_unit else ""
        parts.append(f"表格{caption}：\n" + render_table(table, header))
    if evidence:
        parts.append("相關資料：\n" + "\n".join(f"- {e}" for e in evidence))
    return "\n\n".join(parts)


def numeric_messages(question: str, table: list[list[str]] | None, evidence: list[str],
                     *, yes_no: bool = False, table_unit: str | None = None,
                     header: list[str] | None = None) -> list[dict[str, str]]:
    system = SYSTEM_NUMERIC + (SYSTEM_YES_NO_HINT if yes_no else "")
    user = context_block(table, evidence, table_unit, header) + f"\n\n問題：{question}"
    return [{"role": "system", "content": system}, {"role": "user", "content": user.strip()}]


def conversation_parts(table: list[list[str]] | None, evidence: list[str],
                       table_unit: str | None = None, header: list[str] | None = None) -> tuple[str, str]:
    """(system, first_user_prefix) for a ConvFinQA record; the runner appends each turn's question."""
    system = SYSTEM_NUMERIC + SYSTEM_YES_NO_HINT + "這是一段多輪對話，後面的問題可能承接前面的問題。"
    prefix = context_block(table, evidence, table_unit, header) + "\n\n問題："
    return system, prefix


def conversation_messages(system: str, first_user_prefix: str, questions: list[str],
                          history_answers: list[str]) -> list[dict[str, str]]:
    """The prompt for turn k = len(questions) - 1, with the assistant turns holding `history_answers`
    (the gold answers in the paper setting, or the model's own)."""
    if len(history_answers) != len(questions) - 1:
        raise ValueError("need exactly one history answer per earlier turn")
    msgs = [{"role": "system", "content": system},
            {"role": "user", "content": first_user_prefix + questions[0]}]
    for answer, question in zip(history_answers, questions[1:]):
        msgs.append({"role": "assistant", "content": answer})
        msgs.append({"role": "user", "content": question})
    return msgs


def gold_history_answer(answer: str) -> str:
    """How a gold answer stands in the history of a ConvFinQA conversation."""
    return f"答案：{answer}"


def finchain_messages(question: str, answer_type: str) -> list[dict[str, str]]:
    system = SYSTEM_COT_NUMERIC if answer_type == "numeric" else SYSTEM_CATEGORICAL
    return [{"role": "system", "content": system}, {"role": "user", "content": question}]


def open_messages(question: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": SYSTEM_OPEN}, {"role": "user", "content": question}]


# FinLLM450: Taiwan regulation and banking practice (multiple choice, short answer, case study)
SYSTEM_MCQ = (
    "你是一位熟悉台灣金融法規與銀行實務的專業人員。請閱讀題目與選項，使用繁體中文簡要說明理由後作答。"
    "最後一行務必以「答案：<選項>」的格式寫出答案，例如「{one}」；複選題請寫出所有正確選項，"
    "以頓號分隔，例如「{many}」。"
)
MCQ_EXAMPLES = {"letter": ("答案：B", "答案：A、C"), "number": ("答案：2", "答案：1、3")}
MULTI_NOTE = "（本題為複選題，請選出所有正確的選項。）"
SYSTEM_SHORT = (
    "你是一位熟悉台灣金融法規與銀行實務的專業人員。請使用繁體中文作答，說明判斷依據（相關法規、計算過程或"
    "實務考量），最後以「答案：」開頭的一段文字寫出你的結論。"
)
SYSTEM_CASE = (
    "你是一位熟悉台灣金融法規與銀行實務的專業人員。請使用繁體中文分析下列案例：先整理關鍵事實，再逐項說明"
    "判斷依據（相關法規、計算過程或實務考量），最後以「答案：」開頭的一段文字寫出你的結論與建議。"
)


def mcq_messages(question: str, option_format: str, multi: bool) -> list[dict[str, str]]:
    one, many = MCQ_EXAMPLES[option_format]
    user = question + ("\n\n" + MULTI_NOTE if multi and "複選" not in question else "")
    return [{"role": "system", "content": SYSTEM_MCQ.format(one=one, many=many)}, {"role": "user", "content": user}]


# the system prompt of a judged expert question, by its task type (any other: the short-answer one)
EXPERT_SYSTEMS = {"case_study": SYSTEM_CASE, "short_answer": SYSTEM_SHORT}


def expert_messages(question: str, task_type: str) -> list[dict[str, str]]:
    system = EXPERT_SYSTEMS.get(task_type, SYSTEM_SHORT)
    return [{"role": "system", "content": system}, {"role": "user", "content": question}]
