import sys

from tw_fin_eval.cli import main

sys.exit(main())
