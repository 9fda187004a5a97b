// hcube RTL: the cube behind a serial command port, the top level for an FPGA
// (docs/hardware/synthesis.md).
//
// hc_cube's scan port alone is N*W bits each way, more than an iCE40 has pins. hc_fpga keeps
// every function of the cube (table load, memory write and read, start, counters, error
// counters) behind eight pins: a host shifts a command into cmd_q one bit per cycle (shift_i,
// sdi_i), executes it with a one-cycle exec_i, and shifts the answer out of rdata_q on sdo_o
// (the same shift_i moves both registers, so a host can send the next command while it reads).
//
// cmd_q, shifted in least significant bit first: {op, node, addr, data}, data at the bottom.
//   op 1 TABLE    node's table word addr <- data[TableWidth-1:0]
//   op 2 TABLE_ALL every node's table word addr <- data (broadcast)
//   op 3 WRITE    slot addr of node <- data[WordWidth-1:0]
//   op 4 READ     rdata_q <- slot addr of node
//   op 5 STATUS   rdata_q <- addr 0 cycles, 1 transfer cycles, 2 words, 3 local cycles,
//                 4 err_any, 5 + k node's error counter of kind k (hc_pkg::Err*),
//                 5 + NumErrKinds MAC cycles; else 0
//   op 6 START    start pulse, one-port mode = data[0], MAC overlap mode = data[1]
//   op 0, 7       nothing
// The answer of READ and STATUS is in rdata_q from the cycle after exec_i; sdo_o is its bit 0.

// The default parameters are a configuration that fits an iCE40 HX8K (scripts/synth.sh --pnr):
// with 32-bit words and M = 8, four nodes need more logic cells than the device has.

