#include "algorithms/schedule_file.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <fstream>
#include <istream>
#include <map>
#include <ostream>
#include <sstream>

#include "base/error.h"
#include "base/utf8.h"
#include "base/word_lines.h"
#include "spec/reference.h"
#include "tables/table_diff.h"
#include "tables/table_text.h"

namespace hcube {
namespace {

constexpr const char* kMagic = "hcube-schedule";
constexpr int kVersion = 1;

std::string binary(u32 w, int bits) {
  std::string s = "0b";
  for (int b = bits - 1; b >= 0; --b) s += ((w >> b) & 1U) ? '1' : '0';
  return s;
}

std::string where(u64 node, u64 slot) {
  return "(" + std::to_string(node) + "|" + std::to_string(slot) + ")";
}

class Reader {
 public:
  Reader(std::istream& in, std::string source) : in_(in), source_(std::move(source)) {}

  ScheduleFile read() {
    ScheduleFile s;
    s.source = source_;
    std::vector<std::string> tok;
    if (!next(tok)) fail("empty input, expected '" + std::string(kMagic) + " 1'");
    if (tok.size() != 2 || tok[0] != kMagic) fail("expected '" + std::string(kMagic) + " 1'");
    if (number(tok[1], "version") != kVersion) fail("unsupported version " + tok[1]);

    // Header: algo, n, form and perm are required; lanes and scratch are optional.
    const std::vector<std::string> keys = {"algo", "n", "form", "perm", "lanes", "scratch"};
    std::map<std::string, int> seen;
    std::string perm_text;
    while (true) {
      if (!next(tok)) fail("unexpected end of input in the header");
      if (tok[0] == "step" || tok[0] == "block" || tok[0] == "end" || tok[0] == "move" ||
          tok[0] == "copy") {
        break;
      }
      if (std::find(keys.begin(), keys.end(), tok[0]) == keys.end()) {
        fail("unknown header field '" + tok[0] +
             "' (expected algo, n, form, perm, lanes, scratch, or the first step)");
      }
      if (seen.count(tok[0]) != 0) {
        fail("header field '" + tok[0] + "' given twice (first on line " +
             std::to_string(seen[tok[0]]) + ")");
      }
      seen[tok[0]] = line_;
      if (tok[0] == "perm") {
        if (tok.size() < 2) fail("header field 'perm' needs a permutation");
        try {
          s.perm = parsePermText(rest_);
        } catch (const Error& e) {
          fail(e.what());
        }
        continue;
      }
      if (tok.size() != 2) fail("header field '" + tok[0] + "' takes one value");
      if (tok[0] == "algo") {
        if (!isValidUtf8(tok[1])) fail("algo name is not UTF-8 text");
        s.algo = tok[1];
      } else if (tok[0] == "n") {
        s.n = static_cast<int>(number(tok[1], "n", 1, 20));
      } else if (tok[0] == "form") {
        if (tok[1] == "relative") {
          s.form = ScheduleFile::Form::kRelative;
        } else if (tok[1] == "slots") {
          s.form = ScheduleFile::Form::kSlots;
        } else if (tok[1] == "moves") {
          s.form = ScheduleFile::Form::kMoves;
        } else {
          fail("unknown form '" + tok[1] + "' (expected relative, slots or moves)");
        }
      } else if (tok[0] == "lanes") {
        s.lanes = static_cast<int>(number(tok[1], "lanes", 1, 64));
      } else {
        s.scratch = number(tok[1], "scratch", 0, u64{1} << 24);
      }
    }
    for (const char* k : {"algo", "n", "form", "perm"}) {
      if (seen.count(k) == 0) fail("header field '" + std::string(k) + "' is missing");
    }
    if (s.perm.n() != s.n) {
      line_ = seen["perm"];
      fail("the schedule is for n = " + std::to_string(s.n) + ", the permutation '" + s.perm.str() +
           "' for n = " + std::to_string(s.perm.n()));
    }
    if (s.form != ScheduleFile::Form::kMoves && seen.count("scratch") != 0) {
      line_ = seen["scratch"];
      fail("scratch slots belong to the moves form, not the " + std::string(formName(s.form)) +
           " form");
    }
    if (s.form == ScheduleFile::Form::kRelative && s.lanes != 1) {
      line_ = seen["lanes"];
      fail("the relative form has one word per dimension and step (lanes 1)");
    }
    if (s.form != ScheduleFile::Form::kMoves) {
      if (s.perm.kind() != PermutationSpec::Kind::kAapc) {
        line_ = seen["perm"];
        fail("the " + std::string(formName(s.form)) +
             " form is a homogeneous AAPC schedule (Johnsson & Ho 1992 section 2.1); "
             "the permutation must be 'aapc', not '" +
             s.perm.str() + "'");
      }
    }
    nodes_ = s.perm.nodes();
    words_ = s.perm.slots() + s.scratch;
    // The reader plays the schedule on the whole cube's memory (checkArrivals), twice over.
    if (words_ > kMaxSimulatedWords / nodes_) {
      line_ = seen["perm"];
      fail("'" + s.perm.str() + "' on " + std::to_string(nodes_) + " nodes x " +
           std::to_string(words_) + " words is more than the " +
           std::to_string(kMaxSimulatedWords) + " words of cube memory this tool simulates");
    }
    switch (s.form) {
      case ScheduleFile::Form::kRelative:
        readRelative(s, tok);
        break;
      case ScheduleFile::Form::kSlots:
        readSlots(s, tok);
        break;
      case ScheduleFile::Form::kMoves:
        readMoves(s, tok);
        break;
    }
    end_line_ = line_;
    if (next(tok)) fail("text after 'end'");
    line_ = end_line_;
    checkArrivals(s);
    return s;
  }

