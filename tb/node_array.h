// hcube testbench: the node-array model of hc_cube (docs/hardware/testbench.md §2.1).
//
// hc_cube is 2^n instances of hc_node, the wires between them and one hc_cube_ctl. Verilated
// as one model, the wires and each instance's port copies become straight-line code per node
// instance: at n = 10 about 32 MB of C++ that Verilator needs over a minute to write and that
// every simulated cycle runs through once. NodeArrayCube verilates hc_node and hc_cube_ctl
// apart (each once, whatever n is) and makes the cube out of 2^n Vhc_node objects and one
// Vhc_cube_ctl, connected here exactly as rtl/hc_cube.sv connects them:
//   * output channel (j, l) of node x drives input channel (j, l) of node x ^ (1 << j), and
//     router port j's packet and credit likewise (g_rt_link);
//   * the load port reaches node x when tbl_we_i and (tbl_wide_i ? tbl_nodes_i[x] :
//     tbl_bcast_i || tbl_node_i == x), with node x's slice of tbl_wide_wdata_i on a wide load;
//   * the scan port gives node x slice x of mem_wdata_i, and mem_rdata_o gathers every node;
//   * the controller takes the nodes' summaries (done, permute, mac, out_valid, error events
//     and flags, router work / moved / stalls) and gives every node its fault registers and
//     rt_halt; err_count_o is node err_node_i's counters.
// The class has the pins of Vhc_cube under the same names and types, and eval() has Verilator's
// meaning: settle every combinational path for the current inputs, and clock every register if
// clk_i rose since the last eval. The settling is a fixed point: a node is evaluated again
// whenever one of its inputs changed, until no input changes, which is what Verilator's own
// scheduler does for the flat model. tests/rtl_array_test.cpp holds the two models to the same
// result on every catalogue case.
#pragma once

#include <verilated.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <type_traits>
#include <vector>

#include "Vhc_cube_ctl.h"
#include "Vhc_node.h"
#include "cube_config.h"

namespace hcube::tb {

/// The Verilator type of a port of `bits` bits: CData, SData, IData, QData or VlWide.
template <int bits>
using VlPin = std::conditional_t<
    (bits <= 8), CData,
    std::conditional_t<
        (bits <= 16), SData,
        std::conditional_t<(bits <= 32), IData,
                           std::conditional_t<(bits <= 64), QData, VlWide<(bits + 31) / 32>>>>>;

/// Bits of a Verilator port type (its storage, a multiple of 8 or 32).
template <typename T>
constexpr int kPinStorageBits = 8 * static_cast<int>(sizeof(T));

class NodeArrayCube {
 public:
  static constexpr CubeConfig kBuild = CubeConfig::Build();
  static constexpr int kDim = HC_DIM;
  static constexpr int kNodes = 1 << kDim;
  static constexpr int kWordWidth = 32;

  /// `threads` worker threads evaluate the nodes (1: the caller's thread only).
  NodeArrayCube(VerilatedContext* context, int threads);
  ~NodeArrayCube();
  NodeArrayCube(const NodeArrayCube&) = delete;
  NodeArrayCube& operator=(const NodeArrayCube&) = delete;

