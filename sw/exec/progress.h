// hcube: a progress bar for long work — a run's cycles done of the cycles
// expected, or the coarse phases of table generation (schedule, compile, verify), with the time
// elapsed and the rate. It draws on one terminal line, and only once the work has taken longer
// than a couple of seconds; it stays silent when it has no stream (under --json, or when
// stderr is not a terminal: see stderrIsTerminal).
//
// The executors know nothing of it: they call a callback with the cycles done (ExecOptions::
// progress, the TLM child through its own ProgressBar on the inherited stderr, the RTL runner
// through its "progress:" lines), and the tool hands them ProgressBar::callback().
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <iosfwd>
#include <mutex>
#include <string>
#include <thread>

#include "spec/address.h"

namespace hcube {

/// True when standard error is a terminal (where a progress bar may draw).
bool stderrIsTerminal();

class ProgressBar {
 public:
  using Clock = std::chrono::steady_clock;

  /// Draws on `out` (nullptr: never draws, and costs nothing) from a thread of its own, a few
  /// times a second once `delay` has passed. `what` names the work ("edelman n=10 on table");
  /// `total` is the cycles expected (0: unknown, no bar).
  ProgressBar(std::ostream* out, std::string what, u64 total,
              Clock::duration delay = std::chrono::seconds(2));
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  /// `done` cycles are done: one relaxed store, cheap enough to call every cycle.
  void update(u64 done) { done_.store(done, std::memory_order_relaxed); }
  /// A coarse phase of work that is not counted in cycles ("schedule + compile", "verify").
  void phase(const std::string& name);
  /// Work of `total` cycles starts (the bar counts from 0 again).
  void restart(const std::string& what, u64 total);
  /// Clears the bar's line (if it drew) and stops drawing.
  void finish();

  /// A callback for ExecOptions::progress and the like; valid while the bar lives.
  std::function<void(u64)> callback() {
    return [this](u64 done) { update(done); };
  }

  /// The line the bar shows for `done` of `total` after `elapsed` seconds (for tests).
  static std::string line(const std::string& what, const std::string& phase, u64 done, u64 total,
                          double elapsed);

 private:
  void tick();
  void draw();  ///< with mutex_ held

  std::ostream* out_;
  const Clock::duration delay_;
  std::mutex mutex_;  ///< guards what follows, and the stream while drawing
  std::condition_variable wake_;
  std::string what_;
  std::string phase_;
  u64 total_;
  Clock::time_point started_;
  bool stop_ = false;
  size_t width_ = 0;  ///< characters of the last line drawn (0: nothing on the line)
  std::atomic<u64> done_{0};
  std::thread ticker_;
};

}  // namespace hcube
