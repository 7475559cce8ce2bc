#include "faultsweep/dist/composite_weibull.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"

namespace faultsweep::dist {

CompositeWeibull::CompositeWeibull(std::vector<WeibullComponent> components)
    : components_(std::move(components)) {
  FS_CHECK(!components_.empty(), "composite Weibull needs at least one component");
  double total = 0.0;
  for (const auto& c : components_) {
    FS_CHECK(c.weight > 0 && std::isfinite(c.weight), fmt::format("weight = {}", c.weight));
    FS_CHECK(c.shape > 0 && std::isfinite(c.shape), fmt::format("shape = {}", c.shape));
    FS_CHECK(c.scale_s > 0 && std::isfinite(c.scale_s), fmt::format("scale = {}", c.scale_s));
    total += c.weight;
  }
  double acc = 0.0;
  for (auto& c : components_) {
    c.weight /= total;
    acc += c.weight;
    cum_weight_.push_back(acc);
  }
  cum_weight_.back() = 1.0;
}

CompositeWeibull CompositeWeibull::bathtub(double mtbf_s) {
  FS_CHECK(mtbf_s > 0 && std::isfinite(mtbf_s), fmt::format("bathtub mtbf = {}", mtbf_s));
  // FARS §5.2.1: shapes 0.5, 1.0, 1.5 (burn-in, normal, worn-out). Weights and the common scale
  // are ours (the paper gives neither): mean = eta * sum_i Gamma(1 + 1/shape_i) / 3.
  constexpr double kShapes[] = {0.5, 1.0, 1.5};
  double factor = 0.0;
  for (const double k : kShapes) factor += std::tgamma(1.0 + 1.0 / k) / 3.0;
  const double eta = mtbf_s / factor;
  return CompositeWeibull({{1.0, 0.5, eta}, {1.0, 1.0, eta}, {1.0, 1.5, eta}});
}

double CompositeWeibull::sample(Engine& e) const {
  const double u = uniform01(e);
  std::size_t i = 0;
  while (i + 1 < cum_weight_.size() && u >= cum_weight_[i]) ++i;
  const auto& c = components_[i];
  return c.scale_s * std::pow(-std::log(uniform01(e)), 1.0 / c.shape);
}

double CompositeWeibull::survival(double x) const {
  if (!(x > 0)) return 1.0;
  double s = 0.0;
  for (const auto& c : components_) s += c.weight * std::exp(-std::pow(x / c.scale_s, c.shape));
  return s;
}

double CompositeWeibull::cdf(double x) const {
  if (!(x > 0)) return 0.0;
  double f = 0.0;
  for (const auto& c : components_) f -= c.weight * std::expm1(-std::pow(x / c.scale_s, c.shape));
  return f;
}

double CompositeWeibull::pdf(double x) const {
  if (x < 0) return 0.0;
  double f = 0.0;
  for (const auto& c : components_) {
    if (x == 0) {
      if (c.shape < 1) return std::numeric_limits<double>::infinity();
      if (c.shape == 1) f += c.weight / c.scale_s;
      continue;
    }
    const double lr = std::log(x / c.scale_s);
    f += c.weight *
         std::exp(std::log(c.shape / c.scale_s) + (c.shape - 1.0) * lr - std::exp(c.shape * lr));
  }
  return f;
}

double CompositeWeibull::mean() const {
  double m = 0.0;
  for (const auto& c : components_) m += c.weight * c.scale_s * std::tgamma(1.0 + 1.0 / c.shape);
  return m;
}

std::string CompositeWeibull::canonical_text() const {
  std::string s = "dist=composite_weibull";
  for (std::size_t i = 0; i < components_.size(); ++i) {
    const auto& c = components_[i];
    s += fmt::format(";w{}={};shape{}={};scale{}={}", i, canonical_value(Value(c.weight)), i,
                     canonical_value(Value(c.shape)), i, canonical_value(Value(c.scale_s)));
  }
  return s;
}

}  // namespace faultsweep::dist
