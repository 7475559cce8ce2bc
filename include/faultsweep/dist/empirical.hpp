#pragma once
// The empirical distribution of a sample: the step cdf F_n(x) = #{x_i <= x} / n, sampled by
// inversion (x_(ceil(u n)), one uniform per draw), so draws reproduce the data's distribution
// exactly, ties included.
#include <vector>

#include "faultsweep/core/rng.hpp"

namespace faultsweep::dist {

class Empirical {
 public:
  // Throws InputError("samples", ...) if empty or if any value is not finite.
  explicit Empirical(std::vector<double> samples);

  double sample(Engine& e) const;
  double quantile(double u) const;  // inverse of the step cdf, u in (0, 1]
  double cdf(double x) const;
  double mean() const { return mean_; }
  double variance() const { return variance_; }  // of the empirical distribution (divisor n)
  const std::vector<double>& sorted() const { return sorted_; }

 private:
  std::vector<double> sorted_;
  double mean_ = 0, variance_ = 0;
};

}  // namespace faultsweep::dist
