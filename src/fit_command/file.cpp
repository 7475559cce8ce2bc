// The HDF5 file of `faultsweep fit` (filetype "faultsweep-fit", schema version 1; layout in
// docs/papers/gottumukkala.md, "faultsweep fit") and the k_node model's reader of its per-node
// Weibull fits.
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>

#include "faultsweep/core/build_info.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/fit_command/fit_command.hpp"
#include "faultsweep/io/h5.hpp"
#include "faultsweep/io/output.hpp"
#include "faultsweep/reliability/node_table.hpp"

namespace faultsweep::fit_command {

using namespace reliability;
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::int64_t kSchemaVersion = 1;

class Writer {
 public:
  Writer(hid_t g, std::string file) : g_(g), f_(std::move(file)) {}
  void column(const std::string& name, const std::vector<double>& v, const std::string& units,
              const std::string& description) {
    io::write_doubles(g_, name, v, {v.size()}, f_);
    io::describe(g_, name, units, description, f_);
  }
  // A column of one value per row, taken from each row by `get`.
  template <class Row>
  void column(const std::string& name, const std::vector<Row>& rows,
              const std::function<double(const Row&)>& get, const std::string& units,
              const std::string& description) {
    std::vector<double> v;
    v.reserve(rows.size());
    for (const Row& r : rows) v.push_back(get(r));
    column(name, v, units, description);
  }

 private:
  hid_t g_;
  std::string f_;
};

// Parameter units by law: p1 is a time for the exponential, p2 a time for Weibull and gamma.
std::string p1_units(Law l) {
  return l == Law::exponential ? "h" : l == Law::lognormal ? "log h" : "1";
}
std::string p2_units(Law l) {
  return l == Law::exponential ? "" : l == Law::lognormal ? "1" : "h";
}

// The fit columns <prefix>_{p1,p2,se1,se2,loglik,mttf_h,ks_d,ks_p} of one law over rows.
template <class Row>
void fit_columns(Writer& w, const std::vector<Row>& rows, const std::string& prefix, Law law,
                 const std::function<const LawFit*(const Row&)>& get) {
  auto col = [&](const std::string& n, auto f, const std::string& u, const std::string& d) {
    w.column<Row>(
        prefix + "_" + n, rows,
        [&](const Row& r) {
          const LawFit* lf = get(r);
          return lf && lf->ok ? f(*lf) : kNaN;
        },
        u, d);
  };
  const std::string what = law_name(law) + " MLE";
  col(
      "p1", [](const LawFit& l) { return l.fit.p1; }, p1_units(law),
      what + " first parameter (exponential: mean; weibull, gamma: shape; lognormal: mu)");
  col(
      "p2", [](const LawFit& l) { return l.fit.p2; }, p2_units(law),
      what + " second parameter (weibull, gamma: scale; lognormal: sigma)");
  col(
      "se1", [](const LawFit& l) { return l.fit.se1; }, p1_units(law), "standard error of p1");
  col(
      "se2", [](const LawFit& l) { return l.fit.se2; }, p2_units(law), "standard error of p2");
  col(
      "loglik", [](const LawFit& l) { return l.fit.log_likelihood; }, "1", "log-likelihood");
  col(
      "mttf_h", [](const LawFit& l) { return l.fit.mean(); }, "h", "mean of the fitted law");
  col(
      "ks_d", [](const LawFit& l) { return l.ks.d; }, "1", "Kolmogorov-Smirnov statistic D");
  col(
      "ks_p", [](const LawFit& l) { return l.ks.p; }, "1",
      "K-S p-value (exact for n <= 100, asymptotic above)");
}

// Table 3.5 rows: minimum, maximum, mean, median, standard deviation (n - 1) of the finite values.
std::vector<double> summary(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }), v.end());
  if (v.empty()) return std::vector<double>(5, kNaN);
  std::sort(v.begin(), v.end());
  const double n = static_cast<double>(v.size());
  double mean = 0;
  for (const double x : v) mean += x / n;
  double ss = 0;
  for (const double x : v) ss += (x - mean) * (x - mean);
  const std::size_t h = v.size() / 2;
  const double median = v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
  return {v.front(), v.back(), mean, median, v.size() > 1 ? std::sqrt(ss / (n - 1)) : kNaN};
}

