#pragma once
// The gamma distribution, shape k > 0 and scale theta > 0 (mean k * theta), sampled by
// Marsaglia & Tsang (2000), "A simple method for generating gamma variables", ACM TOMS 26(3).
#include "faultsweep/core/rng.hpp"

namespace faultsweep::dist {

class Gamma {
 public:
  // Throws InputError naming "shape" or "scale" unless both are finite and > 0.
  Gamma(double shape, double scale);

  double sample(Engine& e) const;
  double cdf(double x) const;  // regularized lower incomplete gamma P(k, x / theta)
  double pdf(double x) const;
  double mean() const { return shape_ * scale_; }
  double variance() const { return shape_ * scale_ * scale_; }
  double shape() const { return shape_; }
  double scale() const { return scale_; }

 private:
  double shape_, scale_;
  // Marsaglia-Tsang constants for shape max(k, k + 1): d = a - 1/3, c = 1 / sqrt(9 d).
  double d_, c_;
  double log_norm_;  // lgamma(k) + k log(theta), for the pdf
};

// P(a, x): the regularized lower incomplete gamma function (Boost.Math's gamma_p). Exposed for
// tests and for the reliability area.
double regularized_gamma_p(double a, double x);

}  // namespace faultsweep::dist
