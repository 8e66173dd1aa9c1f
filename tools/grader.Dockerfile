# The grader in a container: what the operating system, not Python's audit hooks, keeps apart.
# Build from the repository's root:  docker build -t bleu-grader -f tools/grader.Dockerfile .
# Grade one submission, mounted read-only, with no network and nothing else mounted:
#   docker run --rm --network none --memory 2g -v "$PWD/submissions/alice:/submission:ro" bleu-grader /submission --json
FROM python:3.11-slim
WORKDIR /course
COPY . /course
RUN pip install --no-cache-dir -r requirements.txt
# The grader needs no rights: it writes only its scratch folders under /tmp.
USER nobody
ENTRYPOINT ["python", "-m", "bleu_classroom", "grade"]
