#include "inspect/link_csv.h"

#include <cstdio>

#include "base/error.h"

namespace hcube {

std::string formatLinkCsv(const RunResult& run, int n, int lanes) {
  const u64 dims = static_cast<u64>(n);
  if (n < 1 || lanes < 1 || run.link_words.size() % dims != 0) {
    throw Error("link CSV: " + std::to_string(run.link_words.size()) +
                " link counts do not fit a " + std::to_string(n) + "-cube");
  }
  const u64 nodes = run.link_words.size() / dims;
  const double capacity = static_cast<double>(run.cycles) * lanes;
  std::string out = "node,dimension,neighbour,words,utilisation\n";
  char line[128];
  for (u64 x = 0; x < nodes; ++x) {
    for (u64 j = 0; j < dims; ++j) {
      const u64 words = run.link_words[x * dims + j];
      const double u = run.cycles == 0 ? 0.0 : static_cast<double>(words) / capacity;
      std::snprintf(line, sizeof line, "%llu,%llu,%llu,%llu,%.6f\n",
                    static_cast<unsigned long long>(x), static_cast<unsigned long long>(j),
                    static_cast<unsigned long long>(x ^ (u64{1} << j)),
                    static_cast<unsigned long long>(words), u);
      out += line;
    }
  }
  return out;
}

}  // namespace hcube
