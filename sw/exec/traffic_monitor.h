// hcube: per-cycle traffic monitor shared by every backend (header-only, standard C++ only, so
// the RTL testbench in tb/ uses the very same code; C++17, as the testbench is).
//
// It sees every word that crosses a link and every word written into memory by a receive, and
// derives per-link word counts and the span of Johnsson & Ho 1992, Definition 2: for an element
// that leaves its source in cycle t1 and last arrives in cycle ts, span = ts - t1 + 1; the span of
// a run is the maximum over elements. Words are tags (an element's initial global address).
#pragma once

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

namespace hcube {

/// The monitor's log of a run (recorded only when asked for). Both lists are in a canonical
/// order (cycle, then node, port and word; cycle, then word) whatever order a backend reported
/// the events of a cycle in, so the logs of the three backends compare equal.
struct TrafficLog {
  struct Send {
    std::uint64_t cycle;
    std::uint64_t node;
    int port;
    std::uint32_t word;
    int lane = 0;  ///< the lane of the port (channel port * lanes + lane)
    bool operator==(const Send& o) const {
      return cycle == o.cycle && node == o.node && port == o.port && lane == o.lane &&
             word == o.word;
    }
    bool operator<(const Send& o) const {
      return std::tie(cycle, node, port, lane, word) <
             std::tie(o.cycle, o.node, o.port, o.lane, o.word);
    }
  };
  struct Store {
    std::uint64_t cycle;
    std::uint32_t word;
    bool operator==(const Store& o) const { return cycle == o.cycle && word == o.word; }
    bool operator<(const Store& o) const {
      return std::tie(cycle, word) < std::tie(o.cycle, o.word);
    }
  };
  bool recorded = false;  ///< the run recorded the log (false: both lists are empty)
  std::vector<Send> sends;
  std::vector<Store> stores;
  bool operator==(const TrafficLog& o) const {
    return recorded == o.recorded && sends == o.sends && stores == o.stores;
  }
};

class TrafficMonitor {
 public:
  TrafficMonitor(std::uint64_t nodes, int dims, std::uint64_t tagged_elements)
      : dims_(dims),
        elements_(tagged_elements),
        tagged_(tagged_elements),
        link_words_(nodes * static_cast<std::uint64_t>(dims), 0),
        sent_((tagged_elements + 63) / 64, 0),
        first_send_(tagged_elements, 0) {}

  /// A word leaves `node` on `port` (lane `lane`) in `cycle` (0-based cycle after start).
  /// Cycles never decrease from one call (of send or store) to the next.
  void send(std::uint64_t node, int port, std::uint32_t word, std::uint64_t cycle, int lane = 0) {
    ++link_words_[node * static_cast<std::uint64_t>(dims_) + static_cast<std::uint64_t>(port)];
    if (word >= elements_) {
      // Words that are no tag, and every word while the log is kept (see recordEvents).
      if (record_) logSend(node, port, word, cycle, lane);
      return;
    }
    trackSend(word, cycle);
  }

  /// A received word is written into a memory slot at the end of `cycle`.
  void store(std::uint32_t word, std::uint64_t cycle) {
    if (word >= elements_) {
      if (record_) logStore(word, cycle);
      return;
    }
    trackStore(word, cycle);
  }

  /// Hints that send / store of `word` come soon (a caller with a batch of words asks a few
  /// ahead, so that cache misses overlap).
  void prefetch(std::uint32_t word) const {
    if (word < elements_) __builtin_prefetch(&sent_[word / 64]);
  }

  const std::vector<std::uint64_t>& linkWords() const { return link_words_; }

  std::uint64_t span() const { return std::max(span_, storesSpan()); }

  /// Starts (or stops) keeping the log of every send and store (off by default); with
  /// `only_word` (kAllWords: every word), of the sends and stores of that one word only.
  /// While it is kept, every word takes the branch untagged words take (elements_ is 0) and
  /// the span bookkeeping is done from there: off, the send and store the executors inline
  /// are exactly as without the log.
  static constexpr std::uint64_t kAllWords = ~std::uint64_t{0};
  void recordEvents(bool on, std::uint64_t only_word = kAllWords) {
    record_ = on;
    all_words_ = only_word == kAllWords;
    only_word_ = static_cast<std::uint32_t>(only_word);
    log_.recorded = on;
    elements_ = on ? 0 : tagged_;
  }

