// The least a job's start and end can cost while each of its nodes is written once at each:
// the allocator writes the job's node list, the start sets each node's owner (4 bytes) and state
// (1 byte), the end sets them back. These are the engine's per-node arrays with nothing else
// (no checks, no free set, no event queue), as contiguous fills the compiler turns into memset
// and vector stores: a floor under any design that keeps a list, an owner and a state per node.
// Compare its jobs per CPU second with bench_scaling's at the same mean job size: the ratio
// between two machine sizes cannot exceed the floor's at the larger size over the measured speed
// at the smaller one.
// Usage: bench_node_floor [NODES WIDTH [JOBS]]   (default: 128 nodes x 13 and 100,000 x 6,494,
//        bench_scaling's mean job sizes there; JOBS default 200,000 / WIDTH, at least 2,000)
// Prints one line per machine: microseconds per job (median of 5 runs of CPU time) and the jobs
// per CPU second that allows. Not a test.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "bench_support.hpp"

namespace {

double floor_us_per_job(int nodes, int width, int jobs) {
  std::vector<std::int32_t> owner(static_cast<std::size_t>(nodes), -1);
  std::vector<std::int32_t> list(static_cast<std::size_t>(width));
  std::vector<std::uint8_t> state(static_cast<std::size_t>(nodes), 0);
  std::uint64_t sink = 0;
  std::vector<double> us;
  for (int rep = 0; rep < 5; ++rep) {
    const double c0 = faultsweep::bench::thread_cpu_s();
    for (int j = 0; j < jobs; ++j) {
      // Jobs move over the machine, as first fit's lowest free ids do when others hold nodes.
      const int a = static_cast<int>((static_cast<std::int64_t>(j) * 7919) % (nodes - width + 1));
      std::iota(list.begin(), list.end(), a);
      const auto o = owner.begin() + a;
      const auto s = state.begin() + a;
      std::fill(o, o + width, j);
      std::fill(s, s + width, std::uint8_t{1});
      sink += static_cast<std::uint64_t>(list[static_cast<std::size_t>(j % width)] + o[0] + s[0]);
      std::fill(o, o + width, -1);
      std::fill(s, s + width, std::uint8_t{0});
    }
    us.push_back((faultsweep::bench::thread_cpu_s() - c0) * 1e6 / jobs);
  }
  std::sort(us.begin(), us.end());
  if (sink == 42) std::puts("");  // keeps the loop's work observable
  return us[2];
}

void report(int nodes, int width, int jobs) {
  if (jobs <= 0) jobs = std::max(2000, 200000 / width);
  const double us = floor_us_per_job(nodes, width, jobs);
  std::printf(
      "%d nodes, jobs of %d nodes: %.3f us per job (%.3f ns per node of the job), at most %.0f "
      "jobs per CPU s (median of 5 runs of %d jobs)\n",
      nodes, width, us, us * 1e3 / width, 1e6 / us, jobs);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 1) {
    report(128, 13, 0);
    report(100000, 6494, 0);
    return 0;
  }
  if (argc < 3) {
    std::fprintf(stderr, "usage: bench_node_floor [NODES WIDTH [JOBS]]\n");
    return 2;
  }
  const int nodes = std::atoi(argv[1]), width = std::atoi(argv[2]);
  const int jobs = argc > 3 ? std::atoi(argv[3]) : 0;
  if (nodes < 1 || width < 1 || width > nodes || jobs < 0) {
    std::fprintf(stderr, "bench_node_floor: need 1 <= WIDTH <= NODES and JOBS >= 0\n");
    return 2;
  }
  report(nodes, width, jobs);
  return 0;
}
