#include "faultsweep/reliability/fit.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <numeric>
#include <optional>

#include "faultsweep/core/error.hpp"
#include "faultsweep/dist/distribution.hpp"
#include "faultsweep/dist/gamma.hpp"
#include "faultsweep/reliability/special.hpp"

namespace faultsweep::reliability {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

bool valid_params(Law law, double p1, double p2) {
  if (!std::isfinite(p1)) return false;
  if (law == Law::exponential) return p1 > 0;
  if (!std::isfinite(p2) || !(p2 > 0)) return false;
  return law == Law::lognormal || p1 > 0;
}

// The sample with its sums, computed once.
struct Sample {
  const std::vector<double>& fail;
  std::vector<double> cens;  // the positive censoring times only
  double sum_all = 0;
  double sum_log_fail = 0;
};

using Objective = std::function<double(double, double)>;

// Observed information at (p1, p2): minus the Hessian of the log-likelihood by central
// differences in the natural parameters; the SEs are the square roots of the diagonal of its
// inverse. NaN where the information is not positive definite.
void standard_errors(const Objective& ll, Fit& f) {
  const double h1 = 1e-4 * std::max(std::abs(f.p1), 1e-3);
  const double h2 = 1e-4 * std::max(std::abs(f.p2), 1e-3);
  const double f0 = f.log_likelihood;  // ll(p1, p2), already computed
  Eigen::Matrix2d info;
  info(0, 0) = -(ll(f.p1 + h1, f.p2) - 2 * f0 + ll(f.p1 - h1, f.p2)) / (h1 * h1);
  info(1, 1) = -(ll(f.p1, f.p2 + h2) - 2 * f0 + ll(f.p1, f.p2 - h2)) / (h2 * h2);
  info(0, 1) = info(1, 0) = -(ll(f.p1 + h1, f.p2 + h2) - ll(f.p1 + h1, f.p2 - h2) -
                              ll(f.p1 - h1, f.p2 + h2) + ll(f.p1 - h1, f.p2 - h2)) /
                            (4 * h1 * h2);
  const Eigen::LLT<Eigen::Matrix2d> llt(info);
  if (!info.allFinite() || llt.info() != Eigen::Success) {
    f.se1 = f.se2 = kNaN;
    return;
  }
  const Eigen::Matrix2d cov = llt.solve(Eigen::Matrix2d::Identity());
  f.se1 = std::sqrt(cov(0, 0));
  f.se2 = std::sqrt(cov(1, 1));
}

// Maximises ll over (u, v) = (to_u(p1), to_v(p2)) by Newton's method on numerical derivatives,
// with a gradient step where the Hessian is not negative definite and step halving until the
// likelihood rises. Used for the censored gamma and lognormal, which have no profile equation.
void newton_2d(const Objective& ll_uv, double& u, double& v, Fit& f) {
  double cur = ll_uv(u, v);
  for (f.iterations = 0; f.iterations < 200; ++f.iterations) {
    const double h = 1e-5;
    const double fpu = ll_uv(u + h, v), fmu = ll_uv(u - h, v);
    const double fpv = ll_uv(u, v + h), fmv = ll_uv(u, v - h);
    Eigen::Vector2d g((fpu - fmu) / (2 * h), (fpv - fmv) / (2 * h));
    Eigen::Matrix2d H;
    H(0, 0) = (fpu - 2 * cur + fmu) / (h * h);
    H(1, 1) = (fpv - 2 * cur + fmv) / (h * h);
    H(0, 1) = H(1, 0) =
        (ll_uv(u + h, v + h) - ll_uv(u + h, v - h) - ll_uv(u - h, v + h) + ll_uv(u - h, v - h)) /
        (4 * h * h);
    Eigen::Vector2d step;
    const Eigen::LLT<Eigen::Matrix2d> llt(-H);
    if (llt.info() == Eigen::Success && H.allFinite())
      step = llt.solve(g);
    else
      step = g / std::max(1.0, g.norm());
    if (!step.allFinite()) break;
    double t = 1.0;
    bool moved = false;
    for (int halve = 0; halve < 40; ++halve, t *= 0.5) {
      const double nu = u + t * step(0), nv = v + t * step(1);
      const double next = ll_uv(nu, nv);
      if (next >= cur) {
        u = nu, v = nv, moved = true;
        const double gain = next - cur;
        cur = next;
        if (gain < 1e-12 * std::max(1.0, std::abs(cur)) && step.norm() * t < 1e-9) {
          f.converged = true;
          return;
        }
        break;
      }
    }
    if (!moved || step.norm() < 1e-10) {
      f.converged = true;
      return;
    }
  }
}

// Weibull: the profile equation in the shape k (the scale maximised out),
//   sum t^k ln t / sum t^k - 1/k - (1/r) sum_fail ln t = 0  over all times t (failures and
// censored), increasing in k; solved by bisection-safeguarded Newton on log k. Times are scaled by
// their maximum so that t^k cannot overflow.
void fit_weibull(const Sample& s, Fit& f) {
  std::vector<double> all(s.fail);
  all.insert(all.end(), s.cens.begin(), s.cens.end());
  const double tmax = *std::max_element(all.begin(), all.end());
  std::vector<double> lt(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) lt[i] = std::log(all[i] / tmax);
  const double r = static_cast<double>(s.fail.size());
  double mean_log_fail = 0;
  for (std::size_t i = 0; i < s.fail.size(); ++i) mean_log_fail += lt[i];
  mean_log_fail /= r;
  auto g = [&](double k, double* dg) {
    double a = 0, b = 0, c = 0;  // sum t^k, sum t^k ln t, sum t^k ln^2 t
    for (const double l : lt) {
      const double w = std::exp(k * l);
      a += w, b += w * l, c += w * l * l;
    }
    if (dg) *dg = c / a - (b / a) * (b / a) + 1.0 / (k * k);
    return b / a - 1.0 / k - mean_log_fail;
  };
  double lo = 1e-3, hi = 1e3;
  if (g(lo, nullptr) > 0 || g(hi, nullptr) < 0)
    throw InputError("failure times", fmt::format("{} values", s.fail.size()),
                     "a sample the Weibull MLE exists for (not all failure times equal)");
  double k = 1.0;
  for (f.iterations = 0; f.iterations < 200; ++f.iterations) {
    double dg = 0;
    const double gk = g(k, &dg);
    (gk > 0 ? hi : lo) = k;
    double next = k - gk / dg;
    if (!(next > lo && next < hi)) next = std::sqrt(lo * hi);
    if (std::abs(next - k) < 1e-13 * k) {
      k = next;
      f.converged = true;
      break;
    }
    k = next;
  }
  double a = 0;
  for (const double l : lt) a += std::exp(k * l);
  f.p1 = k;
  f.p2 = tmax * std::pow(a / r, 1.0 / k);  // scale^k = sum t^k / r
}

// Gamma without censoring: ln k - psi(k) = ln(mean) - mean(ln x), by Newton from Minka's
// starting point; the scale is mean / k.
void fit_gamma_uncensored(const Sample& s, Fit& f) {
  const double n = static_cast<double>(s.fail.size());
  const double mean = s.sum_all / n;
  const double c = std::log(mean) - s.sum_log_fail / n;
  if (!(c > 0))
    throw InputError("failure times", fmt::format("{} values", s.fail.size()),
                     "a sample the gamma MLE exists for (not all failure times equal)");
  double k = (3 - c + std::sqrt((c - 3) * (c - 3) + 24 * c)) / (12 * c);
  for (f.iterations = 0; f.iterations < 100; ++f.iterations) {
    const double fk = std::log(k) - digamma(k) - c;
    const double dk = 1.0 / k - trigamma(k);
    double next = k - fk / dk;
    // Times equal to rounding (c ~ 1e-19) drive k past 1e18, where the slope underflows to 0:
    // no MLE, as for equal times.
    if (!std::isfinite(next))
      throw InputError("failure times", fmt::format("{} values", s.fail.size()),
                       "a sample the gamma MLE exists for (failure times not all equal to "
                       "rounding)");
    if (!(next > 0)) next = k / 2;
    if (std::abs(next - k) < 1e-14 * k) {
      k = next;
      f.converged = true;
      break;
    }
    k = next;
  }
  f.p1 = k;
  f.p2 = mean / k;
}

}  // namespace

