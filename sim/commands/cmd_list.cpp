// hcube list: the catalogue of algorithms, with each one's paper (sim/commands/commands.h).
#include <cstdio>
#include <iostream>

#include "algorithms/algorithms.h"
#include "commands.h"
#include "inspect/report.h"

namespace hcube {

int cmdList(Args& args) {
  const bool json = args.flag("--json");
  args.finish();
  if (json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const AlgorithmInfo& a : algorithmCatalogue()) {
      list.push_back({{"name", a.name}, {"summary", a.summary}, {"source", a.source}});
    }
    std::cout << jsonText(list) << "\n";
    return 0;
  }
  for (const AlgorithmInfo& a : algorithmCatalogue()) {
    std::printf("%-16s %s\n%-16s   [%s]\n", a.name.c_str(), a.summary.c_str(), "",
                a.source.c_str());
  }
  std::printf(
      "\nEvery relative-address AAPC (edelman, jh1..jh4, exchange) also takes\n"
      "  --alignment explicit|relative  PERMUTE pre-alignment, exchange on absolute slots,\n"
      "                                 re-alignment [Johnsson & Ho 1992, section 2.2]\n"
      "  --code binary|gray             (j|i) -> (f(i)|g(j)) with f = g = Gray code, folded into\n"
      "                                 the alignment phases [Johnsson & Ho 1992, section "
      "2.2.2]\n");
  return 0;
}

}  // namespace hcube
