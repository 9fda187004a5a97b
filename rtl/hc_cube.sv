// hcube RTL top level: 2^Dim nodes wired by dimension (docs/hardware.md §5).
//
// Output channel (j, l) of node x drives input channel (j, l) of node x ^ (1 << j). The cube
// adds the table load port (broadcast or one node per cycle), the memory scan port (one slot of
// every node per cycle), the cycle / transfer-cycle / local-cycle / word counters and the error
// readout.

module hc_cube
#(
  /// Cube dimensions n; the cube has 2^Dim nodes.
  parameter int unsigned Dim = 3,
  /// Memory words per node M.
  parameter int unsigned NumSlots = 8,
  /// Lanes b per port and direction.
  parameter int unsigned Lanes = 1,
  /// Word width W in bits.
  parameter int unsigned WordWidth = 32,
  /// Table depth D: instructions per node.
  parameter int unsigned TableDepth = 16,
  /// 1: every node has a router (routed mode, docs/hardware.md §8.11); 0: table mode only.
  parameter int unsigned HasRouter = 0,

  // derived
  /// Number of nodes N = 2^Dim.
  localparam int unsigned NumNodes = 1 << Dim,
  /// SlotBits = max(1, clog2(NumSlots)).
  localparam int unsigned SlotBits = hc_pkg::hc_bits(NumSlots),
  /// Width of a table address.
  localparam int unsigned DepthBits = hc_pkg::hc_bits(TableDepth),
  /// Load port address and data widths: a table address and word without a router; with one,
  /// wide enough for router messages and header words too.
  localparam int unsigned LoadAddrBits = hc_pkg::hc_load_addr_bits(Dim, TableDepth, HasRouter),
  localparam int unsigned LoadWidth = hc_pkg::hc_load_width(Dim, Lanes, NumSlots, HasRouter),
  /// Width of an output channel index (fault injection).
  localparam int unsigned ChanBits = hc_pkg::hc_bits(Dim * Lanes)
) (
  /// Clock.
  input  logic                               clk_i,
  /// Active-low synchronous reset.
  input  logic                               rst_ni,
  /// One-port mode: at most one port sends and one receives per node and cycle; sampled at
  /// start_i.
  input  logic                               one_port_i,
  /// MAC overlap mode (docs/hardware.md §2.4): MACs run beside the next instructions; sampled
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
  /// Table load port: table word, or router message / header word (docs/hardware.md §8.1).
  input  logic [LoadWidth-1:0]               tbl_wdata_i,
  /// Wide load (docs/hardware.md §8.1): with tbl_we_i, every node x with tbl_nodes_i[x] set
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
  /// Cycles in which at least one node executed a PERMUTE (docs/hardware.md §2.1).
  output logic [hc_pkg::CountBits-1:0]       local_cycles_o,
  /// Cycles in which the MAC units of at least one node were busy (docs/hardware.md §2.3).
  output logic [hc_pkg::CountBits-1:0]       mac_cycles_o,

  /// Per error kind: OR over all nodes of "counter non-zero".
  output logic [hc_pkg::NumErrKinds-1:0]     err_any_o,
  /// The node whose error counters err_count_o shows.
  input  logic [Dim-1:0]                     err_node_i,
  /// Error counters of node err_node_i, kind k at [k*ErrCountBits +: ErrCountBits].
  output logic [hc_pkg::NumErrKinds*hc_pkg::ErrCountBits-1:0] err_count_o,

  // Fault injection (docs/hardware.md §9): driven by the testbench cycle by cycle, tied to 0 in
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

  localparam int unsigned NumChans = Dim * Lanes;  // derived
  // Assertion classes: the error kinds, with two of them split by case: a lost word or an
  // illegal channel in a PERMUTE cycle has its own assertion (and message).
  localparam int unsigned AssertPermuteLost    = hc_pkg::NumErrKinds;      // derived
  localparam int unsigned AssertPermuteIllegal = hc_pkg::NumErrKinds + 1;  // derived
  localparam int unsigned NumAsserts           = hc_pkg::NumErrKinds + 2;  // derived

  // ---------------------------------------------------------------------------
  // Nodes and links
  // ---------------------------------------------------------------------------

  // Not traced: the nodes trace their own traffic. The testbench's traffic monitor reads what
  // every node sends and stores each cycle from the public_flat_rd arrays. Per-node values are
  // arrays indexed by node (one C++ array for Verilator, cheap to build for 1024 nodes); they are
  // wires, not memories, which (* mem2reg *) tells yosys (hc_pkg.sv).
  /* verilator tracing_off */
  localparam int unsigned NumErrKinds = hc_pkg::NumErrKinds;                 // derived
  localparam int unsigned ErrBits     = NumErrKinds * hc_pkg::ErrCountBits;  // derived
  localparam int unsigned ChanWords   = NumChans * WordWidth;                // derived

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
  // The error-event strobes: kind k's condition holds at the node this cycle (docs/hardware.md
  // §4); the testbench logs them per cycle (hcube-rtl-sim --traffic).
  (* mem2reg *) logic [NumErrKinds-1:0] node_err_event [NumNodes] /* verilator public_flat_rd */;
  (* mem2reg *) logic [NumErrKinds-1:0] node_err_flags [NumNodes];
  (* mem2reg *) logic [ErrBits-1:0]     node_err_count [NumNodes];
  (* mem2reg *) logic [WordWidth-1:0]   node_rdata     [NumNodes];

  // Routed mode (docs/hardware.md §8): router headers and credits between neighbours, and what
  // the testbench reads for the statistics (public_flat_rd).
  localparam int unsigned PktBits   =  // derived
      hc_pkg::hc_pkt_bits(Dim, NumSlots, TableDepth, WordWidth);
  localparam int unsigned TagBits   = Dim + DepthBits;                              // derived
  localparam int unsigned OccBits   = $clog2(hc_pkg::FifoDepthDefault + 1);         // derived
  localparam int unsigned StallBits = hc_pkg::hc_bits(Dim * (Dim + 1) + 1);         // derived
  localparam int unsigned PortBits  = hc_pkg::hc_bits(Dim);                         // derived
  (* mem2reg *) logic [Dim*PktBits-1:0]       node_rt_pkt      [NumNodes];
  (* mem2reg *) logic [Dim*PktBits-1:0]       node_rt_pkt_in   [NumNodes];
  (* mem2reg *) logic [Dim-1:0]               node_rt_credit   [NumNodes];
  (* mem2reg *) logic [Dim-1:0]               node_rt_cred_in  [NumNodes];
  (* mem2reg *) logic [StallBits-1:0]         node_rt_stalls   [NumNodes];
  (* mem2reg *) logic [Dim:0]                 node_rt_dlv      [NumNodes]
      /* verilator public_flat_rd */;
  (* mem2reg *) logic [(Dim+1)*TagBits-1:0]   node_rt_dlv_tag  [NumNodes]
      /* verilator public_flat_rd */;
  (* mem2reg *) logic [Dim*OccBits-1:0]       node_rt_occ_max  [NumNodes]
      /* verilator public_flat_rd */;
  (* mem2reg *) logic [2*Dim-1:0]             node_rt_hvalid   [NumNodes]
      /* verilator public_flat_rd */;
  (* mem2reg *) logic [2*Dim*Dim-1:0]         node_rt_hdst     [NumNodes]
      /* verilator public_flat_rd */;
  (* mem2reg *) logic [2*Dim*PortBits-1:0]    node_rt_hout     [NumNodes]
      /* verilator public_flat_rd */;
  (* mem2reg *) logic [2*Dim-1:0]             node_rt_hnocred  [NumNodes]
      /* verilator public_flat_rd */;
  (* mem2reg *) logic [WordWidth-1:0]         node_rt_cword    [NumNodes]
      /* verilator public_flat_rd */;
  logic [NumNodes-1:0]                        node_rt_work;
  logic [NumNodes-1:0]                        node_rt_moved;
  logic                                       rt_halt;

  for (genvar x = 0; x < NumNodes; x++) begin : g_node
    logic                 tbl_we;     // this node's load port (not traced): write enable
    logic [LoadWidth-1:0] tbl_wdata;  // and word

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
      .HasRouter  (HasRouter)
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
        localparam int unsigned Neighbour = x ^ (1 << d);  // derived
        assign node_rt_pkt_in[x][d*PktBits +: PktBits] =
            node_rt_pkt[Neighbour][d*PktBits +: PktBits];
        assign node_rt_cred_in[x][d] = node_rt_credit[Neighbour][d];
      end
    end else begin : g_no_rt_link
      assign node_rt_pkt_in[x]  = '0;
      assign node_rt_cred_in[x] = '0;
      logic unused_rt;  // no router: its outputs are not read
      assign unused_rt = ^{node_rt_pkt[x], node_rt_credit[x], node_rt_stalls[x], node_rt_work[x],
                           node_rt_moved[x]};
    end
  end

  // The fault mask (docs/hardware.md §5, §9): the fault inputs are registered, and each node
  // masks its own outputs with the registers (hc_node compares flt_node_q with its id). Not
  // combinational from the inputs: Verilator re-evaluates everything combinational from a
  // top-level input on every eval(), and a mask on the links made that the links and every
  // node's input logic, twice per clock cycle (main 4c8fa5e: every RTL run 23-43 % slower).
  logic                  flt_en_q;
  logic [Dim-1:0]        flt_node_q;
  logic [ChanBits-1:0]   flt_chan_q;
  logic [WordWidth-1:0]  flt_xor_q;
  logic [WordWidth-1:0]  flt_clr_q;
  logic [WordWidth-1:0]  flt_set_q;
  logic                  flt_kill_q;

  always_ff @(posedge clk_i) begin : fault_regs
    if (!rst_ni) begin
      flt_en_q   <= 1'b0;
      flt_node_q <= '0;
      flt_chan_q <= '0;
      flt_xor_q  <= '0;
      flt_clr_q  <= '0;
      flt_set_q  <= '0;
      flt_kill_q <= 1'b0;
    end else begin
      flt_en_q   <= flt_en_i;
      flt_node_q <= flt_node_i;
      flt_chan_q <= flt_chan_i;
      flt_xor_q  <= flt_xor_i;
      flt_clr_q  <= flt_clr_i;
      flt_set_q  <= flt_set_i;
      flt_kill_q <= flt_kill_i;
    end
  end

  // Port d of node x receives what port d of its neighbour across dimension d sends. One loop,
  // not N * Dim continuous assignments in g_node: Verilator keeps it a loop (--unroll-stmts 1),
  // so the cube's generated code does not grow with the wiring (and runs as a short loop).
  always_comb begin : links
    for (int unsigned x = 0; x < NumNodes; x++) begin
      for (int unsigned d = 0; d < Dim; d++) begin
        node_in_valid[x][d*Lanes +: Lanes] = node_out_valid[x ^ (1 << d)][d*Lanes +: Lanes];
        node_in_data[x][d*Lanes*WordWidth +: Lanes*WordWidth] =
            node_out_data[x ^ (1 << d)][d*Lanes*WordWidth +: Lanes*WordWidth];
      end
    end
  end
  /* verilator tracing_on */

  // ---------------------------------------------------------------------------
  // Counters (docs/hardware.md §2: cycle count)
  // ---------------------------------------------------------------------------

  localparam int unsigned CountBits = hc_pkg::CountBits;  // derived

  logic                  running_q;             // started since reset
  logic [CountBits-1:0]  cycles_q;
  logic [CountBits-1:0]  xfer_cycles_q;
  logic [CountBits-1:0]  words_q;
  logic [CountBits-1:0]  local_cycles_q;
  logic [CountBits-1:0]  mac_cycles_q;
  // Routed mode: stalls, and the deadlock detector (g_rt below; 0 without routers).
  logic [CountBits-1:0]  rt_stalls_q /* verilator public_flat_rd */;
  logic                  rt_deadlock_q /* verilator public_flat_rd */;
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

  always_comb begin : summary
    cycle_words = '0;
    err_any_o   = '0;
    for (int unsigned x = 0; x < NumNodes; x++) begin
      cycle_words = cycle_words + CountBits'($countones(node_out_valid[x]));
      err_any_o   = err_any_o | node_err_flags[x];
    end
  end

  assign counting = running_q && !all_done;

  always_comb begin : next_state
    running_d     = running_q;
    cycles_d      = cycles_q;
    xfer_cycles_d = xfer_cycles_q;
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
      if (node_permute != '0) local_cycles_d = local_cycles_q + CountBits'(1);
      if (node_mac != '0) mac_cycles_d = mac_cycles_q + CountBits'(1);
    end
  end

  // Routed mode (HasRouter): the stall sum, and the deadlock detector (docs/hardware.md §8.5):
  // `quiet` counts the consecutive cycles in which packets wait and none moves; at the configured
  // limit the run ends with rt_deadlock_q set. The limit is bits [31:16] of the router
  // configuration word.
  if (HasRouter != 0) begin : g_rt
    logic [15:0]           rt_quiet_q;
    logic [15:0]           rt_limit_q;
    logic [CountBits-1:0]  cycle_stalls;
    logic                  rt_work;
    logic                  rt_moved;
    logic [15:0]           ld_limit;  // the limit field of the configuration word loaded

    // A wide load gives every node its own configuration word: the cube takes node 0's (the
    // testbench writes one configuration to all).
    assign ld_limit = tbl_wide_i ? tbl_wide_wdata_i[16 +: 16] : tbl_wdata_i[16 +: 16];

    always_comb begin : stall_sum
      cycle_stalls = '0;
      for (int unsigned x = 0; x < NumNodes; x++) begin
        cycle_stalls = cycle_stalls + CountBits'(node_rt_stalls[x]);
      end
    end

    assign rt_work  = node_rt_work != '0;
    assign rt_moved = node_rt_moved != '0;
    assign rt_halt  = counting && rt_work && !rt_moved && rt_quiet_q + 16'd1 >= rt_limit_q;
    assign all_done = &node_done || rt_deadlock_q;

    always_ff @(posedge clk_i) begin : rt_regs
      if (!rst_ni) begin
        rt_stalls_q   <= '0;
        rt_deadlock_q <= 1'b0;
        rt_quiet_q    <= '0;
        rt_limit_q    <= 16'd64;
      end else begin
        if (tbl_we_i && tbl_addr_i == {2'd2, (LoadAddrBits-2)'(0)} && ld_limit != '0) begin
          rt_limit_q <= ld_limit;
        end
        if (start_i) begin
          rt_stalls_q   <= '0;
          rt_deadlock_q <= 1'b0;
          rt_quiet_q    <= '0;
        end else if (counting) begin
          rt_stalls_q <= rt_stalls_q + cycle_stalls;
          if (rt_halt) rt_deadlock_q <= 1'b1;
          if (rt_work) rt_quiet_q <= rt_moved ? '0 : rt_quiet_q + 16'd1;
        end
      end
    end
  end else begin : g_no_rt
    assign all_done      = &node_done;
    assign rt_halt       = 1'b0;
    assign rt_stalls_q   = '0;
    assign rt_deadlock_q = 1'b0;
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

  // One loop, not N part-select assigns: Verilator would build the N*W-bit vector by N wide
  // concatenations (quadratic in N). The loop assigns every bit (no '0 default: a 32k-bit
  // replication at Dim = 10).
  always_comb begin : scan_read
    for (int unsigned x = 0; x < NumNodes; x++) begin
      mem_rdata_o[x*WordWidth +: WordWidth] = node_rdata[x];
    end
  end

  assign done_o         = running_q && all_done;
  assign cycles_o       = cycles_q;
  assign xfer_cycles_o  = xfer_cycles_q;
  assign words_o        = words_q;
  assign local_cycles_o = local_cycles_q;
  assign mac_cycles_o   = mac_cycles_q;
  assign err_count_o    = node_err_count[err_node_i];

  // ---------------------------------------------------------------------------
  // Assertions (docs/hardware.md §4), one per error kind for all nodes: each fires in a cycle in
  // which some node shows its kind for the first time since start, and names the lowest such
  // node; the error counters count every occurrence. A first `lost` or `illegal` in a PERMUTE
  // cycle (§2.1) fires PermuteLost_A or PermuteChannel_A instead of LostWord_A or LegalInstr_A.
  // They live here rather than in hc_node so that the node's code stays shared by all instances
  // (see hc_node.sv). Verilator reads them (--assert); yosys does not read concurrent
  // assertions with `disable iff` and action blocks, and they check the simulation anyway, so
  // synthesis skips the whole block (read_verilog defines SYNTHESIS; see hc_pkg.sv).
  // ---------------------------------------------------------------------------

`ifndef SYNTHESIS
  // Per error kind, the nodes that show it for the first time since start (lost and illegal
  // split into XFER/WAIT cycles and PERMUTE cycles).
  logic [NumAsserts-1:0]  first_err;                     // some node
  int unsigned            first_err_node  [NumAsserts];  // the lowest such node
  int unsigned            first_err_nodes [NumAsserts];  // how many

  always_comb begin : first_errors
    first_err = '0;
    for (int unsigned k = 0; k < NumAsserts; k++) begin
      first_err_node[k]  = 0;
      first_err_nodes[k] = 0;
    end
    for (int unsigned x = 0; x < NumNodes; x++) begin
      logic [NumAsserts-1:0] first;
      first = '0;
      if (running_q && !start_i) begin
        first[NumErrKinds-1:0] = node_err_event[x] & ~node_err_flags[x];
      end
      if (first != '0) begin
        if (node_permute[x]) begin
          first[AssertPermuteLost]    = first[hc_pkg::ErrLost];
          first[AssertPermuteIllegal] = first[hc_pkg::ErrIllegal];
          first[hc_pkg::ErrLost]      = 1'b0;
          first[hc_pkg::ErrIllegal]   = 1'b0;
        end
        for (int unsigned k = 0; k < NumAsserts; k++) begin
          if (first[k]) begin
            if (!first_err[k]) first_err_node[k] = x;
            first_err_nodes[k] = first_err_nodes[k] + 1;
          end
        end
        first_err = first_err | first;
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