const std::vector<Law>& all_laws() {
  static const std::vector<Law> kLaws = {Law::exponential, Law::weibull, Law::gamma,
                                         Law::lognormal};
  return kLaws;
}

std::string law_name(Law law) {
  switch (law) {
    case Law::exponential:
      return "exponential";
    case Law::weibull:
      return "weibull";
    case Law::gamma:
      return "gamma";
    case Law::lognormal:
      return "lognormal";
  }
  return "?";
}

double Fit::cdf(double x) const {
  switch (law) {
    case Law::exponential:
      return dist::Dist::exponential(p1).cdf(x);
    case Law::weibull:
      return dist::Dist::weibull(p1, p2).cdf(x);
    case Law::gamma:
      return dist::Gamma(p1, p2).cdf(x);
    case Law::lognormal:
      return dist::Dist::lognormal(p1, p2).cdf(x);
  }
  return kNaN;
}

double Fit::mean() const {
  switch (law) {
    case Law::exponential:
      return p1;
    case Law::weibull:
      return dist::Dist::weibull(p1, p2).mean();
    case Law::gamma:
      return p1 * p2;
    case Law::lognormal:
      return dist::Dist::lognormal(p1, p2).mean();
  }
  return kNaN;
}

double log_likelihood(Law law, double p1, double p2, const std::vector<double>& failures,
                      const std::vector<double>& censored) {
  if (!valid_params(law, p1, p2)) return kNegInf;
  double ll = 0;
  if (law == Law::gamma) {
    const dist::Gamma g(p1, p2);
    for (const double x : failures) ll += std::log(g.pdf(x));
    for (const double c : censored) ll += std::log(std::max(1.0 - g.cdf(c), 1e-300));
  } else {
    const dist::Dist d = law == Law::exponential ? dist::Dist::exponential(p1)
                         : law == Law::weibull   ? dist::Dist::weibull(p1, p2)
                                                 : dist::Dist::lognormal(p1, p2);
    for (const double x : failures) ll += std::log(d.pdf(x));
    for (const double c : censored) ll += std::log(d.survival(c));
  }
  return std::isnan(ll) ? kNegInf : ll;
}