 private:
  void readRelative(ScheduleFile& s, std::vector<std::string>& tok) {
    const int d = s.n;
    std::vector<std::vector<u32>> rows;
    while (tok[0] != "end") {
      if (tok[0] != "step") fail("expected 'step' or 'end', got '" + tok[0] + "'");
      const u64 t = rows.size();
      if (tok.size() != static_cast<size_t>(d) + 1) {
        fail("step " + std::to_string(t) + " has " + std::to_string(tok.size() - 1) +
             " entries; the relative form has one per dimension (n = " + std::to_string(d) + ")");
      }
      std::vector<u32> row(static_cast<size_t>(d), RelativeSchedule::kIdle);
      for (int j = 0; j < d; ++j) {
        const std::string& e = tok[static_cast<size_t>(j) + 1];
        if (e == ".") continue;
        const std::string at = "step " + std::to_string(t) + ", dimension " + std::to_string(j);
        const u64 w = entry(e, at);
        if (w >> d) {
          fail(at + ": relative address " + e + " has more than n = " + std::to_string(d) +
               " bits");
        }
        if (((w >> j) & 1U) == 0) {
          fail(at + ": relative address " + e + " has bit " + std::to_string(j) +
               " clear, so its word does not cross dimension " + std::to_string(j) +
               " (Edelman 1991 Theorem 3.2, wire appropriateness)");
        }
        for (int i = 0; i < j; ++i) {
          if (row[static_cast<size_t>(i)] == w) {
            fail(at + ": relative address " + e + " also crosses dimension " + std::to_string(i) +
                 " in this step (Theorem 3.2, row uniqueness: a word crosses one link per step)");
          }
        }
        row[static_cast<size_t>(j)] = static_cast<u32>(w);
      }
      rows.push_back(std::move(row));
      s.step_lines.push_back(line_);
      body(tok);
    }
    RelativeSchedule r(s.algo, d, rows.size());
    for (u64 t = 0; t < rows.size(); ++t) {
      for (int j = 0; j < d; ++j) r.set(t, j, rows[t][static_cast<size_t>(j)]);
    }
    s.relative = std::move(r);
  }

