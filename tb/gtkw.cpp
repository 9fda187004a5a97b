// hcube testbench: a GTKWave save file for an FST trace of hc_cube, and its filter files.
#include "gtkw.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace hcube::tb {
namespace {

// Trace flags of a GTKWave save file (gtkwave's analyzer.h): TR_HEX 0x2, TR_DEC 0x4, TR_BIN 0x8,
// TR_RJUSTIFY 0x20, TR_BLANK 0x200, TR_FTRANSLATED 0x2000 (the value shown through the filter
// file named on the "^N file" line before it), TR_CLOSED 0x400000, TR_GRP_BEGIN 0x800000,
// TR_GRP_END 0x1000000.
constexpr const char* kBin = "@28";
constexpr const char* kHex = "@22";
constexpr const char* kDec = "@24";
constexpr const char* kNamed = "@2024";  // decimal through a filter file
constexpr const char* kGroupOpen = "@800200";
constexpr const char* kGroupClosed = "@c00200";
constexpr const char* kGroupEnd = "@1000200";
constexpr const char* kGroupEndClosed = "@1400200";

// Nodes shown: a save file for 1024 nodes would be unusable; the first 16 cover a 4-cube and
// the neighbours of node 0 in a bigger one.
constexpr int kMaxNodes = 16;
// Node groups open on load; the others start closed.
constexpr int kOpenNodes = 4;
// Memory slots in the trace (the RTL's trace keeps mem_q[0..31], tb/README.md).
constexpr int kMaxMemSlots = 32;

// GTKWave's zoom z shows about kZoomUnits * 2^-z time units across the wave pane of a window
// of the [size] below (measured with GTKWave 3.3.118: z = -3 shows 30 units, z = -5.3 150).
constexpr double kZoomUnits = 3.8;

// Filter file indices (the "^N" of a save file).
enum Filter { kOpcode = 0, kLinkTag, kTag, kRouterState, kRouting, kNumFilters };
constexpr const char* kFilterSuffix[kNumFilters] = {"-opcode.filter", "-link-tags.filter",
                                                    "-tags.filter", "-router-state.filter",
                                                    "-routing.filter"};

std::string Range(int width) { return "[" + std::to_string(width - 1) + ":0]"; }

std::string Tag(uint64_t w, uint64_t k) {
  return "(" + std::to_string(w / k) + "|" + std::to_string(w % k) + ")";
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
  f.close();
  if (!f) throw std::runtime_error(path + ": cannot write the GTKWave filter file");
}

// GTKWave's translate filter files: one "VALUE TEXT" per line, VALUE as the trace shows it
// (here decimal), '#' a comment.
void WriteFilters(const std::vector<std::string>& paths, const GtkwRun& run, int word_width) {
  std::ostringstream op;
  op << "# hcube: hc_node opcode (rtl/hc_pkg.sv opcode_e); opcode 0 with sub-opcode 1 is a MAC\n"
        "0 END/MAC\n1 XFER\n2 WAIT\n3 PERMUTE\n";
  WriteFile(paths[kOpcode], op.str());

  // A channel as {valid, word}: valid words that are tags by their tag, an idle channel '-'.
  const uint64_t valid = uint64_t{1} << word_width;
  std::ostringstream link;
  std::ostringstream tag;
  link << "# hcube: a channel's {valid, word}: a tag x*K+l as (x|l), K = " << run.tag_slots
       << ", an idle channel as -\n0 -\n";
  tag << "# hcube: a word that is a tag x*K+l as (x|l), K = " << run.tag_slots << "\n";
  for (uint64_t w = 0; w < run.tag_words; ++w) {
    const std::string t = Tag(w, run.tag_slots);
    link << valid + w << ' ' << t << '\n';
    tag << w << ' ' << t << '\n';
  }
  WriteFile(paths[kLinkTag], link.str());
  WriteFile(paths[kTag], tag.str());

  // {started_q, halted_q, work_o, su_busy_q} of hc_router.
  std::ostringstream state;
  state << "# hcube: hc_router {started, halted, work, start-up busy}\n";
  for (int v = 0; v < 16; ++v) {
    const bool started = (v & 8) != 0, halted = (v & 4) != 0, work = (v & 2) != 0;
    const bool startup = (v & 1) != 0;
    const char* name = !started  ? "idle"
                       : halted  ? "deadlock"
                       : !work   ? "waiting"
                       : startup ? "start-up"
                                 : "routing";
    state << v << ' ' << name << '\n';
  }
  WriteFile(paths[kRouterState], state.str());

  // {routed_q, source_q, adaptive_q} of hc_router.
  WriteFile(paths[kRouting],
            "# hcube: hc_router {routed, source, adaptive}: the routing function\n"
            "0 table\n1 table\n2 table\n3 table\n4 e-cube\n5 adaptive\n6 source\n7 source\n");
}

// A GTKWave combined vector: `alias` made of single-bit signals and the bits of vectors (bit
// (i) of a W-bit vector counts from its MSB), MSB first.
std::string Combined(const std::string& alias, const std::string& bit, const std::string& vector,
                     int width) {
  std::string s = "#{" + alias + "} " + bit;
  for (int i = 0; i < width; ++i) s += " (" + std::to_string(i) + ")" + vector;
  return s;
}

}  // namespace