namespace {

// Without censoring, the log-likelihood from the sample's sums: O(1) for the exponential, gamma
// and lognormal, one exp per time for the Weibull (instead of a pdf and a log per time). Equal
// to log_likelihood() up to rounding; the standard errors take ten evaluations.
class UncensoredLogLikelihood {
 public:
  UncensoredLogLikelihood(Law law, const std::vector<double>& x) : law_(law) {
    n_ = static_cast<double>(x.size());
    logs_.reserve(x.size());
    for (const double v : x) sum_x_ += v, logs_.push_back(std::log(v)), sum_log_ += logs_.back();
    mean_log_ = sum_log_ / n_;
    for (const double l : logs_) m2_log_ += (l - mean_log_) * (l - mean_log_);
  }
  double operator()(double p1, double p2) const {
    if (!valid_params(law_, p1, p2)) return kNegInf;
    double ll = kNaN;
    switch (law_) {
      case Law::exponential:  // mean p1
        ll = -n_ * std::log(p1) - sum_x_ / p1;
        break;
      case Law::gamma:  // shape p1, scale p2
        ll = (p1 - 1) * sum_log_ - sum_x_ / p2 - n_ * std::lgamma(p1) - n_ * p1 * std::log(p2);
        break;
      case Law::lognormal: {  // mu p1, sigma p2: sum (ln x - mu)^2 = m2 + n (mean ln x - mu)^2
        const double d = mean_log_ - p1;
        ll = -sum_log_ - n_ * std::log(p2) - 0.5 * n_ * std::log(2 * std::numbers::pi) -
             (m2_log_ + n_ * d * d) / (2 * p2 * p2);
        break;
      }
      case Law::weibull: {  // shape p1, scale p2
        const double log_scale = std::log(p2);
        double t = 0;  // sum (x / scale)^shape
        for (const double l : logs_) t += std::exp(p1 * (l - log_scale));
        ll = n_ * std::log(p1) - n_ * p1 * log_scale + (p1 - 1) * sum_log_ - t;
        break;
      }
    }
    return std::isnan(ll) ? kNegInf : ll;
  }

