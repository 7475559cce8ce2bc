#include "faultsweep/dist/log_uniform.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "faultsweep/core/error.hpp"

namespace faultsweep::dist {

TwoStageLogUniform::TwoStageLogUniform(double lo_log2, double mid_log2, double hi_log2,
                                       double p_low, SizeRounding rounding)
    : lo_(lo_log2), mid_(mid_log2), hi_(hi_log2), p_(p_low), rounding_(rounding) {
  if (!std::isfinite(lo_log2)) throw InputError("lo", std::to_string(lo_log2), "a finite number");
  if (!std::isfinite(hi_log2) || !(hi_log2 > lo_log2))
    throw InputError("hi", std::to_string(hi_log2), "a finite number > lo");
  if (!(mid_log2 >= lo_log2 && mid_log2 <= hi_log2))
    throw InputError("mid", std::to_string(mid_log2), "a number in [lo, hi]");
  if (!(p_low >= 0 && p_low <= 1))
    throw InputError("p", std::to_string(p_low), "a probability in [0, 1]");
  if ((mid_ == lo_ && p_ > 0) || (mid_ == hi_ && p_ < 1))
    throw InputError("p", std::to_string(p_low), "zero weight on a stage of zero width");
  if (rounding != SizeRounding::none) {
    if (lo_log2 < 0) throw InputError("lo", std::to_string(lo_log2), ">= 0 (sizes >= 1)");
    if (hi_log2 > 24) throw InputError("hi", std::to_string(hi_log2), "<= 24 (2^24 nodes)");
  }
  // Mean: E[2^U] for U ~ U(a, b) is (2^b - 2^a) / ((b - a) ln 2); rounded modes sum the pmf,
  // P(X = x) = cdf(x) - cdf(previous support point).
  const auto cont = [](double a, double b) {
    return a == b ? std::exp2(a) : (std::exp2(b) - std::exp2(a)) / ((b - a) * std::numbers::ln2);
  };
  switch (rounding_) {
    case SizeRounding::none:
      mean_ = (p_ > 0 ? p_ * cont(lo_, mid_) : 0.0) + (p_ < 1 ? (1 - p_) * cont(mid_, hi_) : 0.0);
      break;
    case SizeRounding::integer: {
      mean_ = 0;
      double prev = 0;
      for (double k = round_integer(lo_); k <= round_integer(hi_); ++k) {
        const double c = cdf(k);
        mean_ += k * (c - prev);
        prev = c;
      }
      break;
    }
    case SizeRounding::power_of_two: {
      mean_ = 0;
      double prev = 0;
      for (double k = std::floor(lo_ + 0.5); k <= std::floor(hi_ + 0.5); ++k) {
        const double c = cdf(std::exp2(k));
        mean_ += std::exp2(k) * (c - prev);
        prev = c;
      }
      break;
    }
  }
}

double TwoStageLogUniform::sample_log2(Engine& e) const {
  const double stage = uniform01(e);
  const double u = uniform01(e);
  return stage < p_ ? lo_ + u * (mid_ - lo_) : mid_ + u * (hi_ - mid_);
}

double TwoStageLogUniform::sample(Engine& e) const {
  const double u = sample_log2(e);
  switch (rounding_) {
    case SizeRounding::integer:
      return round_integer(u);
    case SizeRounding::power_of_two:
      return round_power_of_two(u);
    case SizeRounding::none:
      break;
  }
  return std::exp2(u);
}

double TwoStageLogUniform::cdf_log2(double u) const {
  double f = 0;
  if (p_ > 0) f += p_ * std::clamp((u - lo_) / (mid_ - lo_), 0.0, 1.0);
  if (p_ < 1) f += (1 - p_) * std::clamp((u - mid_) / (hi_ - mid_), 0.0, 1.0);
  return f;
}

double TwoStageLogUniform::cdf(double x) const {
  if (!(x > 0)) return 0.0;
  switch (rounding_) {
    case SizeRounding::none:
      return cdf_log2(std::log2(x));
    case SizeRounding::integer:
      // floor(2^u + 1/2) <= floor(x)  <=>  2^u < floor(x) + 1/2.
      return cdf_log2(std::log2(std::floor(x) + 0.5));
    case SizeRounding::power_of_two: {
      // 2^round(u) <= x  <=>  round(u) <= floor(log2 x)  <=>  u < floor(log2 x) + 1/2.
      // frexp gives floor(log2 x) exactly (x = m 2^e, m in [0.5, 1)).
      int e2 = 0;
      std::frexp(x, &e2);
      return cdf_log2(e2 - 1 + 0.5);
    }
  }
  return 0.0;
}

double TwoStageLogUniform::pdf(double x) const {
  if (rounding_ != SizeRounding::none || !(x > 0)) return 0.0;
  const double u = std::log2(x);
  double d = 0;
  if (p_ > 0 && u >= lo_ && u < mid_) d = p_ / (mid_ - lo_);
  if (p_ < 1 && u >= mid_ && u <= hi_) d = (1 - p_) / (hi_ - mid_);
  return d / (x * std::numbers::ln2);  // change of variable x = 2^u
}

}  // namespace faultsweep::dist
