#pragma once
// Application and environment tables of Plank & Thomason §7 (Tables 1-3), read from TOML files
// under inputs/plank/ (not compiled in). Units: RT_a in seconds (Eq. 6), CS_a in MB (Eq. 7),
// checkpoint rates in MB/s, MTTF/MTTR in seconds.
#include <filesystem>
#include <string>
#include <vector>

namespace faultsweep::avail {

struct PlankApp {
  std::string name;
  double b[4] = {};                   // Eq. 6 coefficients b1..b4 (Table 2)
  double c[4] = {};                   // Eq. 7 coefficients c1..c4 (Table 2)
  double r = 0;                       // performance metric (Table 1), from the problem size
  double z = 0;                       // size metric (Table 1), from the problem size
  double runtime_s(int a) const;      // RT_a, Eq. 6
  double checkpoint_MB(int a) const;  // CS_a, Eq. 7
};

struct PlankEnv {
  std::string name;
  int N = 32;
  double mttf_s = 0;       // 1 / lambda
  double mttr_s = 0;       // 1 / theta
  double C_rate_MBps = 0;  // C_a = CS_a / C_rate (Table 3)
  double L_rate_MBps = 0;  // L_a = CS_a / L_rate
  double R_rate_MBps = 0;  // R_a = CS_a / R_rate
};

// Reads apps.toml / environments.toml; throws InputError with file:line on bad content.
std::vector<PlankApp> load_plank_apps(const std::filesystem::path& file);
std::vector<PlankEnv> load_plank_envs(const std::filesystem::path& file);

}  // namespace faultsweep::avail
