// hcube faults: a campaign of random single link faults over a case (sim/commands/commands.h).
#include <chrono>
#include <iostream>

#include "base/error.h"
#include "cmd_common.h"
#include "commands.h"
#include "inspect/fault_campaign.h"
#include "spec/reference.h"

namespace hcube {

// hcube faults: a campaign of random single faults over a case (sw/inspect/fault_campaign.h).
int cmdFaults(Args& args) {
  const std::string backend = args.get("--backend").value_or("table");
  const long long count = args.number("--campaign", -1);
  const long long seed = args.number("--seed", 1);
  const std::string cache = args.get("--cache").value_or("");
  if (count < 1) throw Error("--campaign N (a number of faults, at least 1) is required");
  if (static_cast<u64>(count) > kMaxCampaignFaults) {
    throw Error("--campaign " + std::to_string(count) + ": a campaign runs at most " +
                std::to_string(kMaxCampaignFaults) + " faults (each is a run of the case)");
  }
  if (seed < 0) throw Error("--seed must not be negative");
  HeaderOrigin origin;
  const BuiltCase c = loadCase(args, {backend}, origin);
  args.finish();
  requireBackendLimits(c.tables, backend, &origin);
  BackendRun b{backend, "", cache, 0, nullptr};
  b.record_traffic = true;
  const RunResult golden = runOn(c, b, nullptr);
  const CheckResult check = checkAgainstReference(c.perm, golden.memory);
  if (check.mismatches != 0 || !golden.errors.empty() || golden.timeout) {
    throw Error("the case fails without a fault (hcube run shows why): faults need a passing case");
  }
  const std::vector<Fault> faults =
      drawFaults(c.tables, golden, static_cast<u64>(count), static_cast<u64>(seed));
  const auto started = std::chrono::steady_clock::now();
  const CampaignResult r = runCampaign(c.tables, c.perm, golden, faults, faultRunner(c, b));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << caseTitle(c) << ", " << golden.cycles << " cycles; " << count << " faults, seed "
            << seed << "\n"
            << formatCampaign(r);
  std::cerr << "hcube: " << count << " faulty runs in " << seconds << " s\n";
  return 0;
}

}  // namespace hcube
