#pragma once
// Builders shared by the failure sources' tests: fixed streams (master seed 20240601), the first
// n events of a source, the (time, node) order every source keeps, Zhang et al.'s configuration
// at scale 18000 s, and a run context whose relative paths start at tests/data/failures.
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "faultsweep/core/params.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/dist/distribution.hpp"
#include "faultsweep/failures/trace.hpp"
#include "faultsweep/failures/zhang.hpp"
#include "faultsweep/models/model.hpp"
#include "input_support.hpp"

namespace faultsweep::testing {

inline constexpr double kDay = 86400.0;
inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr std::uint64_t kSeed = 20240601;

inline Engine stream(Purpose p, const std::string& text, std::uint64_t replica = 0) {
  return make_stream(kSeed, replica, p, text);
}

inline std::vector<failures::FailureEvent> take(failures::FailureSource& s, std::size_t n) {
  std::vector<failures::FailureEvent> out;
  for (std::size_t i = 0; i < n; ++i) {
    const failures::FailureEvent e = s.next();
    if (e.time_s == kInf) break;
    out.push_back(e);
  }
  return out;
}

// Events strictly ordered by (time, node) within the tolerance of the source contract.
inline void require_time_ordered(const std::vector<failures::FailureEvent>& ev) {
  for (std::size_t i = 1; i < ev.size(); ++i) {
    REQUIRE(ev[i - 1].time_s <= ev[i].time_s);
    if (ev[i - 1].time_s == ev[i].time_s) REQUIRE(ev[i - 1].node <= ev[i].node);
  }
}

inline failures::ZhangConfig zhang_config(double shape, int w, double alpha) {
  failures::ZhangConfig c;
  c.shape = shape;
  c.scale_s = 18000.0;
  c.window = w;
  c.alpha = alpha;
  c.downtime = dist::Dist::constant(120.0);
  return c;
}

inline failures::ZhangSource zhang_source(const failures::ZhangConfig& c, int nodes,
                                          std::uint64_t replica = 0, double horizon_s = kInf) {
  return failures::ZhangSource(nodes, c, stream(Purpose::failures, "zhang", replica),
                               stream(Purpose::locations, "zhang", replica),
                               stream(Purpose::downtimes, "zhang", replica), horizon_s);
}

inline models::RunContext context(std::uint64_t replica = 0) {
  models::RunContext ctx;
  ctx.master_seed = kSeed;
  ctx.replica = replica;
  ctx.base_dir = std::filesystem::path(FAULTSWEEP_SOURCE_DIR) / "tests" / "data" / "failures";
  return ctx;
}

// Two failures tables several tests share: per-node lognormal renewal (mean 5 d, sigma 1.2, 600 s
// exponential downtimes) and FARS's bathtub (MTBF 14 d, 1 h down).
inline Params lognormal_renewal_table() {
  return make_params({{"process", str("renewal")},
                      {"dist", str("lognormal")},
                      {"mean", 5 * kDay},
                      {"sigma", 1.2},
                      {"downtime", 600.0},
                      {"downtime_dist", str("exponential")}});
}

inline Params bathtub_table() {
  return make_params({{"process", str("bathtub")}, {"mtbf", 14 * kDay}, {"downtime", 3600.0}});
}

}  // namespace faultsweep::testing
