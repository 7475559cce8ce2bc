// `faultsweep export`'s texts: Batsim's jobs.csv against a schedule worked out by hand, and the
// SWF round trip stated in docs/records.md (what reads back equal, what cannot).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "faultsweep/core/params.hpp"
#include "faultsweep/models/cluster.hpp"
#include "faultsweep/sim/records.hpp"
#include "faultsweep/sweep/export.hpp"
#include "faultsweep/workload/swf.hpp"

using namespace faultsweep;

namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

sim::JobRow job(std::int32_t index, double submit, std::int32_t size, double estimate,
                sim::JobState state) {
  sim::JobRow j;
  j.index = index;
  j.id = index + 1;
  j.submit_s = submit;
  j.requested_size = j.size = size;
  j.estimate_s = estimate;
  j.state = static_cast<std::uint8_t>(state);
  return j;
}

// Five jobs on 4 nodes, run until 8000 s:
//   1 (2 nodes, submitted at 0): cut by a failure at 1200 s on nodes 0-1, completed on nodes 2
//     and 1 (in that order) from 1800 to 5400 s;
//   2 (8 nodes, at 100 s): rejected;
//   3 (1 node, at 5000 s): started at 6000 s on node 3, still running at the horizon;
//   4 (4 nodes, at 7000 s): never started;
//   5 (1 node, at 400 s): ran from 500 to 600 s on node 0.
sim::RecordTables by_hand() {
  using S = sim::JobState;
  using E = sim::AttemptEnd;
  sim::RecordTables t;
  t.what = sim::kRecordAll;
  t.nodes = 4;
  t.end_s = 8000;
  t.jobs = {job(0, 0, 2, 3600, S::done), job(1, 100, 8, 600, S::rejected),
            job(2, 5000, 1, 7200, S::running), job(3, 7000, 4, 100, S::waiting),
            job(4, 400, 1, 600, S::done)};
  t.jobs[0].first_start_s = 0, t.jobs[0].finish_s = 5400;
  t.jobs[4].first_start_s = 500, t.jobs[4].finish_s = 600;
  t.jobs[2].first_start_s = 6000;
  const auto u8 = [](E e) { return static_cast<std::uint8_t>(e); };
  t.attempts = {{0, 0, 0, 1200, u8(E::failure)},
                {4, 0, 500, 600, u8(E::completed)},
                {0, 1, 1800, 5400, u8(E::completed)},
                {2, 0, 6000, 8000, u8(E::run_end)}};
  t.allocations = {{0, 0, 0, 2}, {4, 0, 0, 1}, {0, 1, 2, 1}, {0, 1, 1, 1}, {2, 0, 3, 1}};
  return t;
}

}  // namespace

TEST_CASE("export: Batsim's jobs.csv, column by column, for a schedule worked out by hand",
          "[records][export]") {
  const auto l = lines(sweep::batsim_csv_text(by_hand()));
  REQUIRE(l.size() == 6);
  // Batsim's exporter (src/export.cpp, JobsTracer) writes these 17 columns in this order.
  CHECK(l[0] ==
        "job_id,workload_name,profile,submission_time,requested_number_of_resources,"
        "requested_time,success,final_state,starting_time,execution_time,finish_time,"
        "waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,metadata");
  // In the order the jobs left the system (Batsim writes a line when a job ends).
  CHECK(l[1] == "2,faultsweep,delay,100.000000,8,600.000000,0,REJECTED,,,,,,,,,");
  CHECK(l[2] ==
        "5,faultsweep,delay,400.000000,1,600.000000,1,COMPLETED_SUCCESSFULLY,"
        "500.000000,100.000000,600.000000,100.000000,200.000000,2.000000,0,-1.000000,");
  // The execution that completed it, its nodes as one sorted interval.
  CHECK(l[3] ==
        "1,faultsweep,delay,0.000000,2,3600.000000,1,COMPLETED_SUCCESSFULLY,"
        "1800.000000,3600.000000,5400.000000,1800.000000,5400.000000,1.500000,1-2,"
        "-1.000000,");
  // Running at the horizon: killed there. Never started: rejected.
  CHECK(l[4] ==
        "3,faultsweep,delay,5000.000000,1,7200.000000,0,COMPLETED_KILLED,"
        "6000.000000,2000.000000,8000.000000,1000.000000,3000.000000,1.500000,3,"
        "-1.000000,");
  CHECK(l[5] == "4,faultsweep,delay,7000.000000,4,100.000000,0,REJECTED,,,,,,,,,");
  for (const std::string& s : l) CHECK(std::count(s.begin(), s.end(), ',') == 16);
}

TEST_CASE("export: a null execution time is written as Batsim writes it (1e-5 s)",
          "[records][export]") {
  sim::RecordTables t = by_hand();
  t.attempts[1].end_s = t.jobs[4].finish_s = 500;
  const auto l = lines(sweep::batsim_csv_text(t));
  CHECK(l[2].rfind("5,faultsweep,delay,400.000000,1,600.000000,1,COMPLETED_SUCCESSFULLY,"
                   "500.000000,0.000010,500.000010,100.000000,100.000010,",
                   0) == 0);
}

