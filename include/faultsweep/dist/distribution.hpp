#pragma once
// Distributions the project owns (DESIGN §4): never std::*_distribution, whose output differs
// between standard libraries. A Dist is a small value type (no heap, no virtual call) so that
// simulators can hold them by value and sample in hot loops without allocating.
//
// Job-file syntax (a TOML inline table; time-valued fields accept units such as "70min"):
//   { dist = "exponential", mean = "70min" }            (or rate = <per second>)
//   { dist = "weibull", shape = 0.7, scale = "5h" }     (or shape + mean)
//   { dist = "lognormal", mean = "1h", sigma = 1.2 }    (or mu + sigma, mu of log-seconds)
//   { dist = "constant", value = "75min" }
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "faultsweep/core/params.hpp"
#include "faultsweep/core/rng.hpp"

namespace faultsweep::dist {

enum class Kind { exponential, weibull, lognormal, constant };

class Dist {
 public:
  static Dist exponential(double mean);
  static Dist weibull(double shape, double scale);
  static Dist lognormal(double mu, double sigma);  // of log(x)
  static Dist constant(double value);

  // From flattened job-file keys ("dist", "mean", "shape", ...), already in seconds for
  // time-valued fields, through the law's row (dist/law_registry.hpp). Throws
  // InputError(key, value, expected) naming the offending sub-key (relative to the table, e.g.
  // "shape"); the caller locates it.
  static Dist from_params(const Params& p);

  Kind kind() const { return kind_; }
  // Inline (defined below): the exponential draw is on simulators' hot path.
  double sample(Engine& e) const;
  double cdf(double x) const;
  double survival(double x) const;  // 1 - cdf, accurate in the upper tail
  double pdf(double x) const;
  double hazard(double x) const;  // pdf / (1 - cdf)
  double mean() const;
  double variance() const;
  // Remaining life of a unit that has survived to age: a draw from X - age given X > age.
  double sample_excess(Engine& e, double age) const;
  // Canonical text, e.g. "dist=weibull;scale=18000.0;shape=0.69999999999999996". Part of stream
  // derivation: two Dists with equal text give identical streams.
  std::string canonical_text() const;

  // Parameters (meaning depends on kind): exponential (mean), weibull (shape, scale),
  // lognormal (mu, sigma), constant (value).
  double p1() const { return p1_; }
  double p2() const { return p2_; }

 private:
  Dist(Kind k, double p1, double p2) : kind_(k), p1_(p1), p2_(p2) {}
  Kind kind_;
  double p1_, p2_;
};

// Standard normal draw (Marsaglia polar method, deterministic given the engine).
double standard_normal(Engine& e);

// Sampling by inversion of the cdf (one uniform per draw, except lognormal: polar method).
inline double Dist::sample(Engine& e) const {
  switch (kind_) {
    case Kind::exponential:
      return -p1_ * std::log(uniform01(e));
    case Kind::weibull:
      return p2_ * std::pow(-std::log(uniform01(e)), 1.0 / p1_);
    case Kind::lognormal:
      return std::exp(p1_ + p2_ * standard_normal(e));
    case Kind::constant:
      return p1_;
  }
  return p1_;  // unreachable: the switch covers every Kind
}

}  // namespace faultsweep::dist
