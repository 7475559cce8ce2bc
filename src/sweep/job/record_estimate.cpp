// The size of a records selection (the [sweep] key `record`), estimated before anything runs.
// The coordinator holds the tables of every recorded task in memory until it writes the results
// file (and the side journal holds the same bytes on disk), so a selection that cannot fit is
// refused by `check` and `run` with the figure, instead of ending out of memory hours later.
#include <fmt/format.h>

#include <algorithm>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/memory.hpp"
#include "faultsweep/sim/records.hpp"
#include "faultsweep/sweep/job.hpp"
#include "job_loader.hpp"

namespace faultsweep::sweep::detail {

namespace {

// At most this many recorded points are asked for their job count (a generator's count comes
// from a 1,000-job sample); the others are taken to be like the mean of those.
constexpr std::size_t kSampledPoints = 64;

}  // namespace

double record_bytes_per_job(unsigned what) {
  // A lower bound: every job has its row, and at least one attempt and one run of nodes once it
  // started. Failures, node changes and decisions add more (records.md, Cost: ~290 B a job on
  // SDSC-SP2 with failures, all four tables), but their count is not known before the run.
  if ((what & sim::kRecordJobs) == 0) return 0;
  return sizeof(sim::JobRow) + sizeof(sim::AttemptRow) + sizeof(sim::AllocationRow);
}

void estimate_records(JobSpec& job) {
  RecordSelection& r = job.record;
  if (r.what == 0) return;
  const std::size_t points = r.all_points ? job.points.size() : r.points.size();
  const std::size_t step = std::max<std::size_t>(1, points / kSampledPoints);
  double jobs = 0;
  std::size_t sampled = 0;
  for (std::size_t i = 0; i < points; i += step, ++sampled) {
    const std::size_t p = r.all_points ? i : static_cast<std::size_t>(r.points[i]);
    jobs += job.model->record_jobs(job.points[p], job.base_dir);
  }
  r.jobs_per_replica = sampled > 0 ? jobs / static_cast<double>(sampled) : 0.0;
  r.tasks = static_cast<double>(points) * static_cast<double>(r.replicas.size());
  r.bytes = r.tasks * r.jobs_per_replica * record_bytes_per_job(r.what);
  const MemoryLimit limit = memory_limit();
  if (limit.bytes == 0 || r.bytes <= static_cast<double>(limit.bytes)) return;
  throw InputError(
      "sweep.record", r.text(),
      fmt::format("a selection whose records fit in memory: {:.3g} recorded tasks x {:.3g} jobs "
                  "x at least {:.0f} B make at least {:.3g} GB, which the coordinator holds until "
                  "it writes the results file (and the records journal on disk), over the limit "
                  "of {:.3g} GB ({}): record fewer points or replicas (see docs/limits.md)",
                  r.tasks, r.jobs_per_replica, record_bytes_per_job(r.what), r.bytes / 1e9,
                  static_cast<double>(limit.bytes) / 1e9, limit.source))
      .located(job.file, r.line);
}

}  // namespace faultsweep::sweep::detail
