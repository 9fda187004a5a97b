// hcube: per-cycle traffic monitor shared by every backend (header-only, standard C++ only, so
// the RTL testbench in tb/ uses the very same code).
//
// It sees every word that crosses a link and every word written into memory by a receive, and
// derives per-link word counts and the span of Johnsson & Ho 1992, Definition 2: for an element
// that leaves its source in cycle t1 and last arrives in cycle ts, span = ts - t1 + 1; the span of
// a run is the maximum over elements. Words are tags (an element's initial global address).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace hcube {

class TrafficMonitor {
 public:
  TrafficMonitor(std::uint64_t nodes, int dims, std::uint64_t tagged_elements)
      : dims_(dims),
        link_words_(nodes * static_cast<std::uint64_t>(dims), 0),
        first_send_(tagged_elements, kNever),
        last_store_(tagged_elements, kNever) {}

  /// A word leaves `node` on `port` in `cycle` (0-based cycle after start).
  void send(std::uint64_t node, int port, std::uint32_t word, std::uint64_t cycle) {
    ++link_words_[node * static_cast<std::uint64_t>(dims_) + static_cast<std::uint64_t>(port)];
    if (word < first_send_.size() && first_send_[word] == kNever) first_send_[word] = cycle;
  }

  /// A received word is written into a memory slot at the end of `cycle`.
  void store(std::uint32_t word, std::uint64_t cycle) {
    if (word < last_store_.size() && (last_store_[word] == kNever || last_store_[word] < cycle)) {
      last_store_[word] = cycle;
    }
  }

  const std::vector<std::uint64_t>& linkWords() const { return link_words_; }

  std::uint64_t span() const {
    std::uint64_t best = 0;
    for (std::size_t e = 0; e < first_send_.size(); ++e) {
      if (first_send_[e] == kNever || last_store_[e] == kNever || last_store_[e] < first_send_[e]) {
        continue;
      }
      best = std::max(best, last_store_[e] - first_send_[e] + 1);
    }
    return best;
  }

 private:
  static constexpr std::uint64_t kNever = ~std::uint64_t{0};
  int dims_;
  std::vector<std::uint64_t> link_words_;
  std::vector<std::uint64_t> first_send_;
  std::vector<std::uint64_t> last_store_;
};

}  // namespace hcube
