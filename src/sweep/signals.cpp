#include "faultsweep/sweep/signals.hpp"

#include <csignal>

namespace faultsweep::sweep {
namespace {

// Process-wide by nature: a signal handler can only reach static storage.
std::atomic<bool> g_stop{false};
std::atomic<int> g_signal{0};

extern "C" void on_stop_signal(int sig) {
  g_signal.store(sig);
  g_stop.store(true);
}

}  // namespace

void install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGUSR1, &sa, nullptr);  // mpirun forwards USR1 to every rank; TERM it does not
}

const std::atomic<bool>& stop_requested() {
  return g_stop;
}
int stop_signal() {
  return g_signal.load();
}

}  // namespace faultsweep::sweep
