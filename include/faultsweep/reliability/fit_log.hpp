#pragma once
// `faultsweep fit`: Gottumukkala Ch. 3 on a failure log. Per node: TTFs (hours between its
// consecutive failures), the four laws fitted (uncensored, as in the thesis, for the K-S ranking of
// Table 3.2) and the Weibull fitted with the survival from the node's last failure to the end of
// the log as a right-censored observation; which law fits best (Table 3.2); systems of k = 2, 4,
// ..., 256 nodes and all nodes, taken in node order and at random, through Fig. 4.1 (Table 3.3);
// the shape / scale / MTTF summary over nodes (Table 3.5); Spearman correlation of the i-th TTFs
// of node pairs (Fig. 3.3); lag-1 autocorrelation and Durbin-Watson per node and per system of k
// (Figs. 3.4-3.5).
//
// Data handling (documented in docs/input-files.md):
//  - the log is read by failures::read_lanl (bad lines: file:line, skipped and counted);
//  - a node's failures in the same minute (TTF = 0: the log's resolution) are one failure: the
//    zero gap is dropped and counted (`zero_ttfs`);
//  - a node with one failure has no TTF (only a censored survival): counted, not fitted;
//  - a node is fitted with at least `min_ttfs` TTFs (default 3); a law whose MLE does not exist
//    (all TTFs equal) is NaN for that node;
//  - the end of observation of a system is its last recorded failure.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "faultsweep/reliability/fit.hpp"
#include "faultsweep/reliability/gof.hpp"

namespace faultsweep::failures {
struct TraceLog;
}

namespace faultsweep::reliability {

struct FitLogOptions {
  std::optional<std::int64_t> system;  // all systems if not given
  int min_ttfs = 3;
  std::uint64_t seed = 1;                   // the random node orders of Table 3.3
  double tie_tolerance = 0.01;              // p-values within this of the best count as "as good"
  bool stop_on_bad = false;                 // bad log lines: fatal instead of skipped
  std::string node_prefix;                  // fta: only nodes whose node_name starts with this
  std::optional<std::string> node_pattern;  // pnnl: which Hardware Identifiers are nodes
  std::string reason;                       // slurm: keep only events whose Reason matches
  std::string exclude_reason;               // slurm: drop events whose Reason matches
  unsigned threads = 0;                     // per-node fits on this many threads (0: all)
};

struct LawFit {
  Fit fit;
  KsResult ks;
  bool ok = false;  // false: not fitted (too few TTFs, or the MLE does not exist)
};

struct NodeAnalysis {
  std::int64_t node_id = 0;           // the log's node number (fta, pnnl: the reader's index)
  std::string name;                   // fta, pnnl: the log's name of the node
  std::vector<double> failure_times;  // hours since the system's origin, sorted, deduplicated
  std::vector<double> ttf;            // hours
  double censored = 0;                // hours from the last failure to the end of observation
  int zero_ttfs = 0;
  std::vector<LawFit> laws;  // all_laws() order
  LawFit weibull_censored;
  int best = -1;  // index of the law with the highest K-S p; -1 if not fitted
  double acf1 = 0, durbin_watson = 0;
};

struct SystemOfK {
  bool random = false;
  int k = 0;
  std::vector<double> ttf;
  std::vector<LawFit> laws;
  double durbin_watson = 0;
};

struct SystemAnalysis {
  std::int64_t system = 0;
  std::size_t records = 0, bad_lines = 0;
  std::vector<std::string> bad_messages;
  // What the log's reader kept and dropped for this system (failures::TraceLog::counts() and
  // summary()), stored in the fit file and printed by `fit` when something was dropped.
  std::vector<std::pair<std::string, std::int64_t>> read_counts;
  std::string read_summary;
  double origin_unix_s = 0, end_h = 0;
  std::vector<NodeAnalysis> nodes;
  int nodes_without_ttf = 0, nodes_fitted = 0, zero_ttfs = 0;
  std::vector<int> best_count, as_good_count;  // Table 3.2, per law
  std::vector<SystemOfK> systems_of_k;         // Table 3.3
  std::vector<double> spearman;                // Fig. 3.3: one value per node pair
  bool spearman_sampled = false;  // true: a random sample of 10^6 pairs, not all of them
};

// Systems present in the text of a LANL LA-UR-05-7318 file, ascending (a scan of its System
// column); `file` names it in messages.
std::vector<std::int64_t> lanl_systems(std::string_view text, const std::string& file);

// Reads one system with failures::parse_lanl and analyses it. Throws InputError for an empty
// log, a system absent from it, or a system with no node holding a TTF. The text overload lets
// `fit` read (and decompress) a log once for all its systems.
SystemAnalysis analyse_lanl_system(const std::filesystem::path& file, std::int64_t system,
                                   const FitLogOptions& options);
SystemAnalysis analyse_lanl_system(std::string_view text, const std::string& file,
                                   std::int64_t system, const FitLogOptions& options);

// The analysis of per-node failure times (hours) already read; exposed for tests. The work is
// linear in the nodes and their failures (Spearman's pairs are sampled beyond 10^6).
SystemAnalysis analyse_nodes(std::int64_t system, const std::vector<std::int64_t>& node_ids,
                             std::vector<std::vector<double>> failure_times,
                             const FitLogOptions& options);

// One system from a failure log already read (failures/trace.hpp): each node's failure times,
// analysed as by analyse_nodes. Nodes that never failed are not in it (no failure time at all);
// for logs that name their nodes (fta, pnnl) node_id is the reader's index and the name is kept.
SystemAnalysis analyse_trace(const failures::TraceLog& log, std::int64_t system,
                             const FitLogOptions& options);

}  // namespace faultsweep::reliability