  // hc_cube's pins (rtl/hc_cube.sv), the same names and Verilator types as Vhc_cube's.
  CData clk_i = 0;
  CData rst_ni = 0;
  CData one_port_i = 0;
  CData mac_overlap_i = 0;
  CData tbl_we_i = 0;
  CData tbl_bcast_i = 0;
  VlPin<kDim> tbl_node_i{};
  std::remove_reference_t<decltype(Vhc_node::tbl_addr_i)> tbl_addr_i{};
  std::remove_reference_t<decltype(Vhc_node::tbl_wdata_i)> tbl_wdata_i{};
  CData tbl_wide_i = 0;
  VlPin<kNodes> tbl_nodes_i{};
  /// Node x's load word at [x * LoadWidth +: LoadWidth].
  VlPin<kNodes * kBuild.LoadWidth()> tbl_wide_wdata_i{};
  CData mem_we_i = 0;
  std::remove_reference_t<decltype(Vhc_node::mem_addr_i)> mem_addr_i{};
  VlPin<kNodes * kWordWidth> mem_wdata_i{};
  VlPin<kNodes * kWordWidth> mem_rdata_o{};
  CData start_i = 0;
  CData done_o = 0;
  IData cycles_o = 0;
  IData xfer_cycles_o = 0;
  IData words_o = 0;
  IData local_cycles_o = 0;
  IData mac_cycles_o = 0;
  IData rt_stalls_o = 0;
  CData rt_deadlock_o = 0;
  std::remove_reference_t<decltype(Vhc_cube_ctl::err_any_o)> err_any_o{};
  VlPin<kDim> err_node_i{};
  std::remove_reference_t<decltype(Vhc_node::err_count_o)> err_count_o{};
  CData flt_en_i = 0;
  VlPin<kDim> flt_node_i{};
  std::remove_reference_t<decltype(Vhc_cube_ctl::flt_chan_i)> flt_chan_i{};
  IData flt_xor_i = 0;
  IData flt_clr_i = 0;
  IData flt_set_i = 0;
  CData flt_kill_i = 0;

  /// Settles the cube for the current inputs, clocking it if clk_i rose since the last call.
  void eval();
  void final();

  /// Node clock edges not evaluated so far: the node was routed and idle (rt_idle_o,
  /// docs/hardware/router.md §14). 0 with HCUBE_EVERY_EDGE=1.
  uint64_t idle_edges() const { return idle_edges_; }

  /// Node x's model (its output ports are what hc_cube's per-node arrays hold).
  Vhc_node& node(int x) { return *nodes_[static_cast<size_t>(x)]; }
  const Vhc_node& node(int x) const { return *nodes_[static_cast<size_t>(x)]; }

  /// A job aside from the cube: work that touches none of the models (the testbench's traffic
  /// monitor), done by the worker threads in the time they would otherwise wait for the caller's
  /// serial part of a cycle. `step` does a bounded piece of the job and returns true once the
  /// job is finished; it is called from one thread at a time. With one thread the job runs to
  /// its end here. One job at a time: RunAside waits for the previous one first.
  void RunAside(std::function<bool()> step);
  /// Returns once the aside job (if any) is finished, helping with it meanwhile.
  void WaitAside();

 private:
  struct Worker;
  struct LinkOutputs;

  void ApplyPins();
  void Settle();
  void ClockEdge();
  void EvalDirty(int lo, int hi);
  void Propagate(int lo, int hi);
  void PackSummaries();
  void NoteControllerOutputs();
  void GatherOutputs();
  // Runs fn(lo, hi) over the node range split among the workers.
  template <typename Fn>
  void ParallelFor(Fn&& fn);

  std::vector<std::unique_ptr<VerilatedContext>> contexts_;
  std::vector<std::unique_ptr<Vhc_node>> nodes_;
  std::unique_ptr<Vhc_cube_ctl> ctl_;
  std::vector<uint8_t> dirty_;      // node x must be evaluated: an input changed
  std::vector<uint8_t> evaluated_;  // an evaluation changed node x's link outputs since they were
                                    // last propagated
  std::vector<uint8_t> clk_low_;    // node x was evaluated with clk_i = 0 since its last edge
  std::vector<uint8_t> skip_;       // node x is not clocked at this edge (idle, routed)
  bool skip_idle_ = true;           // skip idle routed nodes' edges (HCUBE_EVERY_EDGE unset)
  uint64_t idle_edges_ = 0;         // edges skipped
  bool ctl_dirty_ = true;
  bool ctl_outputs_changed_ = true;  // the controller's outputs differ from the nodes' inputs
  bool any_dirty_ = true;
  CData last_clk_ = 0;
  int load_width_ = 0;
  std::unique_ptr<Worker> workers_;
};

}  // namespace hcube::tb
