#pragma once
// A mixture of Weibull sub-populations: with probability weight_i a lifetime is drawn from
// Weibull(shape_i, scale_i). FARS (Li et al., §5.2.1) models the "bathtub" curve of node
// failures with three sub-populations of shapes 0.5 (burn-in), 1.0 (normal life) and 1.5
// (wear-out). The paper gives neither the weights nor per-population scales: it says only that
// it "tuned ... the scale parameter of Weibull distribution" (one scale) to set the node MTBF
// (baseline 14 days, §5.2.2/§6.1.3). bathtub() therefore uses equal weights and one common
// scale chosen so that the mixture mean equals the MTBF (our choice, documented here).
#include <string>
#include <vector>

#include "faultsweep/core/rng.hpp"

namespace faultsweep::dist {

struct WeibullComponent {
  double weight;   // > 0; weights are normalised to sum 1
  double shape;    // > 0
  double scale_s;  // > 0
};

class CompositeWeibull {
 public:
  // At least one component, every field positive and finite (checked: callers validate input).
  explicit CompositeWeibull(std::vector<WeibullComponent> components);

  // FARS §5.2.1 bathtub: shapes 0.5, 1.0, 1.5, weights 1/3 each, common scale
  // eta = mtbf_s / ((Gamma(3) + Gamma(2) + Gamma(5/3)) / 3) = mtbf_s / 1.3009..., so mean() ==
  // mtbf_s.
  static CompositeWeibull bathtub(double mtbf_s);

  // Two uniforms per draw: one picks the sub-population, one inverts its cdf.
  double sample(Engine& e) const;
  double cdf(double x) const;       // sum_i w_i (1 - exp(-(x / scale_i)^shape_i))
  double survival(double x) const;  // 1 - cdf
  double pdf(double x) const;
  double mean() const;  // sum_i w_i scale_i Gamma(1 + 1 / shape_i)
  const std::vector<WeibullComponent>& components() const { return components_; }
  // "dist=composite_weibull;w0=..;shape0=..;scale0=..;..." (weights normalised).
  std::string canonical_text() const;

 private:
  std::vector<WeibullComponent> components_;  // weights normalised
  std::vector<double> cum_weight_;            // cumulative, last == 1
};

}  // namespace faultsweep::dist
