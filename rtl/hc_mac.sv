// hcube RTL: the block multiply-accumulate unit of a node (docs/hardware/arithmetic.md §2).
//
// A MAC instruction computes C += A x B over dense row-major blocks of the node's memory: A is
// m x k at slot a, B is k x p at slot b, C is m x p at slot c (the six fields of the table word,
// sizes stored minus one). MacUnits multiply-add units work on one element c(i,j) per cycle, each
// adding one product a(i,l) b(l,j) of the chunk l = l0 .. l0 + MacUnits - 1 (units past k idle),
// so a MAC takes m * p * ceil(k / MacUnits) cycles; elements in row-major order, chunks in
// order. The memory is read as at the start of the cycle and c(i,j) is written at its end
// (W-bit wrap-around) through the memory scan port's write port in hc_node (idle during a run;
// a channel writing the same slot in the same cycle is suppressed, so the MAC's word is kept).
//
// A MAC is issued (issue_i, with its fields on field_i) in the cycle its instruction executes
// and the units work on it in that cycle; from the next cycle on they run it from the fields
// they latched (busy_o) until its last cycle. Without overlap hc_node's sequencer stays on the
// MAC instruction meanwhile; in MAC overlap mode (docs/hardware/arithmetic.md §3) it moves on and the
// unit runs in the background, and hc_node checks the channels against the block bounds
// blk_base_o / blk_end_o of the running MAC (the `overlap` error).
//
// The unit keeps its position (i, j, l0) and the running offsets i*k, l0*p, i*p + j in
// registers, all zero whenever no MAC is in progress, so the first cycle of every MAC starts at
// element (0, 0). hc_node reads the memory at the addresses the unit gives (2 MacUnits + 1 read
// multiplexers) and returns the words; an address outside the memory reads 0 here and is a `slot`
// error, a write outside is dropped (and is a `slot` error). `conflict_o` holds in every cycle of
// a MAC whose C block overlaps its A or B block (a check on the instruction).
//
// sw/tables/mac.h is the same semantics in C++ (the table executor and the TLM node run it).

