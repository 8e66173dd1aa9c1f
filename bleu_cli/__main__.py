"""``python -m bleu_cli HYP REF [REF ...]``: the bleu-scratch command."""

from .main import main

raise SystemExit(main())
