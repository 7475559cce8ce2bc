// Gottumukkala Table 6.1 and the k_node model. Table 6.1 (p = 0.895, T_c(1) = 1000 h) is
// reproduced from the node rates in jobs/gottumukkala/table6_1_nodes.csv (backed out of the
// table's R_sys column, see that file and reliability/completion.hpp): S(k) and T to the printed
// digits, M to its 3 printed digits, R_sys within 1.5e-6 (one unit of the 6th printed decimal:
// the lost rate column was itself rounded) and E[T_c(k)] within 5e-4 h (1e-6 relative), and the
// optimal k = 14.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <vector>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/models/registry.hpp"
#include "faultsweep/reliability/completion.hpp"
#include "faultsweep/reliability/node_table.hpp"
#include "temp_dir.hpp"

using namespace faultsweep;
using namespace faultsweep::reliability;

namespace {

const std::filesystem::path kTable =
    std::filesystem::path(FAULTSWEEP_SOURCE_DIR) / "jobs/gottumukkala/table6_1_nodes.csv";

struct Row {
  double S, T, R;
  const char* M;
  double E;
};
// Gottumukkala Table 6.1, k = 1..20.
const Row kTable61[] = {
    {1, 1000, 0.971864, "3.50E+04", 2014.406},
    {1.809955, 552.5, 0.968956, "1.75E+04", 1113.804},
    {2.479339, 403.3333, 0.966057, "1.17E+04", 813.7115},
    {3.041825, 328.75, 0.954172, "7.01E+03", 665.333},
    {3.521127, 284, 0.944844, "5.01E+03", 576.211},
    {3.934426, 254.1667, 0.930032, "3.50E+03", 517.7785},
    {4.294479, 232.8571, 0.899131, "2.19E+03", 478.5445},
    {4.610951, 216.875, 0.861962, "1.46E+03", 450.6858},
    {4.891304, 204.4444, 0.820061, "1.03E+03", 430.5775},
    {5.141388, 194.5, 0.774655, "7.62E+02", 416.0872},
    {5.365854, 186.3636, 0.734563, "6.04E+02", 404.6705},
    {5.568445, 179.5833, 0.684369, "4.74E+02", 397.9672},
    {5.752212, 173.8462, 0.633531, "3.81E+02", 394.1615},
    {5.919662, 168.9286, 0.582774, "3.13E+02", 392.9122},
    {6.072874, 164.6667, 0.513084, "2.47E+02", 398.8412},
    {6.213592, 160.9375, 0.436384, "1.94E+02", 411.6036},
    {6.343284, 157.6471, 0.367344, "1.57E+02", 428.7588},
    {6.463196, 154.7222, 0.306048, "1.31E+02", 451.0254},
    {6.574394, 152.1053, 0.252351, "1.10E+02", 479.3888},
    {6.677796, 149.75, 0.209033, "9.57E+01", 511.7624},
};

CompletionJob table61_job() {
  CompletionJob job;
  job.runtime_one = 1000;
  job.scaling = Scaling::amdahl;
  job.p = 0.895;
  return job;
}

// Every parameter of the model with its default, then the given ones.
Params with_defaults(const models::Model& m, const std::vector<std::pair<std::string, Value>>& kv) {
  Params p;
  for (const auto& s : m.params())
    if (s.default_value) p.set(s.name, *s.default_value);
  for (const auto& [k, v] : kv) p.set(k, v);
  return p;
}

}  // namespace

TEST_CASE("Table 6.1: every column for k = 1..20 and the optimal k = 14",
          "[k_node][gottumukkala]") {
  const KNodePlanner planner(read_node_table(kTable), table61_job());
  REQUIRE(planner.nodes() == 20);
  for (int k = 1; k <= 20; ++k) {
    const Row& r = kTable61[k - 1];
    const CompletionPoint c = planner.at(k);
    INFO("k = " << k);
    CHECK(c.speedup == Approx(r.S).margin(5e-7));
    CHECK(c.runtime == Approx(r.T).margin(5e-5));
    CHECK(c.reliability == Approx(r.R).margin(1.5e-6));
    CHECK(fmt::format("{:.2E}", c.mttf) == r.M);
    CHECK(c.expected == Approx(r.E).margin(5e-4));
  }
  const CompletionPoint best = planner.optimum(20);
  CHECK(best.k == 14);
  CHECK(best.expected == Approx(392.9122).margin(5e-4));
}

TEST_CASE("Speedups: Amdahl saturates at 1 / (1 - p), Gustafson grows linearly", "[k_node]") {
  CHECK(speedup(Scaling::amdahl, 0.895, 2) == Approx(1.809955).margin(5e-7));
  CHECK(speedup(Scaling::amdahl, 0.9, 1000000) == Approx(10.0).epsilon(1e-4));
  CHECK(speedup(Scaling::gustafson, 0.9, 100) == Approx(90.1));
  CHECK(speedup(Scaling::gustafson, 0.9, 1) == Approx(1.0));
}

