"""Answer reading: where a model's answer is, what number or label it states, and whether it is right.

Standard library only, above nothing but `schema` — so the source adapters, subset specs, verification,
the FinLLM450 option parser and the scorer all read answers with the same rules:

- `vocabulary` — every word list (scale words and units, percent cues, yes/no words, direction and
  decrease words, refusal phrases, answer markers): a word is added or removed here, once;
- `numbers` — number parsing (separators, full-width, 負/(1,234), %, bps, currencies, 萬/億, English words);
- `extract` — where in an output the answer is (「答案：」, \\boxed{}, last number / line) and its number;
- `match` — when it is right (tolerance, percent questions, units, yes/no, option codes), and the gold
  display strings (`gold_display`) and acceptance (`answer_matches`) the build asks about.
"""