void write_system(hid_t root, const SystemAnalysis& a, const std::string& f) {
  io::Handle g = io::create_group(root, fmt::format("system_{}", a.system), f);
  const hid_t gid = g.id();
  io::write_attr(gid, "system", a.system, f);
  io::write_attr(gid, "records", static_cast<std::int64_t>(a.records), f);
  io::write_attr(gid, "bad_lines", static_cast<std::int64_t>(a.bad_lines), f);
  io::write_attr(gid, "origin_unix_s", a.origin_unix_s, f);
  io::write_attr(gid, "end_h", a.end_h, f);
  io::write_attr(gid, "nodes", static_cast<std::int64_t>(a.nodes.size()), f);
  io::write_attr(gid, "nodes_fitted", static_cast<std::int64_t>(a.nodes_fitted), f);
  io::write_attr(gid, "nodes_without_ttf", static_cast<std::int64_t>(a.nodes_without_ttf), f);
  io::write_attr(gid, "zero_ttfs", static_cast<std::int64_t>(a.zero_ttfs), f);
  // What the reader kept and dropped for this system, as `run` stores it for its inputs.
  io::write_attr(gid, "read_summary", a.read_summary, f);
  for (const auto& [name, n] : a.read_counts) io::write_attr(gid, "read_" + name, n, f);

  io::Handle nodes = io::create_group(gid, "nodes", f);
  Writer w(nodes.id(), f);
  using N = NodeAnalysis;
  const auto& rows = a.nodes;
  w.column<N>(
      "node_id", rows, [](const N& n) { return static_cast<double>(n.node_id); }, "1",
      "node number in the log (fta, pnnl: the reader's index, in order of first appearance)");
  std::vector<std::string> names;
  names.reserve(rows.size());
  for (const N& n : rows) names.push_back(n.name.empty() ? fmt::format("{}", n.node_id) : n.name);
  io::write_strings(nodes.id(), "node_name", names, f);
  io::describe(nodes.id(), "node_name", "",
               "the log's name of the node (lanl, csv: its number; fta: node_name; pnnl: "
               "Hardware Identifier)",
               f);
  w.column<N>(
      "failures", rows, [](const N& n) { return static_cast<double>(n.failure_times.size()); }, "1",
      "distinct failure times of the node");
  w.column<N>(
      "ttf_count", rows, [](const N& n) { return static_cast<double>(n.ttf.size()); }, "1",
      "TTFs of the node (gaps between its failures)");
  w.column<N>(
      "censored_h", rows, [](const N& n) { return n.censored; }, "h",
      "survival from the node's last failure to the end of observation (right-censored)");
  w.column<N>(
      "zero_ttfs", rows, [](const N& n) { return static_cast<double>(n.zero_ttfs); }, "1",
      "same-minute repeats dropped");
  w.column<N>(
      "best_law", rows, [](const N& n) { return static_cast<double>(n.best); }, "1",
      "index into the root attribute `laws` of the highest K-S p; -1 if not fitted");
  w.column<N>(
      "acf1", rows, [](const N& n) { return n.acf1; }, "1", "lag-1 autocorrelation of TTFs");
  w.column<N>(
      "durbin_watson", rows, [](const N& n) { return n.durbin_watson; }, "1",
      "Durbin-Watson statistic of the TTF series");
  for (std::size_t l = 0; l < all_laws().size(); ++l)
    fit_columns<N>(w, rows, law_name(all_laws()[l]), all_laws()[l],
                   [l](const N& n) { return n.laws.empty() ? nullptr : &n.laws[l]; });
  fit_columns<N>(w, rows, "weibull_censored", Law::weibull,
                 [](const N& n) { return &n.weibull_censored; });

  std::vector<double> idx, ttf;
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (const double t : rows[i].ttf) idx.push_back(static_cast<double>(i)), ttf.push_back(t);
  io::Handle tg = io::create_group(gid, "ttf", f);
  Writer tw(tg.id(), f);
  tw.column("node_index", idx, "1", "row in nodes/ of each TTF");
  tw.column("ttf_h", ttf, "h", "the TTFs of every node, node after node, in time order");

  io::Handle bg = io::create_group(gid, "best_law", f);
  Writer bw(bg.id(), f);
  std::vector<double> best(a.best_count.begin(), a.best_count.end());
  std::vector<double> good(a.as_good_count.begin(), a.as_good_count.end());
  bw.column("best_count", best, "1", "nodes whose highest K-S p is this law's (Table 3.2)");
  bw.column("as_good_count", good, "1",
            "nodes where this law's p is within tie_tolerance of the best");

  io::Handle sg = io::create_group(gid, "summary", f);
  Writer sw(sg.id(), f);
  auto pick = [&](auto get) {
    std::vector<double> v;
    for (const N& n : rows) v.push_back(get(n));
    return summary(v);
  };
  auto fitted = [](const LawFit* lf, auto get) { return lf && lf->ok ? get(lf->fit) : kNaN; };
  const std::size_t wb = 1;  // all_laws()[1] is the Weibull
  sw.column("weibull_shape", pick([&](const N& n) {
              return fitted(n.laws.empty() ? nullptr : &n.laws[wb],
                            [](const Fit& x) { return x.p1; });
            }),
            "1", "min, max, mean, median, std over fitted nodes (Table 3.5)");
  sw.column("weibull_scale_h", pick([&](const N& n) {
              return fitted(n.laws.empty() ? nullptr : &n.laws[wb],
                            [](const Fit& x) { return x.p2; });
            }),
            "h", "min, max, mean, median, std (Table 3.5)");
  sw.column("weibull_mttf_h", pick([&](const N& n) {
              return fitted(n.laws.empty() ? nullptr : &n.laws[wb],
                            [](const Fit& x) { return x.mean(); });
            }),
            "h", "min, max, mean, median, std (Fig. 3.6b)");
  sw.column("weibull_censored_shape", pick([&](const N& n) {
              return fitted(&n.weibull_censored, [](const Fit& x) { return x.p1; });
            }),
            "1", "as weibull_shape, fits with the censored survival");
  sw.column("weibull_censored_scale_h", pick([&](const N& n) {
              return fitted(&n.weibull_censored, [](const Fit& x) { return x.p2; });
            }),
            "h", "as weibull_scale_h, with the censored survival");

  io::Handle kg = io::create_group(gid, "system_of_k", f);
  Writer kw(kg.id(), f);
  using K = SystemOfK;
  const auto& ks = a.systems_of_k;
  kw.column<K>(
      "random", ks, [](const K& s) { return s.random ? 1.0 : 0.0; }, "1",
      "1: k nodes drawn at random; 0: the first k in node order (Table 3.3)");
  kw.column<K>(
      "k", ks, [](const K& s) { return static_cast<double>(s.k); }, "1", "nodes");
  kw.column<K>(
      "ttf_count", ks, [](const K& s) { return static_cast<double>(s.ttf.size()); }, "1",
      "system TTFs (Fig. 4.1)");
  kw.column<K>(
      "durbin_watson", ks, [](const K& s) { return s.durbin_watson; }, "1",
      "Durbin-Watson of the system TTFs (Fig. 3.5)");
  for (std::size_t l = 0; l < all_laws().size(); ++l)
    fit_columns<K>(kw, ks, law_name(all_laws()[l]), all_laws()[l],
                   [l](const K& s) { return s.laws.empty() ? nullptr : &s.laws[l]; });

  Writer cw(gid, f);
  cw.column("spearman", a.spearman, "1",
            "Spearman rho of the i-th TTFs of each node pair with >= 3 common TTFs (Fig. 3.3); "
            "all pairs up to 10^6, else 10^6 pairs drawn at random (spearman_sampled = 1)");
  io::write_attr(gid, "spearman_sampled", static_cast<std::int64_t>(a.spearman_sampled), f);
}

}  // namespace

