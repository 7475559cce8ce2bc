#include "faultsweep/core/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace faultsweep {

unsigned thread_count(unsigned requested) {
  if (requested > 0) return requested;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw > 0 ? hw : 1;
}

void parallel_for(std::size_t n, unsigned threads, const std::function<void(std::size_t)>& body) {
  if (threads <= 1 || n < 2) {
    for (std::size_t i = 0; i < n; ++i) body(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr first;
  std::mutex m;
  // Items come in blocks: one atomic increment per block keeps the counter off the hot path;
  // at most 64 items, and at least four blocks per thread, so that a few long items (chunks,
  // laws) are spread over the threads too.
  const std::size_t kBlock = std::clamp<std::size_t>(n / (4 * std::size_t{threads}), 1, 64);
  const auto work = [&] {
    for (std::size_t b = next.fetch_add(kBlock); b < n && !failed.load();
         b = next.fetch_add(kBlock)) {
      for (std::size_t i = b; i < std::min(n, b + kBlock); ++i) {
        try {
          body(i);
        } catch (...) {
          const std::lock_guard lock(m);
          if (!first) first = std::current_exception();
          failed.store(true);
          return;
        }
      }
    }
  };
  std::vector<std::thread> pool;
  const unsigned extra = static_cast<unsigned>(std::min<std::size_t>(threads, n)) - 1;
  pool.reserve(extra);
  for (unsigned t = 0; t < extra; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (first) std::rethrow_exception(first);
}

}  // namespace faultsweep