namespace {

// The hand-checked case of docs/records.md (6 jobs, 4 nodes, one failure), with `extra`
// parameters, recorded.
sim::RecordTables run_gantt6(const std::vector<std::pair<std::string, Value>>& extra = {}) {
  const std::string dir = FAULTSWEEP_SOURCE_DIR;
  Params p;
  p.set("nodes", std::int64_t{4});
  p.set("queue", std::string("fcfs"));
  p.set("workload.source", std::string("swf"));
  p.set("workload.file", dir + "/tests/data/swf/gantt6.swf");
  p.set("failures.process", std::string("trace"));
  p.set("failures.format", std::string("csv"));
  p.set("failures.file", dir + "/tests/data/failures/gantt_one.csv");
  for (const auto& [k, v] : extra) p.set(k, v);
  const models::ClusterModel model;
  p = model.with_defaults(std::move(p));
  RunContext ctx;
  std::vector<unsigned char> blob;
  ctx.record = sim::kRecordAll;
  ctx.records_out = &blob;
  std::vector<double> out(model.metrics().size());
  model.run(p, ctx, out);
  return sim::decode_records(blob, "test");
}

}  // namespace

TEST_CASE(
    "export: SWF round trip: every completed job reads back equal, with its simulated "
    "run time",
    "[records][export]") {
  const sim::RecordTables t = run_gantt6();
  const workload::Workload before =
      workload::read_swf(std::string(FAULTSWEEP_SOURCE_DIR) + "/tests/data/swf/gantt6.swf");
  const workload::Workload after = workload::parse_swf(sweep::swf_text(t, "test"), "export");
  REQUIRE(after.jobs.size() == before.jobs.size());
  for (std::size_t i = 0; i < after.jobs.size(); ++i) {
    const workload::Job &a = after.jobs[i], &b = before.jobs[i];
    INFO("job " << b.id);
    CHECK(a.id == b.id);
    CHECK(a.submit_s == b.submit_s);
    CHECK(a.size == b.size);
    CHECK(a.user == b.user);
    // The simulated run time (first start to finish): the trace's for the jobs no failure hit;
    // job 1 lost 1200 s to the failure and restarted at 1800 s.
    CHECK(a.runtime_s == t.jobs[i].finish_s - t.jobs[i].first_start_s);
    CHECK(a.runtime_s == (b.id == 1 ? 5400.0 : b.runtime_s));
    CHECK(a.estimate_s == std::max(b.estimate_s, a.runtime_s));
  }
}

TEST_CASE("export: SWF has a Version line and keeps the log's fields 12-16", "[records][export]") {
  const std::string swf = sweep::swf_text(run_gantt6(), "test");
  CHECK(swf.rfind("; Version: 2.2\n", 0) == 0);
  const workload::Workload back = workload::parse_swf(swf, "export");
  const workload::Workload in =
      workload::read_swf(std::string(FAULTSWEEP_SOURCE_DIR) + "/tests/data/swf/gantt6.swf");
  REQUIRE(back.jobs.size() == in.jobs.size());
  for (std::size_t i = 0; i < in.jobs.size(); ++i) {
    CHECK(back.jobs[i].user == in.jobs[i].user);
    CHECK(back.jobs[i].group == 1);  // the fixture's group, executable, queue, partition
    CHECK(back.jobs[i].executable == in.jobs[i].executable);
    CHECK(back.jobs[i].queue == in.jobs[i].queue);
    CHECK(back.jobs[i].partition == in.jobs[i].partition);
  }
}

TEST_CASE("export: SWF round trip: a horizon drops the unfinished jobs", "[records][export]") {
  // Stopped at 5000 s: jobs 1, 4, 5 and 6 have not finished. Their status is 0 and their run
  // time -1 (unknown), which the reader drops: they cannot read back.
  const sim::RecordTables t = run_gantt6({{"horizon", Value(5000.0)}});
  const workload::Workload back = workload::parse_swf(sweep::swf_text(t, "test"), "export");
  CHECK(back.jobs.size() == 2);
  CHECK(back.stats.no_runtime == 4);
  for (const workload::Job& j : back.jobs) CHECK((j.id == 2 || j.id == 3));
}

TEST_CASE("export: SWF round trip of moldable jobs: the size they ran on, read as allocated",
          "[records][export]") {
  // Every job moldable, started at whatever size is free: some run on fewer nodes than they
  // asked for. Field 4 is the run time at the size they ran on (field 5), field 8 the size
  // requested: read as requested (the reader's default) the job is wider than the run time
  // was measured on; read with size = allocated it is the job that ran.
  const sim::RecordTables t = run_gantt6(
      {{"workload.moldable", Value(1.0)}, {"moldable_size", Value(std::string("free"))}});
  const std::string swf = sweep::swf_text(t, "test");
  workload::SwfOptions allocated;
  allocated.size = workload::SwfSize::allocated;
  const workload::Workload as_requested = workload::parse_swf(swf, "export");
  const workload::Workload as_run = workload::parse_swf(swf, "export", allocated);
  REQUIRE(as_run.jobs.size() == t.jobs.size());
  int narrower = 0;
  for (std::size_t i = 0; i < t.jobs.size(); ++i) {
    const sim::JobRow& r = t.jobs[i];
    INFO("job " << r.id);
    CHECK(as_run.jobs[i].size == r.size);
    CHECK(as_requested.jobs[i].size == r.requested_size);
    CHECK(as_run.jobs[i].runtime_s == r.finish_s - r.first_start_s);
    narrower += r.size < r.requested_size;
  }
  CHECK(narrower > 0);  // not vacuous
}
