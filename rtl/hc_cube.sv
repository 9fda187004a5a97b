// hcube RTL top level: 2^Dim nodes wired by dimension (docs/hardware/testbench.md §1).
//
// Output channel (j, l) of node x drives input channel (j, l) of node x ^ (1 << j). The cube
// adds the table load port (broadcast, one node per cycle, or wide), the memory scan port (one
// slot of every node per cycle) and the error readout; its counters, error summary, fault
// registers, deadlock detector and assertions are hc_cube_ctl. Everything here is nodes and the
// wires between them, which tb/node_array.h reproduces in C++ for the fast model of big cubes.

module hc_cube
#(
  /// Cube dimensions n; the cube has 2^Dim nodes.
  parameter int Dim = 3,
  /// Memory words per node M.
  parameter int NumSlots = 8,
  /// Lanes b per port and direction.
  parameter int Lanes = 1,
  /// Word width W in bits.
  parameter int WordWidth = 32,
  /// Table depth D: instructions per node.
  parameter int TableDepth = 16,
  /// 1: every node has a router (routed mode, docs/hardware/router.md §11); 0: table mode only.
  parameter int HasRouter = 0,
  /// Virtual channels per link of the routers (1 .. 4, docs/hardware/router.md §13; HasRouter only).
  parameter int NumVcs = 1,

  // derived
  /// Number of nodes N = 2^Dim.
  localparam int NumNodes = 1 << Dim,
  /// SlotBits = max(1, clog2(NumSlots)).
  localparam int SlotBits = hc_pkg::hc_bits(NumSlots),
  /// Width of a table address.
  localparam int DepthBits = hc_pkg::hc_bits(TableDepth),
  /// Load port address and data widths: a table address and word without a router; with one,
  /// wide enough for router messages and header words too.
  localparam int LoadAddrBits = hc_pkg::hc_load_addr_bits(Dim, TableDepth, HasRouter),
  localparam int LoadWidth = hc_pkg::hc_load_width(Dim, Lanes, NumSlots, HasRouter),
  /// Width of an output channel index (fault injection).
  localparam int ChanBits = hc_pkg::hc_bits(Dim * Lanes)
) (
  /// Clock.
  input  logic                               clk_i,
  /// Active-low synchronous reset.
  input  logic                               rst_ni,
  /// One-port mode: at most one port sends and one receives per node and cycle; sampled at
  /// start_i.
  input  logic                               one_port_i,
  /// MAC overlap mode (docs/hardware/arithmetic.md §3): MACs run beside the next instructions; sampled
  /// at start_i.
  input  logic                               mac_overlap_i,

  /// Table load port: write one table word this cycle.
  input  logic                               tbl_we_i,
  /// Table load port: write every node (broadcast) instead of node tbl_node_i.
  input  logic                               tbl_bcast_i,
  /// Table load port: the node written when tbl_bcast_i is low.
  input  logic [Dim-1:0]                     tbl_node_i,
  /// Table load port: word address.
  input  logic [LoadAddrBits-1:0]            tbl_addr_i,
  /// Table load port: table word, or router message / header word (docs/hardware/router.md §1).
  input  logic [LoadWidth-1:0]               tbl_wdata_i,
  /// Wide load (docs/hardware/router.md §1): with tbl_we_i, every node x with tbl_nodes_i[x] set
  /// writes its own word tbl_wide_wdata_i[x*LoadWidth +: LoadWidth] at tbl_addr_i (tbl_bcast_i,
  /// tbl_node_i and tbl_wdata_i are ignored). For simulation: hc_fpga ties it to 0.
  input  logic                               tbl_wide_i,
  /// Wide load: the nodes written.
  input  logic [NumNodes-1:0]                tbl_nodes_i,
  // Not traced, like the scan port's data: N * LoadWidth bits.
  /* verilator tracing_off */
  /// Wide load: node x's word at [x*LoadWidth +: LoadWidth].
  input  logic [NumNodes*LoadWidth-1:0]      tbl_wide_wdata_i,
  /* verilator tracing_on */

  /// Memory scan port: write slot mem_addr_i of every node.
  input  logic                               mem_we_i,
  /// Memory scan port: slot address.
  input  logic [SlotBits-1:0]                mem_addr_i,
  // The memory data ports are not traced: N*W bits wide and the node memories are traced.
  /* verilator tracing_off */
  /// Memory scan port: write data, node x's word at [x*WordWidth +: WordWidth].
  input  logic [NumNodes*WordWidth-1:0]      mem_wdata_i,
  /// Memory scan port: slot mem_addr_i of every node (combinational).
  output logic [NumNodes*WordWidth-1:0]      mem_rdata_o,
  /* verilator tracing_on */

  /// One-cycle start pulse: pc <- 0, counters <- 0.
  input  logic                               start_i,
  /// Every node has reached END since the last start.
  output logic                               done_o,
  /// Cycles after start in which at least one node had not reached END.
  output logic [hc_pkg::CountBits-1:0]       cycles_o,
  /// Of those, cycles in which at least one channel carried a word.
  output logic [hc_pkg::CountBits-1:0]       xfer_cycles_o,
  /// Words sent (channel-cycles carrying a word).
  output logic [hc_pkg::CountBits-1:0]       words_o,
  /// Cycles in which at least one node executed a PERMUTE (docs/hardware/node.md §2.1).
  output logic [hc_pkg::CountBits-1:0]       local_cycles_o,
  /// Cycles in which the MAC units of at least one node were busy (docs/hardware/arithmetic.md §2).
  output logic [hc_pkg::CountBits-1:0]       mac_cycles_o,
  /// Routed mode: stalls summed over the run (cycles a packet waited for an output or a credit).
  output logic [hc_pkg::CountBits-1:0]       rt_stalls_o,
  /// Routed mode: the deadlock detector ended the run (docs/hardware/router.md §5).
  output logic                               rt_deadlock_o,

  /// Per error kind: OR over all nodes of "counter non-zero".
  output logic [hc_pkg::NumErrKinds-1:0]     err_any_o,
  /// The node whose error counters err_count_o shows.
  input  logic [Dim-1:0]                     err_node_i,
  /// Error counters of node err_node_i, kind k at [k*ErrCountBits +: ErrCountBits].
  output logic [hc_pkg::NumErrKinds*hc_pkg::ErrCountBits-1:0] err_count_o,

  // Fault injection (docs/hardware/faults.md): driven by the testbench cycle by cycle, tied to 0 in
  // hc_fpga, registered: the values at the rising edge that begins a cycle apply in that cycle.
  // While flt_en_i was high, the word node flt_node_i sends on output channel flt_chan_i
  // (port = chan / Lanes, lane = chan % Lanes) becomes ((word & ~flt_clr_i) | flt_set_i) ^
  // flt_xor_i, and does not cross at all if flt_kill_i was high. Everything that reads a link
  // (the neighbour, words_o, the testbench's monitor) sees the faulty word.
  /// Fault injection: the mask below applies this cycle.
  input  logic                               flt_en_i,
  /// Fault injection: the sending node.
  input  logic [Dim-1:0]                     flt_node_i,
  /// Fault injection: its output channel.
  input  logic [ChanBits-1:0]                flt_chan_i,
  /// Fault injection: bits inverted (a bit flip).
  input  logic [WordWidth-1:0]               flt_xor_i,
  /// Fault injection: bits forced to 0 (stuck-at-0).
  input  logic [WordWidth-1:0]               flt_clr_i,
  /// Fault injection: bits forced to 1 (stuck-at-1).
  input  logic [WordWidth-1:0]               flt_set_i,
  /// Fault injection: the word is removed (a dead link, a dropped word).
  input  logic                               flt_kill_i
);

  localparam int NumChans = Dim * Lanes;  // derived

  // ---------------------------------------------------------------------------
  // Nodes and links
  // ---------------------------------------------------------------------------

  // Not traced: the nodes trace their own traffic. The testbench's traffic monitor reads what
  // every node sends and stores each cycle from the public_flat_rd arrays. Per-node values are
  // arrays indexed by node (one C++ array for Verilator, cheap to build for 1024 nodes); they are
  // wires, not memories, which (* mem2reg *) tells yosys (hc_pkg.sv).
  /* verilator tracing_off */
  localparam int NumErrKinds = hc_pkg::NumErrKinds;                 // derived
  localparam int ErrBits     = NumErrKinds * hc_pkg::ErrCountBits;  // derived
  localparam int ChanWords   = NumChans * WordWidth;                // derived

  logic [NumNodes-1:0]                  node_done;
  logic [NumNodes-1:0]                  node_permute;
  logic [NumNodes-1:0]                  node_mac;
  // node_out_*: what each node sends after its fault mask, what the links carry (and the
  // testbench reads).
  (* mem2reg *) logic [NumChans-1:0]    node_out_valid [NumNodes] /* verilator public_flat_rd */;
  (* mem2reg *) logic [ChanWords-1:0]   node_out_data  [NumNodes] /* verilator public_flat_rd */;
  (* mem2reg *) logic [NumChans-1:0]    node_store     [NumNodes] /* verilator public_flat_rd */;
  (* mem2reg *) logic [NumChans-1:0]    node_in_valid  [NumNodes];
  (* mem2reg *) logic [ChanWords-1:0]   node_in_data   [NumNodes];
  // The error-event strobes: kind k's condition holds at the node this cycle (docs/hardware/checks.md);
  // the testbench logs them per cycle (hcube-rtl-sim --traffic).
  (* mem2reg *) logic [NumErrKinds-1:0] node_err_event [NumNodes] /* verilator public_flat_rd */;
  (* mem2reg *) logic [NumErrKinds-1:0] node_err_flags [NumNodes];
  (* mem2reg *) logic [ErrBits-1:0]     node_err_count [NumNodes];
  (* mem2reg *) logic [WordWidth-1:0]   node_rdata     [NumNodes];

  // Routed mode (docs/hardware/router.md): router headers and credits between neighbours, and what
  // the testbench reads for the statistics (public_flat_rd).
  // With V virtual channels (docs/hardware/router.md §13) a node has NumFifos = nV input FIFOs (f = port * V + VC):
  // credits, occupancies and blocked heads are per FIFO, a blocked head's output port * V + VC.
  localparam int PktStride =  // derived: a packet's place on the links, whole words
      hc_pkg::hc_pkt_stride(Dim, NumSlots, TableDepth, WordWidth, NumVcs);
  localparam int TagBits   = Dim + DepthBits;                              // derived
  localparam int OccBits   = $clog2(hc_pkg::FifoDepthDefault + 1);         // derived
  localparam int StallBits = hc_pkg::hc_stall_bits(Dim, NumVcs);           // derived
  localparam int NumFifos  = Dim * NumVcs;                                 // derived
  localparam int FifoBits  = hc_pkg::hc_bits(Dim * NumVcs);                // derived
  (* mem2reg *) logic [Dim*PktStride-1:0]     node_rt_pkt      [NumNodes];
  (* mem2reg *) logic [Dim*PktStride-1:0]     node_rt_pkt_in   [NumNodes];
  (* mem2reg *) logic [NumFifos-1:0]          node_rt_credit   [NumNodes];
  (* mem2reg *) logic [NumFifos-1:0]          node_rt_cred_in  [NumNodes];
  (* mem2reg *) logic [StallBits-1:0]         node_rt_stalls   [NumNodes];
  (* mem2reg *) logic [Dim:0]                 node_rt_dlv      [NumNodes]
      /* verilator public_flat_rd */;
  (* mem2reg *) logic [(Dim+1)*TagBits-1:0]   node_rt_dlv_tag  [NumNodes]
      /* verilator public_flat_rd */;
  (* mem2reg *) logic [NumFifos*OccBits-1:0]  node_rt_occ_max  [NumNodes]
      /* verilator public_flat_rd */;
  (* mem2reg *) logic [NumFifos+Dim-1:0]      node_rt_hvalid   [NumNodes]
      /* verilator public_flat_rd */;
  (* mem2reg *) logic [(NumFifos+Dim)*Dim-1:0] node_rt_hdst    [NumNodes]
      /* verilator public_flat_rd */;
  (* mem2reg *) logic [(NumFifos+Dim)*FifoBits-1:0] node_rt_hout [NumNodes]
      /* verilator public_flat_rd */;
  (* mem2reg *) logic [NumFifos+Dim-1:0]      node_rt_hnocred  [NumNodes]
      /* verilator public_flat_rd */;
  (* mem2reg *) logic [WordWidth-1:0]         node_rt_cword    [NumNodes]
      /* verilator public_flat_rd */;
  logic [NumNodes-1:0]                        node_rt_work;
  logic [NumNodes-1:0]                        node_rt_moved;
  logic                                       rt_halt;

  // The fault registers (each node compares flt_node_q with its id and masks its own outputs),
  // written by the controller below. Declared before the nodes that read them: Icarus Verilog
  // takes a name used before its declaration for an implicit one-bit net.
  /* verilator tracing_on */
  logic                  flt_en_q;
  logic [Dim-1:0]        flt_node_q;
  logic [ChanBits-1:0]   flt_chan_q;
  logic [WordWidth-1:0]  flt_xor_q;
  logic [WordWidth-1:0]  flt_clr_q;
  logic [WordWidth-1:0]  flt_set_q;
  logic                  flt_kill_q;
  /* verilator tracing_off */

  for (genvar x = 0; x < NumNodes; x++) begin : g_node
    logic                 tbl_we;     // this node's load port (not traced): write enable
    logic [LoadWidth-1:0] tbl_wdata;  // and word
    // The node's "edge changes nothing" flag (docs/hardware/router.md §14): the node-array testbench
    // skips such edges; this whole cube clocks every node and does not read it.
    logic                 rt_idle;
    logic                 unused_idle;
    assign unused_idle = rt_idle;

    assign tbl_we    = tbl_we_i && (tbl_wide_i ? tbl_nodes_i[x] :
                                                 tbl_bcast_i || tbl_node_i == Dim'(x));
    assign tbl_wdata = tbl_wide_i ? tbl_wide_wdata_i[x*LoadWidth +: LoadWidth] : tbl_wdata_i;

    /* verilator tracing_on */  // the node instances are traced (hc_node picks its signals)

    hc_node #(
      .Dim        (Dim),
      .NumSlots   (NumSlots),
      .Lanes      (Lanes),
      .WordWidth  (WordWidth),
      .TableDepth (TableDepth),
      .HasRouter  (HasRouter),
      .NumVcs     (NumVcs)
    ) u_node (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .node_id_i   (Dim'(x)),
      .one_port_i  (one_port_i),
      .mac_overlap_i (mac_overlap_i),
      .tbl_we_i    (tbl_we),
      .tbl_addr_i  (tbl_addr_i),
      .tbl_wdata_i (tbl_wdata),
      .mem_we_i    (mem_we_i),
      .mem_addr_i  (mem_addr_i),
      .mem_wdata_i (mem_wdata_i[x*WordWidth +: WordWidth]),
      .mem_rdata_o (node_rdata[x]),
      .start_i     (start_i),
      .done_o      (node_done[x]),
      .out_valid_o (node_out_valid[x]),
      .out_data_o  (node_out_data[x]),
      .in_valid_i  (node_in_valid[x]),
      .in_data_i   (node_in_data[x]),
      .store_o     (node_store[x]),
      .permute_o   (node_permute[x]),
      .mac_o       (node_mac[x]),
      .err_event_o (node_err_event[x]),
      .err_flags_o (node_err_flags[x]),
      .err_count_o (node_err_count[x]),
      .flt_en_i    (flt_en_q),
      .flt_node_i  (flt_node_q),
      .flt_chan_i  (flt_chan_q),
      .flt_xor_i   (flt_xor_q),
      .flt_clr_i   (flt_clr_q),
      .flt_set_i   (flt_set_q),
      .flt_kill_i  (flt_kill_q),
      .rt_halt_i          (rt_halt),
      .rt_pkt_o           (node_rt_pkt[x]),
      .rt_pkt_i           (node_rt_pkt_in[x]),
      .rt_credit_o        (node_rt_credit[x]),
      .rt_credit_i        (node_rt_cred_in[x]),
      .rt_work_o          (node_rt_work[x]),
      .rt_moved_o         (node_rt_moved[x]),
      .rt_idle_o          (rt_idle),
      .rt_stalls_o        (node_rt_stalls[x]),
      .rt_dlv_o           (node_rt_dlv[x]),
      .rt_dlv_tag_o       (node_rt_dlv_tag[x]),
      .rt_occ_max_o       (node_rt_occ_max[x]),
      .rt_head_valid_o    (node_rt_hvalid[x]),
      .rt_head_dst_o      (node_rt_hdst[x]),
      .rt_head_out_o      (node_rt_hout[x]),
      .rt_head_nocredit_o (node_rt_hnocred[x]),
      .rt_copy_word_o     (node_rt_cword[x])
    );

    /* verilator tracing_off */
    // The routers' links (HasRouter = 1 only): packet and credit of port d from the neighbour
    // across dimension d.
    if (HasRouter != 0) begin : g_rt_link
      for (genvar d = 0; d < Dim; d++) begin : g_dim
        localparam int Neighbour = x ^ (1 << d);  // derived
        assign node_rt_pkt_in[x][d*PktStride +: PktStride] =
            node_rt_pkt[Neighbour][d*PktStride +: PktStride];
        assign node_rt_cred_in[x][d*NumVcs +: NumVcs] =
            node_rt_credit[Neighbour][d*NumVcs +: NumVcs];
      end
    end else begin : g_no_rt_link
      assign node_rt_pkt_in[x]  = '0;
      assign node_rt_cred_in[x] = '0;
      logic unused_rt;  // no router: its outputs are not read
      assign unused_rt = ^{node_rt_pkt[x], node_rt_credit[x]};
    end
  end

  // Port d of node x receives what port d of its neighbour across dimension d sends. One loop,
  // not N * Dim continuous assignments in g_node: Verilator keeps it a loop (--unroll-stmts 1),
  // so the cube's generated code does not grow with the wiring (and runs as a short loop).
  always_comb begin : links
    for (int x = 0; x < NumNodes; x++) begin
      for (int d = 0; d < Dim; d++) begin
        node_in_valid[x][d*Lanes +: Lanes] = node_out_valid[x ^ (1 << d)][d*Lanes +: Lanes];
        node_in_data[x][d*Lanes*WordWidth +: Lanes*WordWidth] =
            node_out_data[x ^ (1 << d)][d*Lanes*WordWidth +: Lanes*WordWidth];
      end
    end
  end
  /* verilator tracing_on */
  // One loop, not N part-select assigns: Verilator would build the N*W-bit vector by N wide
  // concatenations (quadratic in N). The loop assigns every bit (no '0 default: a 32k-bit
  // replication at Dim = 10).
  always_comb begin : scan_read
    for (int x = 0; x < NumNodes; x++) begin
      mem_rdata_o[x*WordWidth +: WordWidth] = node_rdata[x];
    end
  end

  // ---------------------------------------------------------------------------
  // The controller: counters, error summary, fault registers, deadlock detector, assertions
  // ---------------------------------------------------------------------------

  // The nodes' summaries as the controller takes them, node x at [x*Width +: Width] (loops, as
  // the links: the cube's code does not grow with N).
  /* verilator tracing_off */
  logic [NumNodes*NumChans-1:0]    sum_out_valid;
  logic [NumNodes*NumErrKinds-1:0] sum_err_event;
  logic [NumNodes*NumErrKinds-1:0] sum_err_flags;
  logic [NumNodes*StallBits-1:0]   sum_rt_stalls;
  logic                            rt_limit_we;
  logic [15:0]                     rt_limit;

  always_comb begin : summaries
    for (int x = 0; x < NumNodes; x++) begin
      sum_out_valid[x*NumChans +: NumChans]       = node_out_valid[x];
      sum_err_event[x*NumErrKinds +: NumErrKinds] = node_err_event[x];
      sum_err_flags[x*NumErrKinds +: NumErrKinds] = node_err_flags[x];
      sum_rt_stalls[x*StallBits +: StallBits]     = node_rt_stalls[x];
    end
  end

  // Routed mode: the router configuration word (header word 0) carries the deadlock limit in
  // bits [31:16]; a wide load gives every node its own configuration word, and the cube takes
  // node 0's (the testbench writes one configuration to all).
  if (HasRouter != 0) begin : g_rt_limit
    assign rt_limit_we = tbl_we_i && tbl_addr_i == {2'd2, (LoadAddrBits-2)'(0)};
    assign rt_limit    = tbl_wide_i ? tbl_wide_wdata_i[16 +: 16] : tbl_wdata_i[16 +: 16];
  end else begin : g_no_rt_limit
    assign rt_limit_we = 1'b0;
    assign rt_limit    = '0;
  end
  /* verilator tracing_on */

  hc_cube_ctl #(
    .Dim       (Dim),
    .Lanes     (Lanes),
    .WordWidth (WordWidth),
    .HasRouter (HasRouter),
    .NumVcs    (NumVcs)
  ) u_ctl (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .start_i          (start_i),
    .rt_limit_we_i    (rt_limit_we),
    .rt_limit_i       (rt_limit),
    .flt_en_i         (flt_en_i),
    .flt_node_i       (flt_node_i),
    .flt_chan_i       (flt_chan_i),
    .flt_xor_i        (flt_xor_i),
    .flt_clr_i        (flt_clr_i),
    .flt_set_i        (flt_set_i),
    .flt_kill_i       (flt_kill_i),
    .flt_en_q_o       (flt_en_q),
    .flt_node_q_o     (flt_node_q),
    .flt_chan_q_o     (flt_chan_q),
    .flt_xor_q_o      (flt_xor_q),
    .flt_clr_q_o      (flt_clr_q),
    .flt_set_q_o      (flt_set_q),
    .flt_kill_q_o     (flt_kill_q),
    .node_done_i      (node_done),
    .node_permute_i   (node_permute),
    .node_mac_i       (node_mac),
    .node_out_valid_i (sum_out_valid),
    .node_err_event_i (sum_err_event),
    .node_err_flags_i (sum_err_flags),
    .node_rt_work_i   (node_rt_work),
    .node_rt_moved_i  (node_rt_moved),
    .node_rt_stalls_i (sum_rt_stalls),
    .done_o           (done_o),
    .cycles_o         (cycles_o),
    .xfer_cycles_o    (xfer_cycles_o),
    .words_o          (words_o),
    .local_cycles_o   (local_cycles_o),
    .mac_cycles_o     (mac_cycles_o),
    .err_any_o        (err_any_o),
    .rt_halt_o        (rt_halt),
    .rt_stalls_o      (rt_stalls_o),
    .rt_deadlock_o    (rt_deadlock_o)
  );

  assign err_count_o = node_err_count[err_node_i];

endmodule
