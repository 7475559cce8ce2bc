// The sacct --parsable2 reader (workload/sacct.hpp) on tests/data/slurm/sacct_small.txt (every
// state, steps, an array, a heterogeneous job, UNLIMITED and Partition_Limit limits) and on
// hand-written records for each error; its source row (source = "sacct") and its reading.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <string>

#include "faultsweep/core/error.hpp"
#include "faultsweep/workload/factory.hpp"
#include "faultsweep/workload/sacct.hpp"
#include "input_support.hpp"

using faultsweep::InputError;
using faultsweep::Value;
using namespace faultsweep::workload;

namespace {

const std::filesystem::path kDump =
    std::filesystem::path(FAULTSWEEP_SOURCE_DIR) / "tests/data/slurm/sacct_small.txt";

SacctOptions on_machine(int nodes) {
  SacctOptions o;
  o.machine_nodes = nodes;
  return o;
}

std::map<std::int64_t, Job> by_id(const Workload& w) {
  std::map<std::int64_t, Job> m;
  for (const Job& j : w.jobs) m[j.id] = j;
  return m;
}

const char* const kHeader = "JobID|JobIDRaw|Submit|Start|End|Elapsed|Timelimit|NNodes|State\n";

// The message of the InputError parsing one record (after kHeader) with bad_lines = fail.
std::string error_of(const std::string& record) {
  SacctOptions o;
  o.bad_lines = BadLines::fail;
  const auto e = faultsweep::testing::thrown_error(
      [&] { (void)parse_sacct(std::string(kHeader) + record + "\n", "d.txt", o); });
  return e ? e->what() : "no error";
}

}  // namespace

TEST_CASE("sacct: one job per allocation, states mapped, every drop counted", "[sacct]") {
  const SacctWorkload d = read_sacct(kDump, on_machine(8));
  const SacctStats& st = d.stats;
  CHECK(st.lines == 23);
  CHECK(st.steps == 4);  // 101.batch, 101.extern, 101.0, 111_1.batch
  CHECK(st.jobs == 15);
  CHECK(st.not_started == 1);             // 109 PENDING
  CHECK(st.cancelled_before_start == 1);  // 104
  CHECK(st.running == 1);                 // 110, dropped by default
  CHECK(st.too_large == 1);               // 117: 64 nodes on 8
  CHECK(st.estimate_fixed == 3);  // 103 (over its limit), 114 UNLIMITED, 115 Partition_Limit
  CHECK(st.bad_lines == 0);
  CHECK(st.kept_by_state[0] == 9);  // COMPLETED
  for (const char* s :
       {"FAILED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED", "CANCELLED"}) {
    INFO(s);
    const auto i =
        std::find(kSacctKeptStates.begin(), kSacctKeptStates.end(), s) - kSacctKeptStates.begin();
    CHECK(st.kept_by_state[static_cast<std::size_t>(i)] == 1);
  }
  const auto jobs = by_id(d.workload);
  REQUIRE(jobs.size() == 15);
  // Array elements are jobs of their own, named by JobIDRaw; so are heterogeneous components.
  CHECK(jobs.count(111) == 1);
  CHECK(jobs.count(112) == 1);
  CHECK(jobs.count(118) == 1);
  CHECK(jobs.at(119).size == 2);
  // t = 0 at the first submit; run time = Elapsed; estimate = Timelimit.
  CHECK(d.workload.jobs.front().id == 101);
  CHECK(jobs.at(101).submit_s == 0);
  CHECK(jobs.at(101).runtime_s == 600);
  CHECK(jobs.at(101).estimate_s == 1800);
  CHECK(jobs.at(101).size == 2);
  CHECK(jobs.at(116).submit_s == 14 * 60);
  CHECK(jobs.at(116).runtime_s == 90000);   // 1-01:00:00
  CHECK(jobs.at(116).estimate_s == 93784);  // 1-02:03:04
  CHECK(jobs.at(107).estimate_s == 600);    // "10:00" is MM:SS
  CHECK(jobs.at(103).estimate_s == 62);     // limit 60 s below the run time 62 s
  CHECK(jobs.at(114).estimate_s == 3600);   // UNLIMITED
  CHECK(jobs.at(105).runtime_s == 300);     // cancelled after its start: the part that ran
  CHECK(jobs.at(106).runtime_s == 900);     // NODE_FAIL: as recorded
  CHECK(d.workload.machine_nodes == 8);
  CHECK(st.summary() ==
        "23 lines, 15 jobs kept (9 COMPLETED, 1 FAILED, 1 TIMEOUT, 1 NODE_FAIL, 1 "
        "OUT_OF_MEMORY, 1 PREEMPTED, 1 CANCELLED); 4 job steps skipped; dropped: 1 never "
        "started, 1 cancelled before their start, 1 running at the dump, 1 wider than the "
        "machine; changed: 3 time limits unlimited, missing or below the run time set to the "
        "run time");
}

