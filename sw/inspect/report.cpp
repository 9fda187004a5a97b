#include "inspect/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace hcube {
namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

double ratio(const RunReport& r) {
  return r.lower_bound == 0
             ? 0.0
             : static_cast<double>(r.run.transfer_cycles) / static_cast<double>(r.lower_bound);
}

}  // namespace

bool hasArithmetic(const RunReport& r) {
  return r.perm.kind() == PermutationSpec::Kind::kMatmul || r.run.mac_cycles > 0;
}

u64 table5MacCycles(const RunReport& r) {
  if (r.perm.kind() != PermutationSpec::Kind::kMatmul) return 0;
  const u64 per_node = r.perm.matP() * r.perm.matQ() * r.perm.matR() / r.perm.nodes();
  const u64 units = std::max<u64>(1, r.mac_units);
  return (per_node + units - 1) / units;
}

std::vector<std::string> runDifferences(const RunResult& a, const RunResult& b) {
  std::vector<std::string> d;
  auto field = [&](const char* name, u64 x, u64 y) {
    if (x != y) {
      d.push_back(std::string(name) + ": " + a.backend + " " + std::to_string(x) + ", " +
                  b.backend + " " + std::to_string(y));
    }
  };
  field("cycles", a.cycles, b.cycles);
  field("transfer cycles", a.transfer_cycles, b.transfer_cycles);
  field("words", a.words, b.words);
  field("local-phase cycles", a.local_cycles, b.local_cycles);
  field("MAC cycles", a.mac_cycles, b.mac_cycles);
  field("timeout", a.timeout, b.timeout);
  field("span", a.span, b.span);
  if (a.errors != b.errors) {
    d.push_back("hardware error counters differ (" + a.backend + " " +
                std::to_string(a.errors.size()) + " non-zero, " + b.backend + " " +
                std::to_string(b.errors.size()) + ")");
  }
  if (a.link_words != b.link_words) d.push_back("per-link word counts differ");
  if (a.memory.words.size() != b.memory.words.size()) {
    d.push_back("memory sizes differ");
  } else {
    for (size_t i = 0; i < a.memory.words.size(); ++i) {
      if (a.memory.words[i] == b.memory.words[i]) continue;
      const u64 per = a.memory.words_per_node;
      d.push_back("memory differs first at node " + std::to_string(i / per) + " slot " +
                  std::to_string(i % per) + ": " + a.backend + " " +
                  std::to_string(a.memory.words[i]) + ", " + b.backend + " " +
                  std::to_string(b.memory.words[i]));
      break;
    }
  }
  return d;
}

std::string formatReportText(const RunReport& r) {
  std::ostringstream o;
  const LinkUtilisation u = linkUtilisation(r.run, r.lanes);
  o << "hcube run: " << r.algo << " on a " << r.perm.n() << "-cube (" << r.perm.nodes()
    << " nodes, K = " << r.perm.slots() << " elements per node, " << r.perm.str() << ")\n";
  o << "  backend          " << r.run.backend << (r.one_port ? ", one-port" : ", all-port") << ", "
    << r.lanes << " lane" << (r.lanes == 1 ? "" : "s") << " per port\n";
  o << "  cycles           " << r.run.cycles << " (start to last done)\n";
  o << "  transfer cycles  " << r.run.transfer_cycles << "\n";
  o << "  local-phase cycles " << r.run.local_cycles << " (PERMUTE, local memory only)\n";
  if (hasArithmetic(r)) {
    o << "  MAC cycles       " << r.run.mac_cycles << " (cycles with busy multiply-add units";
    if (r.perm.kind() == PermutationSpec::Kind::kMatmul) {
      o << "; TR-623 Table 5: PQR/N multiply-adds on U = " << r.mac_units << " units, "
        << table5MacCycles(r) << " cycles";
    }
    if (r.mac_overlap) o << "; MAC overlap mode";
    o << ")\n";
  }
  o << "  lower bound      " << r.lower_bound << " (" << r.bound_source << ")\n";
  o << "  ratio            " << fixed(ratio(r), 3) << " (transfer cycles / lower bound)\n";
  o << "  span             " << r.run.span << " (Johnsson & Ho 1992, Def. 2)\n";
  o << "  words moved      " << r.run.words << "\n";
  o << "  link utilisation min " << fixed(u.min, 3) << "  mean " << fixed(u.mean, 3) << "  max "
    << fixed(u.max, 3) << "\n";
  o << "  elements         " << r.check.correct << " of " << r.check.elements
    << (r.perm.hasVirtual() ? " real" : "") << " where the reference model says ("
    << r.check.mismatches << " mismatches)";
  // Virtual elements (Johnsson & Ho 1987 Definition 2) take no part and are never sent.
  if (r.perm.hasVirtual())
    o << ", " << r.perm.elements() - r.perm.participating() << " virtual not sent";
  o << "\n";
  for (const Mismatch& m : r.check.first) o << "    " << describe(m, r.perm.slots()) << "\n";
  if (!r.run.errors.empty()) {
    o << "  hardware errors  " << r.run.errors.size() << " non-zero counters\n";
    size_t shown = 0;
    for (const NodeErrorCount& e : r.run.errors) {
      if (shown++ == 8) {
        o << "    ...\n";
        break;
      }
      o << "    node " << e.node << ": " << hwErrorName(e.kind) << " x" << e.count << "\n";
    }
  }
  if (r.run.timeout) o << "  TIMEOUT: the cycle limit was reached before every node was done\n";
  o << "  wall time        " << fixed(r.run.wall_seconds, 3) << " s\n";
  if (!r.trace.empty()) o << "  waveform         " << r.trace << "\n";
  if (!r.gtkw.empty()) o << "  GTKWave          gtkwave " << r.gtkw << "\n";
  o << "  verdict          " << (r.passed() ? "PASS" : "FAIL") << "\n";
  return o.str();
}

