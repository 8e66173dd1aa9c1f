"""``python -m bleu_scratch HYP REF [REF ...]``: the bleu-scratch command."""

from .cli import main

raise SystemExit(main())
