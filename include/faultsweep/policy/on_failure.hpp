#pragma once
// What happens to a job hit by a failure: it restarts from its last checkpoint, requeued at
// the head of the queue (the latest requeue first), at its original place in arrival order,
// or on its own nodes once the failed node is repaired (wait_repair, FARS §5.1).
#include <string_view>

namespace faultsweep::policy {

enum class OnFailure { requeue_head, requeue_original, wait_repair };

// "requeue_head" | "requeue_original" | "wait_repair" (policy/registry.hpp); throws
// InputError("on_failure", ...) otherwise.
OnFailure on_failure_from(std::string_view name);

}  // namespace faultsweep::policy
