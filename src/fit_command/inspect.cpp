// `faultsweep inspect` on a file written by `faultsweep fit`: what it was made from and one line
// per system (the same counts `fit` prints when it runs).
#include <fmt/format.h>

#include <cstdio>
#include <sstream>

#include "faultsweep/core/error.hpp"
#include "faultsweep/fit_command/fit_command.hpp"
#include "faultsweep/io/h5.hpp"

namespace faultsweep::fit_command {

using namespace reliability;
namespace {

std::string system_line(hid_t root, const std::string& system, const std::string& laws,
                        const std::string& f) {
  io::Handle g = io::open_group(root, "system_" + system, f);
  const auto count = [&](const char* name) { return io::read_attr_int(g.id(), name, f); };
  std::vector<hsize_t> dims;
  io::Handle bg = io::open_group(g.id(), "best_law", f);
  const std::vector<double> best = io::read_doubles(bg.id(), "best_count", dims, f);
  std::string best_text;
  std::istringstream names(laws);
  std::string law;
  for (std::size_t l = 0; std::getline(names, law, ',') && l < best.size(); ++l)
    best_text += fmt::format(" {}={:g}", law, best[l]);
  io::Handle kg = io::open_group(g.id(), "system_of_k", f);
  (void)io::read_doubles(kg.id(), "k", dims, f);
  return fmt::format(
      "system {}: {} records, {} nodes ({} fitted, {} without a TTF), {} systems of k nodes; "
      "best K-S p:{}",
      system, count("records"), count("nodes"), count("nodes_fitted"), count("nodes_without_ttf"),
      dims.empty() ? 0 : dims[0], best_text);
}

}  // namespace

int inspect_fit_file(const std::filesystem::path& path, std::FILE* out) {
  const std::string f = path.string();
  io::File file = io::File::open_read(path);
  const hid_t root = file.id();
  const auto text = [&](const char* name) { return io::read_attr_string(root, name, f); };
  std::fprintf(out, "%s: faultsweep fit file (schema %lld): failure analysis of a log\n", f.c_str(),
               static_cast<long long>(io::read_attr_int(root, "schema_version", f)));
  std::fprintf(out, "  log        %s\n", text("log_file").c_str());
  // Files of earlier versions do not say how the log was read.
  if (io::has_attr(root, "log_format"))
    std::fprintf(out, "  read as    %s, nodes: %s (%llu bytes, sha256 %s)\n",
                 text("log_format").c_str(), text("node_filter").c_str(),
                 static_cast<unsigned long long>(io::read_attr_uint(root, "log_size_bytes", f)),
                 text("log_sha256").c_str());
  std::fprintf(out, "  written    %s by faultsweep %s (git %s)\n", text("created_utc").c_str(),
               text("faultsweep_version").c_str(), text("git_sha").c_str());
  std::fprintf(out, "  options    min_ttfs %lld, seed %llu; laws %s\n",
               static_cast<long long>(io::read_attr_int(root, "min_ttfs", f)),
               static_cast<unsigned long long>(io::read_attr_uint(root, "seed", f)),
               text("laws").c_str());
  const std::string systems = text("systems"), laws = text("laws");
  std::istringstream list(systems);
  std::string s;
  std::size_t n = 0;
  while (std::getline(list, s, ',')) {
    std::fprintf(out, "  %s\n", system_line(root, s, laws, f).c_str());
    io::Handle g = io::open_group(root, "system_" + s, f);
    if (io::has_attr(g.id(), "read_summary"))
      std::fprintf(out, "    read     %s\n",
                   io::read_attr_string(g.id(), "read_summary", f).c_str());
    ++n;
  }
  if (n == 0) std::fprintf(out, "  no systems\n");
  return 0;
}

}  // namespace faultsweep::fit_command
