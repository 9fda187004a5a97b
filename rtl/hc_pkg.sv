// hcube RTL: shared types, encodings and width functions (docs/hardware.md §1, §3, §4).

package hc_pkg;

  // ---------------------------------------------------------------------------
  // Table word encoding (docs/hardware.md §3)
  // ---------------------------------------------------------------------------

  /// Bits of the opcode field, table word bits [1:0].
  localparam int unsigned OpcodeBits = 2;
  /// Bits of the WAIT cycle count, table word bits [33:2].
  localparam int unsigned WaitBits = 32;
  /// A table word is never narrower than an opcode plus a WAIT count.
  localparam int unsigned MinTableWidth = OpcodeBits + WaitBits;

  /// Instruction opcode.
  typedef enum logic [1:0] {
    OpEnd     = 2'd0,  // node done, done stays high
    OpXfer    = 2'd1,  // one transfer cycle
    OpWait    = 2'd2,  // WAIT c: c cycles without data
    OpPermute = 2'd3   // one cycle of local copies inside the node's memory (§2.1)
  } opcode_e;

  /// Output side of one channel in an XFER (in a PERMUTE: MEM is the slot copied from).
  typedef enum logic [1:0] {
    OutIdle    = 2'd0,  // send nothing
    OutMem     = 2'd1,  // send the word of a slot
    OutFwd     = 2'd2,  // send the word that arrived on a PASS channel last cycle
    OutIllegal = 2'd3
  } out_op_e;

  /// Input side of one channel in an XFER (in a PERMUTE: MEM is the slot copied to).
  typedef enum logic [1:0] {
    InIdle     = 2'd0,  // expect nothing
    InMem      = 2'd1,  // store the arriving word in a slot
    InPass     = 2'd2,  // hold the arriving word one cycle for a FWD
    InReserved = 2'd3   // ADD, illegal today
  } in_op_e;

  // ---------------------------------------------------------------------------
  // Error kinds (docs/hardware.md §4): bit index in err_any_o, counter index in err_count_o
  // ---------------------------------------------------------------------------

  /// A word arrives on a channel whose input side is IDLE.
  localparam int unsigned ErrLost = 0;
  /// The input side is MEM or PASS but no word arrives.
  localparam int unsigned ErrNodata = 1;
  /// FWD without a PASS word on the source channel, or the source channel out of range.
  localparam int unsigned ErrFwd = 2;
  /// A slot (after the relative XOR) is >= NumSlots.
  localparam int unsigned ErrSlot = 3;
  /// The program counter runs past the loaded table without an END.
  localparam int unsigned ErrOverrun = 4;
  /// One-port mode and more than one port sends, or more than one port receives.
  localparam int unsigned ErrOneport = 5;
  /// WAIT 0, output op 3, input op 3, or a PERMUTE channel neither IDLE/IDLE nor MEM/MEM.
  localparam int unsigned ErrIllegal = 6;
  /// Two channels write the same slot in one cycle.
  localparam int unsigned ErrConflict = 7;
  /// A PASS word is not forwarded by the next cycle's instruction.
  localparam int unsigned ErrDropped = 8;
  /// Number of error kinds.
  localparam int unsigned NumErrKinds = 9;
  /// Width of one sticky saturating error counter.
  localparam int unsigned ErrCountBits = 16;

  /// Width of the cube's cycle, transfer-cycle, local-cycle and word counters.
  localparam int unsigned CountBits = 32;

  // ---------------------------------------------------------------------------
  // Derived widths (docs/hardware.md §1, §3)
  // ---------------------------------------------------------------------------

  /// max(a, b)
  function automatic int unsigned hc_max(int unsigned a, int unsigned b);
    return (a > b) ? a : b;
  endfunction

  /// max(1, clog2(n)): bits of an index into n things, at least one.
  function automatic int unsigned hc_bits(int unsigned n);
    return hc_max(1, $clog2(n));
  endfunction

  /// IdxBits = max(SlotBits, PortBits + LaneBits): width of out_idx (slot or FWD channel).
  function automatic int unsigned hc_idx_bits(int unsigned dim, int unsigned lanes,
                                              int unsigned num_slots);
    return hc_max(hc_bits(num_slots), hc_bits(dim) + hc_bits(lanes));
  endfunction

  /// ChanBits = 6 + IdxBits + SlotBits: bits of one channel's field in an XFER.
  function automatic int unsigned hc_chan_bits(int unsigned dim, int unsigned lanes,
                                               int unsigned num_slots);
    return 6 + hc_idx_bits(dim, lanes, num_slots) + hc_bits(num_slots);
  endfunction

  /// TableWidth = max(34, 2 + n*b*ChanBits).
  function automatic int unsigned hc_table_width(int unsigned dim, int unsigned lanes,
                                                 int unsigned num_slots);
    return hc_max(MinTableWidth,
                  OpcodeBits + dim * lanes * hc_chan_bits(dim, lanes, num_slots));
  endfunction

endpackage
