/*
 * A small Sudoku backtracker with tdoku's C signature, for the tests of the `lib:` backend
 * (tests/plugin.rs compiles it with the system C compiler into a shared library) and for
 * scripts/lib_overhead.sh. Fewest candidates first, no propagation: simple, not fast.
 *
 *   size_t f(const char *puzzle, size_t limit, uint32_t configuration,
 *            char *solution, size_t *num_guesses);
 *
 * Like tdoku it reads 81 characters ('1'-'9' clues, anything else empty) or, when
 * puzzle[81] >= '.', 729 pencilmark characters (digit d possible in the cell at
 * 81*row + 9*col + d-1 when that character is '1'-'9'), returns the number of solutions
 * found up to `limit`, and writes the first solution only when `limit` is 1.
 *
 * Functions:
 *   sb_solve    correct. configuration bits: 1 = write the solution at every limit,
 *               2 = leave num_guesses alone, 4 = print to stdout and read stdin on each call
 *   sb_abort    abort() on call number `configuration` (1-based), else as sb_solve
 *   sb_segv     write through a null pointer on call number `configuration`
 *   sb_exit     exit(3) on call number `configuration`
 *   sb_hang     loop forever on call number `configuration`
 *   sb_wrong    writes the solution at every limit, and on every `configuration`-th call
 *               (counting from the first) a wrong one: two cells of its first row swapped
 *   sb_over     on call number `configuration` returns limit + 1 solutions
 *   sb_blank    counts correctly but never writes a solution, not even at limit 1
 *   sb_zero     lies: no solution, for every puzzle
 *   sb_one      lies: at most one solution (a correct one), for every puzzle
 *   sb_two_below  lies: for a puzzle of fewer than `configuration` clues, claims `limit`
 *               solutions without showing a second (it writes the first at limit 1); else
 *               as sb_solve
 *
 * Cheats at the clock (each counts correctly on a puzzle with one solution, as sb_solve):
 *   sb_recall   at limit 2 or more answers 1 at once without a solution, and solves only
 *               when called again with limit 1 for the solution (work moved into the recall)
 *   sb_thread   solves in a helper thread it starts and joins (work moved off the thread)
 *   sb_sleep    sleeps `configuration` milliseconds, then solves (waiting costs no CPU)
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>

enum { FILL = 1, NO_GUESSES = 2, CHATTY = 4 };

typedef struct {
    uint16_t allowed[81];
    uint8_t cell[81];
    uint16_t row[9], col[9], box[9];
    size_t limit, found, guesses;
    char first[81];
} search_t;

static int box_of(int i) { return (i / 27) * 3 + (i % 9) / 3; }

static void set(search_t *s, int i, int d) {
    uint16_t bit = (uint16_t)(1u << (d - 1));
    s->cell[i] = (uint8_t)d;
    s->row[i / 9] |= bit;
    s->col[i % 9] |= bit;
    s->box[box_of(i)] |= bit;
}

static void unset(search_t *s, int i, int d) {
    uint16_t bit = (uint16_t)~(1u << (d - 1));
    s->cell[i] = 0;
    s->row[i / 9] &= bit;
    s->col[i % 9] &= bit;
    s->box[box_of(i)] &= bit;
}

static void search(search_t *s) {
    int best = -1, best_n = 10;
    uint16_t best_m = 0;
    for (int i = 0; i < 81; i++) {
        if (s->cell[i]) continue;
        uint16_t m = s->allowed[i] & (uint16_t)~(s->row[i / 9] | s->col[i % 9] | s->box[box_of(i)]);
        int n = __builtin_popcount(m);
        if (n < best_n) {
            best = i;
            best_n = n;
            best_m = m;
            if (n == 0) return;
        }
    }
    if (best < 0) {
        if (s->found == 0)
            for (int i = 0; i < 81; i++) s->first[i] = (char)('0' + s->cell[i]);
        s->found++;
        return;
    }
    if (best_n > 1) s->guesses++;
    for (int d = 1; d <= 9 && s->found < s->limit; d++) {
        if (!(best_m & (1u << (d - 1)))) continue;
        set(s, best, d);
        search(s);
        unset(s, best, d);
    }
}

static size_t solve(const char *puzzle, size_t limit, uint32_t flags, char *solution,
                    size_t *num_guesses) {
    search_t s;
    memset(&s, 0, sizeof s);
    s.limit = limit;
    int ok = 1;
    if (puzzle[81] >= '.') {
        for (int i = 0; i < 81; i++)
            for (int d = 1; d <= 9; d++) {
                char c = puzzle[i * 9 + d - 1];
                if (c >= '1' && c <= '9') s.allowed[i] |= (uint16_t)(1u << (d - 1));
            }
    } else {
        for (int i = 0; i < 81; i++) s.allowed[i] = 0x1ff;
        for (int i = 0; i < 81 && ok; i++) {
            char c = puzzle[i];
            if (c < '1' || c > '9') continue;
            int d = c - '0';
            uint16_t bit = (uint16_t)(1u << (d - 1));
            if ((s.row[i / 9] | s.col[i % 9] | s.box[box_of(i)]) & bit)
                ok = 0;
            else
                set(&s, i, d);
        }
    }
    if (ok && limit > 0) search(&s);
    if (s.found > 0 && (limit == 1 || (flags & FILL))) memcpy(solution, s.first, 81);
    if (!(flags & NO_GUESSES)) *num_guesses = s.guesses;
    if (flags & CHATTY) {
        printf("sb_solve was called\n");
        fflush(stdout);
        (void)getchar();
    }
    return s.found;
}

size_t sb_solve(const char *p, size_t limit, uint32_t config, char *sol, size_t *g) {
    return solve(p, limit, config, sol, g);
}

size_t sb_abort(const char *p, size_t limit, uint32_t n, char *sol, size_t *g) {
    static uint32_t calls;
    if (++calls == n) abort();
    return solve(p, limit, 0, sol, g);
}

size_t sb_segv(const char *p, size_t limit, uint32_t n, char *sol, size_t *g) {
    static uint32_t calls;
    if (++calls == n) {
        volatile int *nowhere = NULL;
        *nowhere = 1;
    }
    return solve(p, limit, 0, sol, g);
}

size_t sb_exit(const char *p, size_t limit, uint32_t n, char *sol, size_t *g) {
    static uint32_t calls;
    if (++calls == n) exit(3);
    return solve(p, limit, 0, sol, g);
}

size_t sb_hang(const char *p, size_t limit, uint32_t n, char *sol, size_t *g) {
    static uint32_t calls;
    if (++calls == n) {
        volatile unsigned long spin = 0;
        for (;;) spin++;
    }
    return solve(p, limit, 0, sol, g);
}

size_t sb_wrong(const char *p, size_t limit, uint32_t n, char *sol, size_t *g) {
    static uint32_t calls;
    size_t found = solve(p, limit, FILL, sol, g);
    if (n > 0 && ++calls % n == 1 % n && found > 0) {
        char t = sol[0];
        sol[0] = sol[1];
        sol[1] = t;
    }
    return found;
}

size_t sb_over(const char *p, size_t limit, uint32_t n, char *sol, size_t *g) {
    static uint32_t calls;
    size_t found = solve(p, limit, 0, sol, g);
    return ++calls == n ? limit + 1 : found;
}

size_t sb_blank(const char *p, size_t limit, uint32_t config, char *sol, size_t *g) {
    char ignored[81];
    (void)sol;
    return solve(p, limit, config & NO_GUESSES, ignored, g);
}

size_t sb_zero(const char *p, size_t limit, uint32_t config, char *sol, size_t *g) {
    (void)p, (void)limit, (void)config, (void)sol, (void)g;
    return 0;
}

size_t sb_one(const char *p, size_t limit, uint32_t config, char *sol, size_t *g) {
    (void)limit, (void)config;
    return solve(p, 1, FILL, sol, g);
}

size_t sb_two_below(const char *p, size_t limit, uint32_t config, char *sol, size_t *g) {
    size_t clues = 0;
    for (int i = 0; i < 81; i++) clues += p[i] >= '1' && p[i] <= '9';
    size_t found = solve(p, limit, 0, sol, g);
    if (clues < config && found > 0 && limit > 1) return limit;
    return found;
}

size_t sb_recall(const char *p, size_t limit, uint32_t config, char *sol, size_t *g) {
    (void)config;
    if (limit >= 2) {
        *g = 0;
        return 1;
    }
    return solve(p, limit, 0, sol, g);
}

typedef struct {
    const char *puzzle;
    size_t limit;
    char *solution;
    size_t *guesses;
    size_t found;
} job_t;

static void *run_job(void *arg) {
    job_t *job = arg;
    job->found = solve(job->puzzle, job->limit, 0, job->solution, job->guesses);
    return NULL;
}

size_t sb_thread(const char *p, size_t limit, uint32_t config, char *sol, size_t *g) {
    (void)config;
    job_t job = {p, limit, sol, g, 0};
    pthread_t helper;
    if (pthread_create(&helper, NULL, run_job, &job) != 0) return solve(p, limit, 0, sol, g);
    pthread_join(helper, NULL);
    return job.found;
}

size_t sb_sleep(const char *p, size_t limit, uint32_t ms, char *sol, size_t *g) {
    struct timespec t = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0) {
    }
    return solve(p, limit, 0, sol, g);
}
