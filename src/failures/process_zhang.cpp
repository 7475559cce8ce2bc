// process = "zhang": Zhang et al. §3.2, system-wide Weibull inter-failure times reordered in
// windows of W (temporal correlation) at Zipf-ranked nodes (failures/zhang.hpp).
#include <cmath>
#include <initializer_list>
#include <string>

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"
#include "faultsweep/failures/process_registry.hpp"

namespace faultsweep::failures {
namespace {

std::vector<ParamSpec> zhang_keys() {
  ParamSpec w = make_param("W", ParamKind::integer, "", Value(std::int64_t{2}),
                           "window of the temporal correlation (2 = none)", {}, 1.0);
  w.max = 1 << 24;
  std::vector<ParamSpec> k = {
      make_param("shape", ParamKind::real, "", std::nullopt,
                 "Weibull shape of the system-wide inter-failure times (> 0)", {}, 0.0),
      make_param("scale", ParamKind::duration, "s", std::nullopt,
                 "Weibull scale of the system-wide inter-failure times (> 0)", {}, 0.0),
      w,
      make_param("alpha", ParamKind::real, "", Value(0.0),
                 "Zipf skew of the failing node's rank (0 = uniform)", {}, 0.0),
  };
  for (ParamSpec& d : downtime_specs()) k.push_back(std::move(d));
  return k;
}

void parse_zhang(const TableReader& r, const Params&, int, FailureSpec& s) {
  s.zhang.shape = r.required_positive("shape");
  s.zhang.scale_s = r.required_positive("scale");
  const std::int64_t w = r.integer("W").value_or(2);
  if (w < 1 || w > (1 << 24)) throw InputError("W", r.text("W"), "must be in 1 .. 16777216");
  s.zhang.window = static_cast<std::int32_t>(w);
  s.zhang.alpha = r.number("alpha").value_or(0.0);
  if (!(s.zhang.alpha >= 0)) throw InputError("alpha", r.text("alpha"), "must be >= 0");
  s.zhang.downtime = parse_downtime(r);
}

// Each stream is keyed by the keys that shape its own draws, so the paper's one-factor-at-a-time
// comparisons are paired: the same shape and scale give the same inter-failure draws for every
// W (W only reorders them), every alpha and every downtime; the same alpha gives the same ranks.
std::unique_ptr<FailureSource> make_zhang(const FailureSpec& s, const Params& table, int nodes,
                                          double horizon_s, const RunContext& ctx) {
  auto keyed = [&](std::initializer_list<const char*> keys, bool with_nodes) {
    std::string text = "process=\"zhang\"\n";
    for (const char* k : keys)
      if (table.has(k)) text += fmt::format("{}={}\n", k, canonical_value(table.at(k)));
    if (with_nodes) text += fmt::format("nodes={}\n", nodes);
    return text;
  };
  return std::make_unique<ZhangSource>(
      nodes, s.zhang, ctx.stream(Purpose::failures, keyed({"shape", "scale"}, false)),
      ctx.stream(Purpose::locations, keyed({"alpha"}, true)),
      ctx.stream(Purpose::downtimes, keyed({"downtime", "downtime_dist", "downtime_sigma"}, false)),
      horizon_s);
}

// Zhang §3.2: system-wide inter-failure times ~ Weibull(shape, scale), so one node's mean time
// between failures is nodes x the system's mean.
double zhang_mtbf_s(const Params& table, int nodes) {
  const double shape = table.real("shape"), scale = table.real("scale");
  return nodes * scale * std::tgamma(1.0 + 1.0 / shape);
}

}  // namespace

ProcessRow zhang_process() {
  ProcessRow r{"zhang",
               "Zhang §3.2: system-wide Weibull inter-failure times, correlated in windows of W, "
               "at Zipf(alpha)-ranked nodes (failures/zhang.hpp)"};
  r.keys = zhang_keys;
  r.parse = parse_zhang;
  r.make = make_zhang;
  r.node_mtbf_s = zhang_mtbf_s;
  return r;
}

}  // namespace faultsweep::failures
