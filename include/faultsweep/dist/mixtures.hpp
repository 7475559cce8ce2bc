#pragma once
// Finite mixtures of exponential-family phases used by workload models:
//   HyperExponential: with probability p_i an exponential of mean m_i (e.g. the two-stage
//     hyperexponential run lengths of Gottumukkala §6.4.4).
//   HyperErlang: hyper-Erlang of common order n (Jann et al. 1997, used by Zhang et al. §3.1):
//     with probability p_i an Erlang(n, rate_i), the sum of n exponentials of rate rate_i.
// The phase tables are held in vectors built once; sample() never allocates.
#include <cstddef>
#include <vector>

#include "faultsweep/core/rng.hpp"

namespace faultsweep::dist {

class HyperExponential {
 public:
  // probs: k >= 1 weights, each >= 0, summing to 1 within 1e-9 (renormalised exactly);
  // means_s: k means > 0. Throws InputError naming "probs" or "means".
  HyperExponential(std::vector<double> probs, std::vector<double> means);

  // Balanced-means two-phase fit to a mean and squared coefficient of variation scv >= 1
  // (p1 m1 = p2 m2; Allen, "Probability, Statistics and Queueing Theory", 2nd ed. §6.2):
  // p1 = (1 + sqrt((scv - 1) / (scv + 1))) / 2, m_i = mean / (2 p_i).
  static HyperExponential fit_balanced(double mean, double scv);

  // Two uniforms per draw: one picks the phase, one inverts its exponential.
  double sample(Engine& e) const;
  double cdf(double x) const;  // sum_i p_i (1 - exp(-x / m_i))
  double pdf(double x) const;
  double mean() const;
  double variance() const;  // 2 sum_i p_i m_i^2 - mean^2
  std::size_t phases() const { return probs_.size(); }
  const std::vector<double>& probs() const { return probs_; }
  const std::vector<double>& means() const { return means_; }

 private:
  std::vector<double> probs_, means_, cum_;
};

class HyperErlang {
 public:
  // order n >= 1 (common to all branches), probs as for HyperExponential, rates_per_s > 0.
  // Throws InputError naming "order", "probs" or "rates".
  HyperErlang(int order, std::vector<double> probs, std::vector<double> rates_per_s);
  // The same, given the branch means n / rate_i instead of the rates.
  static HyperErlang from_means(int order, std::vector<double> probs,
                                const std::vector<double>& means);

  // 1 + n uniforms per draw: the branch, then an Erlang as a sum of n exponential draws.
  double sample(Engine& e) const;
  double cdf(double x) const;  // sum_i p_i (1 - sum_{j<n} exp(-r_i x) (r_i x)^j / j!)
  double pdf(double x) const;  // sum_i p_i r_i^n x^{n-1} exp(-r_i x) / (n-1)!
  double mean() const;         // sum_i p_i n / r_i
  double variance() const;     // sum_i p_i n (n+1) / r_i^2 - mean^2
  int order() const { return order_; }
  const std::vector<double>& probs() const { return probs_; }
  const std::vector<double>& rates() const { return rates_; }

 private:
  int order_;
  std::vector<double> probs_, rates_, cum_;
};

}  // namespace faultsweep::dist
