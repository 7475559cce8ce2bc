// best_point FILE METRIC: reads a faultsweep results file through the library and prints the
// point whose mean of METRIC over its replicas is largest, with its 95 % CI and axis values.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "faultsweep/sweep/stats.hpp"
#include "faultsweep/sweep/store.hpp"

namespace sw = faultsweep::sweep;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: best_point FILE METRIC\n");
    return 2;
  }
  try {
    const sw::StoredResults r = sw::read_results(argv[1]);
    std::size_t m = 0;
    while (m < r.metrics.size() && r.metrics[m] != argv[2]) ++m;
    if (m == r.metrics.size()) {
      std::fprintf(stderr, "best_point: %s has no metric %s\n", argv[1], argv[2]);
      return 2;
    }
    const auto& t = r.table;
    std::size_t best = 0;
    sw::Summary best_s;
    for (std::size_t p = 0; p < t.points; ++p) {
      const std::size_t first = p * t.replicas_max;
      const sw::Summary s =
          sw::summarize(&t.values[m * t.tasks() + first], &t.done[first], t.replicas_max, false);
      if (p == 0 || s.mean > best_s.mean) best = p, best_s = s;
    }
    std::printf("%s: model %s, %zu points; best %s = %.6g %s [%.6g, %.6g] at point %zu\n", argv[1],
                r.model.c_str(), t.points, argv[2], best_s.mean, r.units[m].c_str(), best_s.ci95_lo,
                best_s.ci95_hi, best);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "best_point: %s\n", e.what());
    return 1;
  }
  return 0;
}