  void readSlots(ScheduleFile& s, std::vector<std::string>& tok) {
    const int d = s.n;
    const u64 k = s.perm.slots();
    SlotSchedule sched(s.algo, d, s.lanes, k);
    const size_t channels = static_cast<size_t>(d) * static_cast<size_t>(s.lanes);
    while (tok[0] != "end") {
      if (tok[0] != "step" && tok[0] != "block") {
        fail("expected 'step', 'block' or 'end', got '" + tok[0] + "'");
      }
      const u64 t = sched.steps.size();
      if (tok.size() != channels + 1) {
        fail("step " + std::to_string(t) + " has " + std::to_string(tok.size() - 1) +
             " entries; the slots form has one per dimension and lane (n * lanes = " +
             std::to_string(channels) + ")");
      }
      std::vector<u32>& row = sched.addStep(tok[0] == "block");
      std::map<u64, size_t> used;
      for (size_t c = 0; c < channels; ++c) {
        const std::string& e = tok[c + 1];
        if (e == ".") continue;
        const int j = static_cast<int>(c / static_cast<size_t>(s.lanes));
        const int l = static_cast<int>(c % static_cast<size_t>(s.lanes));
        const std::string at = "step " + std::to_string(t) + ", dimension " + std::to_string(j) +
                               " lane " + std::to_string(l);
        const u64 w = entry(e, at);
        if (w >= k) {
          fail(at + ": slot " + e + " is out of range (the " + std::to_string(k) + " slots 0.." +
               std::to_string(k - 1) + ")");
        }
        if (((w >> j) & 1U) == 0) {
          fail(at + ": relative slot " + e + " has bit " + std::to_string(j) +
               " clear, so its word does not cross dimension " + std::to_string(j));
        }
        if (auto it = used.find(w); it != used.end()) {
          fail(at + ": slot " + e + " also moves on channel " + std::to_string(it->second) +
               " in this step (an element crosses one link per step)");
        }
        used[w] = c;
        row[c] = static_cast<u32>(w);
      }
      s.step_lines.push_back(line_);
      body(tok);
    }
    s.slots = std::move(sched);
  }

  void readMoves(ScheduleFile& s, std::vector<std::string>& tok) {
    MoveSchedule m;
    m.algo = s.algo;
    m.dims = s.n;
    std::map<std::pair<u64, int>, std::vector<u64>> links;  // per step
    std::map<std::pair<u64, u64>, int> stored;              // per step
    while (tok[0] != "end") {
      if (tok[0] == "step") {
        if (tok.size() != 1) fail("'step' takes no value (its moves follow on their own lines)");
        m.steps.emplace_back();
        s.step_lines.push_back(line_);
        links.clear();
        stored.clear();
        body(tok);
        continue;
      }
      if (tok[0] != "move" && tok[0] != "copy") {
        fail("expected 'step', 'move', 'copy' or 'end', got '" + tok[0] + "'");
      }
      if (m.steps.empty()) fail("'" + tok[0] + "' before the first 'step'");
      const u64 t = m.steps.size() - 1;
      const bool copy = tok[0] == "copy";
      if (tok.size() != (copy ? 4U : 5U)) {
        fail(copy ? "'copy' takes NODE SLOT TO_SLOT" : "'move' takes NODE SLOT DIM TO_SLOT");
      }
      Move mv;
      const std::string step = "step " + std::to_string(t);
      mv.node = entry(tok[1], step + ": node");
      if (mv.node >= nodes_) {
        fail(step + ": node " + tok[1] + " is not on a " + std::to_string(s.n) + "-cube (0.." +
             std::to_string(nodes_ - 1) + ")");
      }
      std::string at = step + ", node " + tok[1];
      if (copy) {
        mv.dim = Move::kLocal;
      } else {
        const u64 dim = entry(tok[3], at + ": dimension");
        if (dim >= static_cast<u64>(s.n)) {
          fail(at + ": dimension " + tok[3] + " is not on a " + std::to_string(s.n) + "-cube (0.." +
               std::to_string(s.n - 1) + ")");
        }
        mv.dim = static_cast<int>(dim);
        at += ", dimension " + tok[3];
      }
      const std::string& slot_text = tok[2];
      const std::string& to_text = tok[copy ? 3 : 4];
      mv.slot = static_cast<u32>(slotEntry(slot_text, at));
      mv.to_slot = static_cast<u32>(slotEntry(to_text, at));
      const std::vector<Move>& so_far = m.steps.back();
      if (!so_far.empty() && (so_far.front().dim == Move::kLocal) != copy) {
        fail(at +
             ": the step mixes link moves and local copies (a step is either a transfer or "
             "a PERMUTE)");
      }
      if (!copy) {
        std::vector<u64>& slots = links[{mv.node, mv.dim}];
        if (slots.size() >= static_cast<size_t>(s.lanes)) {
          fail(at + ": slots " + std::to_string(slots.front()) + " and " + slot_text +
               " both cross this link in the step, a second word on lane " +
               std::to_string(slots.size() % static_cast<size_t>(s.lanes)) + " (lanes " +
               std::to_string(s.lanes) + ")");
        }
        slots.push_back(mv.slot);
      }
      const u64 to_node = copy ? mv.node : neighbour(mv.node, mv.dim);
      if (auto [it, fresh] = stored.emplace(std::pair{to_node, u64{mv.to_slot}}, line_); !fresh) {
        fail(at + ": slot " + to_text + " of node " + std::to_string(to_node) +
             " is written twice in the step (first on line " + std::to_string(it->second) + ")");
      }
      m.steps.back().push_back(mv);
      body(tok);
    }
    s.moves = std::move(m);
  }

