// hcube RTL: a round-robin arbiter (docs/hardware/router.md §4 step 2).
//
// Of the requesters in req_i it grants the first from the pointer on, wrapping to the lowest;
// after a grant taken with en_i the pointer moves to the requester after the one granted (past
// the last: to 0), so every requester is served within NumReq grants. clear_i sets the pointer
// to 0. The grant is combinational on req_i and the pointer; the pointer is the only state.

module hc_rr_arb
#(
  /* verilator tracing_off */
  /// Requesters.
  parameter int NumReq = 4,
  /// Bits of the pointer and the granted index (at least clog2(NumReq)).
  parameter int IdxBits = hc_pkg::hc_bits(NumReq)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  /// Pointer to 0 at the next edge.
  input  logic               clear_i,
  /// The grant of this cycle is taken: the pointer moves past it.
  input  logic               en_i,
  /// Requesters that may be granted.
  input  logic [NumReq-1:0]  req_i,
  /// A requester is granted, and which.
  output logic               gnt_o,
  output logic [IdxBits-1:0] idx_o,
  /// The pointer: the first requester looked at.
  output logic [IdxBits-1:0] ptr_o
);

  logic [IdxBits-1:0] ptr_q;

  // The lowest requester from the pointer on, else the lowest of all (a function, so that a
  // simulator does not wake on the intermediate values of a block's own variables).
  function automatic logic [IdxBits-1:0] first(logic [NumReq-1:0] req, logic [IdxBits-1:0] ptr);
    logic [NumReq-1:0] pick;
    pick = req & ~((NumReq'(1) << ptr) - NumReq'(1));
    if (pick == '0) pick = req;
    first = '0;
    for (int s = NumReq; s > 0; s--) begin
      if (pick[s-1]) first = IdxBits'(s - 1);
    end
  endfunction

  // The search only when someone requests: a function's body runs wherever it is called, and
  // an idle output (most outputs in most cycles) then costs the simulator one comparison.
  `HC_ALWAYS_COMB begin : pick
    if (req_i == '0) begin
      idx_o = '0;
    end else begin
      idx_o = first(req_i, ptr_q);
    end
  end
  assign gnt_o = req_i != '0;

  // The next pointer in the clocked block rather than as a _d signal: req_i comes from the
  // links' credits, and a Verilated node model evaluates logic that reads a top-level input at
  // every eval() (twice a cycle in the node-array model) but a flip-flop's next state only at
  // the clock edge.
  always_ff @(posedge clk_i) begin : regs
    if (!rst_ni || clear_i) begin
      ptr_q <= '0;
    end else if (gnt_o && en_i) begin
      ptr_q <= (32'(idx_o) == NumReq - 1) ? '0 : idx_o + IdxBits'(1);
    end
  end

  assign ptr_o = ptr_q;

  /* verilator tracing_on */
endmodule
