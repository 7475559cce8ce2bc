#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <utility>

#include "faultsweep/core/error.hpp"
#include "faultsweep/failures/fta.hpp"
#include "faultsweep/failures/pnnl.hpp"
#include "faultsweep/failures/trace.hpp"
#include "faultsweep/failures/trace_text.hpp"
#include "faultsweep/reliability/fit_log.hpp"

namespace faultsweep::reliability {
namespace {

// failures::read_lanl reads one system per pass and runs `xz -dc` on every pass; for all systems
// of a compressed log the passes share one decompressed copy in the temp folder (removed after).
// Messages that name the copy are rewritten to name the log.
class PlainCopy {
 public:
  explicit PlainCopy(const std::filesystem::path& log) : log_(log) {
    if (log.extension() != ".xz") return;
    tmp_ = std::filesystem::temp_directory_path() /
           fmt::format("faultsweep-fit-{}-{}.csv", ::getpid(), log.stem().string());
    std::string quoted = "'";
    for (const char c : log.string())
      quoted += (c == '\'') ? std::string("'\\''") : std::string(1, c);
    quoted += "'";
    const std::string cmd = fmt::format("xz -dc -- {} > '{}'", quoted, tmp_.string());
    if (std::system(cmd.c_str()) != 0) {
      std::error_code ec;
      std::filesystem::remove(tmp_, ec);
      throw IoError(fmt::format("{}: `xz -dc` failed; is xz installed?", log.string()));
    }
  }
  ~PlainCopy() {
    std::error_code ec;
    if (!tmp_.empty()) std::filesystem::remove(tmp_, ec);
  }
  PlainCopy(const PlainCopy&) = delete;
  PlainCopy& operator=(const PlainCopy&) = delete;
  std::filesystem::path path() const { return tmp_.empty() ? log_ : tmp_; }
  std::string rename(std::string text) const {
    if (tmp_.empty()) return text;
    const std::string from = tmp_.string(), to = log_.string();
    for (auto pos = text.find(from); pos != std::string::npos;
         pos = text.find(from, pos + to.size()))
      text.replace(pos, from.size(), to);
    return text;
  }

 private:
  std::filesystem::path log_, tmp_;
};

// An FTA event trace: one system per platform_id (all of them, or the one given by --system),
// or the whole file as system 0 if it has no platform_id column.
void analyse_fta(const std::filesystem::path& log, const FitLogOptions& o,
                 std::vector<SystemAnalysis>& done, std::FILE* report) {
  const std::string text = failures::text::read_log(log);
  failures::FtaOptions fo;
  fo.stop_on_bad = o.stop_on_bad;
  fo.node_prefix = o.node_prefix;
  std::vector<std::int64_t> platforms;
  if (o.system)
    platforms.push_back(*o.system);
  else
    platforms = failures::fta_platforms(text);
  if (platforms.empty()) {
    done.push_back(analyse_trace(failures::parse_fta(text, log.string(), fo), 0, o));
    return;
  }
  for (const std::int64_t p : platforms) {
    fo.platform = p;
    try {
      done.push_back(analyse_trace(failures::parse_fta(text, log.string(), fo), p, o));
    } catch (const InputError& e) {
      if (o.system || o.stop_on_bad) throw;
      std::fprintf(report, "platform %lld skipped: %s\n", static_cast<long long>(p), e.what());
    }
  }
  if (done.empty())
    throw InputError(fmt::format("{}: no platform could be analysed", log.string()));
}

failures::TraceLog read_pnnl_for_fit(const std::filesystem::path& log, const FitLogOptions& o) {
  failures::PnnlOptions po;
  po.downtime_s = 0;  // not used by the analysis: only the failure times are
  if (o.node_pattern) po.node_pattern = *o.node_pattern;
  po.stop_on_bad = o.stop_on_bad;
  return failures::read_pnnl(log, po);
}

}  // namespace

int run_fit(const std::filesystem::path& log, const std::string& format, const std::string& out,
            bool overwrite, const FitLogOptions& o, std::FILE* report) {
  std::vector<SystemAnalysis> done;
  if ((format == "csv" || format == "pnnl") && o.system)
    throw InputError("--system", fmt::format("{}", *o.system),
                     fmt::format("not with --format {}: the log is one system", format));
  if (!o.node_prefix.empty() && format != "fta")
    throw InputError("--node-prefix", o.node_prefix, "only with --format fta");
  if (o.node_pattern && format != "pnnl")
    throw InputError("--node-pattern", *o.node_pattern, "only with --format pnnl");
  if (format == "csv") {
    done.push_back(analyse_trace(failures::read_trace_csv(log, o.stop_on_bad), 0, o));
  } else if (format == "pnnl") {
    done.push_back(analyse_trace(read_pnnl_for_fit(log, o), 0, o));
  } else if (format == "fta") {
    analyse_fta(log, o, done, report);
  } else if (format == "lanl") {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(log, ec))
      throw InputError(fmt::format("{}: cannot open file (no such regular file)", log.string()));
    const PlainCopy plain(o.system ? std::filesystem::path() : log);
    std::vector<std::int64_t> systems;
    if (o.system)
      systems.push_back(*o.system);
    else
      systems = lanl_systems(plain.path());
    if (systems.empty()) throw InputError(fmt::format("{}: no failure records", log.string()));
    for (const std::int64_t s : systems) {
      if (o.system) {
        done.push_back(analyse_lanl_system(log, s, o));
        continue;
      }
      // All systems: one without usable records (no node numbers, no node with a TTF) is
      // reported and skipped; asked for by --system it is an error.
      try {
        done.push_back(analyse_lanl_system(plain.path(), s, o));
        for (auto& m : done.back().bad_messages) m = plain.rename(m);
      } catch (const InputError& e) {
        if (o.stop_on_bad) throw InputError(plain.rename(e.what()));
        std::fprintf(report, "system %lld skipped: %s\n", static_cast<long long>(s),
                     plain.rename(e.what()).c_str());
      }
    }
    if (done.empty())
      throw InputError(fmt::format("{}: no system could be analysed", log.string()));
  } else {
    throw InputError("--format", format, "one of lanl, csv, fta, pnnl");
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
