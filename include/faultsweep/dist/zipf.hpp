#pragma once
// Zipf distribution over ranks 1..n: P(k) = k^-alpha / H(n, alpha), H(n, alpha) = sum_j j^-alpha.
// Zhang et al. §3.2 ("Location of failures") draw the node of each failure from it, with
// alpha in {0.01, 0.5, 0.99}; any alpha >= 0 is accepted (alpha = 0 is uniform).
//
// Sampling is O(1): Walker's alias method (Vose's construction), one uniform per draw. All
// memory is allocated by the constructor; sample() never allocates.
#include <cstdint>
#include <vector>

#include "faultsweep/core/rng.hpp"

namespace faultsweep::dist {

class Zipf {
 public:
  // alpha >= 0 and finite, n >= 1 (checked: a violation is a bug, callers validate input).
  Zipf(double alpha, std::int64_t n);

  // A rank in 1..n.
  std::int64_t sample(Engine& e) const;
  double pmf(std::int64_t k) const;  // 0 outside 1..n
  double cdf(std::int64_t k) const;  // P(rank <= k)
  double alpha() const { return alpha_; }
  std::int64_t n() const { return n_; }

 private:
  double alpha_;
  std::int64_t n_;
  std::vector<double> pmf_;          // pmf_[k - 1]
  std::vector<double> cdf_;          // cdf_[k - 1], cdf_[n - 1] == 1 exactly
  std::vector<double> prob_;         // alias table: keep column i with probability prob_[i]
  std::vector<std::int64_t> alias_;  // otherwise take alias_[i]
};

}  // namespace faultsweep::dist
