#include "faultsweep/dist/distribution.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/registry_rows.hpp"
#include "faultsweep/core/table_reader.hpp"
#include "faultsweep/dist/law_registry.hpp"

namespace faultsweep::dist {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kSqrt2 = 1.41421356237309504880;
constexpr double kSqrt2Pi = 2.50662827463100050242;
constexpr double kLogSqrt2Pi = 0.91893853320467274178;

// Standard normal lower tail Phi(x) and upper tail Q(x) = Phi(-x), each accurate (relative)
// in its own tail because erfc is.
double normal_lower(double x) {
  return 0.5 * std::erfc(-x / kSqrt2);
}
double normal_upper(double x) {
  return 0.5 * std::erfc(x / kSqrt2);
}

// Q(z) / phi(z) (Mills' ratio) for large z, where both factors underflow: the continued fraction
// R(z) = 1/(z + 1/(z + 2/(z + 3/(z + ...)))) (Abramowitz & Stegun 26.2.14), evaluated bottom-up.
// At z >= 30 forty levels are exact to double precision.
double mills_ratio_large(double z) {
  double t = z;
  for (int n = 40; n >= 1; --n) t = z + n / t;
  return 1.0 / t;
}

// Phi^{-1}(p) for p in (0, 0.5]: Acklam's rational approximation (relative error < 1.15e-9)
// followed by one Halley step against erfc, which brings it to full double precision. The
// correction is computed relative to p so that it stays finite down to denormal p.
double normal_lower_quantile(double p) {
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                 -2.759285104469687e+02, 1.383577518672690e+02,
                                 -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                 -1.556989798598866e+02, 6.680131188771972e+01,
                                 -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                 -2.400758277161838e+00, -2.549732539343734e+00,
                                 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                                 2.445134137401426e+00, 3.754408661907416e+00};
  double x;
  if (p < 0.02425) {
    const double q = std::sqrt(-2.0 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
  } else {
    const double q = p - 0.5;
    const double r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
  }
  // Halley: u = (Phi(x) - p) / phi(x), written as (rel. error) * p / phi(x).
  const double rel = normal_lower(x) / p - 1.0;
  const double u = rel * std::exp(std::log(p) + 0.5 * x * x + kLogSqrt2Pi);
  return x - u / (1.0 + 0.5 * x * u);
}

// z with Q(z) = q, q in (0, 1); each half uses the tail in which its argument is exact.
double normal_upper_quantile(double q) {
  return q < 0.5 ? -normal_lower_quantile(q) : normal_lower_quantile(1.0 - q);
}

// A standard normal draw conditioned on Z > a, for a > 0: Marsaglia's (1964) tail method,
// x = sqrt(a^2 - 2 log U1) accepted when U2 x <= a. Exact; acceptance rate > a^2 / (a^2 + 1).
double normal_tail_draw(Engine& e, double a) {
  for (;;) {
    const double x = std::sqrt(a * a - 2.0 * std::log(uniform01(e)));
    if (uniform01(e) * x <= a) return x;
  }
}

std::string kind_name(Kind k) {
  switch (k) {
    case Kind::exponential:
      return "exponential";
    case Kind::weibull:
      return "weibull";
    case Kind::lognormal:
      return "lognormal";
    case Kind::constant:
      return "constant";
  }
  return "?";
}

std::string text_of(double v) {
  return canonical_value(Value(v));
}

}  // namespace

Dist Dist::exponential(double mean) {
  FS_CHECK(mean > 0 && std::isfinite(mean), fmt::format("exponential mean = {}", mean));
  return Dist(Kind::exponential, mean, 0.0);
}

Dist Dist::weibull(double shape, double scale) {
  FS_CHECK(shape > 0 && std::isfinite(shape), fmt::format("weibull shape = {}", shape));
  FS_CHECK(scale > 0 && std::isfinite(scale), fmt::format("weibull scale = {}", scale));
  return Dist(Kind::weibull, shape, scale);
}

