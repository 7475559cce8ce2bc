// The cluster model's waste metrics by job category (Gottumukkala Ch. 5 and §6.4.5;
// definitions in sim/waste.hpp), appended after the metric table's other rows.
#include <array>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "cluster_metrics.hpp"

namespace faultsweep::models {

namespace {

using Bins = std::array<double, sim::kWasteBins> sim::WasteBreakdown::*;

constexpr std::array<const char*, sim::kWasteBins> kLengths = {"A", "B", "C", "D", "E", "F"};
constexpr std::array<const char*, sim::kWasteBins> kSizes = {"le32",  "le64",  "le128",
                                                             "le256", "le512", "gt512"};
constexpr auto kSeq = std::make_index_sequence<sim::kWasteBins>{};
constexpr const char* kLengthNote =
    " (run length at the requested size: A < 1 min, B < 1 h, C < 6 h, D < 12 h, E < 24 h, F "
    ">= 1 day; Gottumukkala Fig. 5.3)";

template <Bins B, int I>
double bin(const sim::Metrics& m) {
  return (m.waste.*B)[I];
}

template <Bins B, std::size_t... I>
void add_bins(std::vector<ClusterMetric>& t, const char* name, const char* unit,
              const std::array<const char*, sim::kWasteBins>& labels, const std::string& what,
              std::index_sequence<I...>) {
  const bool by_length = labels[0] == kLengths[0];
  (t.push_back({{fmt::format("{}_{}", name, labels[I]), unit,
                 fmt::format(fmt::runtime(what), labels[I]) + (by_length ? kLengthNote : "")},
                &bin<B, static_cast<int>(I)>}),
   ...);
}

}  // namespace

void append_waste_metrics(std::vector<ClusterMetric>& t) {
  using W = sim::WasteBreakdown;
  t.push_back({{"waste_total_h", "h",
                "total waste time (Gottumukkala §5.2.3): rolled-back execution + suspended time, "
                "summed over completed jobs"},
               [](const sim::Metrics& m) { return m.waste.total_h; }});
  add_bins<&W::length_waste_h>(t, "waste_h", "h", kLengths,
                               "total waste time of the completed jobs of category {}", kSeq);
  add_bins<&W::length_pmwt>(t, "pmwt", "%", kLengths,
                            "%MWT of category {}: 100 x total waste / total run length", kSeq);
  add_bins<&W::length_jobs>(t, "jobs", "1", kLengths, "completed jobs of category {}", kSeq);
  add_bins<&W::size_waste_h>(t, "waste_h_size", "h", kSizes,
                             "total waste time of the completed jobs of requested size {}", kSeq);
  add_bins<&W::size_pmwt>(t, "pmwt_size", "%", kSizes,
                          "%MWT of requested size {}: 100 x total waste / total run length", kSeq);
  t.push_back(
      {{"act_s", "s", "ACT (§6.4.5): total completion time (completion - first start) / jobs"},
       [](const sim::Metrics& m) { return m.waste.act_s; }});
  t.push_back({{"awt_s", "s", "AWT (§6.4.5): total waste time / jobs"},
               [](const sim::Metrics& m) { return m.waste.awt_s; }});
  t.push_back({{"mct_unit", "1",
                "MCT (§6.4.5): total completion time / total unit run length (run length / "
                "requested size); the thesis's MCT, not the `mct` metric"},
               [](const sim::Metrics& m) { return m.waste.mct_norm; }});
  t.push_back({{"mwt_unit", "1",
                "MWT (§6.4.5): total waste time / total unit run length; not the `mwt` metric"},
               [](const sim::Metrics& m) { return m.waste.mwt_norm; }});
  add_bins<&W::length_act_s>(t, "act_s", "s", kLengths, "ACT of the jobs of category {}", kSeq);
  add_bins<&W::length_awt_s>(t, "awt_s", "s", kLengths, "AWT of the jobs of category {}", kSeq);
  t.push_back(
      {{"mean_job_size", "1", "nodes the completed jobs ran on, mean (RA-Opt, ALL: chosen)"},
       [](const sim::Metrics& m) { return m.waste.mean_size; }});
  add_bins<&W::size_jobs>(t, "jobs_size", "1", kSizes,
                          "completed jobs of requested size {} (Gottumukkala Fig. 5.2 a, b)", kSeq);
}

}  // namespace faultsweep::models
