#include "exec/hw_errors.h"

#include <algorithm>

#include "base/error.h"

namespace hcube {
const char* hwErrorName(HwError e) { return kHwErrorKindTable.at(static_cast<size_t>(e)).name; }

HwError hwErrorFromName(const std::string& name) {
  for (const HwErrorKindInfo& k : kHwErrorKindTable) {
    if (name == k.name) return k.kind;
  }
  throw Error("unknown hardware error kind '" + name + "'");
}

LinkUtilisation linkUtilisation(const RunResult& r, int lanes) {
  LinkUtilisation u;
  if (r.link_words.empty() || r.cycles == 0) return u;
  const double capacity = static_cast<double>(r.cycles) * lanes;
  u.min = 1e300;
  double sum = 0;
  for (u64 w : r.link_words) {
    const double x = static_cast<double>(w) / capacity;
    u.min = std::min(u.min, x);
    u.max = std::max(u.max, x);
    sum += x;
  }
  u.mean = sum / static_cast<double>(r.link_words.size());
  return u;
}

}  // namespace hcube
