#include "faultsweep/policy/reliability_aware.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/policy/registry.hpp"

namespace faultsweep::policy {

namespace {

constexpr double kDay_s = 86400.0;
constexpr double kDefaultRefit_s = 1000 * 60.0;  // §5.3.1: every 1000 minutes

reliability::OnlineOptions online_options(const Params& p) {
  reliability::OnlineOptions o;
  o.law = reliability::online_law_from(p.has("reliability_law") ? p.str("reliability_law")
                                                                : std::string("weibull"));
  o.refit_s = p.has("refit") ? p.real("refit") : kDefaultRefit_s;
  return o;
}

bool is_reliability_allocator(const std::string& name) {
  return name == "ras" || name == "ljras" || name == "ra";
}

}  // namespace

ReliabilityAllocator::ReliabilityAllocator(ReliabilityMode mode, reliability::OnlineOptions options,
                                           double threshold_s)
    : mode_(mode), model_(options), threshold_s_(threshold_s) {
  if (!(threshold_s >= 0))
    throw InputError("ljras_threshold", format_duration(threshold_s), "a duration >= 0");
}

std::string_view ReliabilityAllocator::name() const {
  switch (mode_) {
    case ReliabilityMode::ras:
      return "ras";
    case ReliabilityMode::ljras:
      return "ljras";
    case ReliabilityMode::ra:
      break;
  }
  return "ra";
}

std::size_t best_window(std::span<const double> hazard, std::size_t k, bool most_reliable) {
  FS_CHECK(k >= 1 && k <= hazard.size(), "best_window: k out of range");
  // Gottumukkala Eq. 5.4 in logs: -log R_sys = sum of the window's -log R_i; a sliding sum.
  double sum = 0;
  for (std::size_t i = 0; i < k; ++i) sum += hazard[i];
  double best = sum;
  std::size_t at = 0;
  for (std::size_t s = 1; s + k <= hazard.size(); ++s) {
    sum += hazard[s + k - 1] - hazard[s - 1];
    if (most_reliable ? sum < best : sum > best) best = sum, at = s;
  }
  return at;
}

void ReliabilityAllocator::allocate(const AllocationContext& ctx, const NodeSet& free,
                                    std::span<std::int32_t> out) {
  FS_CHECK(static_cast<std::size_t>(free.count()) >= out.size(), "ras: not enough nodes");
  FS_CHECK(ctx.history != nullptr, "reliability-aware allocator without the node history");
  if (out.empty()) return;
  model_.update(*ctx.history, ctx.now_s);
  const std::size_t k = out.size();
  if (mode_ == ReliabilityMode::ra) return allocate_most_reliable(ctx, free, out);
  ids_.clear();
  hazard_.clear();
  model_.hazards(*ctx.history, free.words(), ctx.now_s, ctx.est_wall_s, ids_, hazard_);
  // Fig. 5.1 (RAS): max R_sys; Fig. 5.4 (LJRAS): max for jobs longer than the threshold, min
  // R_sys for the others.
  const bool most = mode_ == ReliabilityMode::ras || ctx.est_wall_s > threshold_s_;
  const std::size_t at = best_window(hazard_, k, most);
  for (std::size_t i = 0; i < k; ++i) out[i] = ids_[at + i];
}

void ReliabilityAllocator::allocate_most_reliable(const AllocationContext& ctx, const NodeSet& free,
                                                  std::span<std::int32_t> out) {
  // §6.4.1.3: the k most reliable (least -log R over the run time), ties by id.
  const std::size_t k = out.size();
  if (!(model_.refit_instant() > 0)) {
    // Nothing fitted yet: every hazard is 0, so the k lowest ids.
    int n = free.next_from(0);
    for (std::size_t i = 0; i < k; ++i, n = free.next_from(n + 1)) out[i] = n;
    return;
  }
  order_nodes_.sync(model_, ctx.history->nodes());
  order_nodes_.least(model_, *ctx.history, free, ctx.now_s, ctx.est_wall_s, k, order_);
  for (std::size_t i = 0; i < k; ++i) out[i] = order_[i].second;
}

std::unique_ptr<Allocator> make_reliability_allocator(ReliabilityMode mode, const Params& p) {
  const double threshold = p.has("ljras_threshold") ? p.real("ljras_threshold") : kDay_s;
  return std::make_unique<ReliabilityAllocator>(mode, online_options(p), threshold);
}

std::unique_ptr<SizeChooser> make_ra_opt(const Params& p) {
  // RA-Opt's E[T_c(k)] needs the run time on k nodes: the workload's speedup law, stated.
  if (!p.has("workload.speedup"))
    throw InputError("workload.speedup", "(missing)",
                     "a speedup model with moldable_size = \"ra_opt\" (Eq. 6.1 needs T_c(k)): "
                     "speedup = \"amdahl\" or \"gustafson\" with serial_fraction, or "
                     "\"linear\"");
  const double recovery = p.has("ra_opt_recovery") ? p.real("ra_opt_recovery") : 0.0;
  if (!(recovery >= 0))
    throw InputError("ra_opt_recovery", format_duration(recovery), "a duration >= 0");
  return std::make_unique<RaOptSize>(online_options(p), recovery);
}

std::vector<ParamSpec> reliability_param_specs() {
  std::vector<ParamSpec> s(4);
  s[0].name = "reliability_law";
  s[0].kind = ParamKind::string;
  s[0].default_value = Value(std::string("weibull"));
  s[0].choices = {"exponential", "weibull"};
  s[0].help =
      "allocator ras / ljras / ra, moldable_size ra_opt: node reliability law fitted online "
      "(Gottumukkala Eq. 5.2 weibull excess life, Eq. 5.3 exponential; reliability/online.hpp)";
  s[1].name = "refit";
  s[1].kind = ParamKind::duration;
  s[1].unit = "s";
  s[1].default_value = Value(kDefaultRefit_s);
  s[1].help = "period of the per-node MLE refits (§5.3.1: 1000 min); > 0";
  s[2].name = "ljras_threshold";
  s[2].kind = ParamKind::duration;
  s[2].unit = "s";
  s[2].default_value = Value(kDay_s);
  s[2].help = "allocator ljras: jobs longer get the most reliable nodes (Fig. 5.4: 1 day); >= 0";
  s[3].name = "ra_opt_recovery";
  s[3].kind = ParamKind::duration;
  s[3].unit = "s";
  s[3].default_value = Value(0.0);
  s[3].help = "moldable_size ra_opt: recovery time R of Eq. 6.1; >= 0";
  return s;
}

bool uses_reliability_model(const Params& p) {
  const bool reliability_allocator =
      p.has("allocator") && is_reliability_allocator(p.str("allocator"));
  return reliability_allocator || (p.has("moldable_size") && p.str("moldable_size") == "ra_opt");
}

void validate_reliability(const Params& p) {
  if (!uses_reliability_model(p)) return;
  const std::string size = p.has("moldable_size") ? p.str("moldable_size") : "";  // "": Python
  (void)online_options(p);                                                        // reliability_law
  const double refit = p.real("refit");
  if (!(refit > 0 && std::isfinite(refit)))
    throw InputError("refit", format_duration(refit), "a duration > 0");
  if (p.has("allocator")) (void)make_point_allocator(p);  // else a Python class
  if (size == "ra_opt") {
    (void)make_point_size_chooser(p);
    if (!(p.has("workload.moldable") && p.real("workload.moldable") > 0))
      throw InputError(
          "workload.moldable",
          p.has("workload.moldable") ? fmt::format("{}", p.real("workload.moldable")) : "(missing)",
          "a fraction > 0 with moldable_size = \"ra_opt\" (RA-Opt sizes moldable jobs)");
  }
}

std::unique_ptr<Allocator> make_point_allocator(const Params& p) {
  return find_choice(allocators(), "allocator", p.str("allocator")).make(p);
}

std::unique_ptr<SizeChooser> make_point_size_chooser(const Params& p) {
  const std::string name = p.str("moldable_size");
  if (name == "ra_opt" || name == "all")
    return find_choice(size_choosers(), "moldable_size", name).make(p);
  return make_size_chooser(name, p.real("moldable_min_fraction"));
}

}  // namespace faultsweep::policy