 private:
  Law law_;
  double n_ = 0, sum_x_ = 0, sum_log_ = 0, mean_log_ = 0, m2_log_ = 0;
  std::vector<double> logs_;
};

}  // namespace

Fit fit_mle(Law law, const std::vector<double>& failures, const std::vector<double>& censored,
            FitOutput output) {
  if (failures.empty())
    throw InputError("failure times", "0 values", "at least one failure time to fit");
  Sample s{failures, {}, 0, 0};
  for (const double x : failures) {
    if (!(x > 0) || !std::isfinite(x))
      throw InputError("failure time", fmt::format("{}", x), "a finite time > 0");
    s.sum_all += x;
    s.sum_log_fail += std::log(x);
  }
  for (const double c : censored) {
    if (!(c >= 0) || !std::isfinite(c))
      throw InputError("censoring time", fmt::format("{}", c), "a finite time >= 0");
    if (c > 0) s.cens.push_back(c), s.sum_all += c;
  }
  Fit f;
  f.law = law;
  f.failures = static_cast<int>(failures.size());
  f.censored = static_cast<int>(s.cens.size());
  const double r = static_cast<double>(failures.size());
  // With censoring, per time (the gamma's survival has no sum form); without, from the sums.
  const std::optional<UncensoredLogLikelihood> sums =
      s.cens.empty() && output == FitOutput::full
          ? std::optional<UncensoredLogLikelihood>(std::in_place, law, failures)
          : std::nullopt;
  const Objective ll = [&](double a, double b) {
    return sums ? (*sums)(a, b) : log_likelihood(law, a, b, failures, s.cens);
  };
  switch (law) {
    case Law::exponential:
      // Closed form: mean = total time on test / failures; SE = mean / sqrt(r).
      f.p1 = s.sum_all / r;
      f.p2 = kNaN;
      f.se1 = f.p1 / std::sqrt(r);
      f.se2 = kNaN;
      f.converged = true;
      f.log_likelihood = output == FitOutput::full ? ll(f.p1, f.p2) : kNaN;
      return f;
    case Law::weibull:
      fit_weibull(s, f);
      break;
    case Law::gamma: {
      const Sample uncensored{failures,
                              {},
                              s.sum_all - std::accumulate(s.cens.begin(), s.cens.end(), 0.0),
                              s.sum_log_fail};
      fit_gamma_uncensored(uncensored, f);
      if (!s.cens.empty()) {
        double u = std::log(f.p1), v = std::log(f.p2);
        newton_2d([&](double a, double b) { return ll(std::exp(a), std::exp(b)); }, u, v, f);
        f.p1 = std::exp(u), f.p2 = std::exp(v);
      }
      break;
    }
    case Law::lognormal: {
      // Uncensored MLE in closed form (sigma with divisor n); with censoring, Newton from it.
      const double mu = s.sum_log_fail / r;
      double ss = 0;
      for (const double x : failures) ss += (std::log(x) - mu) * (std::log(x) - mu);
      if (!(ss > 0) && s.cens.empty())
        throw InputError("failure times", fmt::format("{} values", failures.size()),
                         "a sample the lognormal MLE exists for (not all failure times equal)");
      f.p1 = mu, f.p2 = std::sqrt(std::max(ss / r, 1e-6));
      f.converged = true;
      if (!s.cens.empty()) {
        f.converged = false;
        double u = f.p1, v = std::log(f.p2);
        newton_2d([&](double a, double b) { return ll(a, std::exp(b)); }, u, v, f);
        f.p1 = u, f.p2 = std::exp(v);
      }
      break;
    }
  }
  // Times near the largest double can put the maximum beyond it (a Weibull scale of
  // tmax * (sum t^k / r)^(1/k) with k near 0): no finite MLE, as for a degenerate sample.
  if (!valid_params(law, f.p1, f.p2))
    throw InputError(
        "failure times", fmt::format("{} values", failures.size()),
        fmt::format("a sample whose {} MLE is finite (got {}, {})", law_name(law), f.p1, f.p2));
  if (output == FitOutput::estimates) {
    f.log_likelihood = f.se1 = f.se2 = kNaN;
    return f;
  }
  f.log_likelihood = ll(f.p1, f.p2);
  standard_errors(ll, f);
  return f;
}

}  // namespace faultsweep::reliability