TEST_CASE("sacct: options (eligible, running cut, partitions, sizes, start, time zone)",
          "[sacct]") {
  SacctOptions o = on_machine(8);
  o.submit = SacctSubmit::eligible;
  CHECK(by_id(read_sacct(kDump, o).workload).at(116).submit_s == 44 * 60);

  o = on_machine(8);
  o.running = SacctRunning::cut;
  auto d = read_sacct(kDump, o);
  CHECK(d.stats.running_cut == 1);
  CHECK(by_id(d.workload).at(110).runtime_s == 6660);  // its Elapsed at the dump
  o.dump_unix_s = d.origin_unix_s + 9 * 60 + 3600;     // one hour after its start
  CHECK(by_id(read_sacct(kDump, o).workload).at(110).runtime_s == 3600);

  o = on_machine(8);
  o.partitions = {"batch"};
  d = read_sacct(kDump, o);
  CHECK(d.stats.other_partition == 1);
  CHECK(by_id(d.workload).count(113) == 0);

  o = on_machine(8);
  o.size = SacctSize::cpus;
  o.procs_per_node = 3;
  CHECK(by_id(read_sacct(kDump, o).workload).at(101).size == 3);  // ceil(8 / 3)
  o = on_machine(8);
  o.size = SacctSize::tres;
  CHECK(by_id(read_sacct(kDump, o).workload).at(106).size == 3);

  // start: t = 0 there, earlier submits dropped.
  const double origin = read_sacct(kDump, on_machine(8)).origin_unix_s;
  o = on_machine(8);
  o.start_unix_s = origin + 5 * 60;
  d = read_sacct(kDump, o);
  CHECK(d.stats.before_start == 4);  // 101, 102, 103, 105
  CHECK(d.workload.jobs.front().submit_s == 0);
  CHECK(by_id(d.workload).at(106).submit_s == 0);

  // The same wall-clock times at UTC+02:00 are two hours earlier in UNIX time.
  o = on_machine(8);
  o.utc_offset_s = 7200;
  CHECK(read_sacct(kDump, o).origin_unix_s == origin - 7200);

  // Without a machine size, the widest job's.
  CHECK(read_sacct(kDump).workload.machine_nodes == 64);
}

