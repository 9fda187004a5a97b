// hcube testbench: the Verilated cube the runner drives, one of two models of rtl/hc_cube.sv
// (docs/hardware/testbench.md §2.1), chosen when the runner is built (tb/model HC_ARRAY):
//   * HC_NODE_ARRAY = 0, the flat model: hc_cube verilated as one model (Vhc_cube). Waveform
//     tracing needs it, and it is the model of hc_cube.sv as the FPGA build reads it;
//   * HC_NODE_ARRAY = 1, the node-array model (tb/node_array.h): hc_node and hc_cube_ctl
//     verilated apart and wired in C++ as hc_cube.sv wires them; its build does not grow with
//     the cube, and it runs faster.
// Both give CubeTop: hc_cube's pins under their own names, and the per-node signals that the
// flat model exposes as hc_cube's public arrays (node_out_valid, node_store, ...), and
// RunAside / WaitAside: testbench work done beside the cube's evaluation where threads allow.
#pragma once

#include <functional>

#ifndef HC_NODE_ARRAY
#define HC_NODE_ARRAY 0
#endif

#if HC_NODE_ARRAY
#include "node_array.h"
#else
#include "Vhc_cube.h"
#include "Vhc_cube___024root.h"
#endif

namespace hcube::tb {

#if HC_NODE_ARRAY

class CubeTop : public NodeArrayCube {
 public:
  CubeTop(VerilatedContext* context, int threads) : NodeArrayCube(context, threads) {}
  const auto& OutValid(int x) const { return node(x).out_valid_o; }
  const auto& OutData(int x) const { return node(x).out_data_o; }
  const auto& Store(int x) const { return node(x).store_o; }
  const auto& ErrEvent(int x) const { return node(x).err_event_o; }
  const auto& RtDlv(int x) const { return node(x).rt_dlv_o; }
  const auto& RtDlvTag(int x) const { return node(x).rt_dlv_tag_o; }
  const auto& RtCopyWord(int x) const { return node(x).rt_copy_word_o; }
  const auto& RtOccMax(int x) const { return node(x).rt_occ_max_o; }
  const auto& RtHeadValid(int x) const { return node(x).rt_head_valid_o; }
  const auto& RtHeadNoCredit(int x) const { return node(x).rt_head_nocredit_o; }
  const auto& RtHeadDst(int x) const { return node(x).rt_head_dst_o; }
  const auto& RtHeadOut(int x) const { return node(x).rt_head_out_o; }
};

#else

class CubeTop : public Vhc_cube {
 public:
  /// `threads` is the flat model's own (Verilator --threads, fixed when it was built).
  CubeTop(VerilatedContext* context, int /*threads*/) : Vhc_cube(context, "TOP") {}
  /// No worker threads here: the job runs to its end at once (NodeArrayCube::RunAside).
  void RunAside(const std::function<bool()>& step) {
    while (!step()) {
    }
  }
  void WaitAside() {}
  /// Every node is clocked at every edge (the node-array model skips idle ones,
  /// docs/hardware/router.md §14).
  uint64_t idle_edges() const { return 0; }
  const auto& OutValid(int x) const { return rootp->hc_cube__DOT__node_out_valid[x]; }
  const auto& OutData(int x) const { return rootp->hc_cube__DOT__node_out_data[x]; }
  const auto& Store(int x) const { return rootp->hc_cube__DOT__node_store[x]; }
  const auto& ErrEvent(int x) const { return rootp->hc_cube__DOT__node_err_event[x]; }
  const auto& RtDlv(int x) const { return rootp->hc_cube__DOT__node_rt_dlv[x]; }
  const auto& RtDlvTag(int x) const { return rootp->hc_cube__DOT__node_rt_dlv_tag[x]; }
  const auto& RtCopyWord(int x) const { return rootp->hc_cube__DOT__node_rt_cword[x]; }
  const auto& RtOccMax(int x) const { return rootp->hc_cube__DOT__node_rt_occ_max[x]; }
  const auto& RtHeadValid(int x) const { return rootp->hc_cube__DOT__node_rt_hvalid[x]; }
  const auto& RtHeadNoCredit(int x) const { return rootp->hc_cube__DOT__node_rt_hnocred[x]; }
  const auto& RtHeadDst(int x) const { return rootp->hc_cube__DOT__node_rt_hdst[x]; }
  const auto& RtHeadOut(int x) const { return rootp->hc_cube__DOT__node_rt_hout[x]; }
};

#endif

}  // namespace hcube::tb
