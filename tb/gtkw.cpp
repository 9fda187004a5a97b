// hcube testbench: a GTKWave save file for an FST trace of hc_cube.
#include "gtkw.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace hcube::tb {
namespace {

// Trace flags of a GTKWave save file (gtkwave's analyzer.h).
constexpr const char* kBin = "@28";              // TR_RJN | TR_BIN
constexpr const char* kHex = "@22";              // TR_RJN | TR_HEX
constexpr const char* kDec = "@24";              // TR_RJN | TR_DEC
constexpr const char* kGroupOpen = "@800200";    // TR_GRP_BEGIN | TR_BLANK
constexpr const char* kGroupClosed = "@c00200";  // ... | TR_CLOSED
constexpr const char* kGroupEnd = "@1000200";    // TR_GRP_END | TR_BLANK
constexpr const char* kGroupEndClosed = "@1400200";

// Nodes shown: a save file for 1024 nodes would be unusable; the first 16 cover a 4-cube and
// the neighbours of node 0 in a bigger one.
constexpr int kMaxNodes = 16;
// Node groups open on load; the others start closed.
constexpr int kOpenNodes = 4;

std::string Range(int width) { return "[" + std::to_string(width - 1) + ":0]"; }

}  // namespace

void WriteGtkwSave(const std::string& gtkw_path, const std::string& fst_path,
                   const CubeConfig& config, uint64_t run_begin, uint64_t run_end, bool routed) {
  std::ofstream f(gtkw_path);
  if (!f) throw std::runtime_error(gtkw_path + ": cannot write the GTKWave save file");
  const std::string fst = std::filesystem::absolute(fst_path).string();
  const int nodes = std::min(config.NumNodes(), kMaxNodes);
  int pc_bits = 0;
  while ((1 << pc_bits) < config.table_depth + 1) ++pc_bits;  // clog2(TableDepth + 1)
  const std::string word = Range(config.word_width);

  f << "[*] hcube: hc_cube traffic, one group per node, one sub-group per port (and lane)\n";
  if (config.NumNodes() > nodes) {
    f << "[*] only nodes 0.." << nodes - 1 << " of " << config.NumNodes()
      << " are listed; add others from the signal tree (TOP.hc_cube.g_node[x].u_node)\n";
  }
  f << "[dumpfile] \"" << fst << "\"\n";
  f << "[savefile] \"" << std::filesystem::absolute(gtkw_path).string() << "\"\n";
  // GTKWave's zoom z shows about 3.8 * 2^z time units across the window at this size. Its
  // [timestart] is not honoured for FST files here (GTKWave 3.3.118), so the view spans the
  // whole trace — loading, the run (marked at run_begin) and read-back — and the run's traffic
  // is in view when the file opens.
  const double span = static_cast<double>(run_end + 20);
  const double zoom = std::max(0.0, std::log2(span / 3.8));
  f << "[timestart] 0\n";
  f << "*-" << zoom << " " << run_begin << "\n";
  f << "[size] 1400 900\n";
  f << "[pos] -1 -1\n";
  f << "[treeopen] TOP.\n";
  f << "[treeopen] TOP.hc_cube.\n";
  f << "[sst_width] 260\n";
  f << "[signals_width] 320\n";
  f << "[sst_expanded] 1\n";

  f << kBin << "\nTOP.clk_i\nTOP.rst_ni\nTOP.start_i\nTOP.done_o\n";
  f << kDec
    << "\nTOP.cycles_o[31:0]\nTOP.xfer_cycles_o[31:0]\nTOP.local_cycles_o[31:0]\n"
       "TOP.words_o[31:0]\n";
  f << kBin << "\nTOP.err_any_o[9:0]\n";

  for (int x = 0; x < nodes; ++x) {
    const bool open = x < kOpenNodes;
    const std::string n = "TOP.hc_cube.g_node[" + std::to_string(x) + "].u_node.";
    const std::string label = "node " + std::to_string(x);
    f << (open ? kGroupOpen : kGroupClosed) << "\n-" << label << "\n";
    f << kDec << "\n" << n << "pc_q" << Range(pc_bits) << "\n";
    f << kBin << "\n" << n << "done\n";
    // 0 END, 1 XFER, 2 WAIT, 3 PERMUTE: a PERMUTE's copies show in mem_q, not on the channels.
    f << kDec << "\n" << n << "opcode[1:0]\n";
    for (int j = 0; j < config.dim; ++j) {
      for (int l = 0; l < config.lanes; ++l) {
        const std::string c =
            n + "g_port[" + std::to_string(j) + "].g_lane[" + std::to_string(l) + "].";
        const std::string port = "node " + std::to_string(x) + " port " + std::to_string(j) +
                                 (config.lanes > 1 ? " lane " + std::to_string(l) : "");
        f << kGroupOpen << "\n-" << port << "\n";
        f << kBin << "\n" << c << "out_valid\n";
        f << kHex << "\n" << c << "out_data" << word << "\n";
        f << kBin << "\n" << c << "in_valid\n";
        f << kHex << "\n" << c << "in_data" << word << "\n";
        f << kGroupEnd << "\n-" << port << "\n";
      }
    }
    if (routed) {
      // The router (rtl/hc_router.sv): FIFO occupancy and credits per FIFO / output VC
      // (port * V + VC, CntBits each), which outputs grant and whom (requester nV: the
      // injection queue) on which VC, round-robin pointers.
      const std::string r = n + "g_router.u_router.";
      const int d = config.dim;
      const int req_bits = CubeConfig::Bits(2 * (config.NumFifos() + 1));
      const int fifos = config.NumFifos();
      const std::string router = "node " + std::to_string(x) + " router";
      f << kGroupOpen << "\n-" << router << "\n";
      f << kHex << "\n" << r << "cnt_q" << Range(fifos * config.OccBits()) << "\n";
      f << kHex << "\n" << r << "credit_q" << Range(fifos * config.OccBits()) << "\n";
      f << kBin << "\n" << r << "grant_v" << Range(d) << "\n";
      f << kHex << "\n" << r << "grant_i" << Range(d * req_bits) << "\n";
      if (config.vcs > 1) {
        f << kHex << "\n" << r << "grant_vc" << Range(d * CubeConfig::Bits(config.vcs)) << "\n";
      }
      f << kHex << "\n" << r << "rr_q" << Range(d * req_bits) << "\n";
      f << kHex << "\n" << r << "occ_max_q" << Range(fifos * config.OccBits()) << "\n";
      f << kGroupEnd << "\n-" << router << "\n";
    }
    f << (open ? kGroupEnd : kGroupEndClosed) << "\n-" << label << "\n";
  }
  f.close();
  if (!f) throw std::runtime_error(gtkw_path + ": error writing the GTKWave save file");
}

}  // namespace hcube::tb
