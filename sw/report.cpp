#include "report.h"

#include <cstdio>
#include <sstream>

#include "utf8.h"

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

std::string jsonEscape(const std::string& s) {
  std::string o;
  for (size_t i = 0; i < s.size();) {
    const char c = s[i];
    const size_t len = utf8SequenceLength(s, i);
    if (len == 0) {
      // Not UTF-8: JSON text must be, so the byte becomes U+FFFD (the replacement character).
      o += "\\ufffd";
      ++i;
      continue;
    }
    if (len > 1) {
      o.append(s, i, len);
      i += len;
      continue;
    }
    ++i;
    switch (c) {
      case '"':
        o += "\\\"";
        break;
      case '\\':
        o += "\\\\";
        break;
      case '\n':
        o += "\\n";
        break;
      case '\t':
        o += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          o += buf;
        } else {
          o += c;
        }
    }
  }
  return o;
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

std::string formatReportJson(const RunReport& r) {
  std::ostringstream o;
  const LinkUtilisation u = linkUtilisation(r.run, r.lanes);
  o << "{\"algo\":\"" << jsonEscape(r.algo) << "\"";
  o << ",\"n\":" << r.perm.n() << ",\"nodes\":" << r.perm.nodes() << ",\"K\":" << r.perm.slots();
  o << ",\"perm\":\"" << jsonEscape(r.perm.str()) << "\"";
  o << ",\"backend\":\"" << jsonEscape(r.run.backend) << "\"";
  o << ",\"ports\":\"" << (r.one_port ? "one" : "all") << "\",\"lanes\":" << r.lanes;
  o << ",\"cycles\":" << r.run.cycles << ",\"transfer_cycles\":" << r.run.transfer_cycles;
  o << ",\"local_cycles\":" << r.run.local_cycles;
  o << ",\"lower_bound\":" << r.lower_bound << ",\"bound_source\":\"" << jsonEscape(r.bound_source)
    << "\"";
  o << ",\"ratio\":" << fixed(ratio(r), 6);
  o << ",\"span\":" << r.run.span << ",\"words\":" << r.run.words;
  o << ",\"link_utilisation\":{\"min\":" << fixed(u.min, 6) << ",\"mean\":" << fixed(u.mean, 6)
    << ",\"max\":" << fixed(u.max, 6) << "}";
  o << ",\"elements\":" << r.check.elements << ",\"correct\":" << r.check.correct
    << ",\"mismatches\":" << r.check.mismatches;
  if (r.perm.hasVirtual()) o << ",\"virtual\":" << r.perm.elements() - r.perm.participating();
  o << ",\"hw_errors\":[";
  for (size_t i = 0; i < r.run.errors.size(); ++i) {
    const NodeErrorCount& e = r.run.errors[i];
    o << (i ? "," : "") << "{\"node\":" << e.node << ",\"kind\":\"" << hwErrorName(e.kind)
      << "\",\"count\":" << e.count << "}";
  }
  o << "]";
  o << ",\"timeout\":" << (r.run.timeout ? "true" : "false");
  o << ",\"wall_seconds\":" << fixed(r.run.wall_seconds, 6);
  if (!r.trace.empty()) o << ",\"trace\":\"" << jsonEscape(r.trace) << "\"";
  if (!r.gtkw.empty()) o << ",\"gtkw\":\"" << jsonEscape(r.gtkw) << "\"";
  o << ",\"verdict\":\"" << (r.passed() ? "pass" : "fail") << "\"}";
  return o.str();
}

}  // namespace hcube