  /// The log in canonical order (see TrafficLog); the monitor keeps an empty one.
  TrafficLog takeLog() {
    TrafficLog out = std::move(log_);
    std::sort(out.sends.begin(), out.sends.end());
    std::sort(out.stores.begin(), out.stores.end());
    log_ = TrafficLog{};
    log_.recorded = record_;
    return out;
  }

 private:
  void trackSend(std::uint32_t word, std::uint64_t cycle) {
    if (cycle != stores_cycle_) flushStores();
    std::uint64_t& bits = sent_[word / 64];
    const std::uint64_t bit = std::uint64_t{1} << (word % 64);
    if ((bits & bit) != 0) return;  // not its first send
    bits |= bit;
    if (cycle >= kNarrowCycles) widen();
    if (wide_first_.empty()) {
      first_send_[word] = static_cast<std::uint32_t>(cycle);
    } else {
      wide_first_[word] = cycle;
    }
  }

  void trackStore(std::uint32_t word, std::uint64_t cycle) {
    if (cycle != stores_cycle_) flushStores();
    stores_cycle_ = cycle;
    stores_.push_back(word);
  }

  // The span is the largest (store cycle - first send cycle + 1) over the stores of elements
  // already sent: for each element that is its last store's, as Definition 2 asks. Per
  // element the monitor keeps whether it was sent (a bit: the check on every send stays in the
  // cache) and the cycle of its first send (written once, read by the stores). Stores of a
  // cycle are taken once the cycle is over, after all its sends, whatever order the backend
  // reports them in. Cycles are kept in four bytes while they fit, eight from the first that
  // does not.
  static constexpr std::uint64_t kNarrowCycles = 0xFFFFFFFFu;

  // The log, out of line and marked cold, reached only from the branch untagged words take:
  // send and store inline as they did before the log existed.
#if defined(__GNUC__)
#define HCUBE_MONITOR_COLD __attribute__((noinline, cold))
#else
#define HCUBE_MONITOR_COLD
#endif
  HCUBE_MONITOR_COLD void logSend(std::uint64_t node, int port, std::uint32_t word,
                                  std::uint64_t cycle, int lane) {
    if (all_words_ || word == only_word_) log_.sends.push_back({cycle, node, port, word, lane});
    if (word < tagged_) trackSend(word, cycle);
  }
  HCUBE_MONITOR_COLD void logStore(std::uint32_t word, std::uint64_t cycle) {
    if (all_words_ || word == only_word_) log_.stores.push_back({cycle, word});
    if (word < tagged_) trackStore(word, cycle);
  }
#undef HCUBE_MONITOR_COLD

  std::uint64_t firstSend(std::uint32_t word) const {
    return wide_first_.empty() ? first_send_[word] : wide_first_[word];
  }
  bool wasSent(std::uint32_t word) const { return ((sent_[word / 64] >> (word % 64)) & 1U) != 0; }

  std::uint64_t storesSpan() const {
    std::uint64_t best = 0;
    for (std::size_t i = 0; i < stores_.size(); ++i) {
      const std::uint32_t word = stores_[i];
      if (i + 8 < stores_.size() && wide_first_.empty()) {
        __builtin_prefetch(&first_send_[stores_[i + 8]]);
      }
      if (!wasSent(word)) continue;  // stored before it was ever sent: not counted
      best = std::max(best, stores_cycle_ - firstSend(word) + 1);
    }
    return best;
  }
  void flushStores() {
    span_ = std::max(span_, storesSpan());
    stores_.clear();
  }
  void widen() {
    if (!wide_first_.empty() || first_send_.empty()) return;
    wide_first_.assign(first_send_.begin(), first_send_.end());
  }

  int dims_;
  std::uint64_t elements_;  ///< words below this take the fast path (tagged_, or 0 if logging)
  std::uint64_t tagged_;    ///< words below this are tags: their span is measured
  std::vector<std::uint64_t> link_words_;
  std::vector<std::uint64_t> sent_;        ///< per element: sent at least once
  std::vector<std::uint32_t> first_send_;  ///< per element sent: the cycle of its first send
  std::vector<std::uint64_t> wide_first_;  ///< first_send_ once widened (else empty)
  std::vector<std::uint32_t> stores_;      ///< the elements stored in stores_cycle_
  std::uint64_t stores_cycle_ = 0;
  std::uint64_t span_ = 0;  ///< the span over the stores taken so far
  bool record_ = false;     ///< keep log_
  bool all_words_ = true;   ///< of every word, else of only_word_
  std::uint32_t only_word_ = 0;
  TrafficLog log_;  ///< every send and store, if record_
};

}  // namespace hcube
