// A user's own all-to-all personalized communication on a 3-cube, run on the cube.
//
// The schedule is a relative one (Edelman 1991 Theorem 3.2; Johnsson & Ho 1992 §2.1): in step
// t every node x sends, across dimension j, its element at local address w[t][j] ^ x. The element
// with relative address w must cross each dimension of a one bit of w once; with K = 8 elements
// per node that is 12 sends on 3 ports, so the all-port bound K/2 = 4 steps leaves no idle
// channel: address 7 crosses dimension 0, 1, 2 in steps 1, 2, 3 while the addresses of two one
// bits take turns around it.
//
//   own_schedule [table] [tlm] [rtl]     (default: table)
// prints each run's cycles beside the bound and exits 1 on any mismatch or hardware error.
#include <hcube/hcube.h>

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  namespace hc = hcube::api;
  std::vector<std::string> backends;
  for (int i = 1; i < argc; ++i) backends.emplace_back(argv[i]);
  if (backends.empty()) backends.emplace_back("table");

  const hc::Permutation perm = hc::Permutation::aapc(3);  // 8 nodes, K = 8
  const hc::Schedule schedule = hc::Schedule::relative(3,
                                                       {
                                                           {1, 2, 4},  // step 0
                                                           {7, 6, 5},  // step 1
                                                           {3, 7, 6},  // step 2
                                                           {5, 3, 7},  // step 3
                                                       },
                                                       "own-aapc");
  std::cout << "hcube " << hc::version() << ": " << schedule.name() << " on " << perm.str() << ", "
            << schedule.steps() << " steps\n";
  bool ok = true;
  try {
    const hc::Verification v = hc::verify(schedule, perm);
    std::cout << "verify: " << (v.ok ? "ok" : "FAILED") << "\n";
    ok = v.ok;
    for (const std::string& backend : backends) {
      hc::Options options;
      options.backend = backend;
      if (backend == "rtl") {
        std::cout << "RTL sources "
                  << (options.data_dir.empty() ? "(found by the library)" : options.data_dir)
                  << "\n";
      }
      const hc::Result r = hc::run(schedule, perm, options);
      std::cout << backend << ": " << r.cycles << " cycles, bound " << r.lower_bound
                << ", transfer cycles " << r.transfer_cycles << ", " << r.mismatches
                << " mismatches, " << r.errors.size() << " error counters\n";
      ok = ok && r.passed();
    }
  } catch (const hc::Error& e) {
    std::cerr << "own_schedule: " << e.what() << "\n";
    return 2;
  }
  std::cout << (ok ? "PASS" : "FAIL") << "\n";
  return ok ? 0 : 1;
}
