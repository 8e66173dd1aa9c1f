"""``python -m bleu_cli HYP REF [REF ...]``: the bleu-scratch command."""

from . import main

# Guarded: Dask's worker processes start by importing the main module again.
if __name__ == "__main__":
    raise SystemExit(main())
