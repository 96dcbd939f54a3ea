/*
 * The tight loop a `lib:` backend is measured against: loads a shared library, calls a
 * function with tdoku's C signature on every puzzle of a file, and times the loop of calls
 * with the thread CPU clock, as the worker of `sudobench bench --backends lib:...` does.
 *
 *   cc -O2 -o lib_loop scripts/lib_loop.c -ldl
 *   lib_loop LIBRARY SYMBOL FILE [ROUNDS [LIMIT [CONFIG]]]
 *
 * FILE: plain text, one puzzle per line as its first field (81 or 729 characters; '0' is
 * read as '.'); lines starting with '#' and lines whose first field has another length (a
 * CSV header) are skipped, and a CSV row's first column is taken. Defaults: 3 rounds,
 * limit 2 (uniqueness, as tdoku's benchmark and sudobench bench), configuration 0.
 * Prints the best round's rate and how many puzzles had 0, 1 and 2+ solutions.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef size_t (*solve_fn)(const char *, size_t, uint32_t, char *, size_t *);

enum { STRIDE = 752 };

static double thread_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s LIBRARY SYMBOL FILE [ROUNDS [LIMIT [CONFIG]]]\n", argv[0]);
        return 2;
    }
    int rounds = argc > 4 ? atoi(argv[4]) : 3;
    size_t limit = argc > 5 ? (size_t)strtoull(argv[5], NULL, 10) : 2;
    uint32_t config = argc > 6 ? (uint32_t)strtoul(argv[6], NULL, 10) : 0;
    void *lib = dlopen(argv[1], RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "%s\n", dlerror());
        return 1;
    }
    solve_fn solve = (solve_fn)dlsym(lib, argv[2]);
    if (!solve) {
        fprintf(stderr, "%s\n", dlerror());
        return 1;
    }
    FILE *in = fopen(argv[3], "r");
    if (!in) {
        perror(argv[3]);
        return 1;
    }
    size_t n = 0, cap = 1024;
    char *puzzles = calloc(cap, STRIDE);
    char line[65536];
    while (fgets(line, sizeof line, in)) {
        if (line[0] == '#') continue;
        size_t len = strcspn(line, " \t\r\n,");
        if (len != 81 && len != 729) continue;
        if (n == cap) {
            cap *= 2;
            puzzles = realloc(puzzles, cap * STRIDE);
        }
        char *p = puzzles + n * STRIDE;
        memset(p, 0, STRIDE);
        for (size_t i = 0; i < len; i++) p[i] = line[i] == '0' ? '.' : line[i];
        n++;
    }
    fclose(in);
    if (n == 0) {
        fprintf(stderr, "%s: no puzzles\n", argv[3]);
        return 1;
    }
    char solution[81];
    size_t guesses = 0, counts[3] = {0, 0, 0};
    double best = 0;
    for (int r = 0; r < rounds; r++) {
        size_t c[3] = {0, 0, 0};
        double start = thread_seconds();
        for (size_t i = 0; i < n; i++) {
            size_t k = solve(puzzles + i * STRIDE, limit, config, solution, &guesses);
            c[k < 2 ? k : 2]++;
        }
        double t = thread_seconds() - start;
        if (best == 0 || t < best) best = t;
        memcpy(counts, c, sizeof c);
    }
    printf("%s: %zu puzzles, best of %d: %.0f puzzles/s (%.3f us/puzzle); 0: %zu, 1: %zu, "
           "2+: %zu\n",
           argv[3], n, rounds, (double)n / best, best * 1e6 / (double)n, counts[0], counts[1],
           counts[2]);
    return 0;
}
