import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


@pytest.fixture(scope="session")
def sources_root() -> Path:
    from tw_fin_eval.paths import sources_dir

    return sources_dir(os.environ.get("TW_FIN_EVAL_SOURCES"))
