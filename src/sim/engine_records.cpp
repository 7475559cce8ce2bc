// The end of a recorded run: one row per job from the engine's job records, the attempts still
// open closed at the run's end, and what the metrics need besides the rows.
#include <cmath>

#include "faultsweep/sim/engine.hpp"

namespace faultsweep::sim {

void Simulation::finish_records() {
  rec_->close(now_);
  RecordTables& t = rec_->tables();
  t.nodes = cfg_.nodes;
  t.start_s = start_s_;
  t.end_s = now_;
  if (!rec_->wants(kRecordJobs)) return;
  t.jobs.resize(jobs_.size());
  std::vector<std::int32_t> attempts(jobs_.size(), 0);
  for (const AttemptRow& a : t.attempts) ++attempts[static_cast<std::size_t>(a.job)];
  for (std::size_t i = 0; i < jobs_.size(); ++i) {
    const JobRecord& r = jobs_[i];
    JobRow& row = t.jobs[i];
    row.id = input_[i].id;
    row.index = static_cast<std::int32_t>(i);
    row.user = input_[i].user;
    row.group = input_[i].group;
    row.executable = input_[i].executable;
    row.queue = input_[i].queue;
    row.partition = input_[i].partition;
    row.requested_size = r.requested_size;
    row.size = r.size;
    row.submit_s = r.submit_s;
    row.first_start_s = r.first_start_s;
    row.finish_s = r.finish_s;
    row.runtime_s = r.runtime_s;
    row.estimate_s = r.estimate_s;
    row.wait_s = r.waiting_s;
    row.run_s = r.running_s;
    row.suspended_s = r.suspended_s;
    row.lost_s = r.lost_s;
    row.checkpoint_s = r.checkpoint_s;
    row.checkpoints = r.checkpoints_written;
    row.failures = r.failures;
    row.migrations = r.moves;
    row.attempts = attempts[i];
    row.state = static_cast<std::uint8_t>(r.state);
  }
}

}  // namespace faultsweep::sim