  // Every element that takes part ends where the permutation sends it (step semantics as the
  // hardware's, docs/hardware/node.md §2: a step reads the memory as it was at its start).
  void checkArrivals(const ScheduleFile& s) {
    const PermutationSpec& p = s.perm;
    if (p.collective()) return;  // not a permutation: the verifier checks the tables
    const u64 k = p.slots();
    const u64 w = words_;
    constexpr u64 kEmpty = ~u64{0};
    std::vector<u64> mem(nodes_ * w, kEmpty);
    for (u64 x = 0; x < nodes_; ++x) {
      for (u64 l = 0; l < k; ++l) mem[x * w + l] = x * k + l;
    }
    std::vector<u64> next = mem;
    const int d = s.n;
    auto relativeStep = [&](const std::vector<u32>& row, int lanes, u64 base) {
      next = mem;
      for (size_t c = 0; c < row.size(); ++c) {
        if (row[c] == RelativeSchedule::kIdle) continue;
        const int j = static_cast<int>(c / static_cast<size_t>(lanes));
        for (u64 x = 0; x < nodes_; ++x) {
          const u64 y = neighbour(x, j);
          next[y * w + ((base | row[c]) ^ y)] = mem[x * w + ((base | row[c]) ^ x)];
        }
      }
      mem.swap(next);
    };
    if (s.relative) {
      std::vector<u32> row(static_cast<size_t>(d));
      for (u64 h = 0; h < p.repetitions(); ++h) {
        for (u64 t = 0; t < s.relative->steps(); ++t) {
          for (int j = 0; j < d; ++j) row[static_cast<size_t>(j)] = s.relative->at(t, j);
          relativeStep(row, 1, h << d);
        }
      }
    } else if (s.slots) {
      for (const std::vector<u32>& row : s.slots->steps) relativeStep(row, s.slots->lanes, 0);
    } else {
      for (const std::vector<Move>& step : s.moves->steps) {
        next = mem;
        for (const Move& m : step) {
          const u64 to = m.dim == Move::kLocal ? m.node : neighbour(m.node, m.dim);
          next[to * w + m.to_slot] = mem[m.node * w + m.slot];
        }
        mem.swap(next);
      }
    }
    for (u64 x = 0; x < nodes_; ++x) {
      for (u64 l = 0; l < k; ++l) {
        const GlobalAddress a{x, l};
        if (!p.participates(a)) continue;
        const GlobalAddress to = p.dest(a);
        if (mem[to.node * w + to.slot] == x * k + l) continue;
        std::string found = "it is in no slot (overwritten)";
        for (u64 i = 0; i < mem.size(); ++i) {
          if (mem[i] == x * k + l) {
            found = "it is in node " + std::to_string(i / w) + " slot " + std::to_string(i % w);
            break;
          }
        }
        fail("element " + where(x, l) + " never arrives at " + where(to.node, to.slot) +
             ", where '" + p.str() + "' sends it: after the last step " + found);
      }
    }
  }

  // The next line of the body into `tok`; fails at end of input.
  void body(std::vector<std::string>& tok) {
    if (!next(tok)) fail("unexpected end of input: missing 'end'");
  }

