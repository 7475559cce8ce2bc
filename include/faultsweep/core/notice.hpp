#pragma once
// Notes for the user on stderr (what an input reader dropped, settings under which jobs can hardly
// progress): each text once per process, however many points or replicas meet it. Every MPI rank
// parses the job and loads its inputs, so the driver mutes the other ranks while they do (rank 0
// says the same lines): a job's notes then appear once, not once per rank. A text first met while
// muted counts as said.
#include <string>
#include <vector>

namespace faultsweep {

void say_once(const std::string& text);

// Every text say_once has met in this process (printed or muted), in order: the results file
// keeps them (/warnings), so a result is never read without its caveats.
std::vector<std::string> said_notices();

// While alive, say_once records texts without printing them (nests; thread-safe).
class MutedNotices {
 public:
  explicit MutedNotices(bool mute = true);
  ~MutedNotices();
  MutedNotices(const MutedNotices&) = delete;
  MutedNotices& operator=(const MutedNotices&) = delete;

 private:
  bool mute_;
};

}  // namespace faultsweep
