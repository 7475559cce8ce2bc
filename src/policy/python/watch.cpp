// Calls into a policy's Python code, watched. The interpreter runs without Python's own signal
// handlers, and a signal cannot reach a thread that is not the main one (rank 0 runs policies in
// its worker thread), so the only way to end a call that loops is from outside it: a watcher
// thread sees the stop flag (set by faultsweep's signal handlers) or the call's time limit pass,
// takes the GIL (the loop hands it over at its next switch interval, 5 ms) and raises an
// exception in the calling thread (PyThreadState_SetAsyncExc), which Python delivers at the
// call's next bytecode. The adapter then ends the replica on the ordinary stop path
// (Interrupted: the task runs again on resume) or with an error naming the call.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <thread>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/stop.hpp"
#include "internal.hpp"

namespace faultsweep::policy::python {

namespace {

using Clock = std::chrono::steady_clock;

// The call being watched. One at a time: a policy's call holds the GIL, and a call made while
// another is watched (from inside it) is part of that one. Atomics: the watcher reads them
// without the GIL.
std::atomic<std::uint64_t> g_call{0};  // its number, 0: none
std::atomic<unsigned long> g_thread{0};
std::atomic<std::int64_t> g_deadline_ns{0};  // Clock, since its epoch
std::atomic<int> g_cut{Watched::none};       // written with the GIL held
std::uint64_t g_next_call = 1;               // GIL-guarded

// The exceptions raised inside a cut call: BaseException's, so that a policy's
// `except Exception:` does not swallow them. Created once with the GIL held.
PyObject* g_stop_exc = nullptr;
PyObject* g_limit_exc = nullptr;

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
      .count();
}

void watch() {
  using namespace std::chrono_literals;
  std::uint64_t raised_in = 0;  // the call last cut, and when
  Clock::time_point raised_at;
  for (;;) {
    std::this_thread::sleep_for(10ms);
    const std::uint64_t call = g_call.load();
    if (call == 0) continue;
    const int why = stop_pending()                    ? Watched::stop
                    : now_ns() > g_deadline_ns.load() ? Watched::time_limit
                                                      : Watched::none;
    // Cut again if the call goes on (it caught the exception) a tenth of a second later.
    if (why == Watched::none || (call == raised_in && Clock::now() - raised_at < 100ms)) continue;
    const PyGILState_STATE gil = PyGILState_Ensure();
    if (g_call.load() == call) {  // still the same call: the GIL is ours, so it is inside it
      g_cut.store(why);
      PyThreadState_SetAsyncExc(g_thread.load(), why == Watched::stop ? g_stop_exc : g_limit_exc);
      raised_in = call;
      raised_at = Clock::now();
    }
    PyGILState_Release(gil);
  }
}

}  // namespace

void start_watcher() {
  g_stop_exc = PyErr_NewException("faultsweep_policy.Stopped", PyExc_BaseException, nullptr);
  g_limit_exc =
      PyErr_NewException("faultsweep_policy.TimeLimitExceeded", PyExc_BaseException, nullptr);
  std::thread(watch).detach();  // lives as long as the process; holds no resource at exit
}

Watched::Watched(const Spec& s, std::string what, double now_s)
    : spec_(s), what_(std::move(what)), now_s_(now_s) {
  if (g_call.load() != 0) return;  // inside a watched call: that one's limit applies
  call_ = g_next_call++;
  g_cut.store(none);
  g_thread.store(PyThread_get_thread_ident());
  const double limit_ns = std::min(s.time_limit_s * 1e9, 1e17);
  g_deadline_ns.store(now_ns() + static_cast<std::int64_t>(limit_ns));
  g_call.store(call_);
}

Watched::~Watched() {
  if (call_ == 0) return;
  g_call.store(0);
  // An exception raised as the call was returning would go off in the next Python code this
  // thread runs: drop it.
  if (g_cut.load() != none) PyThreadState_SetAsyncExc(PyThread_get_thread_ident(), nullptr);
}

Watched::Cut Watched::cut() const {
  return call_ == 0 ? none : static_cast<Cut>(g_cut.load());
}

void Watched::check() const {
  const Cut c = cut();
  if (c == none) return;
  if (c == stop)
    throw Interrupted(
        fmt::format("stopped by a signal in Python {} {}: {}", spec_.key, spec_.class_name, what_));
  // The policy's fault, like a decision the engine refuses to read: a user error (exit 2).
  throw InputError(fmt::format(
      "Python {} {} ({}): {} did not return within its time limit of {} ({}.time_limit) {}",
      spec_.key, spec_.class_name, spec_.file_text, what_, format_duration(spec_.time_limit_s),
      spec_.key,
      std::isnan(now_s_) ? std::string("(before the simulation started)")
                         : fmt::format("at simulated time {:.17g} s", now_s_)));
}

}  // namespace faultsweep::policy::python