  u64 slotEntry(const std::string& text, const std::string& at) const {
    const u64 v = entry(text, at + ": slot");
    if (v >= words_) {
      fail(at + ": slot " + text + " is out of range (the " + std::to_string(words_) +
           " slots 0.." + std::to_string(words_ - 1) + " of a node)");
    }
    return v;
  }

  // A decimal or 0b-binary number (the papers print relative addresses in binary).
  u64 entry(const std::string& text, const std::string& what) const {
    int base = 10;
    std::string digits = text;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) {
      base = 2;
      digits = digits.substr(2);
    }
    u64 v = 0;
    const char* end = digits.data() + digits.size();
    auto [ptr, ec] = std::from_chars(digits.data(), end, v, base);
    if (digits.empty() || ec != std::errc() || ptr != end) {
      fail(what + " '" + text + "' is not a number (decimal, or binary as 0b0110)");
    }
    return v;
  }

  bool next(std::vector<std::string>& tok) { return nextWordLine(in_, line_, tok, rest_); }

  [[noreturn]] void fail(const std::string& msg) const {
    // Quote what the file held without copying bytes that are not UTF-8.
    throw Error(source_ + ":" + std::to_string(line_) + ": " + escapeNonUtf8(msg));
  }

  u64 number(const std::string& text, const std::string& what, u64 lo = 0, u64 hi = ~u64{0}) const {
    u64 v = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || ptr != end) {
      fail(what + " '" + text + "' is not a non-negative integer");
    }
    if (v < lo || v > hi) {
      fail(what + " " + text + " is out of range (" + std::to_string(lo) + ".." +
           std::to_string(hi) + ")");
    }
    return v;
  }

  std::istream& in_;
  std::string source_;
  int line_ = 0;
  int end_line_ = 0;
  std::string rest_;
  u64 nodes_ = 2;
  u64 words_ = 2;
};

}  // namespace

const char* formName(ScheduleFile::Form form) {
  switch (form) {
    case ScheduleFile::Form::kRelative:
      return "relative";
    case ScheduleFile::Form::kSlots:
      return "slots";
    case ScheduleFile::Form::kMoves:
      return "moves";
  }
  return "?";
}

u64 ScheduleFile::steps() const {
  if (relative) return relative->steps();
  if (slots) return slots->steps.size();
  if (moves) return moves->steps.size();
  return 0;
}

void writeScheduleFile(std::ostream& out, const ScheduleFile& s) {
  out << kMagic << " " << kVersion << "\n";
  out << "# docs/schedule-format.md\n";
  out << "algo " << s.algo << "\n";
  out << "n " << s.n << "\n";
  out << "form " << formName(s.form) << "\n";
  out << "perm " << s.perm.str() << "\n";
  if (s.form != ScheduleFile::Form::kRelative && s.lanes != 1) out << "lanes " << s.lanes << "\n";
  if (s.form == ScheduleFile::Form::kMoves && s.scratch != 0) {
    out << "scratch " << s.scratch << "\n";
  }
  if (s.relative) {
    const int d = s.relative->dims();
    out << "# one line per step: the relative address w_ij sent across dimension 0.." << d - 1
        << "\n";
    for (u64 t = 0; t < s.relative->steps(); ++t) {
      out << "step";
      for (int j = 0; j < d; ++j) {
        const u32 w = s.relative->at(t, j);
        out << " " << (w == RelativeSchedule::kIdle ? std::string(".") : binary(w, d));
      }
      out << "\n";
    }
  } else if (s.slots) {
    out << "# one line per step (block: a block transfer starts): the relative slot of each "
           "dimension and lane\n";
    for (size_t t = 0; t < s.slots->steps.size(); ++t) {
      std::string line = s.slots->block_starts[t] ? "block" : "step";
      for (u32 w : s.slots->steps[t]) {
        line += ' ';
        line += w == SlotSchedule::kIdle ? std::string(".") : std::to_string(w);
      }
      out << line << "\n";
    }
  } else if (s.moves) {
    out << "# per step: move NODE SLOT DIM TO_SLOT, copy NODE SLOT TO_SLOT\n";
    for (const std::vector<Move>& step : s.moves->steps) {
      std::string text = "step\n";
      for (const Move& m : step) {
        if (m.dim == Move::kLocal) {
          text += "copy " + std::to_string(m.node) + " " + std::to_string(m.slot) + " " +
                  std::to_string(m.to_slot) + "\n";
        } else {
          text += "move " + std::to_string(m.node) + " " + std::to_string(m.slot) + " " +
                  std::to_string(m.dim) + " " + std::to_string(m.to_slot) + "\n";
        }
      }
      out << text;
    }
  }
  out << "end\n";
}

