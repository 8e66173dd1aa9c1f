# The grader's image: bleu_classroom, its pinned libraries (numpy, NLTK 3.10.4, nbgrader) and bubblewrap.
# No lesson, notebook or solution: its build context is made by tools/grader_image.py, which copies only
# bleu_classroom/ and writes requirements.txt (docs/grader.md: The grader in a container).
#
#   python tools/grader_image.py CONTEXT && docker build -t bleu-grader CONTEXT
#   docker run --rm --privileged -v bleu-grader-cache:/root/.cache -v "$PWD/submissions:/submissions:ro" \
#       bleu-grader grade /submissions/ada
#
# bubblewrap makes namespaces inside the container: it needs --privileged (or user namespaces allowed).
# The volume on /root/.cache keeps the grader's seed and results from one run to the next.
FROM python:3.11-slim-bookworm
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap && rm -rf /var/lib/apt/lists/*
COPY requirements.txt /opt/grader/requirements.txt
RUN python -m venv /opt/grader/venv && /opt/grader/venv/bin/pip install --no-cache-dir -r /opt/grader/requirements.txt
COPY bleu_classroom /opt/grader/bleu_classroom
ENV PYTHONPATH=/opt/grader
WORKDIR /tmp
ENTRYPOINT ["/opt/grader/venv/bin/python", "-P", "-m", "bleu_classroom"]
