#include "faultsweep/reliability/fit_log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <utility>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/parallel.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/failures/trace.hpp"
#include "faultsweep/failures/trace_text.hpp"
#include "faultsweep/reliability/system.hpp"

namespace faultsweep::reliability {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kHour = 3600.0;
constexpr std::size_t kMaxSpearmanPairs = 1000000;

std::vector<double> sorted_copy(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  return x;
}

// Fits every law to an uncensored sample and tests it (K-S against the fitted law); `sorted` is
// the sample in ascending order (the fits sum in the sample's own order). The laws on `threads`
// threads (a large system's sample; 1 inside per-node work that is already on threads).
std::vector<LawFit> fit_all(const std::vector<double>& sample, const std::vector<double>& sorted,
                            unsigned threads = 1) {
  std::vector<LawFit> out(all_laws().size());
  parallel_for(out.size(), threads, [&](std::size_t l) {
    LawFit& lf = out[l];
    try {
      lf.fit = fit_mle(all_laws()[l], sample);
      lf.ks = ks_test_sorted(sorted, lf.fit);
      lf.ok = std::isfinite(lf.ks.p);
    } catch (const InputError&) {
      lf.ok = false;  // the MLE does not exist for this sample (e.g. all TTFs equal)
    }
  });
  return out;
}

// Every law, the censored Weibull and the best law (largest K-S p) of one node's TTFs.
void fit_node(NodeAnalysis& n) {
  const std::vector<double> sorted = sorted_copy(n.ttf);
  n.laws = fit_all(n.ttf, sorted);
  try {
    n.weibull_censored.fit = fit_mle(Law::weibull, n.ttf, {n.censored});
    n.weibull_censored.ks = ks_test_sorted(sorted, n.weibull_censored.fit);
    n.weibull_censored.ok = true;
  } catch (const InputError&) {
  }
  double best_p = -1;
  for (std::size_t l = 0; l < n.laws.size(); ++l)
    if (n.laws[l].ok && n.laws[l].ks.p > best_p)
      best_p = n.laws[l].ks.p, n.best = static_cast<int>(l);
}

// Nodes 0..k-1 in order, or k of them drawn without replacement (partial Fisher-Yates).
std::vector<std::size_t> choose(std::size_t n, std::size_t k, bool random, Engine* e) {
  std::vector<std::size_t> idx(n);
  for (std::size_t i = 0; i < n; ++i) idx[i] = i;
  if (random)
    for (std::size_t i = 0; i < k; ++i) {
      const auto j = i + static_cast<std::size_t>(uniform01(*e) * static_cast<double>(n - i));
      std::swap(idx[i], idx[std::min(j, n - 1)]);
    }
  idx.resize(k);
  return idx;
}

void systems_of_k(SystemAnalysis& a, const FitLogOptions& o) {
  const std::size_t n = a.nodes.size();
  std::vector<std::size_t> ks;
  for (std::size_t k = 2; k <= 256 && k < n; k *= 2) ks.push_back(k);
  ks.push_back(n);  // all nodes (the thesis's 350)
  for (const bool random : {false, true}) {
    for (const std::size_t k : ks) {
      if (random && k == n) continue;  // all nodes at random = all nodes in order
      Engine e = make_stream(o.seed, 0, Purpose::locations,
                             fmt::format("fit;system={};k={}", a.system, k));
      std::vector<std::vector<double>> times;
      for (const std::size_t i : choose(n, k, random, &e))
        times.push_back(a.nodes[i].failure_times);
      SystemOfK s;
      s.random = random;
      s.k = static_cast<int>(k);
      s.ttf = system_ttfs(times);  // Gottumukkala Fig. 4.1
      if (s.ttf.size() >= 2) s.laws = fit_all(s.ttf, sorted_copy(s.ttf), thread_count(o.threads));
      s.durbin_watson = durbin_watson(s.ttf);
      a.systems_of_k.push_back(std::move(s));
    }
  }
}

// Fig. 3.3: Spearman's rho of the i-th TTFs of node pairs whose common length is >= 3. All
// pairs while they are at most kMaxSpearmanPairs (every LANL system: 1,024 nodes make 523,776
// pairs), in node order; above that a sample of that many pairs drawn at random (with
// replacement, seeded), so the work stays linear in the nodes.
void spearman_pairs(SystemAnalysis& a, const FitLogOptions& o) {
  std::vector<const std::vector<double>*> eligible;  // nodes with >= 3 TTFs, in node order
  for (const auto& n : a.nodes)
    if (n.ttf.size() >= 3) eligible.push_back(&n.ttf);
  const std::size_t e = eligible.size();
  if (e < 2) return;
  // The pairs first (all of them, or a seeded sample), then their coefficients on o.threads
  // threads, kept in the pairs' order: the same values for any number of threads.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  if (e * (e - 1) / 2 <= kMaxSpearmanPairs) {
    pairs.reserve(e * (e - 1) / 2);
    for (std::size_t i = 0; i < e; ++i)
      for (std::size_t j = i + 1; j < e; ++j)
        pairs.emplace_back(static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j));
  } else {
    a.spearman_sampled = true;
    Engine g =
        make_stream(o.seed, 0, Purpose::locations, fmt::format("fit;system={};spearman", a.system));
    const auto draw = [&](std::size_t n) {
      return std::min(n - 1, static_cast<std::size_t>(uniform01(g) * static_cast<double>(n)));
    };
    pairs.reserve(kMaxSpearmanPairs);
    for (std::size_t p = 0; p < kMaxSpearmanPairs; ++p) {
      const std::size_t i = draw(e);
      std::size_t j = draw(e - 1);
      if (j >= i) ++j;  // j != i, uniform over the others
      pairs.emplace_back(static_cast<std::uint32_t>(std::min(i, j)),
                         static_cast<std::uint32_t>(std::max(i, j)));
    }
  }
  std::vector<double> r(pairs.size());
  parallel_for(pairs.size(), thread_count(o.threads), [&](std::size_t p) {
    const auto& x = *eligible[pairs[p].first];
    const auto& y = *eligible[pairs[p].second];
    const std::size_t m = std::min(x.size(), y.size());
    r[p] = spearman({x.begin(), x.begin() + m}, {y.begin(), y.begin() + m});
  });
  a.spearman.reserve(r.size());
  for (const double v : r)
    if (std::isfinite(v)) a.spearman.push_back(v);
}

}  // namespace

