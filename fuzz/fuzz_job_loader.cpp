// libFuzzer target: the job-file loader from raw bytes. Any input must end in a JobSpec or an
// InputError; a crash, a sanitizer report, a hang or another exception is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "faultsweep/core/error.hpp"
#include "faultsweep/sweep/job.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    // At most 1000 points: the loader's limits are tested elsewhere; here they would only make
    // the fuzzer slow.
    (void)faultsweep::sweep::parse_job(text, "fuzz/job.toml", 1000);
  } catch (const faultsweep::InputError&) {
  } catch (const faultsweep::IoError&) {  // an input file named by the job cannot be read
  }
  return 0;
}
