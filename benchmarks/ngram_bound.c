/* A compiled-speed bound for BLEU's statistics: the clipped matches, n-gram
 * totals and closest reference lengths of a corpus of token ids, counted in C.
 *
 *     cc -O2 -o ngram_bound benchmarks/ngram_bound.c
 *     ./ngram_bound CORPUS.bin MAX_N REPEATS
 *
 * CORPUS.bin holds little-endian int32s: for each segment, the hypothesis
 * length and its ids, the number of references, then each reference's length
 * and ids (benchmarks/bench_sentence_bleu.py writes it). Clipping compares
 * n-grams position by position, which is as fast as anything for sentences of
 * tens of tokens. It prints the summed statistics, which the benchmark checks
 * against bleu_scratch's, and the best time of REPEATS runs, in seconds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int same(const int32_t *a, const int32_t *b, int n) {
    for (int k = 0; k < n; k++)
        if (a[k] != b[k]) return 0;
    return 1;
}

/* How often the n-gram at g occurs in the len tokens of t. */
static long count(const int32_t *g, int n, const int32_t *t, int len) {
    long c = 0;
    for (int j = 0; j + n <= len; j++) c += same(g, t + j, n);
    return c;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s CORPUS.bin MAX_N REPEATS\n", argv[0]);
        return 2;
    }
    FILE *file = fopen(argv[1], "rb");
    if (!file) { perror(argv[1]); return 2; }
    fseek(file, 0, SEEK_END);
    long bytes = ftell(file);
    fseek(file, 0, SEEK_SET);
    int32_t *data = malloc(bytes);
    if (!data || fread(data, 1, bytes, file) != (size_t)bytes) { fprintf(stderr, "cannot read %s\n", argv[1]); return 2; }
    fclose(file);
    long words = bytes / 4;
    int max_n = atoi(argv[2]), repeats = atoi(argv[3]);
    long matches[16] = {0}, totals[16] = {0}, hyp_len = 0, ref_len = 0;
    double best = 1e30;
    for (int r = 0; r < repeats; r++) {
        struct timespec start, end;
        clock_gettime(CLOCK_MONOTONIC, &start);
        memset(matches, 0, sizeof matches);
        memset(totals, 0, sizeof totals);
        hyp_len = ref_len = 0;
        for (long at = 0; at < words;) {
            int h = data[at++];
            const int32_t *hyp = data + at;
            at += h;
            int refs = data[at++];
            const int32_t *ref[64];
            int lens[64];
            int closest = -1;
            for (int k = 0; k < refs; k++) {
                lens[k] = data[at++];
                ref[k] = data + at;
                at += lens[k];
                int d = abs(lens[k] - h), c = closest < 0 ? 1 << 30 : abs(closest - h);
                if (closest < 0 || d < c || (d == c && lens[k] < closest)) closest = lens[k];
            }
            hyp_len += h;
            ref_len += closest;
            for (int n = 1; n <= max_n; n++) {
                if (h >= n) totals[n - 1] += h - n + 1;
                for (int i = 0; i + n <= h; i++) {
                    int earlier = 0;
                    for (int j = 0; j < i && !earlier; j++) earlier = same(hyp + i, hyp + j, n);
                    if (earlier) continue; /* each distinct n-gram once */
                    long in_hyp = count(hyp + i, n, hyp, h), most = 0;
                    for (int k = 0; k < refs; k++) {
                        long c = count(hyp + i, n, ref[k], lens[k]);
                        if (c > most) most = c;
                    }
                    matches[n - 1] += in_hyp < most ? in_hyp : most;
                }
            }
        }
        clock_gettime(CLOCK_MONOTONIC, &end);
        double seconds = (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
        if (seconds < best) best = seconds;
    }
    printf("%ld %ld", hyp_len, ref_len);
    for (int n = 0; n < max_n; n++) printf(" %ld %ld", matches[n], totals[n]);
    printf("\n%.6f\n", best);
    free(data);
    return 0;
}
