#include "faultsweep/sweep/signals.hpp"

#include <csignal>

#include "faultsweep/core/stop.hpp"

namespace faultsweep::sweep {
namespace {

// Process-wide by nature: a signal handler can only reach static storage.
constinit std::atomic<int> g_signal{0};
constexpr int kStopSignals[] = {SIGTERM, SIGINT, SIGUSR1};

extern "C" void on_stop_signal(int sig) {
  g_signal.store(sig);
  stop_flag().store(true);
}

void set_handlers(void (*handler)(int)) {
  struct sigaction sa {};
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int sig : kStopSignals) sigaction(sig, &sa, nullptr);
}

}  // namespace

void install_stop_handlers() {
  set_handlers(on_stop_signal);
}

void release_stop_handlers() {
  set_handlers(SIG_DFL);
  if (const int sig = g_signal.load()) std::raise(sig);  // caught before we knew: act on it now
}

const std::atomic<bool>& stop_requested() {
  return stop_flag();
}
int stop_signal() {
  return g_signal.load();
}

}  // namespace faultsweep::sweep
