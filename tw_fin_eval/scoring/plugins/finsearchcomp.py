"""FinSearchComp's judge protocol for `open_judge` records (tw_fin_eval/scoring/finsearchcomp.py), loaded by
default so `tw-fin-eval score --data data/*.jsonl` judges them with each row's own judge prompt."""

from tw_fin_eval.scoring import finsearchcomp  # noqa: F401  (registers on import)
