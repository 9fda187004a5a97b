// hcube: the AAPC schedules by name (see aapc_family.h).
#include "algorithms/aapc/aapc_family.h"

#include "algorithms/aapc/blocking.h"
#include "algorithms/aapc/edelman.h"
#include "algorithms/aapc/exchange.h"
#include "algorithms/aapc/jh1_packed.h"
#include "algorithms/aapc/johnsson_ho.h"
#include "base/error.h"

namespace hcube {

const std::vector<std::string>& aapcScheduleNames() {
  static const std::vector<std::string> kNames = {"edelman", "jh1",      "jh2", "jh3",
                                                  "jh4",     "exchange", "sbnt"};
  return kNames;
}

bool aapcScheduleIsOnePort(const std::string& name) { return name == "exchange"; }

SlotSchedule aapcSlotSchedule(const std::string& name, int d, u64 slots,
                              const AapcScheduleOptions& options) {
  if (name == "exchange") {
    return exchangeSchedule(d, slots, options.lanes,
                            options.packet == 0 ? slots / 2 : options.packet);
  }
  if (name == "sbnt") {
    if (options.lanes != 1) {
      throw Error("sbnt: uses one word per port and cycle, not " + std::to_string(options.lanes));
    }
    return sbntSchedule(d, slots, options.sbnt_scheduling, options.sbnt_tree);
  }
  RelativeSchedule (*relative)(int) = nullptr;
  if (name == "edelman") relative = edelmanSchedule;
  if (name == "jh1") relative = jhAlgorithm1;
  if (name == "jh2") relative = jhAlgorithm2;
  if (name == "jh3") relative = jhAlgorithm3;
  if (name == "jh4") relative = [](int dims) { return jhAlgorithm4(dims); };
  if (relative == nullptr) {
    std::string known;
    for (const std::string& n : aapcScheduleNames()) known += (known.empty() ? "" : ", ") + n;
    throw Error("AAPC schedule '" + name + "': unknown (known: " + known + ")");
  }
  // Algorithm 1 packs the complement pairs of all repetitions; the others repeat their 2^d-address
  // schedule m times (Johnsson & Ho 1992 §2.1).
  const SlotSchedule plain =
      name == "jh1" ? jhAlgorithm1Packed(d, slots) : repeatRelative(relative(d), slots);
  if (options.lanes == 1 && !options.blocking) return plain;
  return blockedSchedule(plain, blockingTable(plain), options.lanes, options.blocking);
}

}  // namespace hcube