void check_fit_output(const std::filesystem::path& out, const std::filesystem::path& log,
                      bool overwrite) {
  io::check_output(out, {"--out", kFitFileType}, overwrite, {{log, "the failure log"}});
}

namespace {

void write_fit_contents(io::File& file, const std::vector<SystemAnalysis>& systems,
                        const FitInput& in, const FitLogOptions& o) {
  const std::string& f = file.path();
  const hid_t root = file.id();
  io::write_attr(root, "filetype", std::string(kFitFileType), f);
  io::write_attr(root, "schema_version", kSchemaVersion, f);
  io::write_attr(root, "faultsweep_version", std::string(version()), f);
  io::write_attr(root, "git_sha", std::string(git_sha()), f);
  io::write_attr(root, "compiler", std::string(compiler()), f);
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  io::write_attr(root, "created_utc", fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(now)), f);
  io::write_attr(root, "log_file", in.file, f);
  io::write_attr(root, "log_format", in.format, f);
  io::write_attr(root, "log_sha256", in.sha256, f);
  io::write_attr(root, "log_size_bytes", static_cast<std::uint64_t>(in.size_bytes), f);
  io::write_attr(root, "node_filter", in.node_filter, f);
  std::string laws, names;
  for (const Law l : all_laws()) laws += (laws.empty() ? "" : ",") + law_name(l);
  for (const auto& s : systems) names += (names.empty() ? "" : ",") + fmt::format("{}", s.system);
  io::write_attr(root, "laws", laws, f);
  io::write_attr(root, "systems", names, f);
  io::write_attr(root, "time_units", std::string("h"), f);
  io::write_attr(root, "min_ttfs", static_cast<std::int64_t>(o.min_ttfs), f);
  io::write_attr(root, "seed", static_cast<std::uint64_t>(o.seed), f);
  io::write_attr(root, "tie_tolerance", o.tie_tolerance, f);
  io::write_attr(root, "ks_exact_max_n", static_cast<std::int64_t>(100), f);
  for (const auto& s : systems) write_system(root, s, f);
}

}  // namespace