TEST_CASE(
    "Identical Weibull nodes: the closed-form path equals the general integral, and "
    "ignoring reliability makes E = T_c(k)",
    "[k_node]") {
  CompletionJob job = table61_job();
  job.runtime_one = 105;
  const std::vector<Node> fresh(64, Node{dist::Dist::weibull(0.7, 5000.0), 0.0});
  std::vector<Node> aged = fresh;
  aged[5].age = 1e-12;  // breaks the common-shape fast path, not the numbers
  const KNodePlanner fast(fresh, job), general(aged, job);
  for (const int k : {1, 7, 64}) {
    CHECK(fast.at(k).reliability == Approx(general.at(k).reliability).epsilon(1e-9));
    CHECK(fast.at(k).mttf == Approx(general.at(k).mttf).epsilon(1e-8));
    CHECK(fast.at(k).expected == Approx(general.at(k).expected).epsilon(1e-8));
  }
  job.with_reliability = false;
  const KNodePlanner ideal(fresh, job);
  CHECK(ideal.at(64).expected == ideal.at(64).runtime);
  CHECK(ideal.optimum(64).k == 64);  // without failures more nodes are always faster
}

TEST_CASE(
    "Nodes of different shapes and ages: the optimum over one shared grid is the k a "
    "point-by-point search finds (seed 61)",
    "[k_node]") {
  Engine e = make_stream(61, 0, Purpose::failures, "test_k_node");
  std::vector<Node> nodes;
  for (int i = 0; i < 80; ++i)
    nodes.push_back({dist::Dist::weibull(0.5 + 0.6 * uniform01(e), 2000 + 20000 * uniform01(e)),
                     500 * uniform01(e)});
  CompletionJob job = table61_job();
  job.runtime_one = 2000;
  job.p = 0.97;
  const KNodePlanner planner(nodes, job);
  int brute_k = 1;
  for (int k = 2; k <= 80; ++k)
    if (planner.at(k).expected < planner.at(brute_k).expected) brute_k = k;
  const CompletionPoint best = planner.optimum(80);
  CHECK(best.k == brute_k);
  CHECK(best.k > 1);
  CHECK(best.k < 80);  // an interior optimum: the test can tell a wrong k
  CHECK(best.expected == planner.at(brute_k).expected);
}

TEST_CASE("RA-Opt sorts nodes by reliability: the most reliable come first", "[k_node]") {
  const std::vector<Node> nodes = {{dist::Dist::exponential(100.0), 0},
                                   {dist::Dist::exponential(1000.0), 0},
                                   {dist::Dist::exponential(10.0), 0}};
  const KNodePlanner p(nodes, table61_job());
  CHECK(p.sorted_nodes()[0].law.p1() == 1000.0);
  CHECK(p.sorted_nodes()[2].law.p1() == 10.0);
  CHECK(p.at(1).mttf == 1000.0);
}

TEST_CASE("The k_node model reproduces Table 6.1 through its parameters, in hours", "[k_node]") {
  const models::Model* m = models::find_model("k_node");
  REQUIRE(m != nullptr);
  const Params p = with_defaults(*m, {{"runtime", Value(1000 * kHour_s)},
                                      {"p", Value(0.895)},
                                      {"node_table", Value(kTable.string())},
                                      {"k", Value(std::int64_t{4})}});
  m->validate(p, ".");
  std::vector<double> out(m->metrics().size());
  m->run(p, models::RunContext{}, out);
  CHECK(out[0] == 4);
  CHECK(out[2] == Approx(328.75));
  CHECK(out[3] == Approx(0.954172).margin(1.5e-6));
  CHECK(out[6] == Approx(665.333).margin(5e-4));
  CHECK(out[7] == 14);
  CHECK(out[8] == Approx(392.9122).margin(5e-4));
}

TEST_CASE("The k_node model refuses ambiguous or bad node inputs", "[k_node]") {
  const models::Model* m = models::find_model("k_node");
  REQUIRE(m != nullptr);
  CHECK_THROWS_AS(
      m->validate(with_defaults(*m, {{"runtime", Value(3600.0)}, {"p", Value(0.5)}}), "."),
      InputError);  // no nodes at all
  testing::TempDir dir("k_node");
  const auto bad = dir.path() / "bad.csv";
  {
    std::FILE* f = std::fopen(bad.c_str(), "w");
    std::fputs("rate_per_h\n0.001\nabc\n", f);
    std::fclose(f);
  }
  try {
    read_node_table(bad);
    FAIL("a non-number rate must be refused");
  } catch (const InputError& e) {
    CHECK_THAT(e.what(), Catch::Contains("bad.csv:3") && Catch::Contains("abc"));
  }
  const Params big_k = with_defaults(*m, {{"runtime", Value(3600.0)},
                                          {"p", Value(0.5)},
                                          {"node_table", Value(kTable.string())},
                                          {"k", Value(std::int64_t{21})}});
  CHECK_THROWS_AS(m->validate(big_k, "."), InputError);
}
