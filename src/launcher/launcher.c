/* The `faultsweep` command: a small static program that blocks the stop signals (SIGTERM, SIGINT,
 * SIGUSR1) and then runs the real binary (libexec/faultsweep/faultsweep) in the same process.
 *
 * Why: the real binary loads some fifty shared libraries (MPI, HDF5 and theirs) before its first
 * instruction, tens of milliseconds under load. mpirun forwards SIGUSR1 to ranks that may be in
 * exactly that moment, and a process without a handler dies of it. A blocked signal survives
 * exec and stays pending; the real binary installs its handlers before any library initialises
 * and then unblocks them, so a stop that came during start-up is acted on, never fatal. This
 * program links nothing but a static C library, and on x86-64 its first instruction blocks the
 * signals; elsewhere main() does, a fraction of a millisecond after exec. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Where the real binary is, relative to this program's folder: installed (bin/ and
 * libexec/faultsweep/) and in a build tree (build/ and build/libexec/faultsweep/). */
static const char* const kCandidates[] = {FAULTSWEEP_MAIN_FROM_BIN,
                                          "libexec/faultsweep/faultsweep"};

#if defined(__x86_64__) && defined(FAULTSWEEP_EARLY_ENTRY)
/* The program's entry point (linked with -e faultsweep_entry): its very first instruction
 * blocks the stop signals with one system call, before even the C library's start-up code, then
 * goes on to the C library's _start with the stack and registers as the kernel left them
 * (rdx, the only register _start reads besides the stack, is 0 for a static program, as here). */
__attribute__((used)) const unsigned long faultsweep_stop_mask =
    (1UL << (SIGINT - 1)) | (1UL << (SIGUSR1 - 1)) | (1UL << (SIGTERM - 1));
__attribute__((naked, noreturn)) void faultsweep_entry(void) {
  __asm__(
      "mov $14, %eax\n\t"  /* SYS_rt_sigprocmask */
      "xor %edi, %edi\n\t" /* SIG_BLOCK */
      "lea faultsweep_stop_mask(%rip), %rsi\n\t"
      "xor %edx, %edx\n\t" /* no old mask */
      "mov $8, %r10d\n\t"  /* sizeof the kernel's sigset */
      "syscall\n\t"
      "xor %edx, %edx\n\t"
      "jmp _start\n\t");
}
#endif

int main(int argc, char** argv) {
  (void)argc;
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGUSR1);
  sigprocmask(SIG_BLOCK, &stop, NULL);

  char self[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) {
    fprintf(stderr, "faultsweep: error: cannot find this program's own path (/proc/self/exe): %s\n",
            strerror(errno));
    return 4;
  }
  self[n] = '\0';
  char* slash = strrchr(self, '/');
  if (slash != NULL) slash[1] = '\0';

  char path[PATH_MAX + 64];
  for (size_t i = 0; i < sizeof kCandidates / sizeof kCandidates[0]; ++i) {
    snprintf(path, sizeof path, "%s%s", self, kCandidates[i]);
    if (access(path, X_OK) == 0) {
      execv(path, argv);
      fprintf(stderr, "faultsweep: error: cannot run %s: %s\n", path, strerror(errno));
      return 4;
    }
  }
  fprintf(stderr,
          "faultsweep: error: the faultsweep binary is missing: looked for %s%s and %s%s (an "
          "incomplete installation?)\n",
          self, kCandidates[0], self, kCandidates[1]);
  return 4;
}