module hc_mac
#(
  /// Memory words per node M.
  parameter int NumSlots = 8,
  /// Word width W in bits.
  parameter int WordWidth = 32,
  /// Multiply-add units U.
  parameter int MacUnits = 1,

  // derived
  /// SlotBits = max(1, clog2(NumSlots)): the width of each MAC field.
  localparam int SlotBits = hc_pkg::hc_bits(NumSlots),
  /// Width of an address the unit forms (base + offset within a block of up to 2^(2 SlotBits)).
  localparam int AddrBits = 2 * SlotBits + 2
) (
  /// Clock.
  input  logic                            clk_i,
  /// Active-low synchronous reset.
  input  logic                            rst_ni,
  /// Issue the MAC of field_i this cycle (its instruction executes and the unit is idle).
  input  logic                            issue_i,
  /// The start pulse: the next cycle begins a new run, so the unit stops and its position
  /// returns to (0, 0).
  input  logic                            clear_i,
  /// The MAC's fields, least significant first: a, b, c, m-1, k-1, p-1 (SlotBits each).
  input  logic [6*SlotBits-1:0]           field_i,
  /// A MAC issued in an earlier cycle runs this cycle.
  output logic                            busy_o,
  /// The unit works this cycle (issue_i or busy_o).
  output logic                            work_o,
  /// The blocks of the MAC worked on, A, B, C at [0], [1], [2] (AddrBits each): first slot ...
  output logic [3*AddrBits-1:0]           blk_base_o,
  /// ... and one past the last.
  output logic [3*AddrBits-1:0]           blk_end_o,
  /// Per unit: the slot of a(i,l) to read (unit u at [u*AddrBits +: AddrBits]).
  output logic [MacUnits*AddrBits-1:0]    a_addr_o,
  /// Per unit: the slot of b(l,j) to read.
  output logic [MacUnits*AddrBits-1:0]    b_addr_o,
  /// Per unit: the words at a_addr_o and b_addr_o (hc_node's reads, 0 outside the memory).
  input  logic [MacUnits*WordWidth-1:0]   a_data_i,
  input  logic [MacUnits*WordWidth-1:0]   b_data_i,
  /// The slot of c(i,j), read and written this cycle.
  output logic [AddrBits-1:0]             c_addr_o,
  /// The word at c_addr_o.
  input  logic [WordWidth-1:0]            c_data_i,
  /// Write c(i,j) + the products into slot wr_addr_o at the end of the cycle.
  output logic                            we_o,
  output logic [SlotBits-1:0]             wr_addr_o,
  output logic [WordWidth-1:0]            wr_data_o,
  /// The last cycle of the MAC (the sequencer moves on).
  output logic                            last_o,
  /// A slot read or written this cycle is outside the memory.
  output logic                            slot_err_o,
  /// The C block overlaps the A or B block.
  output logic                            conflict_o
);

  // The MAC in progress: its fields latched at issue, and whether it runs on.
  logic                  busy_q, busy_d;
  logic [6*SlotBits-1:0] field_q;
  logic                  active;  // the unit works this cycle
  logic [6*SlotBits-1:0] field;   // on the fields of the instruction (issue) or the latched ones

  assign active = issue_i || busy_q;
  assign field  = busy_q ? field_q : field_i;
  assign busy_o = busy_q;
  assign work_o = active;

  // Fields.
  logic [AddrBits-1:0] a_base, b_base, c_base;
  logic [AddrBits-1:0] m, k, p;

  assign a_base = AddrBits'(field[0*SlotBits +: SlotBits]);
  assign b_base = AddrBits'(field[1*SlotBits +: SlotBits]);
  assign c_base = AddrBits'(field[2*SlotBits +: SlotBits]);
  assign m      = AddrBits'(field[3*SlotBits +: SlotBits]) + AddrBits'(1);
  assign k      = AddrBits'(field[4*SlotBits +: SlotBits]) + AddrBits'(1);
  assign p      = AddrBits'(field[5*SlotBits +: SlotBits]) + AddrBits'(1);

  // Position: element (i, j), chunk l0; offsets i*k (A row), l0*p (B row), i*p + j (C element).
  logic [AddrBits-1:0] i_q, j_q, l0_q, arow_q, brow_q, coff_q;
  logic [AddrBits-1:0] i_d, j_d, l0_d, arow_d, brow_d, coff_d;

  logic l_last, j_last, i_last, last;
  assign l_last = l0_q + AddrBits'(MacUnits) >= k;
  assign j_last = j_q + AddrBits'(1) >= p;
  assign i_last = i_q + AddrBits'(1) >= m;
  assign last   = l_last && j_last && i_last;

  // Addresses of this cycle, and the products of the words hc_node reads there (two blocks, so
  // that the addresses do not depend on the read data).
  logic [MacUnits-1:0]  unit_on;  // l = l0 + u < k
  logic [WordWidth-1:0] sum;
  logic                 read_err;

  // These blocks write defaults and then override them, which Verilator simulates fastest and
  // yosys reads; they are HC_ALWAYS_COMB (hc_pkg.sv): under Icarus Verilog, whose always_comb
  // wakes whenever a later always_comb of the module runs, always @* instead.
  `HC_ALWAYS_COMB begin : addresses
    logic [AddrBits-1:0] l;
    logic [AddrBits-1:0] a_addr;
    logic [AddrBits-1:0] b_addr;
    l        = '0;
    a_addr   = '0;
    b_addr   = '0;
    read_err = 1'b0;
    unit_on  = '0;
    a_addr_o = '0;
    b_addr_o = '0;
    for (int u = 0; u < MacUnits; u++) begin
      l      = l0_q + AddrBits'(u);
      a_addr = a_base + arow_q + l;
      b_addr = b_base + brow_q + AddrBits'(u) * p + j_q;
      a_addr_o[u*AddrBits +: AddrBits] = a_addr;
      b_addr_o[u*AddrBits +: AddrBits] = b_addr;
      unit_on[u] = l < k;
      if (l < k && (32'(a_addr) >= NumSlots || 32'(b_addr) >= NumSlots)) read_err = 1'b1;
    end
  end

  `HC_ALWAYS_COMB begin : products
    sum = '0;
    for (int u = 0; u < MacUnits; u++) begin
      if (unit_on[u]) begin
        sum = sum + a_data_i[u*WordWidth +: WordWidth] * b_data_i[u*WordWidth +: WordWidth];
      end
    end
  end

  logic c_ok;
  assign c_addr_o  = c_base + coff_q;
  assign c_ok      = 32'(c_addr_o) < NumSlots;
  assign we_o      = active && c_ok;
  assign wr_addr_o = c_addr_o[SlotBits-1:0];
  assign wr_data_o = c_data_i + sum;
  assign last_o    = last;
  assign slot_err_o = active && (read_err || !c_ok);

  // Overlap of C with A or B: intervals [x, x + len) meet when each starts before the other ends.
  // A block ends below 2^SlotBits + 2^(2 SlotBits) < 2^AddrBits.
  logic [AddrBits-1:0] a_end, b_end, c_end;
  assign a_end = a_base + m * k;
  assign b_end = b_base + k * p;
  assign c_end = c_base + m * p;
  assign conflict_o = active && ((c_base < a_end && a_base < c_end) ||
                                 (c_base < b_end && b_base < c_end));
  assign blk_base_o = {c_base, b_base, a_base};
  assign blk_end_o  = {c_end, b_end, a_end};

  // The next position while the MAC runs; the start pulse (clear_i) clears the registers in the
  // register block instead of here, so that this block does not read an input of the node
  // (Verilator re-evaluates logic that reads a top-level input on every eval(); the node-array
  // model, docs/hardware/testbench.md §2.1, verilates the node alone).
  `HC_ALWAYS_COMB begin : next_position
    i_d    = '0;
    j_d    = '0;
    l0_d   = '0;
    arow_d = '0;
    brow_d = '0;
    coff_d = '0;
    if (active && !last) begin
      i_d    = i_q;
      j_d    = j_q;
      arow_d = arow_q;
      coff_d = coff_q;
      if (!l_last) begin
        l0_d   = l0_q + AddrBits'(MacUnits);
        brow_d = brow_q + AddrBits'(MacUnits) * p;
      end else begin
        coff_d = coff_q + AddrBits'(1);
        if (!j_last) begin
          j_d = j_q + AddrBits'(1);
        end else begin
          j_d    = '0;
          i_d    = i_q + AddrBits'(1);
          arow_d = arow_q + k;
        end
      end
    end
  end

  assign busy_d = active && !last;  // cleared by clear_i in regs

  // The fields of a MAC issued this cycle, for its later cycles (no reset: read only while busy).
  always_ff @(posedge clk_i) begin : field_reg
    if (issue_i) field_q <= field_i;
  end

  always_ff @(posedge clk_i) begin : regs
    if (!rst_ni || clear_i) begin
      busy_q <= 1'b0;
      i_q    <= '0;
      j_q    <= '0;
      l0_q   <= '0;
      arow_q <= '0;
      brow_q <= '0;
      coff_q <= '0;
    end else begin
      busy_q <= busy_d;
      i_q    <= i_d;
      j_q    <= j_d;
      l0_q   <= l0_d;
      arow_q <= arow_d;
      brow_q <= brow_d;
      coff_q <= coff_d;
    end
  end

endmodule