void write_fit_file(const std::filesystem::path& out, const std::vector<SystemAnalysis>& systems,
                    const FitInput& input, const FitLogOptions& o, bool overwrite) {
  check_fit_output(out, input.file, overwrite);
  const std::filesystem::path tmp = out.string() + fmt::format(".tmp.{}", ::getpid());
  io::File file = io::File::create(tmp);
  try {
    write_fit_contents(file, systems, input, o);
    file.close();  // the close writes the last metadata: a full disk shows here
  } catch (...) {
    file.discard();  // no partial file left behind, also on a full disk
    throw;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, out, ec);
  if (ec) {
    const std::string why = ec.message();  // before the remove below reuses `ec`
    std::filesystem::remove(tmp, ec);
    throw IoError(fmt::format("{}: cannot rename to {}: {}", tmp.string(), out.string(), why));
  }
}

std::vector<Node> read_fit_nodes(const std::filesystem::path& fit_file,
                                 std::optional<std::int64_t> system) {
  io::File file = io::File::open_read(fit_file);
  const std::string f = fit_file.string();
  if (!io::has_attr(file.id(), "filetype") ||
      io::read_attr_string(file.id(), "filetype", f) != kFitFileType)
    throw InputError(fmt::format("{}: not a `faultsweep fit` file (filetype)", f));
  if (io::read_attr_int(file.id(), "schema_version", f) != kSchemaVersion)
    throw InputError(fmt::format("{}: schema_version is not {}", f, kSchemaVersion));
  const std::string names = io::read_attr_string(file.id(), "systems", f);
  if (!system) {
    if (names.find(',') != std::string::npos)
      throw InputError("system", "", fmt::format("one of {} (the file holds several)", names));
    system = std::stoll(names);
  }
  const std::string group = fmt::format("system_{}", *system);
  if (!io::exists(file.id(), group))
    throw InputError("system", fmt::format("{}", *system),
                     fmt::format("one of {} in {}", names, f));
  io::Handle g = io::open_group(file.id(), group + "/nodes", f);
  std::vector<hsize_t> dims;
  const std::vector<double> shape = io::read_doubles(g.id(), "weibull_p1", dims, f);
  const std::vector<double> scale = io::read_doubles(g.id(), "weibull_p2", dims, f);
  std::vector<Node> nodes;
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (std::isfinite(shape[i]) && std::isfinite(scale[i]) && shape[i] > 0 && scale[i] > 0)
      nodes.push_back({dist::Dist::weibull(shape[i], scale[i]), 0.0});
  if (nodes.empty())
    throw InputError("node_fit", f,
                     fmt::format("system {} has no node with a Weibull fit", *system));
  return nodes;
}

}  // namespace faultsweep::fit_command
