// hcube RTL: the cube's controller (docs/hardware/testbench.md §1): everything of hc_cube that is not a
// node or a wire between nodes.
//
// It takes one summary vector per quantity from the nodes (node x at bit x, or at
// [x*Width +: Width]) and keeps the run's state: the cycle / transfer-cycle / word / local-cycle
// / MAC-cycle counters, done, the error summary, the fault-injection registers that every node
// reads, the routed mode's stall sum and deadlock detector, and the assertions that name the
// first node showing each error kind.
//
// hc_cube instantiates it once beside its nodes. The fast simulation model of big cubes
// (tb/node_array.h) verilates hc_node and this module apart and wires them in C++ exactly as
// hc_cube does, so the counters, the detector and the assertions are this RTL in both models.

module hc_cube_ctl
#(
  /// Cube dimensions n; the cube has 2^Dim nodes.
  parameter int Dim = 3,
  /// Lanes b per port and direction.
  parameter int Lanes = 1,
  /// Word width W in bits.
  parameter int WordWidth = 32,
  /// 1: the nodes have routers (routed mode, docs/hardware/router.md §11); 0: table mode only.
  parameter int HasRouter = 0,
  /// Virtual channels per link of the routers (docs/hardware/router.md §13): the stall count's width.
  parameter int NumVcs = 1,

  // derived
  /// Number of nodes N = 2^Dim.
  localparam int NumNodes = 1 << Dim,
  /// Output channels per node.
  localparam int NumChans = Dim * Lanes,
  /// Width of an output channel index (fault injection).
  localparam int ChanBits = hc_pkg::hc_bits(Dim * Lanes),
  /// Width of a node's per-cycle stall count (hc_router).
  localparam int StallBits = hc_pkg::hc_stall_bits(Dim, NumVcs)
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,
  /// One-cycle start pulse: counters <- 0.
  input  logic                               start_i,

  /// Routed mode: the deadlock limit (bits [31:16] of the router configuration word) is loaded.
  input  logic                               rt_limit_we_i,
  input  logic [15:0]                        rt_limit_i,

  /// Fault injection inputs (docs/hardware/faults.md), registered here.
  input  logic                               flt_en_i,
  input  logic [Dim-1:0]                     flt_node_i,
  input  logic [ChanBits-1:0]                flt_chan_i,
  input  logic [WordWidth-1:0]               flt_xor_i,
  input  logic [WordWidth-1:0]               flt_clr_i,
  input  logic [WordWidth-1:0]               flt_set_i,
  input  logic                               flt_kill_i,
  /// The fault registers: every node masks its own outputs with them.
  output logic                               flt_en_q_o,
  output logic [Dim-1:0]                     flt_node_q_o,
  output logic [ChanBits-1:0]                flt_chan_q_o,
  output logic [WordWidth-1:0]               flt_xor_q_o,
  output logic [WordWidth-1:0]               flt_clr_q_o,
  output logic [WordWidth-1:0]               flt_set_q_o,
  output logic                               flt_kill_q_o,

  // The nodes' summaries, node x at bit x or at [x*Width +: Width].
  /* verilator tracing_off */
  input  logic [NumNodes-1:0]                node_done_i,
  input  logic [NumNodes-1:0]                node_permute_i,
  input  logic [NumNodes-1:0]                node_mac_i,
  input  logic [NumNodes*NumChans-1:0]       node_out_valid_i,
  input  logic [NumNodes*hc_pkg::NumErrKinds-1:0] node_err_event_i,
  input  logic [NumNodes*hc_pkg::NumErrKinds-1:0] node_err_flags_i,
  input  logic [NumNodes-1:0]                node_rt_work_i,
  input  logic [NumNodes-1:0]                node_rt_moved_i,
  input  logic [NumNodes*StallBits-1:0]      node_rt_stalls_i,
  /* verilator tracing_on */

  /// Every node has reached END since the last start (or the deadlock detector fired).
  output logic                               done_o,
  output logic [hc_pkg::CountBits-1:0]       cycles_o,
  output logic [hc_pkg::CountBits-1:0]       xfer_cycles_o,
  output logic [hc_pkg::CountBits-1:0]       words_o,
  output logic [hc_pkg::CountBits-1:0]       local_cycles_o,
  output logic [hc_pkg::CountBits-1:0]       mac_cycles_o,
  /// Per error kind: OR over all nodes of "counter non-zero".
  output logic [hc_pkg::NumErrKinds-1:0]     err_any_o,
  /// Routed mode: every router holds (the deadlock detector fires this cycle).
  output logic                               rt_halt_o,
  /// Routed mode: stalls summed over the run, and whether the deadlock detector ended it.
  output logic [hc_pkg::CountBits-1:0]       rt_stalls_o,
  output logic                               rt_deadlock_o
);

  localparam int NumErrKinds = hc_pkg::NumErrKinds;  // derived
  localparam int CountBits   = hc_pkg::CountBits;    // derived
  // Assertion classes: the error kinds, with two of them split by case: a lost word or an
  // illegal channel in a PERMUTE cycle has its own assertion (and message).
  localparam int AssertPermuteLost    = NumErrKinds;      // derived
  localparam int AssertPermuteIllegal = NumErrKinds + 1;  // derived
  localparam int NumAsserts           = NumErrKinds + 2;  // derived

  // ---------------------------------------------------------------------------
  // Fault registers (docs/hardware/testbench.md §1; docs/hardware/faults.md): the values at the rising edge that begins a
  // cycle apply in that cycle. Registered, not combinational from the inputs: Verilator
  // re-evaluates everything combinational from a top-level input on every eval(), and a mask on
  // the links made that the links and every node's input logic, twice per clock cycle.
  // ---------------------------------------------------------------------------

  always_ff @(posedge clk_i) begin : fault_regs
    if (!rst_ni) begin
      flt_en_q_o   <= 1'b0;
      flt_node_q_o <= '0;
      flt_chan_q_o <= '0;
      flt_xor_q_o  <= '0;
      flt_clr_q_o  <= '0;
      flt_set_q_o  <= '0;
      flt_kill_q_o <= 1'b0;
    end else begin
      flt_en_q_o   <= flt_en_i;
      flt_node_q_o <= flt_node_i;
      flt_chan_q_o <= flt_chan_i;
      flt_xor_q_o  <= flt_xor_i;
      flt_clr_q_o  <= flt_clr_i;
      flt_set_q_o  <= flt_set_i;
      flt_kill_q_o <= flt_kill_i;
    end
  end

  // ---------------------------------------------------------------------------
  // Counters (docs/hardware/node.md §2: cycle count)
  // ---------------------------------------------------------------------------

  logic                  running_q;             // started since reset
  logic [CountBits-1:0]  cycles_q;
  logic [CountBits-1:0]  xfer_cycles_q;
  logic [CountBits-1:0]  words_q;
  logic [CountBits-1:0]  local_cycles_q;
  logic [CountBits-1:0]  mac_cycles_q;
  logic [CountBits-1:0]  rt_stalls_q;
  logic                  rt_deadlock_q;
  logic                  all_done;
  logic                  counting;              // a cycle of the run
  logic [CountBits-1:0]  cycle_words;           // words sent this cycle
  /* verilator tracing_off */
  logic                  running_d;
  logic [CountBits-1:0]  cycles_d;
  logic [CountBits-1:0]  xfer_cycles_d;
  logic [CountBits-1:0]  words_d;
  logic [CountBits-1:0]  local_cycles_d;
  logic [CountBits-1:0]  mac_cycles_d;
  /* verilator tracing_on */

  // Loops over the nodes, not N part-select assigns: Verilator keeps them loops
  // (--unroll-stmts 1), so this module's code does not grow with the cube.
  always_comb begin : summary
    cycle_words = CountBits'($countones(node_out_valid_i));
    err_any_o   = '0;
    for (int x = 0; x < NumNodes; x++) begin
      err_any_o = err_any_o | node_err_flags_i[x*NumErrKinds +: NumErrKinds];
    end
  end

  assign counting = running_q && !all_done;

  always_comb begin : next_state
    running_d      = running_q;
    cycles_d       = cycles_q;
    xfer_cycles_d  = xfer_cycles_q;
    words_d        = words_q;
    local_cycles_d = local_cycles_q;
    mac_cycles_d   = mac_cycles_q;
    if (start_i) begin
      running_d      = 1'b1;
      cycles_d       = '0;
      xfer_cycles_d  = '0;
      words_d        = '0;
      local_cycles_d = '0;
      mac_cycles_d   = '0;
    end else if (counting) begin
      cycles_d = cycles_q + CountBits'(1);
      if (cycle_words != '0) xfer_cycles_d = xfer_cycles_q + CountBits'(1);
      words_d = words_q + cycle_words;
      if (node_permute_i != '0) local_cycles_d = local_cycles_q + CountBits'(1);
      if (node_mac_i != '0) mac_cycles_d = mac_cycles_q + CountBits'(1);
    end
  end

  always_ff @(posedge clk_i) begin : regs
    if (!rst_ni) begin
      running_q      <= 1'b0;
      cycles_q       <= '0;
      xfer_cycles_q  <= '0;
      words_q        <= '0;
      local_cycles_q <= '0;
      mac_cycles_q   <= '0;
    end else begin
      running_q      <= running_d;
      cycles_q       <= cycles_d;
      xfer_cycles_q  <= xfer_cycles_d;
      words_q        <= words_d;
      local_cycles_q <= local_cycles_d;
      mac_cycles_q   <= mac_cycles_d;
    end
  end

  // ---------------------------------------------------------------------------
  // Routed mode (HasRouter): the stall sum, and the deadlock detector (docs/hardware/router.md §5):
  // `quiet` counts the consecutive cycles in which packets wait and none moves; at the
  // configured limit the run ends with rt_deadlock_q set.
  // ---------------------------------------------------------------------------

  if (HasRouter != 0) begin : g_rt
    logic [15:0]           rt_quiet_q;
    logic [15:0]           rt_limit_q;
    logic [CountBits-1:0]  cycle_stalls;
    logic                  rt_work;
    logic                  rt_moved;

    always_comb begin : stall_sum
      cycle_stalls = '0;
      for (int x = 0; x < NumNodes; x++) begin
        cycle_stalls = cycle_stalls + CountBits'(node_rt_stalls_i[x*StallBits +: StallBits]);
      end
    end

    assign rt_work   = node_rt_work_i != '0;
    assign rt_moved  = node_rt_moved_i != '0;
    assign rt_halt_o = counting && rt_work && !rt_moved && rt_quiet_q + 16'd1 >= rt_limit_q;
    assign all_done  = &node_done_i || rt_deadlock_q;

    always_ff @(posedge clk_i) begin : rt_regs
      if (!rst_ni) begin
        rt_stalls_q   <= '0;
        rt_deadlock_q <= 1'b0;
        rt_quiet_q    <= '0;
        rt_limit_q    <= 16'd64;
      end else begin
        if (rt_limit_we_i && rt_limit_i != '0) rt_limit_q <= rt_limit_i;
        if (start_i) begin
          rt_stalls_q   <= '0;
          rt_deadlock_q <= 1'b0;
          rt_quiet_q    <= '0;
        end else if (counting) begin
          rt_stalls_q <= rt_stalls_q + cycle_stalls;
          if (rt_halt_o) rt_deadlock_q <= 1'b1;
          if (rt_work) rt_quiet_q <= rt_moved ? '0 : rt_quiet_q + 16'd1;
        end
      end
    end
  end else begin : g_no_rt
    logic unused_rt;  // no routers: their summaries and the limit are not read
    assign unused_rt     = ^{rt_limit_we_i, rt_limit_i, node_rt_work_i, node_rt_moved_i,
                             node_rt_stalls_i};
    assign all_done      = &node_done_i;
    assign rt_halt_o     = 1'b0;
    assign rt_stalls_q   = '0;
    assign rt_deadlock_q = 1'b0;
  end

  assign done_o         = running_q && all_done;
  assign cycles_o       = cycles_q;
  assign xfer_cycles_o  = xfer_cycles_q;
  assign words_o        = words_q;
  assign local_cycles_o = local_cycles_q;
  assign mac_cycles_o   = mac_cycles_q;
  assign rt_stalls_o    = rt_stalls_q;
  assign rt_deadlock_o  = rt_deadlock_q;

  // ---------------------------------------------------------------------------
  // Assertions (docs/hardware/checks.md), one per error kind for all nodes: each fires in a cycle in
  // which some node shows its kind for the first time since start, and names the lowest such
  // node; the error counters count every occurrence. A first `lost` or `illegal` in a PERMUTE
  // cycle (docs/hardware/node.md §2.1) fires PermuteLost_A or PermuteChannel_A instead of LostWord_A or LegalInstr_A.
  // They live here rather than in hc_node so that the node's code stays shared by all instances
  // (see hc_node.sv). Verilator reads them (--assert); yosys does not read concurrent
  // assertions with `disable iff` and action blocks, and they check the simulation anyway, so
  // synthesis skips the whole block (read_verilog defines SYNTHESIS; see hc_pkg.sv).
  // ---------------------------------------------------------------------------

`ifndef SYNTHESIS
  // Per error kind, the nodes that show it for the first time since start (lost and illegal
  // split into XFER/WAIT cycles and PERMUTE cycles).
  logic [NumAsserts-1:0]  first_err;                     // some node
  // Packed, not unpacked int arrays: vvp (Icarus Verilog 11) aborts at time 0 on an always_comb
  // that writes an unpacked array in a loop (event.cc, vvp_fun_anyedge_sa::recv_vec4).
  logic [NumAsserts-1:0][31:0] first_err_node;   // the lowest such node
  logic [NumAsserts-1:0][31:0] first_err_nodes;  // how many

  // The per-node search only in a cycle where some node reports an event (one wide comparison
  // otherwise, in nearly every cycle of a run); whole-vector defaults rather than a loop over
  // the kinds, which the simulator would run as part-selects of the wide vectors.
  always_comb begin : first_errors
    logic [NumAsserts-1:0] first;  // node x's first events (written on every path, no latch)
    first           = '0;
    first_err       = '0;
    first_err_node  = '0;
    first_err_nodes = '0;
    if (running_q && !start_i && node_err_event_i != '0) begin
      for (int x = 0; x < NumNodes; x++) begin
        first = '0;
        first[NumErrKinds-1:0] = node_err_event_i[x*NumErrKinds +: NumErrKinds] &
                                 ~node_err_flags_i[x*NumErrKinds +: NumErrKinds];
        if (first != '0) begin
          if (node_permute_i[x]) begin
            first[AssertPermuteLost]    = first[hc_pkg::ErrLost];
            first[AssertPermuteIllegal] = first[hc_pkg::ErrIllegal];
            first[hc_pkg::ErrLost]      = 1'b0;
            first[hc_pkg::ErrIllegal]   = 1'b0;
          end
          for (int k = 0; k < NumAsserts; k++) begin
            if (first[k]) begin
              if (!first_err[k]) first_err_node[k] = x;
              first_err_nodes[k] = first_err_nodes[k] + 1;
            end
          end
          first_err = first_err | first;
        end
      end
    end
  end

  LostWord_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
                               !first_err[hc_pkg::ErrLost])
    else $error("node %0d (of %0d nodes): a word arrived on an IDLE input side (lost)",
                first_err_node[hc_pkg::ErrLost], first_err_nodes[hc_pkg::ErrLost]);
  NoData_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
                             !first_err[hc_pkg::ErrNodata])
    else $error("node %0d (of %0d nodes): input side MEM/PASS but no word arrived (nodata)",
                first_err_node[hc_pkg::ErrNodata], first_err_nodes[hc_pkg::ErrNodata]);
  FwdSource_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                !first_err[hc_pkg::ErrFwd])
    else $error("node %0d (of %0d nodes): FWD without a PASS word on its source channel (fwd)",
                first_err_node[hc_pkg::ErrFwd], first_err_nodes[hc_pkg::ErrFwd]);
  SlotRange_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                !first_err[hc_pkg::ErrSlot])
    else $error("node %0d (of %0d nodes): slot out of range (slot)",
                first_err_node[hc_pkg::ErrSlot], first_err_nodes[hc_pkg::ErrSlot]);
  TableOverrun_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                   !first_err[hc_pkg::ErrOverrun])
    else $error("node %0d (of %0d nodes): pc ran past the table without END (overrun)",
                first_err_node[hc_pkg::ErrOverrun], first_err_nodes[hc_pkg::ErrOverrun]);
  OnePort_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
                              !first_err[hc_pkg::ErrOneport])
    else $error("node %0d (of %0d nodes): two ports send or receive in one-port mode (oneport)",
                first_err_node[hc_pkg::ErrOneport], first_err_nodes[hc_pkg::ErrOneport]);
  LegalInstr_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                 !first_err[hc_pkg::ErrIllegal])
    else $error("node %0d (of %0d nodes): WAIT 0, output op 3 or an illegal PERMUTE channel",
                first_err_node[hc_pkg::ErrIllegal], first_err_nodes[hc_pkg::ErrIllegal]);
  PermuteChannel_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                     !first_err[AssertPermuteIllegal])
    else $error("node %0d (of %0d nodes): PERMUTE channel not IDLE/IDLE or MEM/MEM (illegal)",
                first_err_node[AssertPermuteIllegal], first_err_nodes[AssertPermuteIllegal]);
  PermuteLost_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                  !first_err[AssertPermuteLost])
    else $error("node %0d (of %0d nodes): a word arrived during a PERMUTE (lost)",
                first_err_node[AssertPermuteLost], first_err_nodes[AssertPermuteLost]);
  WriteConflict_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                    !first_err[hc_pkg::ErrConflict])
    else $error("node %0d (of %0d nodes): two channels write the same slot (conflict)",
                first_err_node[hc_pkg::ErrConflict], first_err_nodes[hc_pkg::ErrConflict]);
  PassDropped_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                  !first_err[hc_pkg::ErrDropped])
    else $error("node %0d (of %0d nodes): a PASS word was not forwarded (dropped)",
                first_err_node[hc_pkg::ErrDropped], first_err_nodes[hc_pkg::ErrDropped]);
  MacOverlap_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                 !first_err[hc_pkg::ErrOverlap])
    else $error("node %0d (of %0d nodes): a MAC or a channel meets the running MAC (overlap)",
                first_err_node[hc_pkg::ErrOverlap], first_err_nodes[hc_pkg::ErrOverlap]);
`endif  // SYNTHESIS

endmodule
