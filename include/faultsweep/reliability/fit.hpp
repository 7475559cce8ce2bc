#pragma once
// Maximum-likelihood fits of the four time-to-failure laws of Gottumukkala's Table 3.1
// (exponential, Weibull, gamma, lognormal) to a sample of failure times, optionally with
// right-censored survivals (e.g. a node's time from its last failure to the end of the log),
// with standard errors from the observed information (the inverse of minus the Hessian of the
// log-likelihood at the maximum, Eigen). The pdf / cdf / survival are those of dist/.
#include <string>
#include <vector>

namespace faultsweep::reliability {

enum class Law { exponential, weibull, gamma, lognormal };

// The four laws in Table 3.2's order of columns in our output (fixed: part of the file format).
const std::vector<Law>& all_laws();
std::string law_name(Law law);

// One fitted law. Parameters by law (the names in the HDF5 output):
//   exponential: p1 = mean (scale) [time],         p2 = NaN
//   weibull:     p1 = shape,  p2 = scale [time]    (cdf 1 - exp(-(x/scale)^shape))
//   gamma:       p1 = shape,  p2 = scale [time]    (mean shape * scale)
//   lognormal:   p1 = mu (of log time), p2 = sigma
struct Fit {
  Law law = Law::exponential;
  double p1 = 0, p2 = 0;
  double se1 = 0, se2 = 0;  // standard errors (observed information); NaN if singular
  double log_likelihood = 0;
  int failures = 0;  // uncensored observations
  int censored = 0;
  int iterations = 0;
  bool converged = false;

  double cdf(double x) const;
  double mean() const;  // the fitted MTTF
};

// Fits `law` to failure times (> 0) and right-censored survival times (>= 0; a survival of 0
// carries no information and is ignored). Throws InputError if there is no failure time, a time
// is not finite or a failure time is <= 0, or (for the two-parameter laws) all failure times are
// equal and nothing is censored, where the MLE does not exist.
// FitOutput::estimates leaves log_likelihood and the two-parameter laws' se1, se2 NaN (their ten
// likelihood evaluations cost more than the fit itself); the estimates are the same bits.
enum class FitOutput { full, estimates };
Fit fit_mle(Law law, const std::vector<double>& failures, const std::vector<double>& censored = {},
            FitOutput output = FitOutput::full);

// Log-likelihood of a law with the given parameters (for tests and profile checks).
double log_likelihood(Law law, double p1, double p2, const std::vector<double>& failures,
                      const std::vector<double>& censored);

}  // namespace faultsweep::reliability
