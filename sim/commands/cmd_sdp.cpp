// hcube sdp: a stable dimension permutation classified, with its lower bounds
// (sim/commands/commands.h).
#include <iostream>

#include "base/error.h"
#include "commands.h"
#include "spec/sdp.h"

namespace hcube {

/// hcube sdp: Ho & Johnsson 1988 §2-3 classification and lower bounds (sw/spec/sdp.h).
int cmdSdp(Args& args) {
  const int n = static_cast<int>(args.number("--n", -1));
  const long long k = args.number("--k", 0);
  const auto delta = args.get("--delta");
  const auto cycles = args.get("--cycles");
  const int mp = static_cast<int>(args.number("--mp", -1));
  const long long tau = args.number("--tau", 0);
  const bool json = args.flag("--json");
  if (!args.flag("--describe")) throw Error("hcube sdp: --describe is the only action");
  args.finish();
  const SdpDescription d = describeSdpOptions(n, k, delta, cycles, mp, tau);
  std::cout << (json ? d.json + "\n" : d.text);
  return 0;
}

}  // namespace hcube
