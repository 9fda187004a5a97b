#include "exec/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <utility>

namespace hcube {
namespace {

constexpr auto kRedraw = std::chrono::milliseconds(250);
constexpr int kBarWidth = 30;

std::string rate(double per_second) {
  char text[32];
  if (per_second >= 1e6) {
    std::snprintf(text, sizeof text, "%.2fM", per_second / 1e6);
  } else if (per_second >= 1e3) {
    std::snprintf(text, sizeof text, "%.1fk", per_second / 1e3);
  } else {
    std::snprintf(text, sizeof text, "%.0f", per_second);
  }
  return text;
}

}  // namespace

bool stderrIsTerminal() { return ::isatty(STDERR_FILENO) == 1; }

ProgressBar::ProgressBar(std::ostream* out, std::string what, u64 total, Clock::duration delay)
    : out_(out), delay_(delay), what_(std::move(what)), total_(total), started_(Clock::now()) {
  if (out_ != nullptr) ticker_ = std::thread([this] { tick(); });
}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::phase(const std::string& name) {
  const std::lock_guard<std::mutex> lock(mutex_);
  phase_ = name;
}

void ProgressBar::restart(const std::string& what, u64 total) {
  const std::lock_guard<std::mutex> lock(mutex_);
  what_ = what;
  phase_.clear();
  total_ = total;
  done_.store(0, std::memory_order_relaxed);
}

void ProgressBar::finish() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (stop_) return;
    stop_ = true;
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
  if (out_ != nullptr && width_ != 0) {
    *out_ << '\r' << std::string(width_, ' ') << '\r' << std::flush;
  }
}

void ProgressBar::tick() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (wake_.wait_until(lock, started_ + delay_, [this] { return stop_; })) return;
  do {
    draw();
  } while (!wake_.wait_for(lock, kRedraw, [this] { return stop_; }));
}

std::string ProgressBar::line(const std::string& what, const std::string& phase, u64 done,
                              u64 total, double elapsed) {
  std::string text = "hcube: " + what;
  if (!phase.empty()) text += " [" + phase + "]";
  char tail[128];
  if (total != 0) {
    const double fraction = done >= total ? 1.0 : static_cast<double>(done) / total;
    const int filled = static_cast<int>(fraction * kBarWidth);
    text += " |" + std::string(static_cast<size_t>(filled), '#') +
            std::string(static_cast<size_t>(kBarWidth - filled), ' ') + "| ";
    std::snprintf(tail, sizeof tail, "%3.0f%% %llu/%llu cycles", fraction * 100.0,
                  static_cast<unsigned long long>(done), static_cast<unsigned long long>(total));
    text += tail;
  } else if (done != 0) {
    std::snprintf(tail, sizeof tail, " %llu cycles", static_cast<unsigned long long>(done));
    text += tail;
  }
  std::snprintf(tail, sizeof tail, " %.1f s", elapsed);
  text += tail;
  if (done != 0 && elapsed > 0)
    text += " " + rate(static_cast<double>(done) / elapsed) + " cycles/s";
  return text;
}

void ProgressBar::draw() {
  const double elapsed = std::chrono::duration<double>(Clock::now() - started_).count();
  const std::string text =
      line(what_, phase_, done_.load(std::memory_order_relaxed), total_, elapsed);
  *out_ << '\r' << text;
  if (text.size() < width_) *out_ << std::string(width_ - text.size(), ' ');
  *out_ << std::flush;
  width_ = std::max(width_, text.size());
}

}  // namespace hcube
