// hcube testbench: the traffic monitor fed aside from the cube, for both runners (table mode in
// rtl_sim_main.cpp, routed mode in routed_run.cpp).
//
// Each cycle the runner collects the words the channels sent and stored (reading the models, on
// its own thread) and hands them to CubeTb::RunAside: on a node-array model with worker threads
// the monitor's bookkeeping (span and per-link counts, sw/exec/traffic_monitor.h) runs while the
// cube evaluates the next cycle; with one thread it runs at once. Words a runner stores outside the
// channels (routed mode's local copies) follow the channels' stores, in the order the runner
// adds them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cube_tb.h"
#include "exec/traffic_monitor.h"

namespace hcube::tb {

class AsideMonitor {
 public:
  AsideMonitor(CubeTb& tb, TrafficMonitor& monitor, int lanes)
      : tb_(tb), monitor_(monitor), lanes_(lanes) {}
  /// However the run ends, the job aside is over before what it uses goes.
  ~AsideMonitor() { tb_.WaitAside(); }
  AsideMonitor(const AsideMonitor&) = delete;
  AsideMonitor& operator=(const AsideMonitor&) = delete;

  /// Waits for the previous cycle's bookkeeping, then collects this cycle's words from the cube.
  /// Returns the list of further stores, emptied, for the runner to fill before Submit().
  std::vector<uint32_t>& Collect() {
    tb_.WaitAside();
    tb_.CollectWords(traffic_);
    extra_.clear();
    return extra_;
  }
  /// Hands the words collected for `cycle` to the monitor, aside from the cube.
  void Submit(uint64_t cycle) {
    sent_done_ = 0;
    stored_done_ = 0;
    cycle_ = cycle;
    tb_.RunAside([this]() { return Step(); });
  }
  /// Returns once the monitor has every submitted cycle's words.
  void Finish() { tb_.WaitAside(); }

 private:
  /// A bounded piece of the bookkeeping (the worker looks for cube work in between); true when
  /// the cycle's words are all done.
  bool Step() {
    constexpr size_t kAhead = 8;   // a random access per word: ask a few words ahead
    constexpr size_t kStep = 512;  // words per step
    const auto& sent = traffic_.sent;
    const size_t sent_end = std::min(sent.size(), sent_done_ + kStep);
    for (size_t i = sent_done_; i < sent_end; ++i) {
      if (i + kAhead < sent.size()) monitor_.prefetch(sent[i + kAhead].word);
      monitor_.send(static_cast<uint64_t>(sent[i].node), sent[i].chan / lanes_, sent[i].word,
                    cycle_, sent[i].chan % lanes_);
    }
    sent_done_ = sent_end;
    if (sent_done_ < sent.size()) return false;
    const auto& stored = traffic_.stored;
    const size_t total = stored.size() + extra_.size();
    const size_t stored_end = std::min(total, stored_done_ + kStep);
    for (size_t i = stored_done_; i < stored_end; ++i) {
      monitor_.store(i < stored.size() ? stored[i].word : extra_[i - stored.size()], cycle_);
    }
    stored_done_ = stored_end;
    return stored_done_ == total;
  }

  CubeTb& tb_;
  TrafficMonitor& monitor_;
  const int lanes_;
  CycleTraffic traffic_;         // reused every cycle
  std::vector<uint32_t> extra_;  // stores outside the channels, after theirs
  size_t sent_done_ = 0;
  size_t stored_done_ = 0;
  uint64_t cycle_ = 0;
};

}  // namespace hcube::tb