void writeScheduleFile(const std::string& path, const ScheduleFile& s) {
  std::ofstream out(path);
  if (!out) throw Error(path + ": cannot open for writing");
  writeScheduleFile(out, s);
  if (!out) throw Error(path + ": write failed");
}

ScheduleFile readScheduleFile(std::istream& in, const std::string& source) {
  return Reader(in, source).read();
}

ScheduleFile readScheduleFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open for reading");
  return readScheduleFile(in, path);
}

namespace {

TableSet compileForms(const ScheduleFile& s, const CompileOptions& options) {
  CompileOptions o = options;
  try {
    if (s.relative) {
      // Edelman's w_ij name one word per link and step: no message has a start-up to pay.
      if (o.startup != 0) {
        throw Error("compile: --tau " + std::to_string(o.startup) +
                    ": the relative form sends single words, it has no block transfers to start "
                    "(the slots form has)");
      }
      return compileRelative(*s.relative, s.perm, o);
    }
    if (s.slots) return compileSlots(*s.slots, s.perm, o);
    o.scratch = s.scratch;
    if (s.lanes > o.lanes) {
      throw Error("compile: the " + s.algo + " schedule sends up to " + std::to_string(s.lanes) +
                  " words on a link in a step (lanes " + std::to_string(s.lanes) +
                  "); the hardware has " + std::to_string(o.lanes) + " lane(s) (--width)");
    }
    if (o.startup != 0) {
      throw Error("compile: --tau " + std::to_string(o.startup) +
                  ": the moves form has no block transfers to start (the slots form has)");
    }
    return compileMoves(*s.moves, s.perm, o);
  } catch (const Error& e) {
    throw Error(s.source + ": " + e.what());
  }
}

/// A bound any schedule of a permutation meets: every element crosses each dimension in which
/// its source and destination nodes differ, once per step at most, and a node sends at most
/// one word per lane of each port in a step (n b words; b on one-port hardware).
u64 distanceBound(const PermutationSpec& p, const CompileOptions& o, std::string* source) {
  const u64 per_step = static_cast<u64>(o.lanes) * (o.one_port ? 1 : static_cast<u64>(p.n()));
  u64 longest = 0;
  u64 busiest = 0;
  for (u64 x = 0; x < p.nodes(); ++x) {
    u64 leaving = 0;
    for (u64 l = 0; l < p.slots(); ++l) {
      const GlobalAddress a{x, l};
      if (!p.participates(a)) continue;
      const u64 dist = static_cast<u64>(std::popcount(x ^ p.dest(a).node));
      longest = std::max(longest, dist);
      leaving += dist;
    }
    busiest = std::max(busiest, (leaving + per_step - 1) / per_step);
  }
  *source = "max(longest distance " + std::to_string(longest) +
            ", words a node sends / words it can send per step " + std::to_string(busiest) +
            "): the distance bound of any schedule of the permutation";
  return std::max(longest, busiest);
}

}  // namespace

TableSet compileScheduleFile(const ScheduleFile& s, const CompileOptions& options) {
  TableSet set = compileForms(s, options);
  set.header.algo = s.algo;
  return set;
}

BuiltCase caseFromSchedule(const ScheduleFile& s, const CompileOptions& options) {
  BuiltCase c = caseFromTables(compileScheduleFile(s, options));
  if (c.lower_bound != 0 && options.lanes > 1) {
    const u64 lanes = static_cast<u64>(options.lanes);
    c.lower_bound = (c.perm.slots() + 2 * lanes - 1) / (2 * lanes);
    c.bound_source = "ceil(K/2b), all-port AAPC on b lanes (Johnsson & Ho 1992 section 6)";
  }
  if (c.lower_bound != 0 && options.startup != 0 && s.slots) {
    c.bound_source += "; plus " + std::to_string(s.slots->blocks()) + " block transfers * tau " +
                      std::to_string(options.startup) + " start-up cycles";
  }
  if (c.lower_bound == 0 && !c.perm.collective()) {
    c.lower_bound = distanceBound(c.perm, options, &c.bound_source);
  }
  if (s.relative) c.schedule_span = relativeScheduleSpan(*s.relative);
  if (s.slots) c.schedule_span = slotScheduleSpan(*s.slots);
  return c;
}

