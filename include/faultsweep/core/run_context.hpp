#pragma once
// What a run may know besides its parameters: the seed, the replica, where relative paths start.
// In core/ so that the areas a model is built from (workload/, failures/, ...) can take it
// without including the models area; models/model.hpp re-exports it as models::RunContext.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "faultsweep/core/rng.hpp"

namespace faultsweep {

struct RunContext {
  std::uint64_t master_seed = 0;
  std::uint64_t replica = 0;
  std::filesystem::path base_dir;           // the job file's folder, for ParamKind::path
  const std::atomic<bool>* stop = nullptr;  // set on SIGTERM; long runs may poll it
  // The records (sim/records.hpp) to keep of this replica, as RecordTable flags (0: none). A
  // model that keeps records writes them, encoded, to *records_out; results never depend on it.
  unsigned record = 0;
  std::vector<unsigned char>* records_out = nullptr;

  Engine stream(Purpose purpose, std::string_view config_text) const {
    return make_stream(master_seed, replica, purpose, config_text);
  }
  std::filesystem::path resolve(const std::string& path) const {
    const std::filesystem::path p(path);
    return p.is_absolute() ? p : base_dir / p;
  }
};

}  // namespace faultsweep
