"""The ``bleu-scratch`` command: NLTK's corpus BLEU of text files, in sacrebleu's format.

    bleu-scratch HYP REF [REF ...]        (or: python -m bleu_cli HYP REF ...)

One segment per line; line i of every reference file is a reference for line
i of the hypothesis file. The score is exactly NLTK's ``corpus_bleu`` of the
same tokens with the same options, printed as sacrebleu prints its scores:

    BLEU = 23.17 53.8/29.6/17.6/10.3 (BP = 1.000 ratio = 1.074 hyp_len = 1989 ref_len = 1852)

The command is one pipeline, a module a stage, built on the lessons:

- ``settings``: the options, read once into plain settings;
- ``files``: the files, read in step, line by line (bad input stops here);
- ``segments``: a segment's lines to tokens to statistics (lessons 01-05, 10);
- ``scoring``: statistics to the score (lessons 05-07);
- ``report``: the score as sacrebleu's line or JSON, and NLTK's warnings in
  the command's words;
- ``main``: the stages in order, and the exit status.

``errors`` holds what can go wrong with the input, each error with its facts,
worded in the command's terms.
"""

from .main import main

__all__ = ["main"]