namespace {

/// What a case's tables use that no abstract schedule says: " (combining receives, ...)".
std::string tableFeatures(const BuiltCase& c) {
  bool add = false;
  bool fwd = false;
  bool mac = false;
  bool wait = false;
  for (const Table& t : c.tables.tables) {
    for (const Instruction& ins : t) {
      mac = mac || ins.op == Opcode::kMac;
      wait = wait || ins.op == Opcode::kWait;
      for (const Channel& ch : ins.channels) {
        add = add || ch.in.op == InOp::kAdd;
        fwd = fwd || ch.out.op == OutOp::kFwd || ch.in.op == InOp::kPass;
      }
    }
  }
  std::string list;
  auto item = [&](bool on, const char* what) {
    if (on) list += (list.empty() ? "" : ", ") + std::string(what);
  };
  item(add, "combining receives, which a move does not add");
  item(fwd, "words forwarded through a node without being stored (cut-through paths)");
  item(mac, "block multiply-accumulates");
  item(wait, "start-up waits");
  return list.empty() ? "" : " (" + list + ")";
}

}  // namespace

ScheduleFile scheduleOfCase(const CaseSpec& spec, CompileOptions* options) {
  CompileRecord record;
  CompileRecord* previous = setCompileRecorder(&record);
  BuiltCase built;
  try {
    built = buildCase(spec);
  } catch (...) {
    setCompileRecorder(previous);
    throw;
  }
  setCompileRecorder(previous);
  const std::string refuse = "algorithm '" + spec.algo + "' has no abstract schedule to write: ";
  if (record.calls == 0) {
    throw Error(refuse + "its tables are built instruction by instruction" + tableFeatures(built) +
                ", not lowered from a relative, slot or move schedule");
  }
  if (record.calls > 1) {
    throw Error(refuse + "its tables join " + std::to_string(record.calls) +
                " compiled schedules, which one schedule file cannot hold");
  }
  ScheduleFile s;
  s.algo = spec.algo;
  s.n = record.perm->n();
  s.perm = *record.perm;
  if (record.relative) {
    s.form = ScheduleFile::Form::kRelative;
    s.relative = record.relative;
    s.algo = record.relative->algo();
  } else if (record.slots) {
    s.form = ScheduleFile::Form::kSlots;
    s.slots = record.slots;
    s.lanes = record.slots->lanes;
    s.algo = record.slots->algo;
  } else {
    s.form = ScheduleFile::Form::kMoves;
    s.moves = record.moves;
    s.algo = record.moves->algo;
    s.scratch = record.options.scratch;
    s.lanes = std::max(1, record.options.lanes);
  }
  // The name the case's tables carry (some families name the layouts in it).
  const std::string& name = built.tables.header.algo;
  if (isValidUtf8(name) && !name.empty() && name.find_first_of(" \t#\r\n") == std::string::npos) {
    s.algo = name;
  }
  std::ostringstream a;
  std::ostringstream b;
  CompileOptions o = record.options;
  writeTableText(a, built.tables);
  std::string differs;
  try {
    const TableSet compiled = compileScheduleFile(s, o);
    writeTableText(b, compiled);
    const TableDiff d = diffTables(built.tables, compiled, "its tables", "the schedule's", 1);
    if (!d.shown.empty()) differs = "; first difference: " + d.shown.front();
  } catch (const Error& e) {
    differs = std::string("; ") + e.what();
  }
  if (a.str() != b.str()) {
    throw Error(refuse +
                "its tables are its compiled schedule changed afterwards (local alignment "
                "phases, start-up waits or forwarding added to them), which the schedule alone "
                "does not say" +
                differs);
  }
  if (options != nullptr) *options = o;
  return s;
}

}  // namespace hcube
