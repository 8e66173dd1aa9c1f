"""``python -m bleu_classroom``: the course tools' command line."""

from .command import main

raise SystemExit(main())
