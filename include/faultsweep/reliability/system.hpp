#pragma once
// A system of k independent nodes in series (Gottumukkala Ch. 4): the system-TTF algorithm of
// Fig. 4.1, and the reliability (Eq. 4.10), failure rate (Eq. 4.11) and MTTF (Eq. 4.12) of a job
// submitted when node i has survived age_i and running for x more hours.
//
// The reading that reproduces §4.4 to the printed digits (all four cases; tests pin them):
//   R_sys(x)  = prod_i S_i(t_i + x) / S_i(t_i)        the excess-life Weibull of Eqs. 4.3-4.4,
//                                                       with S_i(u) = exp(-(u / alpha_i)^beta_i)
//   lambda(x) = sum_i h_i(t_i + x)                     Eq. 4.11 = s_j / (1 - S_j): the system
//                                                       hazard at the END of the job
//   M         = int_0^inf R_sys(y) dy                  Eq. 4.12, E[x] = int x s_j(x) dx
//                                                       integrated by parts: the mean residual
//                                                       life after the survival time t; it does
//                                                       not depend on x, although §4.4 labels it
//                                                       E(100), E(500), ...
// In §4.4 alpha is the scale ("1542^0.8606" divides t^beta) and every node takes the same t,
// even in Fig. 4.6 where node 2 has just failed: the printed numbers use t = 200 for all three.
#include <functional>
#include <vector>

#include "faultsweep/core/rng.hpp"
#include "faultsweep/dist/distribution.hpp"

namespace faultsweep::reliability {

// Fig. 4.1: the system failure times are the merged failure times of the nodes; the system TTFs
// are the gaps between consecutive system failures. Failures of several nodes at the same instant
// interrupt the application once (assumption 5 of §4.2: one failure at a time), so equal times
// merge into one system failure. The first system failure starts the first TTF (the time from
// the start of observation to it is not a TTF: nothing says the system was new there).
std::vector<double> system_ttfs(const std::vector<std::vector<double>>& node_failure_times);

// A node: its failure law (Weibull, exponential, lognormal: dist::Dist) and its age t (time
// since its last renewal) when the job is submitted.
struct Node {
  dist::Dist law = dist::Dist::exponential(1.0);
  double age = 0;
};

// -log of the excess-life survival S(t + x) / S(t) of one node (its cumulative hazard over
// (t, t + x]); Gottumukkala Eq. 4.3 for the Weibull.
double excess_cumulative_hazard(const Node& n, double x);

double system_reliability(const std::vector<Node>& nodes, double x);   // Eq. 4.10
double system_failure_rate(const std::vector<Node>& nodes, double x);  // Eq. 4.11
double system_mttf(const std::vector<Node>& nodes);                    // Eq. 4.12

// int_0^inf exp(-H(y)) dy for a non-decreasing cumulative hazard H with H(0) = 0: Gauss-Legendre
// on geometrically graded intervals around the median, until exp(-H) < 1e-18.
double integrate_survival(const std::function<double(double)>& cumulative_hazard);

// The same quadrature on one fixed grid for many survival functions whose medians lie between
// lo_median and hi_median (within a factor 2): int exp(-H) = sum_q w_q exp(-H(y_q)). Lets a
// caller accumulate H node by node (KNodePlanner::optimum).
struct SurvivalGrid {
  std::vector<double> y, w;
};
SurvivalGrid survival_grid(double lo_median, double hi_median);
// A y with H(y) = log 2 within a factor 2 (H non-decreasing, H(0) = 0).
double median_of(const std::function<double(double)>& cumulative_hazard);

// One draw of the system TTF after survival times t_i (Eq. 4.14 per node: dist's excess-life
// sampling; the system TTF is the minimum over the nodes).
double sample_system_ttf(const std::vector<Node>& nodes, Engine& e);

}  // namespace faultsweep::reliability
