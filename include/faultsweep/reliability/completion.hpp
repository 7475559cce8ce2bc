#pragma once
// Expected completion time of an un-checkpointed parallel job on k nodes (Gottumukkala §6.2-6.4):
//   E[T_c(k)] = T_c(k) + (M + R) F / (1 - F)                                   (Eq. 6.1)
// with T_c(k) = T_c(1) / S(k), S(k) from Amdahl (Eq. 6.2) or Gustafson (Eq. 6.3), F = 1 - R_sys
// over T_c(k) (Eq. 4.10), M the MTTF of the k nodes (Eq. 4.12) and R the recovery time. The k
// nodes are the k most reliable (RA-Opt, Fig. 6.6: nodes sorted by descending reliability over
// the one-node run time T_c(1)).
//
// Table 6.1 (p = 0.895, T_c(1) = 1000 h, optimal k = 14): its per-node failure-rate column is
// lost in the text; R_sys = exp(-T_c(k) sum lambda_i) and M = 1 / sum lambda_i (exponential
// nodes, where Eq. 4.12 is exact) reproduce every printed column with the rates backed out of the
// R_sys column: lambda_i = c_i / 35040 per hour (c = 1,1,1,2,2,3,6,8,10,12,12,16,18,20,30: 0.25 to
// 7.5 failures a year) for the 15 most reliable nodes and 0.0011, 0.0012, 0.0013, 0.0014, 0.0014
// per hour for nodes 16-20 (jobs/gottumukkala/table6_1_nodes.csv).
#include <vector>

#include "faultsweep/reliability/system.hpp"

namespace faultsweep::reliability {

enum class Scaling { amdahl, gustafson };

// S(k): Amdahl 1 / (p / k + 1 - p) (Eq. 6.2); Gustafson (1 - p) + k p (Eq. 6.3).
double speedup(Scaling scaling, double p, int k);

struct CompletionPoint {
  int k = 0;
  double speedup = 0;
  double runtime = 0;       // T_c(k)
  double reliability = 0;   // R_sys over T_c(k), Eq. 4.10
  double failure_rate = 0;  // Eq. 4.11 at the end of the job
  double mttf = 0;          // M, Eq. 4.12
  double expected = 0;      // E[T_c(k)], Eq. 6.1 (T_c(k) when reliability is ignored)
};

struct CompletionJob {
  double runtime_one = 0;  // T_c(1), in the nodes' time unit
  Scaling scaling = Scaling::amdahl;
  double p = 1;         // parallel fraction
  double recovery = 0;  // R
  bool with_reliability = true;
};

class KNodePlanner {
 public:
  // Sorts the nodes by descending reliability over job.runtime_one (stable: ties keep order).
  KNodePlanner(std::vector<Node> nodes, CompletionJob job);
  int nodes() const { return static_cast<int>(nodes_.size()); }
  CompletionPoint at(int k) const;
  // The k in 1..k_max with the least E[T_c(k)] (the first on ties), and its point.
  CompletionPoint optimum(int k_max) const;
  const std::vector<Node>& sorted_nodes() const { return nodes_; }

 private:
  std::vector<Node> nodes_;
  CompletionJob job_;
  // Fast paths: all exponential (prefix sums of rates), or all Weibull with one shape and age 0
  // (the series system is Weibull: prefix sums of scale^-shape). Otherwise a loop over k nodes.
  enum class Path { exponential, weibull_common, general } path_ = Path::general;
  std::vector<double> prefix_;  // prefix sums (rates, or scale^-shape)
  double expected(double runtime, double reliability, double mttf) const;  // Eq. 6.1
  int optimum_general(int k_max) const;
};

}  // namespace faultsweep::reliability
