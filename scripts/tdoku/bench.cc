// Times tdoku's solver (TdokuSolverDpllTriadSimd) counting to 2 over a file of 81-character
// puzzles, best of ROUNDS rounds by thread CPU time, as examples/logic_rates.rs times
// sudobench's backends. Built against a tdoku checkout by scripts/tdoku_ratio.sh; not part of
// the sudobench build.
//
// usage: bench PUZZLES.txt [ROUNDS]
#include "tdoku.h"
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>
#include <fstream>
static double cpu() { timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(int argc, char **argv) {
  std::ifstream in(argv[1]); int rounds = argc > 2 ? atoi(argv[2]) : 3;
  std::vector<std::string> ps; std::string line;
  while (std::getline(in, line)) { if (line.size() >= 81 && line[0] != '#') ps.push_back(line.substr(0, 81)); }
  double best = 1e9; size_t guesses_total = 0;
  for (int r = 0; r < rounds; r++) {
    int reps = 0; double t0 = cpu(), t;
    do {
      reps++; guesses_total = 0;
      for (auto &p : ps) {
        char sol[82] = {0}; size_t g = 0;
        size_t n = TdokuSolverDpllTriadSimd(p.c_str(), 2, 0, sol, &g);
        guesses_total += g;
        if (n != 1) { fprintf(stderr, "count %zu on %s\n", n, p.c_str()); return 1; }
      }
      t = cpu() - t0;
    } while (t < 0.3);
    if (t / reps < best) best = t / reps;
  }
  printf("tdoku %zu puzzles: %.0f puzzles/s (CPU), %.2f us/puzzle, %.2f guesses/puzzle\n",
         ps.size(), ps.size() / best, best * 1e6 / ps.size(), (double)guesses_total / ps.size());
}
