#include "tables/table_diff.h"

#include <algorithm>

#include "tables/table_text.h"

namespace hcube {
namespace {

class Differ {
 public:
  Differ(const std::string& a, const std::string& b, size_t max_shown)
      : a_(a), b_(b), max_(max_shown) {}

  void add(const std::string& msg) {
    ++diff_.total;
    if (diff_.shown.size() < max_) diff_.shown.push_back(msg);
  }

  void field(const std::string& name, const std::string& x, const std::string& y) {
    if (x != y) add("header " + name + ": " + a_ + " '" + x + "', " + b_ + " '" + y + "'");
  }

  void table(const std::string& where, const Table& x, const Table& y, int lanes) {
    const size_t steps = std::max(x.size(), y.size());
    for (size_t s = 0; s < steps; ++s) {
      const std::string at = where + ", step " + std::to_string(s);
      if (s >= x.size() || s >= y.size()) {
        const bool in_a = s < x.size();
        add(at + ": only " + (in_a ? a_ : b_) + " has an instruction ('" +
            formatInstruction(in_a ? x[s] : y[s]) + "'; " + (in_a ? b_ : a_) + "'s table has " +
            std::to_string(in_a ? y.size() : x.size()) + ")");
        continue;
      }
      const Instruction& i = x[s];
      const Instruction& j = y[s];
      if (i == j) continue;
      const bool channels = (i.op == Opcode::kXfer || i.op == Opcode::kPermute) && i.op == j.op &&
                            i.channels.size() == j.channels.size();
      if (!channels) {
        add(at + ": " + a_ + " '" + formatInstruction(i) + "', " + b_ + " '" +
            formatInstruction(j) + "'");
        continue;
      }
      for (size_t c = 0; c < i.channels.size(); ++c) {
        if (i.channels[c] == j.channels[c]) continue;
        add(at + ", channel " + std::to_string(c) + " (port " + std::to_string(c / lanes) +
            " lane " + std::to_string(c % lanes) + "): " + a_ + " " + formatChannel(i.channels[c]) +
            ", " + b_ + " " + formatChannel(j.channels[c]));
      }
    }
  }

  TableDiff result() const { return diff_; }

 private:
  std::string a_;
  std::string b_;
  size_t max_;
  TableDiff diff_;
};

}  // namespace

std::string formatInstruction(const Instruction& ins) {
  switch (ins.op) {
    case Opcode::kEnd:
      return "E";
    case Opcode::kWait:
      return "W " + std::to_string(ins.wait);
    case Opcode::kMac:
      return "M " + std::to_string(ins.mac.a) + " " + std::to_string(ins.mac.b) + " " +
             std::to_string(ins.mac.c) + " " + std::to_string(ins.mac.m) + " " +
             std::to_string(ins.mac.k) + " " + std::to_string(ins.mac.p);
    case Opcode::kXfer:
    case Opcode::kPermute:
      break;
  }
  std::string s = ins.op == Opcode::kXfer ? "X" : "P";
  for (const Channel& ch : ins.channels) s += " " + formatChannel(ch);
  return s;
}

TableDiff diffTables(const TableSet& a, const TableSet& b, const std::string& name_a,
                     const std::string& name_b, size_t max_shown) {
  Differ d(name_a, name_b, max_shown);
  const TableHeader& x = a.header;
  const TableHeader& y = b.header;
  d.field("algo", x.algo, y.algo);
  d.field("perm", x.perm.str(), y.perm.str());
  d.field("dim", std::to_string(x.n), std::to_string(y.n));
  d.field("slots", std::to_string(x.slots), std::to_string(y.slots));
  d.field("scratch", std::to_string(x.scratch), std::to_string(y.scratch));
  d.field("lanes", std::to_string(x.lanes), std::to_string(y.lanes));
  d.field("ports", x.one_port ? "one" : "all", y.one_port ? "one" : "all");
  d.field("mac-units", std::to_string(x.mac_units), std::to_string(y.mac_units));
  d.field("mac-overlap", x.mac_overlap ? "1" : "0", y.mac_overlap ? "1" : "0");
  // Tables of different cubes or widths are not compared instruction by instruction.
  if (x.n != y.n || x.lanes != y.lanes) return d.result();
  if (a.shared && b.shared) {
    d.table("shared table", a.tables.at(0), b.tables.at(0), x.lanes);
  } else {
    for (u64 node = 0; node < x.nodes(); ++node) {
      d.table("node " + std::to_string(node), a.tableOf(node), b.tableOf(node), x.lanes);
    }
  }
  return d.result();
}

}  // namespace hcube