Dist Dist::lognormal(double mu, double sigma) {
  FS_CHECK(std::isfinite(mu), fmt::format("lognormal mu = {}", mu));
  FS_CHECK(sigma > 0 && std::isfinite(sigma), fmt::format("lognormal sigma = {}", sigma));
  return Dist(Kind::lognormal, mu, sigma);
}

Dist Dist::constant(double value) {
  FS_CHECK(value >= 0 && std::isfinite(value), fmt::format("constant value = {}", value));
  return Dist(Kind::constant, value, 0.0);
}

Dist Dist::from_params(const Params& p) {
  const std::string kinds = "expected one of " + joined_names(laws(), ", ");
  if (!p.has("dist")) throw InputError("dist", "", fmt::format("required; {}", kinds));
  const Value& dist_value = p.at("dist");
  const auto* name = std::get_if<std::string>(&dist_value);
  const LawRow* law = name ? find_law(*name) : nullptr;
  if (law == nullptr) throw InputError("dist", canonical_value(dist_value), kinds);
  const TableReader r(p, fmt::format("dist = \"{}\"", law->name));
  r.check_keys(law_table_keys(*law));
  return law->make(r);
}

double Dist::cdf(double x) const {
  if (!(x > 0)) return (kind_ == Kind::constant && x >= p1_) ? 1.0 : 0.0;
  switch (kind_) {
    case Kind::exponential:
      return -std::expm1(-x / p1_);
    case Kind::weibull:
      return -std::expm1(-std::pow(x / p2_, p1_));
    case Kind::lognormal:
      return normal_lower((std::log(x) - p1_) / p2_);
    case Kind::constant:
      return x >= p1_ ? 1.0 : 0.0;
  }
  return 0.0;
}

double Dist::survival(double x) const {
  if (!(x > 0)) return (kind_ == Kind::constant && x >= p1_) ? 0.0 : 1.0;
  switch (kind_) {
    case Kind::exponential:
      return std::exp(-x / p1_);
    case Kind::weibull:
      return std::exp(-std::pow(x / p2_, p1_));
    case Kind::lognormal:
      return normal_upper((std::log(x) - p1_) / p2_);
    case Kind::constant:
      return x >= p1_ ? 0.0 : 1.0;
  }
  return 1.0;
}

double Dist::pdf(double x) const {
  if (kind_ == Kind::constant) return x == p1_ ? kInf : 0.0;  // a point mass
  if (x < 0) return 0.0;
  switch (kind_) {
    case Kind::exponential:
      return std::exp(-x / p1_) / p1_;
    case Kind::weibull: {
      if (x == 0) return p1_ < 1 ? kInf : (p1_ == 1 ? 1.0 / p2_ : 0.0);
      // In logs, so that a huge (x/scale)^(shape-1) times a vanishing survival is 0, not NaN.
      const double lr = std::log(x / p2_);
      return std::exp(std::log(p1_ / p2_) + (p1_ - 1.0) * lr - std::exp(p1_ * lr));
    }
    case Kind::lognormal: {
      if (x == 0) return 0.0;
      const double z = (std::log(x) - p1_) / p2_;
      return std::exp(-0.5 * z * z) / (x * p2_ * kSqrt2Pi);
    }
    case Kind::constant:
      break;
  }
  return 0.0;
}

double Dist::hazard(double x) const {
  if (kind_ == Kind::constant) return x >= p1_ ? kInf : 0.0;
  if (x < 0) return 0.0;
  switch (kind_) {
    case Kind::exponential:
      return 1.0 / p1_;
    case Kind::weibull:
      // (k / lambda) (x / lambda)^(k - 1): no survival term, finite far into the tail.
      if (x == 0) return p1_ < 1 ? kInf : (p1_ == 1 ? 1.0 / p2_ : 0.0);
      return std::exp(std::log(p1_ / p2_) + (p1_ - 1.0) * std::log(x / p2_));
    case Kind::lognormal: {
      if (x == 0) return 0.0;
      const double z = (std::log(x) - p1_) / p2_;
      // phi(z) / Q(z) directly while both are far from underflow (Q(30) ~ 5e-198); beyond,
      // through Mills' ratio, since the ratio stays ~ z while both factors vanish.
      if (z < 30) return std::exp(-0.5 * z * z) / (kSqrt2Pi * normal_upper(z)) / (x * p2_);
      return 1.0 / (mills_ratio_large(z) * x * p2_);
    }
    case Kind::constant:
      break;
  }
  return 0.0;
}

