// The generated workloads (workload/generators.hpp): fars, lublin and zhang. Each row's keys
// take their defaults from the generator's parameter struct; validation is a dry run of the
// generator (one job), so every key is checked by the generator's own rules.
#include <fmt/format.h>

#include "faultsweep/core/error.hpp"
#include "faultsweep/workload/generators.hpp"
#include "faultsweep/workload/source_registry.hpp"

namespace faultsweep::workload {
namespace {

using Generate = Workload (*)(const TableReader& r, int nodes, Engine& arrivals, Engine& runtimes,
                              Engine& sizes);

ParamSpec number(std::string name, double def, std::string help, double min = 0.0) {
  return make_param(std::move(name), ParamKind::real, "", Value(def), std::move(help), {}, min);
}
ParamSpec duration(std::string name, double def, std::string help) {
  return make_param(std::move(name), ParamKind::duration, "s", Value(def), std::move(help), {},
                    0.0);
}

// The keys of every generator; `mean_interarrival_s` is the generator's own default.
std::vector<ParamSpec> generated_keys(double mean_interarrival_s) {
  ParamSpec nodes = make_param(
      "nodes", ParamKind::integer, "", std::nullopt,
      "the size model's machine, at most the simulated one (default: the simulated one)", {}, 1.0);
  nodes.optional = true;
  return {make_param("jobs", ParamKind::integer, "", Value(std::int64_t{10000}), "jobs generated",
                     {}, 1.0),
          duration("mean_interarrival", mean_interarrival_s,
                   "mean time between submits (Poisson arrivals)"),
          number("estimate_factor", 1.0, "estimate = runtime x factor", 1.0), nodes};
}

// Lublin & Feitelson's rigid sizes (lublin and zhang).
std::vector<ParamSpec> size_keys() {
  const LublinSizeParams d;
  auto optional = [](std::string name, std::string help) {
    ParamSpec s = make_param(std::move(name), ParamKind::real, "", std::nullopt, std::move(help));
    s.optional = true;
    return s;
  };
  return {number("serial_prob", d.serial_prob, "probability of a serial job", 0.0),
          number("pow2_prob", d.pow2_prob, "probability that a parallel size is a power of 2"),
          number("size_lo_log2", d.lo_log2, "log2 of the smallest parallel size"),
          optional("size_mid_log2",
                   "log2 of the two-stage uniform's break (default "
                   "size_hi_log2 - 2.5)"),
          optional("size_hi_log2", "log2 of the largest size (default log2 of nodes)"),
          number("size_p_low", d.p_low, "probability of the lower stage")};
}

LublinSizeParams size_params(const TableReader& t) {
  LublinSizeParams s;
  s.serial_prob = t.real_or("serial_prob", s.serial_prob);
  s.pow2_prob = t.real_or("pow2_prob", s.pow2_prob);
  s.lo_log2 = t.real_or("size_lo_log2", s.lo_log2);
  s.mid_log2 = t.real_or("size_mid_log2", s.mid_log2);
  s.hi_log2 = t.real_or("size_hi_log2", s.hi_log2);
  s.p_low = t.real_or("size_p_low", s.p_low);
  return s;
}

// The keys every generator reads, in the order they are read.
template <class P>
P common_params(const TableReader& t) {
  P p;
  p.jobs = t.integer_or("jobs", 10000, 1);
  p.estimate_factor = t.real_or("estimate_factor", 1.0);
  p.mean_interarrival_s = t.real_or("mean_interarrival", p.mean_interarrival_s);
  return p;
}

// The generator's own machine: the table's `nodes` (the size model's machine; must not exceed
// the simulated one), else the simulated machine.
int generator_nodes(const TableReader& t, int machine_nodes) {
  const std::int64_t n = t.integer_or("nodes", machine_nodes, 1);
  if (machine_nodes > 0 && n > machine_nodes)
    throw InputError("nodes", std::to_string(n),
                     fmt::format("at most the simulated machine's {} nodes", machine_nodes));
  return static_cast<int>(n);
}

// A dry run of the generator (one job) checks every parameter with the generator's own rules;
// the simulated machine is not known here, so `nodes` (or a large machine) stands in.
template <Generate G>
void validate_generated(const TableReader& r, const std::filesystem::path&) {
  Params one = r.table();
  one.set("jobs", std::int64_t{1});
  (void)r.integer_or("jobs", 1, 1);
  const int nodes = generator_nodes(r, 1 << 20);
  Engine a = make_stream(0, 0, Purpose::arrivals, "validate");
  Engine rt = a, s = a;
  (void)G(TableReader(one), nodes, a, rt, s);
}

template <Generate G>
Workload make_generated(const TableReader& r, int nodes, const std::string& stream_text,
                        const RunContext& ctx) {
  const int gen_nodes = generator_nodes(r, nodes);
  Engine arrivals = ctx.stream(Purpose::arrivals, stream_text);
  Engine runtimes = ctx.stream(Purpose::runtimes, stream_text);
  Engine sizes = ctx.stream(Purpose::sizes, stream_text);
  Workload w = G(r, gen_nodes, arrivals, runtimes, sizes);
  w.machine_nodes = nodes;
  return w;
}

template <Generate G>
SourceRow generated_row(std::string_view name, std::string_view help,
                        std::vector<ParamSpec> (*keys)()) {
  SourceRow row{name, help, keys, validate_generated<G>, make_generated<G>};
  return row;
}

// --- fars (FARS §5.2.1) ---

std::vector<ParamSpec> fars_keys() {
  const FarsParams d;
  std::vector<ParamSpec> k = generated_keys(d.mean_interarrival_s);
  k.push_back(duration("mean_runtime", d.mean_runtime_s, "mean run time (exponential)"));
  k.push_back(number("mean_size", d.mean_size, "mean of the size's exponential (size = ceil)"));
  return k;
}

Workload gen_fars(const TableReader& t, int nodes, Engine& a, Engine& rt, Engine& s) {
  FarsParams p = common_params<FarsParams>(t);
  p.mean_runtime_s = t.real_or("mean_runtime", p.mean_runtime_s);
  p.mean_size = t.real_or("mean_size", p.mean_size);
  return generate_fars(p, nodes, a, rt, s);
}

// --- lublin (Gottumukkala §6.4.4) ---

std::vector<ParamSpec> lublin_keys() {
  const LublinParams d;
  std::vector<ParamSpec> k = generated_keys(d.mean_interarrival_s);
  ParamSpec p1 = number("runtime_p1", d.runtime_p1, "probability of the first run-time phase");
  p1.max = 1;
  k.push_back(p1);
  k.push_back(duration("runtime_mean1", d.runtime_mean1_s, "mean of the first phase"));
  k.push_back(duration("runtime_mean2", d.runtime_mean2_s, "mean of the second phase"));
  for (ParamSpec& s : size_keys()) k.push_back(std::move(s));
  return k;
}

Workload gen_lublin(const TableReader& t, int nodes, Engine& a, Engine& rt, Engine& s) {
  LublinParams p = common_params<LublinParams>(t);
  p.size = size_params(t);
  p.runtime_p1 = t.real_or("runtime_p1", p.runtime_p1);
  p.runtime_mean1_s = t.real_or("runtime_mean1", p.runtime_mean1_s);
  p.runtime_mean2_s = t.real_or("runtime_mean2", p.runtime_mean2_s);
  return generate_lublin(p, nodes, a, rt, s);
}

// --- zhang (Zhang §3.1, hyper-Erlang run times) ---

std::vector<ParamSpec> zhang_keys() {
  const ZhangParams d;
  std::vector<ParamSpec> k = generated_keys(d.mean_interarrival_s);
  k.push_back(make_param("runtime_order", ParamKind::integer, "",
                         Value(std::int64_t{d.runtime_order}),
                         "common order of the hyper-Erlang run times", {}, 1.0));
  k.push_back(make_param("runtime_probs", ParamKind::string, "",
                         Value(std::string("0.6, 0.3, 0.1")),
                         "the branches' probabilities, a comma-separated list"));
  k.push_back(make_param("runtime_means", ParamKind::string, "", Value(std::string("300s, 1h, 8h")),
                         "the branches' mean run times, a comma-separated list of durations"));
  for (ParamSpec& s : size_keys()) k.push_back(std::move(s));
  return k;
}

Workload gen_zhang(const TableReader& t, int nodes, Engine& a, Engine& rt, Engine& s) {
  ZhangParams p = common_params<ZhangParams>(t);
  p.size = size_params(t);
  p.runtime_order = static_cast<int>(t.integer_or("runtime_order", p.runtime_order, 1));
  p.runtime_probs = t.list_or("runtime_probs", p.runtime_probs, false);
  p.runtime_means_s = t.list_or("runtime_means", p.runtime_means_s, true);
  return generate_zhang(p, nodes, a, rt, s);
}

}  // namespace

SourceRow fars_source() {
  SourceRow row = generated_row<gen_fars>(
      "fars", "FARS §5.2.1: Poisson arrivals, exponential run times and sizes", fars_keys);
  row.traits.default_target_load = 0.7;  // FARS §5.2.1 sets utilisation to 70 %
  return row;
}

SourceRow lublin_source() {
  return generated_row<gen_lublin>(
      "lublin",
      "Gottumukkala §6.4.4: Lublin & Feitelson sizes, two-phase hyperexponential run times",
      lublin_keys);
}

SourceRow zhang_source() {
  return generated_row<gen_zhang>(
      "zhang", "Zhang §3.1: hyper-Erlang run times, Lublin & Feitelson sizes", zhang_keys);
}

}  // namespace faultsweep::workload
