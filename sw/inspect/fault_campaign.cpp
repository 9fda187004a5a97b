// hcube inspection: a seeded campaign of random single faults (fault_campaign.h).
#include "inspect/fault_campaign.h"

#include <iomanip>
#include <random>
#include <sstream>

#include "base/error.h"
#include "tables/table_image.h"

namespace hcube {
namespace {

// A uniform draw below `n` (> 0). Modulo of a 64-bit Mersenne twister: the bias is below
// n / 2^64, and unlike std::uniform_int_distribution the sequence is the same everywhere.
u64 below(std::mt19937_64& rng, u64 n) { return rng() % n; }

void countReason(FaultKindStats& s, const std::string& reason) {
  for (auto& [r, count] : s.masked_reasons) {
    if (r == reason) {
      ++count;
      return;
    }
  }
  s.masked_reasons.emplace_back(reason, 1);
}

void count(FaultKindStats& s, const FaultAnalysis& a) {
  ++s.injected;
  if (a.detected) ++s.detected;
  if (a.detected && a.localised) ++s.localised;
  if (a.masked) {
    ++s.masked;
    countReason(s, a.masked_reason);
  }
}

std::string percent(u64 part, u64 whole) {
  if (whole == 0) return "-";
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << 100.0 * static_cast<double>(part) / whole << " %";
  return out.str();
}

}  // namespace

std::vector<Fault> drawFaults(const TableSet& set, const RunResult& golden, u64 count, u64 seed) {
  const auto& sends = golden.traffic.sends;
  if (!golden.traffic.recorded) throw Error("fault campaign: the fault-free run kept no log");
  std::mt19937_64 rng(seed);
  const int table_bits = ImageLayout::of(set.header).tableWidth();
  std::vector<Fault> out;
  for (u64 i = 0; i < count; ++i) {
    Fault f;
    f.kind = static_cast<FaultKind>(i % kFaultKinds);
    if (f.kind != FaultKind::kTable && sends.empty()) f.kind = FaultKind::kTable;
    if (f.kind == FaultKind::kTable) {
      f.node = below(rng, set.header.nodes());
      f.step = below(rng, set.tableOf(f.node).size());
      f.bit = static_cast<int>(below(rng, static_cast<u64>(table_bits)));
    } else {
      const TrafficLog::Send& s = sends[below(rng, sends.size())];
      f.node = s.node;
      f.port = s.port;
      f.lane = s.lane;
      f.cycle = s.cycle;
      f.bit = static_cast<int>(below(rng, 32));
      f.value = static_cast<int>(below(rng, 2));
      if (f.kind == FaultKind::kDead || f.kind == FaultKind::kDrop) f.bit = 0;
      if (f.kind != FaultKind::kStuck) f.value = 0;
    }
    out.push_back(f);
  }
  return out;
}

std::variant<RunResult, std::string> runFaulty(const TableSet& set, const Fault& f,
                                               const FaultRunner& run) {
  if (f.onLink()) return run(set, &f);
  TableSet corrupted;
  try {
    corrupted = applyTableFault(set, f);
  } catch (const Error& e) {
    return std::string(e.what());
  }
  return run(corrupted, nullptr);
}

FaultAnalysis injectOne(const TableSet& set, const PermutationSpec& perm, const RunResult& golden,
                        const Fault& f, const FaultRunner& run) {
  std::variant<RunResult, std::string> faulty = runFaulty(set, f, run);
  if (const std::string* refused = std::get_if<std::string>(&faulty)) {
    return refusedAtLoad(f, *refused);
  }
  return analyseFault(f, perm, golden, std::get<RunResult>(faulty));
}

CampaignResult runCampaign(const TableSet& set, const PermutationSpec& perm,
                           const RunResult& golden, const std::vector<Fault>& faults,
                           const FaultRunner& run) {
  CampaignResult c;
  c.faults = faults;
  for (const Fault& f : faults) {
    FaultAnalysis a = injectOne(set, perm, golden, f, run);
    count(c.kinds[static_cast<int>(f.kind)], a);
    count(c.total, a);
    c.analyses.push_back(std::move(a));
  }
  return c;
}

std::string formatCampaign(const CampaignResult& c) {
  std::ostringstream out;
  out << std::left << std::setw(7) << "kind" << std::right << std::setw(9) << "injected"
      << std::setw(9) << "masked" << std::setw(10) << "detected" << std::setw(11) << "localised"
      << std::setw(12) << "detected %" << std::setw(13) << "localised %"
      << "\n";
  auto row = [&](const std::string& name, const FaultKindStats& s) {
    out << std::left << std::setw(7) << name << std::right << std::setw(9) << s.injected
        << std::setw(9) << s.masked << std::setw(10) << s.detected << std::setw(11) << s.localised
        << std::setw(12) << percent(s.detected, s.injected) << std::setw(13)
        << percent(s.localised, s.detected) << "\n";
  };
  for (int k = 0; k < kFaultKinds; ++k) {
    if (c.kinds[k].injected != 0) row(faultKindName(static_cast<FaultKind>(k)), c.kinds[k]);
  }
  row("all", c.total);
  out << "(detected % of all injected; localised % of the detected; masked: not detected)\n";
  for (int k = 0; k < kFaultKinds; ++k) {
    for (const auto& [reason, n] : c.kinds[k].masked_reasons) {
      out << "masked " << faultKindName(static_cast<FaultKind>(k)) << ": " << n << " x " << reason
          << "\n";
    }
  }
  for (size_t i = 0; i < c.faults.size(); ++i) {
    const FaultAnalysis& a = c.analyses[i];
    if (a.detected && !a.localised) {
      out << "detected, not localised: " << formatFault(c.faults[i]);
      if (a.suspect_node) out << " (observation points at node " << *a.suspect_node << ")";
      out << "\n";
    }
  }
  return out.str();
}

}  // namespace hcube
