// libFuzzer target: `faultsweep fit --format csv` on arbitrary bytes, the reader and the whole
// analysis (per-node fits, K-S tests, systems of k, Spearman pairs) without the HDF5 output.
// Bad input must end in InputError; an analysis must hold what the output file relies on.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "faultsweep/core/error.hpp"
#include "faultsweep/failures/trace.hpp"
#include "faultsweep/reliability/fit_log.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace faultsweep;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const unsigned choice = size > 0 ? data[size - 1] : 0;  // options from the last byte
  reliability::FitLogOptions o;
  o.threads = 1;  // one process per input: no thread pool per call
  o.stop_on_bad = choice & 1;
  o.min_ttfs = 1 + static_cast<int>((choice >> 1) & 3);
  o.seed = choice >> 3;
  try {
    const failures::TraceLog log = failures::parse_trace_csv(text, "fuzz.csv", o.stop_on_bad);
    const reliability::SystemAnalysis a = reliability::analyse_trace(log, 0, o);
    std::size_t records = 0;
    for (const auto& n : a.nodes) {
      records += n.failure_times.size() + static_cast<std::size_t>(n.zero_ttfs);
      if (n.ttf.size() + 1 != n.failure_times.size() || n.node_id < 0 || n.node_id >= log.nodes ||
          !(n.censored >= 0))
        __builtin_trap();
      for (const double t : n.ttf)
        if (!(t > 0) || !std::isfinite(t)) __builtin_trap();
    }
    if (records != a.records || a.nodes_fitted > static_cast<int>(a.nodes.size())) __builtin_trap();
    for (const double r : a.spearman)
      if (!(r >= -1 - 1e-9 && r <= 1 + 1e-9)) __builtin_trap();
  } catch (const InputError&) {
  }
  return 0;
}
