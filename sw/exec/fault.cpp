// hcube: parsing and table-word corruption of an injected fault (sw/exec/fault.h).
#include "exec/fault.h"

#include <charconv>
#include <vector>

#include "base/error.h"
#include "tables/table_image.h"

namespace hcube {
namespace {

std::vector<std::string> splitFields(const std::string& spec) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t colon = spec.find(':', start);
    out.push_back(spec.substr(start, colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return out;
}

// One numeric field of the spec: a decimal integer below `limit` (what names the limit).
u64 field(const std::string& spec, const std::string& name, const std::string& text, u64 limit,
          const std::string& what) {
  u64 v = 0;
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || p != end) {
    throw Error("--inject " + spec + ": " + name + " '" + text + "' is not a number");
  }
  if (v >= limit) {
    throw Error("--inject " + spec + ": " + name + " " + text + " is out of range (" + what + ")");
  }
  return v;
}

}  // namespace

const char* faultKindName(FaultKind k) {
  switch (k) {
    case FaultKind::kFlip:
      return "flip";
    case FaultKind::kStuck:
      return "stuck";
    case FaultKind::kDead:
      return "dead";
    case FaultKind::kDrop:
      return "drop";
    case FaultKind::kTable:
      return "table";
  }
  return "?";
}

Fault parseFault(const std::string& spec, const TableSet& set) {
  const TableHeader& h = set.header;
  const std::vector<std::string> f = splitFields(spec);
  Fault out;
  const std::string& kind = f[0];
  size_t want = 0;
  if (kind == "flip") {
    out.kind = FaultKind::kFlip;
    want = f.size() == 6 ? 6 : 5;
  } else if (kind == "stuck") {
    out.kind = FaultKind::kStuck;
    want = 7;
  } else if (kind == "dead") {
    out.kind = FaultKind::kDead;
    want = 5;
  } else if (kind == "drop") {
    out.kind = FaultKind::kDrop;
    want = 5;
  } else if (kind == "table") {
    out.kind = FaultKind::kTable;
    want = 4;
  } else {
    throw Error("--inject " + spec + ": kind '" + kind +
                "' must be flip, stuck, dead, drop or table");
  }
  if (f.size() != want) {
    static const char* const kForms[] = {"NODE:PORT:LANE:CYCLE[:BIT]",
                                         "NODE:PORT:LANE:CYCLE:BIT:VALUE", "NODE:PORT:LANE:CYCLE",
                                         "NODE:PORT:LANE:CYCLE", "NODE:STEP:BIT"};
    throw Error("--inject " + spec + ": " + kind + " takes " + kForms[static_cast<int>(out.kind)] +
                " (" + std::to_string(want - 1) + " fields, got " + std::to_string(f.size() - 1) +
                ")");
  }
  const u64 nodes = h.nodes();
  out.node = field(spec, "node", f[1], nodes, "the cube has " + std::to_string(nodes) + " nodes");
  if (out.kind == FaultKind::kTable) {
    const u64 steps = set.tableOf(out.node).size();
    out.step = field(spec, "step", f[2], steps,
                     "node " + std::to_string(out.node) + "'s table has " + std::to_string(steps) +
                         " instructions");
    const int width = ImageLayout::of(h).tableWidth();
    out.bit = static_cast<int>(field(spec, "bit", f[3], static_cast<u64>(width),
                                     "a table word has " + std::to_string(width) + " bits"));
    return out;
  }
  out.port = static_cast<int>(
      field(spec, "port", f[2], static_cast<u64>(h.n), "n = " + std::to_string(h.n)));
  out.lane = static_cast<int>(
      field(spec, "lane", f[3], static_cast<u64>(h.lanes), "width " + std::to_string(h.lanes)));
  const u64 cycles = set.cycles();
  out.cycle =
      field(spec, "cycle", f[4], cycles, "the tables run " + std::to_string(cycles) + " cycles");
  if (f.size() >= 6) out.bit = static_cast<int>(field(spec, "bit", f[5], 32, "a word has 32 bits"));
  if (f.size() == 7) out.value = static_cast<int>(field(spec, "value", f[6], 2, "0 or 1"));
  return out;
}

std::string formatFault(const Fault& f) {
  const std::string kind = faultKindName(f.kind);
  const std::string node = std::to_string(f.node);
  if (f.kind == FaultKind::kTable) {
    return kind + ":" + node + ":" + std::to_string(f.step) + ":" + std::to_string(f.bit);
  }
  std::string s = kind + ":" + node + ":" + std::to_string(f.port) + ":" + std::to_string(f.lane) +
                  ":" + std::to_string(f.cycle);
  if (f.kind == FaultKind::kFlip) s += ":" + std::to_string(f.bit);
  if (f.kind == FaultKind::kStuck) s += ":" + std::to_string(f.bit) + ":" + std::to_string(f.value);
  return s;
}

TableSet applyTableFault(const TableSet& set, const Fault& f) {
  if (f.kind != FaultKind::kTable) return set;
  TableSet out = set;
  if (out.shared) {
    out.shared = false;
    out.tables.assign(set.header.nodes(), set.tables.at(0));
  }
  Table& t = out.tables.at(f.node);
  const ImageLayout layout = ImageLayout::of(set.header);
  TableWord word = encodeInstruction(t.at(f.step), layout);
  word.at(static_cast<size_t>(f.bit) / 64) ^= u64{1} << (f.bit % 64);
  try {
    t.at(f.step) = decodeInstruction(word, layout);
  } catch (const Error& e) {
    throw Error("table fault " + formatFault(f) + ": the corrupted word is refused at load (" +
                e.what() + ")");
  }
  checkTableShape(out);
  return out;
}

}  // namespace hcube
