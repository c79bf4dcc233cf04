"""Plug-ins: benchmarks that bring their own judge protocol (FinSearchComp) or task scorer.

A plug-in is a module that, on import, calls `tw_fin_eval.scoring.judge.register_protocol(...)` /
`register_task_protocol(task_type, name)` and, for a new task type, `tw_fin_eval.scoring.scorers.register(...)`
(a `scorers.JudgedScorer(task_type, required_fields)` is enough for judge-only items). Plug-ins are found in
two places, both imported once before scoring:
- every module in this folder (`tw_fin_eval/scoring/plugins/<name>.py`);
- the modules named in $TW_FIN_EVAL_PLUGINS (comma-separated import paths).
A plug-in that fails to import stops the run with the error (a silently missing judge would turn every
judged item into `pending`).
"""

from __future__ import annotations

import importlib
import os
import pkgutil

ENV = "TW_FIN_EVAL_PLUGINS"
_loaded: set[str] = set()


def load_plugins() -> list[str]:
    """Import every plug-in not imported yet; returns the module names imported now."""
    names = [f"{__name__}.{m.name}" for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")]
    names += [n.strip() for n in os.environ.get(ENV, "").split(",") if n.strip()]
    new = []
    for name in names:
        if name not in _loaded:
            importlib.import_module(name)
            _loaded.add(name)
            new.append(name)
    return new
