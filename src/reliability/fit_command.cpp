#include <fmt/format.h>

#include <cmath>

#include "faultsweep/core/error.hpp"
#include "faultsweep/failures/trace.hpp"
#include "faultsweep/failures/trace_text.hpp"
#include "faultsweep/reliability/fit_log.hpp"

namespace faultsweep::reliability {
namespace {

SystemAnalysis analyse_csv(const std::filesystem::path& log, const FitLogOptions& o) {
  const failures::TraceLog t = failures::read_trace_csv(log, o.stop_on_bad);
  if (t.events.empty()) throw InputError(fmt::format("{}: no failure records", log.string()));
  std::vector<std::vector<double>> times(static_cast<std::size_t>(t.nodes));
  std::vector<std::int64_t> ids(times.size());
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<std::int64_t>(i);
  for (const auto& e : t.events)
    times[static_cast<std::size_t>(e.node)].push_back(e.time_s / 3600.0);
  // Nodes that never failed are not in the analysis (they have no failure time at all).
  std::vector<std::vector<double>> kept;
  std::vector<std::int64_t> kept_ids;
  for (std::size_t i = 0; i < times.size(); ++i)
    if (!times[i].empty()) kept.push_back(times[i]), kept_ids.push_back(ids[i]);
  SystemAnalysis a = analyse_nodes(0, kept_ids, kept, o);
  a.records = t.events.size();
  a.bad_lines = t.bad;
  a.bad_messages = t.bad_messages;
  return a;
}

}  // namespace

int run_fit(const std::filesystem::path& log, const std::string& format, const std::string& out,
            bool overwrite, const FitLogOptions& o, std::FILE* report) {
  // Before the analysis, which can take minutes: a refused output is said at once.
  if (!out.empty()) check_fit_output(out, log, overwrite);
  std::vector<SystemAnalysis> done;
  if (format == "csv") {
    done.push_back(analyse_csv(log, o));
  } else if (format == "lanl") {
    // Read (and decompress) once; every system is parsed from the same text.
    const std::string text = failures::text::read_log(log);
    std::vector<std::int64_t> systems;
    if (o.system)
      systems.push_back(*o.system);
    else
      systems = lanl_systems(text, log.string());
    if (systems.empty()) throw InputError(fmt::format("{}: no failure records", log.string()));
    for (const std::int64_t s : systems) {
      // All systems: one without usable records (no node numbers, no node with a TTF) is
      // reported and skipped; asked for by --system it is an error.
      try {
        done.push_back(analyse_lanl_system(text, log.string(), s, o));
      } catch (const InputError& e) {
        if (o.system || o.stop_on_bad) throw;
        std::fprintf(report, "system %lld skipped: %s\n", static_cast<long long>(s), e.what());
      }
    }
    if (done.empty())
      throw InputError(fmt::format("{}: no system could be analysed", log.string()));
  } else {
    throw InputError("--format", format, "lanl or csv");
  }
  const auto laws = all_laws();
  for (const SystemAnalysis& a : done) {
    std::string best;
    for (std::size_t l = 0; l < laws.size(); ++l)
      best += fmt::format(" {}={}", law_name(laws[l]), a.best_count[l]);
    std::fprintf(report,
                 "system %lld: %zu records, %zu nodes (%d fitted, %d without a TTF), "
                 "%d same-minute repeats dropped; best K-S p:%s\n",
                 static_cast<long long>(a.system), a.records, a.nodes.size(), a.nodes_fitted,
                 a.nodes_without_ttf, a.zero_ttfs, best.c_str());
    if (a.bad_lines > 0) {
      std::fprintf(report, "  %zu bad lines skipped, e.g.:\n", a.bad_lines);
      for (const auto& m : a.bad_messages) std::fprintf(report, "    %s\n", m.c_str());
    }
  }
  if (!out.empty()) write_fit_file(out, done, log.string(), o, overwrite);
  return static_cast<int>(done.size());
}

}  // namespace faultsweep::reliability
