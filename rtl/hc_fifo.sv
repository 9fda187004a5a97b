// hcube RTL: a circular FIFO whose depth is chosen at run time (docs/hardware/router.md §4).
//
// Storage of Depth entries of which the first depth_i (1 .. Depth) are used: the head is entry
// rd_q, the next push goes to (rd_q + cnt_q) mod depth_i. A push into a full FIFO is the
// caller's to refuse (full_o counts the pop of the same cycle as free room, as a credit returned
// one cycle late allows). State moves only with en_i; clear_i empties the FIFO and its largest
// occupancy.
//
// The next counts are computed in the clocked block rather than as _d signals of a
// combinational one: push_i comes from the links, and a Verilated node model evaluates logic
// that reads a top-level input at every eval() (twice a cycle in the node-array model) but a
// flip-flop's next state only at the clock edge. So is the next read position, taken only in a
// cycle that pops (as _d signals, it and hc_rr_arb's next pointer cost a routed run at n = 6
// 2 % more instructions, scripts/callgrind.sh); the write position, which the storage's write
// needs, is a _d signal.

module hc_fifo
#(
  /* verilator tracing_off */
  /// Bits of an entry.
  parameter int Width = 32,
  /// Entries of storage; the run-time depth is 1 .. Depth.
  parameter int Depth = hc_pkg::FifoDepthDefault,

  // derived
  localparam int CntBits = $clog2(Depth + 1),
  localparam int AddrBits = hc_pkg::hc_bits(Depth)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  /// Empty the FIFO (and its largest occupancy) at the next edge.
  input  logic               clear_i,
  /// The FIFO's state moves this cycle (push, pop, counts).
  input  logic               en_i,
  /// Entries in use, 1 .. Depth.
  input  logic [CntBits-1:0] depth_i,
  input  logic               push_i,
  input  logic [Width-1:0]   data_i,
  input  logic               pop_i,
  /// The head entry (meaningful while cnt_o != 0).
  output logic [Width-1:0]   head_o,
  /// Entries held.
  output logic [CntBits-1:0] cnt_o,
  /// A push this cycle would not fit, counting this cycle's pop as room.
  output logic               full_o,
  /// The largest occupancy at the end of a cycle since the last clear.
  output logic [CntBits-1:0] occ_max_o
);

  logic [CntBits-1:0] cnt_q;
  logic [CntBits-1:0] rd_q;
  logic [AddrBits-1:0] wr_d;      // where this cycle's push goes
  logic [CntBits-1:0] occ_max_q;
  logic [Width-1:0]   mem_q [Depth];

  `HC_ALWAYS_COMB begin : positions
    logic [CntBits:0] at;
    at = {1'b0, rd_q} + {1'b0, cnt_q};
    if (at >= {1'b0, depth_i}) at = at - {1'b0, depth_i};
    wr_d = at[AddrBits-1:0];
  end

  always_ff @(posedge clk_i) begin : regs
    if (!rst_ni || clear_i) begin
      cnt_q     <= '0;
      rd_q      <= '0;
      occ_max_q <= '0;
    end else if (en_i) begin
      if (push_i != pop_i) cnt_q <= cnt_q - CntBits'(pop_i) + CntBits'(push_i);
      // The largest occupancy can only grow by a push without a pop (cnt_q <= occ_max_q).
      if (push_i && !pop_i && cnt_q + CntBits'(1) > occ_max_q) occ_max_q <= cnt_q + CntBits'(1);
      if (pop_i) rd_q <= (rd_q + CntBits'(1) >= depth_i) ? '0 : rd_q + CntBits'(1);
    end
  end

  // Written like a RAM: the entry is written whenever the state moves, also in the cycle of a
  // clear, where the write is never read.
  always_ff @(posedge clk_i) begin : storage
    if (push_i && en_i) mem_q[wr_d] <= data_i;
  end

  assign head_o    = mem_q[rd_q[AddrBits-1:0]];
  assign cnt_o     = cnt_q;
  assign full_o    = cnt_q - CntBits'(pop_i) >= depth_i;
  assign occ_max_o = occ_max_q;

  /* verilator tracing_on */
endmodule