module hc_fpga #(
  /// Cube dimensions n.
  parameter int Dim = 2,
  /// Memory words per node M.
  parameter int NumSlots = 4,
  /// Lanes b per port and direction.
  parameter int Lanes = 1,
  /// Word width W in bits.
  parameter int WordWidth = 8,
  /// Table depth D.
  parameter int TableDepth = 16,

  // derived
  /// Number of nodes N = 2^Dim.
  localparam int NumNodes = 1 << Dim,
  /// Width of a slot address.
  localparam int SlotBits = hc_pkg::hc_bits(NumSlots),
  /// Width of a table word.
  localparam int TableWidth = hc_pkg::hc_table_width(Dim, Lanes, NumSlots),
  /// Width of a table address.
  localparam int DepthBits = hc_pkg::hc_bits(TableDepth),
  /// Data field of a command: a table word or a memory word.
  localparam int DataBits = hc_pkg::hc_max(TableWidth, WordWidth),
  /// Address field of a command: table address, slot or status register (4 bits at least).
  localparam int AddrBits = hc_pkg::hc_max(hc_pkg::hc_max(DepthBits, SlotBits), 4),
  /// Width of the command register.
  localparam int CmdBits = 3 + Dim + AddrBits + DataBits,
  /// Width of the answer register: a memory word or a counter.
  localparam int ReadBits = hc_pkg::hc_max(WordWidth, hc_pkg::CountBits)
) (
  /// Clock.
  input  logic clk_i,
  /// Active-low synchronous reset.
  input  logic rst_ni,
  /// Serial data in: the bit shifted into cmd_q.
  input  logic sdi_i,
  /// Shift cmd_q right by one, sdi_i entering at the top; shift rdata_q right by one.
  input  logic shift_i,
  /// Execute the command in cmd_q this cycle.
  input  logic exec_i,
  /// Serial data out: bit 0 of rdata_q.
  output logic sdo_o,
  /// Every node has reached END since the last start.
  output logic done_o,
  /// Some node's error counter is non-zero.
  output logic err_o
);

  localparam int CountBits = hc_pkg::CountBits;  // derived
  localparam int ErrCountBits = hc_pkg::ErrCountBits;  // derived
  localparam int NumErrKinds = hc_pkg::NumErrKinds;  // derived

  localparam logic [2:0] OpTable    = 3'd1;
  localparam logic [2:0] OpTableAll = 3'd2;
  localparam logic [2:0] OpWrite    = 3'd3;
  localparam logic [2:0] OpRead     = 3'd4;
  localparam logic [2:0] OpStatus   = 3'd5;
  localparam logic [2:0] OpStart    = 3'd6;

  logic [CmdBits-1:0]  cmd_q;
  logic [ReadBits-1:0] rdata_q;

  logic [2:0]          op;
  logic [Dim-1:0]      node;
  logic [AddrBits-1:0] addr;
  logic [DataBits-1:0] data;

  assign data = cmd_q[DataBits-1:0];
  assign addr = cmd_q[DataBits +: AddrBits];
  assign node = cmd_q[DataBits + AddrBits +: Dim];
  assign op   = cmd_q[DataBits + AddrBits + Dim +: 3];

  // ---------------------------------------------------------------------------
  // The cube
  // ---------------------------------------------------------------------------

  logic [NumNodes*WordWidth-1:0]          mem_rdata;
  logic [NumNodes*WordWidth-1:0]          mem_wdata;
  logic [CountBits-1:0]                   cycles, xfer_cycles, words, local_cycles, mac_cycles;
  // Routed mode's counters: constant 0 in this table-mode cube (HasRouter = 0).
  logic [CountBits-1:0]                   rt_stalls;
  logic                                   rt_deadlock;
  logic                                   unused_rt;
  assign unused_rt = ^{rt_stalls, rt_deadlock};
  logic [NumErrKinds-1:0]                 err_any;
  logic [NumErrKinds*ErrCountBits-1:0]    err_count;

  // A WRITE changes one node's word: the other nodes get back the word they hold.
  always_comb begin : write_row
    for (int x = 0; x < NumNodes; x++) begin
      if (Dim'(x) == node) begin
        mem_wdata[x*WordWidth +: WordWidth] = data[WordWidth-1:0];
      end else begin
        mem_wdata[x*WordWidth +: WordWidth] = mem_rdata[x*WordWidth +: WordWidth];
      end
    end
  end

  hc_cube #(
    .Dim        (Dim),
    .NumSlots   (NumSlots),
    .Lanes      (Lanes),
    .WordWidth  (WordWidth),
    .TableDepth (TableDepth)
  ) u_cube (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .one_port_i     (data[0]),
    .mac_overlap_i  (data[1]),
    .tbl_we_i       (exec_i && (op == OpTable || op == OpTableAll)),
    .tbl_bcast_i    (op == OpTableAll),
    .tbl_node_i     (node),
    .tbl_addr_i     (addr[DepthBits-1:0]),
    .tbl_wdata_i    (data[TableWidth-1:0]),
    // The narrow load port only: the wide load is for simulation (docs/hardware/router.md §1).
    .tbl_wide_i       (1'b0),
    .tbl_nodes_i      ('0),
    .tbl_wide_wdata_i ('0),
    .mem_we_i       (exec_i && op == OpWrite),
    .mem_addr_i     (addr[SlotBits-1:0]),
    .mem_wdata_i    (mem_wdata),
    .mem_rdata_o    (mem_rdata),
    .start_i        (exec_i && op == OpStart),
    .done_o         (done_o),
    .cycles_o       (cycles),
    .xfer_cycles_o  (xfer_cycles),
    .words_o        (words),
    .local_cycles_o (local_cycles),
    .mac_cycles_o   (mac_cycles),
    .rt_stalls_o    (rt_stalls),
    .rt_deadlock_o  (rt_deadlock),
    .err_any_o      (err_any),
    .err_node_i     (node),
    .err_count_o    (err_count),
    // No fault injection on the device (docs/hardware/faults.md): the mask folds away.
    .flt_en_i       (1'b0),
    .flt_node_i     ('0),
    .flt_chan_i     ('0),
    .flt_xor_i      ('0),
    .flt_clr_i      ('0),
    .flt_set_i      ('0),
    .flt_kill_i     (1'b0)
  );

  // ---------------------------------------------------------------------------
  // Serial port
  // ---------------------------------------------------------------------------

  logic [ReadBits-1:0] answer;  // what READ or STATUS loads into rdata_q

  always_comb begin : answer_mux
    answer = '0;
    if (op == OpRead) begin
      answer = ReadBits'(mem_rdata[node*WordWidth +: WordWidth]);
    end else begin
      case (addr)
        AddrBits'(0): answer = ReadBits'(cycles);
        AddrBits'(1): answer = ReadBits'(xfer_cycles);
        AddrBits'(2): answer = ReadBits'(words);
        AddrBits'(3): answer = ReadBits'(local_cycles);
        AddrBits'(4): answer = ReadBits'(err_any);
        default: begin
          for (int k = 0; k < NumErrKinds; k++) begin
            if (32'(addr) == 5 + k) answer = ReadBits'(err_count[k*ErrCountBits +: ErrCountBits]);
          end
          if (32'(addr) == 5 + NumErrKinds) answer = ReadBits'(mac_cycles);
        end
      endcase
    end
  end

  always_ff @(posedge clk_i) begin : port_regs
    if (!rst_ni) begin
      cmd_q   <= '0;
      rdata_q <= '0;
    end else begin
      if (shift_i) cmd_q <= {sdi_i, cmd_q[CmdBits-1:1]};
      if (exec_i && (op == OpRead || op == OpStatus)) begin
        rdata_q <= answer;
      end else if (shift_i) begin
        rdata_q <= {1'b0, rdata_q[ReadBits-1:1]};
      end
    end
  end

  assign sdo_o = rdata_q[0];
  assign err_o = |err_any;

endmodule