std::vector<std::int64_t> lanl_systems(std::string_view text, const std::string& file) {
  failures::text::Lines lines(text);
  std::string_view line;
  if (!lines.next(line)) throw InputError(fmt::format("{}: empty file", file));
  if (line.substr(0, line.find(',')) != "System")
    throw InputError(
        fmt::format("{}:1: the first column is not \"System\"; is this the LANL "
                    "LA-UR-05-7318 failure data?",
                    file));
  std::set<std::int64_t> systems;
  while (lines.next(line)) {
    const std::string_view first = line.substr(0, line.find(','));
    std::int64_t s = 0;
    const auto [ptr, err] = std::from_chars(first.data(), first.data() + first.size(), s);
    if (err == std::errc() && ptr == first.data() + first.size())
      systems.insert(s);  // bad ones: read_lanl reports them
  }
  return {systems.begin(), systems.end()};
}

SystemAnalysis analyse_nodes(std::int64_t system, const std::vector<std::int64_t>& node_ids,
                             std::vector<std::vector<double>> failure_times,
                             const FitLogOptions& o) {
  FS_CHECK(node_ids.size() == failure_times.size(), "analyse_nodes: ids and times differ");
  SystemAnalysis a;
  a.system = system;
  a.best_count.assign(all_laws().size(), 0);
  a.as_good_count.assign(all_laws().size(), 0);
  for (const auto& t : failure_times)
    for (const double x : t) a.end_h = std::max(a.end_h, x);
  // Each node's TTFs on the threads (each writes its own slot), counted in node order.
  a.nodes.resize(node_ids.size());
  parallel_for(node_ids.size(), thread_count(o.threads), [&](std::size_t i) {
    NodeAnalysis& n = a.nodes[i];
    n.node_id = node_ids[i];
    n.failure_times = std::move(failure_times[i]);
    std::sort(n.failure_times.begin(), n.failure_times.end());
    for (std::size_t j = 1; j < n.failure_times.size(); ++j) {
      const double gap = n.failure_times[j] - n.failure_times[j - 1];
      if (gap > 0)
        n.ttf.push_back(gap);
      else
        ++n.zero_ttfs;  // same minute: one failure recorded twice
    }
    n.failure_times.erase(std::unique(n.failure_times.begin(), n.failure_times.end()),
                          n.failure_times.end());
    n.censored = n.failure_times.empty() ? 0.0 : a.end_h - n.failure_times.back();
    n.acf1 = autocorrelation(n.ttf, 1);
    n.durbin_watson = durbin_watson(n.ttf);
  });
  for (const NodeAnalysis& n : a.nodes) {
    a.zero_ttfs += n.zero_ttfs;
    if (n.ttf.empty()) ++a.nodes_without_ttf;
  }
  // The fits, each node on its own: on all threads, counted afterwards in node order.
  parallel_for(a.nodes.size(), thread_count(o.threads), [&](std::size_t i) {
    if (static_cast<int>(a.nodes[i].ttf.size()) >= o.min_ttfs) fit_node(a.nodes[i]);
  });
  for (const NodeAnalysis& n : a.nodes) {
    if (n.best < 0) continue;
    const double best_p = n.laws[static_cast<std::size_t>(n.best)].ks.p;
    ++a.nodes_fitted;
    ++a.best_count[n.best];
    for (std::size_t l = 0; l < n.laws.size(); ++l)
      if (n.laws[l].ok && n.laws[l].ks.p >= best_p - o.tie_tolerance) ++a.as_good_count[l];
  }
  if (a.nodes.empty() || a.nodes_without_ttf == static_cast<int>(a.nodes.size()))
    throw InputError("system", fmt::format("{}", system),
                     "a system with at least one node that failed twice (no TTF otherwise)");
  spearman_pairs(a, o);
  systems_of_k(a, o);
  return a;
}

