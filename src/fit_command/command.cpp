#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <utility>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/hash.hpp"
#include "faultsweep/core/parallel.hpp"
#include "faultsweep/failures/fta.hpp"
#include "faultsweep/failures/pnnl.hpp"
#include "faultsweep/failures/slurm_events.hpp"
#include "faultsweep/failures/trace.hpp"
#include "faultsweep/failures/trace_text.hpp"
#include "faultsweep/fit_command/fit_command.hpp"
#include "faultsweep/io/h5.hpp"

namespace faultsweep::fit_command {

using namespace reliability;
namespace {

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

// Which nodes of the log the fit covers, in the log's own terms (stored as `node_filter`).
std::string describe_filter(const std::string& format, const FitLogOptions& o) {
  const std::string one = o.system ? fmt::format(" = {}", *o.system) : "";
  std::string f = format == "lanl" ? (o.system ? "System" + one : "every System, one system each")
                  : format == "fta"
                      ? (o.system ? "platform_id" + one : "every platform_id, one system each")
                  : format == "pnnl" ? fmt::format("Hardware Identifiers matching \"{}\"",
                                                   o.node_pattern.value_or("(node|n) *[0-9]+"))
                                     : "every node";
  if (!o.node_prefix.empty()) f += fmt::format(", node_name starting with \"{}\"", o.node_prefix);
  return f;
}

// The log's size and SHA-256, of its bytes as stored (compressed or not), as `run` records the
// files a job reads.
FitInput identify_log(const std::filesystem::path& log, const std::string& format,
                      const FitLogOptions& o) {
  FitInput in{log.string(), format, describe_filter(format, o), "", 0};
  std::ifstream f(log, std::ios::binary);
  std::string bytes;
  if (f) bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  if (!f && !f.eof())
    throw IoError(
        fmt::format("{}: cannot read it again to hash it: {}", in.file, std::strerror(errno)));
  in.sha256 = sha256_hex(bytes);
  in.size_bytes = bytes.size();
  return in;
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
  // Before the analysis, which can take minutes: a refused output is said at once.
  if (!out.empty()) check_fit_output(out, log, overwrite);
  std::vector<SystemAnalysis> done;
  if ((format == "csv" || format == "pnnl" || format == "slurm") && o.system)
    throw InputError("--system", fmt::format("{}", *o.system),
                     fmt::format("not with --format {}: the log is one system", format));
  if (!o.node_prefix.empty() && format != "fta")
    throw InputError("--node-prefix", o.node_prefix, "only with --format fta");
  if (o.node_pattern && format != "pnnl")
    throw InputError("--node-pattern", *o.node_pattern, "only with --format pnnl");
  if ((!o.reason.empty() || !o.exclude_reason.empty()) && format != "slurm")
    throw InputError(o.reason.empty() ? "--exclude-reason" : "--reason",
                     o.reason.empty() ? o.exclude_reason : o.reason, "only with --format slurm");
  if (format == "csv") {
    done.push_back(analyse_trace(failures::read_trace_csv(log, o.stop_on_bad), 0, o));
  } else if (format == "pnnl") {
    done.push_back(analyse_trace(read_pnnl_for_fit(log, o), 0, o));
  } else if (format == "slurm") {
    failures::SlurmEventOptions so;  // the same reader as format = "slurm" of a trace
    so.reason = o.reason;
    so.exclude_reason = o.exclude_reason;
    so.stop_on_bad = o.stop_on_bad;
    done.push_back(analyse_trace(failures::read_slurm_events(log, so), 0, o));
  } else if (format == "fta") {
    analyse_fta(log, o, done, report);
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
    throw InputError("--format", format, "one of lanl, csv, fta, pnnl, slurm");
  }
  io::set_compression_threads(thread_count(o.threads));  // the output's large columns
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
    // What the reader dropped, as `run` says it of its inputs (other systems, causes, ...).
    if (a.read_summary.find("; dropped: ") != std::string::npos)
      std::fprintf(report, "  read %s: %s\n", log.c_str(), a.read_summary.c_str());
    if (a.bad_lines > 0) {
      std::fprintf(report, "  %zu bad lines skipped, e.g.:\n", a.bad_lines);
      for (const auto& m : a.bad_messages) std::fprintf(report, "    %s\n", m.c_str());
    }
  }
  if (!out.empty()) write_fit_file(out, done, identify_log(log, format, o), o, overwrite);
  return static_cast<int>(done.size());
}

}  // namespace faultsweep::fit_command
