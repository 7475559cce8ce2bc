#include "faultsweep/dist/mixtures.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <string>

#include "faultsweep/core/error.hpp"

namespace faultsweep::dist {
namespace {

// Checks the weights and returns their running sums (the last forced to exactly 1, so that a
// uniform in (0, 1) always finds a phase).
std::vector<double> cumulative(const std::vector<double>& probs, std::size_t k,
                               const char* other_key) {
  if (probs.empty()) throw InputError("probs", "[]", "at least one probability");
  if (probs.size() != k)
    throw InputError(other_key, fmt::format("{} values", k),
                     fmt::format("as many values as probs ({})", probs.size()));
  double total = 0;
  for (double p : probs) {
    if (!(p >= 0) || !std::isfinite(p))
      throw InputError("probs", fmt::format("{}", fmt::join(probs, ", ")),
                       "probabilities >= 0 summing to 1");
    total += p;
  }
  if (std::abs(total - 1.0) > 1e-9)
    throw InputError("probs", fmt::format("{}", fmt::join(probs, ", ")),
                     fmt::format("probabilities summing to 1 (they sum to {})", total));
  std::vector<double> cum(probs.size());
  double run = 0;
  for (std::size_t i = 0; i < probs.size(); ++i) cum[i] = (run += probs[i]);
  cum.back() = 1.0;
  return cum;
}

void check_positive(const std::vector<double>& v, const char* key) {
  for (double x : v)
    if (!(x > 0) || !std::isfinite(x))
      throw InputError(key, fmt::format("{}", fmt::join(v, ", ")), "finite numbers > 0");
}

// Index of the phase chosen by u in (0, 1): the first i with u <= cum[i]. Linear scan: k is
// small (2-4 phases) in every workload model.
std::size_t pick(const std::vector<double>& cum, double u) {
  std::size_t i = 0;
  while (i + 1 < cum.size() && u > cum[i]) ++i;
  return i;
}

}  // namespace

HyperExponential::HyperExponential(std::vector<double> probs, std::vector<double> means)
    : probs_(std::move(probs)), means_(std::move(means)) {
  cum_ = cumulative(probs_, means_.size(), "means");
  check_positive(means_, "means");
}

HyperExponential HyperExponential::fit_balanced(double mean, double scv) {
  if (!(mean > 0) || !std::isfinite(mean))
    throw InputError("mean", std::to_string(mean), "a finite number > 0");
  if (!(scv >= 1) || !std::isfinite(scv))
    throw InputError("scv", std::to_string(scv),
                     "a squared coefficient of variation >= 1 (a hyperexponential has cv >= 1)");
  const double p1 = 0.5 * (1.0 + std::sqrt((scv - 1.0) / (scv + 1.0)));
  const double p2 = 1.0 - p1;
  if (p2 == 0) return HyperExponential({1.0}, {mean});
  return HyperExponential({p1, p2}, {mean / (2 * p1), mean / (2 * p2)});
}

double HyperExponential::sample(Engine& e) const {
  const std::size_t i = pick(cum_, uniform01(e));
  return -means_[i] * std::log(uniform01(e));
}

double HyperExponential::cdf(double x) const {
  if (!(x > 0)) return 0.0;
  double s = 0;
  for (std::size_t i = 0; i < probs_.size(); ++i) s += probs_[i] * -std::expm1(-x / means_[i]);
  return s;
}

double HyperExponential::pdf(double x) const {
  if (x < 0) return 0.0;
  double s = 0;
  for (std::size_t i = 0; i < probs_.size(); ++i)
    s += probs_[i] * std::exp(-x / means_[i]) / means_[i];
  return s;
}

double HyperExponential::mean() const {
  double s = 0;
  for (std::size_t i = 0; i < probs_.size(); ++i) s += probs_[i] * means_[i];
  return s;
}

double HyperExponential::variance() const {
  double s2 = 0;
  for (std::size_t i = 0; i < probs_.size(); ++i) s2 += 2 * probs_[i] * means_[i] * means_[i];
  const double m = mean();
  return s2 - m * m;
}

HyperErlang::HyperErlang(int order, std::vector<double> probs, std::vector<double> rates_per_s)
    : order_(order), probs_(std::move(probs)), rates_(std::move(rates_per_s)) {
  if (order < 1 || order > 1000)
    throw InputError("order", std::to_string(order), "an integer in [1, 1000]");
  cum_ = cumulative(probs_, rates_.size(), "rates");
  check_positive(rates_, "rates");
}

HyperErlang HyperErlang::from_means(int order, std::vector<double> probs,
                                    const std::vector<double>& means) {
  if (means.size() != probs.size())
    throw InputError("means", fmt::format("{} values", means.size()),
                     fmt::format("as many values as probs ({})", probs.size()));
  check_positive(means, "means");
  std::vector<double> rates(means.size());
  for (std::size_t i = 0; i < means.size(); ++i) rates[i] = order / means[i];
  return HyperErlang(order, std::move(probs), std::move(rates));
}

double HyperErlang::sample(Engine& e) const {
  const std::size_t i = pick(cum_, uniform01(e));
  // Sum of logs rather than log of a product: the product of n uniforms underflows for n ~ 700.
  double s = 0;
  for (int j = 0; j < order_; ++j) s -= std::log(uniform01(e));
  return s / rates_[i];
}

double HyperErlang::cdf(double x) const {
  if (!(x > 0)) return 0.0;
  double total = 0;
  for (std::size_t i = 0; i < probs_.size(); ++i) {
    // Erlang survival: Poisson(r x) probability of fewer than n events.
    const double rx = rates_[i] * x;
    double term = std::exp(-rx), surv = term;
    for (int j = 1; j < order_; ++j) surv += (term *= rx / j);
    total += probs_[i] * (1.0 - std::min(1.0, surv));
  }
  return total;
}

double HyperErlang::pdf(double x) const {
  if (x < 0) return 0.0;
  double total = 0;
  for (std::size_t i = 0; i < probs_.size(); ++i) {
    const double r = rates_[i];
    if (x == 0) {
      if (order_ == 1) total += probs_[i] * r;
      continue;
    }
    total += probs_[i] * std::exp(order_ * std::log(r) + (order_ - 1) * std::log(x) - r * x -
                                  std::lgamma(order_));
  }
  return total;
}

double HyperErlang::mean() const {
  double s = 0;
  for (std::size_t i = 0; i < probs_.size(); ++i) s += probs_[i] * order_ / rates_[i];
  return s;
}

double HyperErlang::variance() const {
  double s2 = 0;
  for (std::size_t i = 0; i < probs_.size(); ++i)
    s2 += probs_[i] * order_ * (order_ + 1.0) / (rates_[i] * rates_[i]);
  const double m = mean();
  return s2 - m * m;
}

}  // namespace faultsweep::dist