// Nodes are identifiers (csv: 0 .. 2^31 - 1), not indices: the failures are grouped by sorting,
// so memory follows the records, not the largest identifier.
SystemAnalysis analyse_trace(const failures::TraceLog& t, std::int64_t system,
                             const FitLogOptions& o) {
  std::vector<std::pair<std::int32_t, double>> by_node;
  by_node.reserve(t.events.size());
  for (const auto& e : t.events) by_node.emplace_back(e.node, e.time_s / 3600.0);
  std::stable_sort(by_node.begin(), by_node.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::vector<double>> kept;
  std::vector<std::int64_t> kept_ids;
  for (std::size_t i = 0; i < by_node.size(); ++i) {
    if (i == 0 || by_node[i].first != by_node[i - 1].first) {
      kept.emplace_back();
      kept_ids.push_back(by_node[i].first);
    }
    kept.back().push_back(by_node[i].second);
  }
  SystemAnalysis a = analyse_nodes(system, kept_ids, std::move(kept), o);
  if (!t.node_names.empty())
    for (auto& n : a.nodes) n.name = t.node_names[static_cast<std::size_t>(n.node_id)];
  a.records = t.events.size();
  a.bad_lines = t.bad;
  a.bad_messages = t.bad_messages;
  a.origin_unix_s = t.origin_unix_s;
  a.read_counts = t.counts();
  a.read_summary = t.summary();
  return a;
}

SystemAnalysis analyse_lanl_system(const std::filesystem::path& file, std::int64_t system,
                                   const FitLogOptions& o) {
  return analyse_lanl_system(failures::text::read_log(file), file.string(), system, o);
}

SystemAnalysis analyse_lanl_system(std::string_view text, const std::string& file,
                                   std::int64_t system, const FitLogOptions& o) {
  failures::LanlOptions lo;
  lo.system = system;
  lo.stop_on_bad = o.stop_on_bad;
  const failures::TraceLog log = failures::parse_lanl(text, file, lo);
  if (log.lines == 0) throw InputError(fmt::format("{}: no failure records", file));
  if (log.events.empty())
    throw InputError("system", fmt::format("{}", system),
                     fmt::format("a system with usable failure records in {} ({} of its records "
                                 "bad{}{})",
                                 file, log.bad, log.bad_messages.empty() ? "" : ", e.g. ",
                                 log.bad_messages.empty() ? "" : log.bad_messages.front()));
  std::vector<std::vector<double>> times(static_cast<std::size_t>(log.nodes));
  for (const auto& e : log.events)
    times[static_cast<std::size_t>(e.node)].push_back(e.time_s / kHour);
  SystemAnalysis a = analyse_nodes(system, log.original_node, std::move(times), o);
  a.records = log.events.size();
  a.bad_lines = log.bad;
  a.bad_messages = log.bad_messages;
  a.origin_unix_s = log.origin_unix_s;
  a.read_counts = log.counts();
  a.read_summary = log.summary();
  return a;
}

}  // namespace faultsweep::reliability
