#include "faultsweep/reliability/node_table.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "faultsweep/core/error.hpp"

namespace faultsweep::reliability {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string f;
  while (std::getline(ss, f, ',')) out.push_back(trim(f));
  return out;
}

}  // namespace

std::vector<Node> read_node_table(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw InputError(fmt::format("{}: cannot open the node table", file.string()));
  std::string line;
  int line_no = 0;
  std::vector<std::string> header;
  int c_shape = -1, c_scale = -1, c_rate = -1, c_age = -1;
  std::vector<Node> nodes;
  while (std::getline(in, line)) {
    ++line_no;
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    if (trim(line).empty()) continue;
    const std::vector<std::string> f = split(line);
    const std::string where = fmt::format("{}:{}", file.string(), line_no);
    if (header.empty()) {
      header = f;
      for (int i = 0; i < static_cast<int>(f.size()); ++i) {
        if (f[i] == "shape") c_shape = i;
        if (f[i] == "scale_h") c_scale = i;
        if (f[i] == "rate_per_h") c_rate = i;
        if (f[i] == "age_h") c_age = i;
      }
      const bool weibull = c_shape >= 0 && c_scale >= 0;
      if (weibull == (c_rate >= 0))
        throw InputError(
            fmt::format("{}: header \"{}\": expected the columns shape,scale_h or "
                        "rate_per_h (not both), optionally age_h",
                        where, trim(line)));
      continue;
    }
    if (f.size() != header.size())
      throw InputError(fmt::format("{}: {} fields, expected {}", where, f.size(), header.size()));
    auto number = [&](int c) {
      std::size_t used = 0;
      double v = 0;
      try {
        v = std::stod(f[c], &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != f[c].size() || !std::isfinite(v) || v < 0)
        throw InputError(
            fmt::format("{}: {} = \"{}\": expected a finite number >= 0", where, header[c], f[c]));
      return v;
    };
    Node n;
    n.age = c_age >= 0 ? number(c_age) : 0.0;
    if (c_rate >= 0) {
      const double rate = number(c_rate);
      if (!(rate > 0))
        throw InputError(fmt::format("{}: rate_per_h = \"{}\": must be > 0", where, f[c_rate]));
      n.law = dist::Dist::exponential(1.0 / rate);
    } else {
      const double shape = number(c_shape), scale = number(c_scale);
      if (!(shape > 0) || !(scale > 0))
        throw InputError(fmt::format("{}: shape and scale_h must be > 0", where));
      n.law = shape == 1.0 ? dist::Dist::exponential(scale) : dist::Dist::weibull(shape, scale);
    }
    nodes.push_back(n);
  }
  if (nodes.empty())
    throw InputError(
        fmt::format("{}: no nodes (a header and at least one row expected)", file.string()));
  return nodes;
}

}  // namespace faultsweep::reliability
