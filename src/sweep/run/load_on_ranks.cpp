// Loading a job on every rank: rank 0 reads the job file (and the policy sources it names,
// kept in its text), every rank parses that text, and all agree on the outcome.
#include "load_on_ranks.hpp"

#include <cstdio>
#include <string>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/notice.hpp"
#include "faultsweep/core/stop.hpp"
#include "faultsweep/sweep/provenance.hpp"

namespace faultsweep::sweep {

int load_on_ranks(const RunOptions& opt, mpi::communicator& world, std::optional<JobSpec>& job) {
  const bool root = world.rank() == 0;
  // Rank 0 reads the job file (and the policy sources it names, kept in its text); every rank
  // parses the same text (so all see the same points and run the same policy bytes).
  std::string text, error;
  int load_code = 0;
  // An error of loading as an exit code: a stop while a policy's code was loading ends the
  // run as any stop does; a broken environment (the Python of a policy) is not bad input.
  const auto code_of = [&](auto&& load) {
    try {
      load();
      return 0;
    } catch (const Interrupted&) {
      error = "interrupted while the job was loading: nothing was run or written";
      return kExitInterrupted;
    } catch (const InputError& e) {
      error = e.what();
      return kExitInput;
    } catch (const Error& e) {
      error = e.what();
      return kExitIo;
    }
  };
  // A stop already: nothing is loaded, run or written.
  const auto stopped = [&] {
    if (!stop_pending()) return false;
    error = "interrupted while the job was loading: nothing was run or written";
    return true;
  };
  if (root)
    load_code = stopped() ? kExitInterrupted : code_of([&] { text = load_job(opt.job_path).text; });
  mpi::broadcast(world, text, 0);
  mpi::broadcast(world, error, 0);
  mpi::broadcast(world, load_code, 0);
  if (load_code != 0) {
    if (root) std::fprintf(stderr, "faultsweep: error: %s\n", error.c_str());
    return load_code;
  }
  load_code = code_of([&] {
    // Rank 0 says what the inputs' readers dropped; the others would repeat it (core/notice.hpp).
    const MutedNotices quiet(!root);
    if (!root) adopt_policy_sources(text, opt.job_path);
    job = parse_job(text, opt.job_path);
  });
  if (load_code == 0 && stopped()) load_code = kExitInterrupted;
  // A stop reaches the ranks at different moments: all agree on the outcome (a rank that
  // went on would wait for the others forever).
  const int agreed = mpi::all_reduce(world, load_code, mpi::maximum<int>());
  if (agreed != 0) {
    if (root)
      std::fprintf(stderr, "faultsweep: error: %s\n",
                   !error.empty() ? error.c_str()
                                  : "interrupted while the job was loading: nothing was run or "
                                    "written");
    return agreed;
  }
  return 0;
}

}  // namespace faultsweep::sweep