std::string memoryDigest(const CubeMemory& m) {
  // FNV-1a over the node count, the words per node and every word, little-endian bytes.
  u64 h = 0xcbf29ce484222325ULL;
  auto mix = [&h](u64 v, int bytes) {
    for (int i = 0; i < bytes; ++i) {
      h ^= (v >> (8 * i)) & 0xFFU;
      h *= 0x100000001b3ULL;
    }
  };
  mix(m.nodes, 8);
  mix(m.words_per_node, 8);
  for (const u32 w : m.words) mix(w, 4);
  char text[32];
  std::snprintf(text, sizeof text, "fnv1a64:%016llx", static_cast<unsigned long long>(h));
  return text;
}

nlohmann::ordered_json reportJson(const RunReport& r) {
  const LinkUtilisation u = linkUtilisation(r.run, r.lanes);
  // Fractions keep six decimals, as the text report does.
  auto six = [](double x) { return std::round(x * 1e6) / 1e6; };
  nlohmann::ordered_json j;
  j["algo"] = r.algo;
  j["n"] = r.perm.n();
  j["nodes"] = r.perm.nodes();
  j["K"] = r.perm.slots();
  j["perm"] = r.perm.str();
  j["backend"] = r.run.backend;
  j["ports"] = r.one_port ? "one" : "all";
  j["lanes"] = r.lanes;
  j["cycles"] = r.run.cycles;
  j["transfer_cycles"] = r.run.transfer_cycles;
  j["local_cycles"] = r.run.local_cycles;
  if (hasArithmetic(r)) {
    j["mac_cycles"] = r.run.mac_cycles;
    j["mac_units"] = r.mac_units;
    j["table5_mac_cycles"] = table5MacCycles(r);
    j["mac_overlap"] = r.mac_overlap;
  }
  j["lower_bound"] = r.lower_bound;
  j["bound_source"] = r.bound_source;
  j["ratio"] = six(ratio(r));
  j["span"] = r.run.span;
  j["words"] = r.run.words;
  j["link_utilisation"] = {{"min", six(u.min)}, {"mean", six(u.mean)}, {"max", six(u.max)}};
  j["elements"] = r.check.elements;
  j["correct"] = r.check.correct;
  j["mismatches"] = r.check.mismatches;
  if (r.perm.hasVirtual()) j["virtual"] = r.perm.elements() - r.perm.participating();
  j["memory_digest"] = memoryDigest(r.run.memory);
  j["hw_errors"] = nlohmann::ordered_json::array();
  for (const NodeErrorCount& e : r.run.errors) {
    j["hw_errors"].push_back({{"node", e.node}, {"kind", hwErrorName(e.kind)}, {"count", e.count}});
  }
  j["timeout"] = r.run.timeout;
  j["wall_seconds"] = six(r.run.wall_seconds);
  if (!r.trace.empty()) j["trace"] = r.trace;
  if (!r.gtkw.empty()) j["gtkw"] = r.gtkw;
  j["verdict"] = r.passed() ? "pass" : "fail";
  return j;
}

std::string jsonText(const nlohmann::ordered_json& j) {
  // Bytes that are not UTF-8 (an algo name from a file) become U+FFFD: the output is always
  // valid JSON.
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string formatReportJson(const RunReport& r) { return jsonText(reportJson(r)); }

RunReport reportFor(const BuiltCase& c) {
  RunReport report;
  report.algo = c.tables.header.algo;
  report.perm = c.perm;
  report.lanes = c.tables.header.lanes;
  report.one_port = c.tables.header.one_port;
  report.lower_bound = c.lower_bound;
  report.bound_source = c.bound_source;
  report.mac_units = c.tables.header.mac_units;
  report.mac_overlap = c.tables.header.mac_overlap;
  return report;
}

}  // namespace hcube
