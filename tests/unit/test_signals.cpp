// Engine signals (sim/signals.hpp) and metric plug-ins (metrics/registry.hpp): what observers
// are told matches what the run did, and watching changes nothing.
#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include <catch2/catch.hpp>

#include "faultsweep/metrics/registry.hpp"
#include "faultsweep/policy/registry.hpp"
#include "faultsweep/policy/reliability_aware.hpp"
#include "sim_support.hpp"

using namespace faultsweep;

namespace {

// Counts every signal and checks what the view shows at each.
struct Counter final : sim::Observer {
  std::int64_t starts = 0, ends = 0, failures = 0, hits = 0, repairs = 0;
  bool view_ok = true;
  void on_job_start(const policy::ClusterView& v, std::int32_t job) override {
    ++starts;
    const policy::JobView j = v.job(job);
    view_ok = view_ok && j.running && static_cast<std::int32_t>(j.nodes.size()) == j.size;
  }
  void on_job_end(const policy::ClusterView& v, std::int32_t job) override {
    ++ends;
    view_ok = view_ok && v.job(job).nodes.empty();
  }
  void on_failure(const policy::ClusterView& v, const failures::FailureEvent& f,
                  std::int32_t hit) override {
    ++failures;
    hits += hit >= 0 ? 1 : 0;
    view_ok = view_ok && v.node_use(f.node) == policy::NodeUse::down && v.now_s() == f.time_s;
  }
  void on_repair(const policy::ClusterView& v, std::int32_t node) override {
    ++repairs;
    view_ok = view_ok && v.node_use(node) != policy::NodeUse::down;
  }
};

struct MapSink final : MetricSink {
  std::map<std::string, double> values;
  void add(std::string_view name, double value) override { values[std::string(name)] = value; }
};

std::vector<workload::Job> busy_jobs(Engine& rng) {
  std::vector<workload::Job> jobs;
  for (int i = 0; i < 40; ++i)
    jobs.push_back(testing::job(i, 20.0 * i, 200 + 400 * uniform01(rng),
                                1 + static_cast<int>(uniform01(rng) * 6)));
  return jobs;
}

// 40 jobs and 60 failures on 8 nodes, drawn from seed 20261126, replica k.
struct Busy {
  std::vector<workload::Job> jobs;
  std::vector<failures::FailureEvent> fails;
  sim::SimConfig cfg;
  explicit Busy(std::uint64_t k) {
    Engine rng = make_stream(20261126, k, Purpose::tiebreaks, "signals");
    jobs = busy_jobs(rng);
    fails = testing::random_failures(rng, 8);
    cfg.nodes = 8;
  }
};

}  // namespace

TEST_CASE("engine signals: one per event of the run, and watching changes nothing",
          "[sim][signals]") {
  const Busy b(0);
  const auto& jobs = b.jobs;
  const auto& fails = b.fails;
  const sim::SimConfig& cfg = b.cfg;
  const testing::Run plain = testing::simulate(cfg, jobs, fails, "easy");

  testing::ListFailures source(fails);
  auto q = policy::make_queue_policy("easy");
  auto a = policy::make_allocator("first_fit");
  sim::Simulation s(cfg, jobs, source, *q, *a);
  Counter c;
  s.observe(&c);
  const sim::Metrics m = s.run();

  CHECK(m.utilization == plain.m.utilization);
  CHECK(m.mean_response_s == plain.m.mean_response_s);
  CHECK(m.job_failures == plain.m.job_failures);
  CHECK(c.view_ok);
  CHECK(c.ends == m.completed);
  CHECK(c.failures == m.failures);
  CHECK(c.hits == m.job_failures);
  REQUIRE(m.job_failures > 5);  // the case exercises restarts
  // Every execution starts once: the completed ones and the ones failures cut short.
  CHECK(c.starts == m.completed + m.job_failures);
  CHECK(c.repairs > 0);
  CHECK(c.repairs <= c.failures);  // a failure of a node already down extends its repair
}

TEST_CASE("metric plug-in job_interruptions: the most failures that hit one job",
          "[sim][signals][plugin]") {
  const Busy b(1);
  testing::ListFailures source(b.fails);
  auto q = policy::make_queue_policy("fcfs");
  auto a = policy::make_allocator("first_fit");
  sim::Simulation s(b.cfg, b.jobs, source, *q, *a);
  const auto& rows = metrics::metric_plugins();
  const auto row = std::find_if(rows.begin(), rows.end(), [](const metrics::MetricPlugin& p) {
    return p.name == "job_interruptions";
  });
  REQUIRE(row != rows.end());
  const auto watcher = row->make({b.cfg.nodes, b.jobs.size()});
  s.observe(watcher.get());
  (void)s.run();
  std::int32_t most = 0;
  for (const sim::JobRecord& r : s.jobs()) most = std::max(most, r.failures);
  REQUIRE(most >= 2);  // a job hit more than once, else the test could not tell max from any
  MapSink sink;
  watcher->report(sink);
  CHECK(sink.values.at("max_job_interruptions") == most);
  // Its row declares exactly what it reports.
  const auto specs = row->metrics();
  REQUIRE(specs.size() == sink.values.size());
  CHECK(specs[0].name == "max_job_interruptions");
}

TEST_CASE("MetricSlots: by name, undeclared names and missing ones are bugs", "[signals]") {
  const std::vector<MetricSpec> specs{{"a", "1", ""}, {"b", "s", ""}};
  std::vector<double> slots(2, -1.0);
  MetricSlots sink(slots, specs);
  CHECK(slots == std::vector<double>{0.0, 0.0});
  sink.add("b", 2.5);
  CHECK(slots[1] == 2.5);
  CHECK_THROWS(sink.require_all());
  sink.add("a", 1.0);
  CHECK_NOTHROW(sink.require_all());
  CHECK_THROWS(sink.add("c", 1.0));
}

TEST_CASE("allocators report the metrics their rows declare, by name", "[signals][reliability]") {
  const Busy b(2);
  testing::ListFailures source(b.fails);
  auto q = policy::make_queue_policy("easy");
  reliability::OnlineOptions o;
  o.refit_s = 200;  // refit often: the run lasts ~5,000 s
  policy::ReliabilityAllocator a(policy::ReliabilityMode::ra, o, 0);
  sim::Simulation s(b.cfg, b.jobs, source, *q, a);
  (void)s.run();
  MapSink sink;
  a.report(sink);
  REQUIRE(a.model().node_fits() > 0);
  CHECK(sink.values.at("allocator_node_fits") == static_cast<double>(a.model().node_fits()));
  // The row declares what the class reports; a first fit reports nothing.
  const auto& row = policy::find_choice(policy::allocators(), "allocator", "ra");
  REQUIRE(row.traits.metrics != nullptr);
  CHECK(row.traits.metrics().front().name == "allocator_node_fits");
  MapSink none;
  policy::FirstFit().report(none);
  CHECK(none.values.empty());
}