double Dist::mean() const {
  switch (kind_) {
    case Kind::exponential:
      return p1_;
    case Kind::weibull:
      return p2_ * std::tgamma(1.0 + 1.0 / p1_);
    case Kind::lognormal:
      return std::exp(p1_ + 0.5 * p2_ * p2_);
    case Kind::constant:
      return p1_;
  }
  return 0.0;
}

double Dist::variance() const {
  switch (kind_) {
    case Kind::exponential:
      return p1_ * p1_;
    case Kind::weibull: {
      const double g1 = std::tgamma(1.0 + 1.0 / p1_);
      return p2_ * p2_ * (std::tgamma(1.0 + 2.0 / p1_) - g1 * g1);
    }
    case Kind::lognormal:
      return std::expm1(p2_ * p2_) * std::exp(2.0 * p1_ + p2_ * p2_);
    case Kind::constant:
      return 0.0;
  }
  return 0.0;
}

double Dist::sample_excess(Engine& e, double age) const {
  if (!(age > 0)) return sample(e);
  switch (kind_) {
    case Kind::exponential:
      return sample(e);  // memoryless
    case Kind::weibull: {
      // Inverting the conditional survival S(age + x) / S(age) = U:
      // x = scale ((age/scale)^k - log U)^(1/k) - age, rewritten as
      // age (exp(log1p(E / t) / k) - 1), t = (age/scale)^k, E = -log U, to avoid cancelling
      // when x << age.
      const double k = p1_;
      const double t = std::pow(age / p2_, k);
      const double big_e = -std::log(uniform01(e));
      const double ratio = big_e / t;
      if (!(ratio < 1e12)) return p2_ * std::pow(t + big_e, 1.0 / k) - age;  // t negligible
      return age * std::expm1(std::log1p(ratio) / k);
    }
    case Kind::lognormal: {
      // Z = (log X - mu) / sigma conditioned on Z > z0.
      const double z0 = (std::log(age) - p1_) / p2_;
      double z;
      if (z0 > 5.0) {
        z = normal_tail_draw(e, z0);  // Q(z0) < 3e-7: inversion would lose digits
      } else {
        // Inversion of the conditional survival: Q(z) = U Q(z0).
        z = normal_upper_quantile(uniform01(e) * normal_upper(z0));
      }
      return std::max(0.0, std::exp(p1_ + p2_ * z) - age);
    }
    case Kind::constant:
      return std::max(p1_ - age, 0.0);
  }
  return 0.0;
}

std::string Dist::canonical_text() const {
  switch (kind_) {
    case Kind::exponential:
      return "dist=exponential;mean=" + text_of(p1_);
    case Kind::weibull:
      return "dist=weibull;scale=" + text_of(p2_) + ";shape=" + text_of(p1_);
    case Kind::lognormal:
      return "dist=lognormal;mu=" + text_of(p1_) + ";sigma=" + text_of(p2_);
    case Kind::constant:
      return "dist=constant;value=" + text_of(p1_);
  }
  return "dist=" + kind_name(kind_);
}

double standard_normal(Engine& e) {
  // Marsaglia & Bray (1964) polar method. The second variate of each pair is discarded so that
  // a draw depends only on the engine (Dist stays stateless and trivially copyable).
  for (;;) {
    const double v1 = 2.0 * uniform01(e) - 1.0;
    const double v2 = 2.0 * uniform01(e) - 1.0;
    const double s = v1 * v1 + v2 * v2;
    if (s < 1.0 && s > 0.0) return v1 * std::sqrt(-2.0 * std::log(s) / s);
  }
}

}  // namespace faultsweep::dist