std::vector<std::string> GtkwFilterPaths(const std::string& gtkw_path) {
  std::filesystem::path p = std::filesystem::absolute(gtkw_path);
  const std::string stem = (p.parent_path() / p.stem()).string();
  std::vector<std::string> paths;
  for (const char* s : kFilterSuffix) paths.push_back(stem + s);
  return paths;
}

void WriteGtkwSave(const std::string& gtkw_path, const std::string& fst_path,
                   const CubeConfig& config, const GtkwRun& run) {
  const std::vector<std::string> filters = GtkwFilterPaths(gtkw_path);
  const bool tags = run.tag_words > 0 && run.tag_words <= kMaxTagWords && run.tag_slots > 0;
  GtkwRun shown = run;
  if (!tags) shown.tag_words = 0;
  WriteFilters(filters, shown, config.word_width);

  std::ofstream f(gtkw_path);
  if (!f) throw std::runtime_error(gtkw_path + ": cannot write the GTKWave save file");
  const std::string fst = std::filesystem::absolute(fst_path).string();
  const int nodes = std::min(config.NumNodes(), kMaxNodes);
  int pc_bits = 0;
  while ((1 << pc_bits) < config.table_depth + 1) ++pc_bits;  // clog2(TableDepth + 1)
  const int ww = config.word_width;
  const std::string word = Range(ww);
  auto filter = [&](Filter i) { return "^" + std::to_string(i + 1) + " " + filters[i] + "\n"; };

  f << "[*] hcube: hc_cube traffic, one group per node, one sub-group per port (and lane)\n";
  f << "[*] the run: start at " << run.start << " ns (marker A), done at " << run.done
    << " ns (marker B), " << kTraceTimePerCycle << " ns a cycle; zoom out for the load\n";
  if (config.NumNodes() > nodes) {
    f << "[*] only nodes 0.." << nodes - 1 << " of " << config.NumNodes()
      << " are listed; add others from the signal tree (TOP.hc_cube.g_node[x].u_node)\n";
  }
  if (!tags) {
    f << "[*] data words are shown in hex: they are not tags, or too many for a filter file\n";
  }
  f << "[dumpfile] \"" << fst << "\"\n";
  f << "[savefile] \"" << std::filesystem::absolute(gtkw_path).string() << "\"\n";
  // The view: from start over the run and two more cycles, so that done's edge is inside.
  const double span =
      static_cast<double>(run.done - std::min(run.done, run.start) + 2 * kTraceTimePerCycle);
  const double zoom = -std::log2(span / kZoomUnits);
  f << "[timestart] " << run.start << "\n";
  // The primary marker, then the named markers A (start) and B (done).
  f << "*" << zoom << " " << run.start << " " << run.start << " " << run.done << "\n";
  f << "[size] 1400 900\n";
  f << "[pos] -1 -1\n";
  f << "[treeopen] TOP.\n";
  f << "[treeopen] TOP.hc_cube.\n";
  f << "[sst_width] 260\n";
  f << "[signals_width] 320\n";
  f << "[sst_expanded] 1\n";

  f << kGroupOpen << "\n-cube\n";
  f << kBin << "\nTOP.clk_i\nTOP.rst_ni\nTOP.start_i\nTOP.done_o\n";
  f << kDec
    << "\nTOP.cycles_o[31:0]\nTOP.xfer_cycles_o[31:0]\nTOP.local_cycles_o[31:0]\n"
       "TOP.words_o[31:0]\n";
  f << kBin << "\nTOP.err_any_o[9:0]\n";
  f << kGroupEnd << "\n-cube\n";

  for (int x = 0; x < nodes; ++x) {
    const bool open = x < kOpenNodes;
    const std::string n = "TOP.hc_cube.g_node[" + std::to_string(x) + "].u_node.";
    const std::string label = "node " + std::to_string(x);
    f << (open ? kGroupOpen : kGroupClosed) << "\n-" << label << "\n";
    f << kDec << "\n" << n << "pc_q" << Range(pc_bits) << "\n";
    // A PERMUTE's copies show in the memory group, not on the channels.
    f << kNamed << "\n" << filter(kOpcode) << n << "opcode[1:0]\n";
    f << kBin << "\n" << n << "done\n";
    for (int j = 0; j < config.dim; ++j) {
      for (int l = 0; l < config.lanes; ++l) {
        const std::string c =
            n + "g_port[" + std::to_string(j) + "].g_lane[" + std::to_string(l) + "].";
        const std::string port = label + " port " + std::to_string(j) +
                                 (config.lanes > 1 ? " lane " + std::to_string(l) : "");
        f << kGroupOpen << "\n-" << port << "\n";
        if (tags) {
          f << kNamed << "\n"
            << filter(kLinkTag)
            << Combined(port + " out", c + "out_valid", c + "out_data" + word, ww) << "\n";
          f << kNamed << "\n"
            << filter(kLinkTag) << Combined(port + " in", c + "in_valid", c + "in_data" + word, ww)
            << "\n";
        } else {
          f << kBin << "\n" << c << "out_valid\n";
          f << kHex << "\n" << c << "out_data" << word << "\n";
          f << kBin << "\n" << c << "in_valid\n";
          f << kHex << "\n" << c << "in_data" << word << "\n";
        }
        f << kGroupEnd << "\n-" << port << "\n";
      }
    }
    // The memory, closed: slots of the trace (data and scratch).
    const std::string mem = label + " memory";
    f << kGroupClosed << "\n-" << mem << "\n";
    f << (tags ? kNamed : kHex) << "\n";
    if (tags) f << filter(kTag);
    for (int s = 0; s < std::min(config.num_slots, kMaxMemSlots); ++s) {
      f << n << "mem_q[" << s << "]" << word << "\n";
    }
    f << kGroupEndClosed << "\n-" << mem << "\n";
    if (run.routed) {
      // The router (rtl/hc_router.sv): its state and routing function by name, FIFO occupancy
      // and credits per FIFO / output VC (port * V + VC, CntBits each), which outputs grant and
      // whom (requester nV: the injection queue) on which VC, round-robin pointers.
      const std::string r = n + "g_router.u_router.";
      const int d = config.dim;
      const int req_bits = CubeConfig::Bits(2 * (config.NumFifos() + 1));
      const int fifos = config.NumFifos();
      const std::string router = label + " router";
      f << kGroupOpen << "\n-" << router << "\n";
      f << kNamed << "\n"
        << filter(kRouterState) << "#{" << router << " state} " << r << "started_q " << r
        << "halted_q " << r << "work_o " << r << "su_busy_q\n";
      f << kNamed << "\n"
        << filter(kRouting) << "#{" << router << " routing} " << r << "routed_q " << r
        << "source_q " << r << "adaptive_q\n";
      f << kHex << "\n" << r << "fifo_cnt" << Range(fifos * config.OccBits()) << "\n";
      f << kHex << "\n" << r << "credit_q" << Range(fifos * config.OccBits()) << "\n";
      f << kBin << "\n" << r << "grant_v" << Range(d) << "\n";
      f << kHex << "\n" << r << "grant_i" << Range(d * req_bits) << "\n";
      if (config.vcs > 1) {
        f << kHex << "\n" << r << "grant_vc" << Range(d * CubeConfig::Bits(config.vcs)) << "\n";
      }
      f << kHex << "\n" << r << "rr_ptr" << Range(d * req_bits) << "\n";
      f << kHex << "\n" << r << "occ_max_o" << Range(fifos * config.OccBits()) << "\n";
      f << kGroupEnd << "\n-" << router << "\n";
    }
    f << (open ? kGroupEnd : kGroupEndClosed) << "\n-" << label << "\n";
  }
  f.close();
  if (!f) throw std::runtime_error(gtkw_path + ": error writing the GTKWave save file");
}

}  // namespace hcube::tb