TEST_CASE("sacct: errors name the file, the line, the field and the value", "[sacct]") {
  const std::string ok = "|2026-01-01T00:00:00|2026-01-01T00:00:01|2026-01-01T00:01:01|";
  CHECK(error_of("1|x" + ok + "00:01:00|00:10:00|1|COMPLETED") ==
        "d.txt:2: field JobIDRaw = 'x': not an integer");
  CHECK(error_of("1|1|2026-13-01T00:00:00|2026-01-01T00:00:01|2026-01-01T00:01:01|00:01:00|"
                 "00:10:00|1|COMPLETED") ==
        "d.txt:2: field Submit = '2026-13-01T00:00:00': not a Slurm time "
        "(YYYY-MM-DDTHH:MM:SS, Unknown or None)");
  CHECK(error_of("1|1" + ok + "1:2:3:4|00:10:00|1|COMPLETED") ==
        "d.txt:2: field Elapsed = '1:2:3:4': not a duration ([D-]HH:MM:SS or MM:SS)");
  CHECK(error_of("1|1" + ok + "00:01:00|soon|1|COMPLETED")
            .find("d.txt:2: field Timelimit = 'soon': not a duration") == 0);
  // Beyond 2^32 s (~136 years) a run time is an error; a limit says no more than UNLIMITED.
  CHECK(error_of("1|1" + ok + "999999999-00:00:00|00:10:00|1|COMPLETED") ==
        "d.txt:2: field Elapsed = '999999999-00:00:00': beyond 2^32 s (~136 years)");
  {
    const SacctWorkload d = parse_sacct(
        std::string(kHeader) + "1|1" + ok + "00:01:00|999999999-00:00:00|1|COMPLETED\n", "d.txt");
    REQUIRE(d.workload.jobs.size() == 1);
    CHECK(d.workload.jobs[0].estimate_s == 60);
    CHECK(d.stats.estimate_fixed == 1);
  }
  CHECK(error_of("1|1" + ok + "00:01:00|00:10:00|two|COMPLETED") ==
        "d.txt:2: field NNodes = 'two': not an integer");
  CHECK(error_of("1|1" + ok + "00:01:00|00:10:00|1|FINISHED")
            .find("d.txt:2: field State = 'FINISHED': not a Slurm job state") == 0);
  CHECK(error_of("1|1|2026-01-01T00:00:00|2026-01-01T00:02:00|2026-01-01T00:01:00|00:01:00|"
                 "00:10:00|1|COMPLETED") ==
        "d.txt:2: field End = '2026-01-01T00:01:00': before Start");
  CHECK(error_of("1|1|2026-01-01T00:00:00") ==
        "d.txt:2: expected 9 fields as in the header, "
        "found 3");
  // A missing column is an error whatever bad_lines says, before any record is read.
  const auto e = faultsweep::testing::thrown_error(
      [] { (void)parse_sacct("JobID|Submit|Start|End|State|NNodes\n", "h.txt"); });
  REQUIRE(e);
  CHECK(std::string(e->what()).find("h.txt:1: the sacct header has no column JobIDRaw") == 0);
  // Skipped malformed records are counted, with their messages; none usable is an error.
  const std::string good = "2|2" + ok + "00:01:00|00:10:00|1|COMPLETED\n";
  const auto d = parse_sacct(
      std::string(kHeader) + "1|x" + ok + "00:01:00|00:10:00|1|COMPLETED\n" + good, "d.txt");
  CHECK(d.stats.bad_lines == 1);
  CHECK(d.stats.jobs == 1);
  CHECK(d.stats.first_errors.at(0) == "d.txt:2: field JobIDRaw = 'x': not an integer");
  CHECK(faultsweep::testing::thrown_key([] {
          (void)parse_sacct(std::string(kHeader) +
                                "3|3|2026-01-01T00:00:00|Unknown|Unknown|"
                                "00:00:00|00:10:00|1|PENDING\n",
                            "p.txt");
        }) == "file");
}

TEST_CASE("sacct: the source row reads the dump and stores its reading", "[sacct]") {
  using faultsweep::testing::make_params;
  const auto dir = kDump.parent_path();
  const auto table = make_params({{"source", Value(std::string("sacct"))},
                                  {"file", Value(std::string("sacct_small.txt"))},
                                  {"partitions", Value(std::string("batch, gpu"))},
                                  {"running", Value(std::string("cut"))}});
  validate_workload(table, dir);
  faultsweep::RunContext ctx;
  ctx.base_dir = dir;
  const Workload w = make_workload(table, 8, ctx);
  CHECK(w.jobs.size() == 15);  // 113 (debug) out, 110 (running) in
  const auto reading = swf_reading(table, 8, dir);
  REQUIRE(reading);
  CHECK(reading->summary.find("23 lines, 15 jobs kept") == 0);
  CHECK(reading->summary.find("1 of other partitions") != std::string::npos);
  const auto count = [&](const std::string& name) {
    for (const auto& [n, v] : reading->counts)
      if (n == name) return v;
    return std::int64_t{-1};
  };
  CHECK(count("steps") == 4);
  CHECK(count("running_cut") == 1);
  CHECK(count("kept_COMPLETED") == 8);
  // Bad keys are errors naming the key.
  using faultsweep::testing::thrown_key;
  const auto with = [&](const char* key, const char* value) {
    auto t = table;
    t.set(key, Value(std::string(value)));
    return thrown_key([&] { validate_workload(t, dir); });
  };
  CHECK(with("utc_offset", "CET") == "utc_offset");
  CHECK(with("start", "yesterday") == "start");
  CHECK(with("partitions", "batch,,gpu") == "partitions");
  CHECK(with("size", "memory") == "size");
  CHECK(with("file", "missing.txt") == "file");
}
