// hcube RTL: shared types, encodings and width functions (docs/hardware/node.md §1, §3; docs/hardware/checks.md).
//
// The RTL subset. Every file under rtl/ is read by Verilator (-Wall clean), by Icarus Verilog 11
// (iverilog -g2012, the cocotb testbench in tb/cocotb/) and by Debian's yosys 0.23 (read_verilog
// -sv; synth, synth_ice40), whose SystemVerilog front end is small. The forms
// below are what 0.23 reads, found by trying each construct (docs/hardware/synthesis.md). Cores with a
// richer SystemVerilog (lowRISC Ibex, PULP) put sv2v in front of yosys; hcube keeps to the
// subset instead, so that the Debian tools read the sources as they are. New modules (router,
// arithmetic unit) follow it; scripts/synth.sh and the `synth` test check every rtl/*.sv.
// * Functions give their result by assigning to the function name: `return` is a syntax error.
// * Package items are named with an explicit scope, hc_pkg::Name. An import, in the module
//   header or at file level, is a syntax error in 0.23.
// * Packed arrays have one dimension. A per-channel (per-kind) vector is flat, element c at
//   [c*Width +: Width]; `logic [N-1:0][W-1:0]` is a syntax error. Verilator lays both out the
//   same way, so the C++ testbench sees the same bits.
// * Ports are packed vectors (no unpacked-array ports), and unpacked arrays are assigned element
//   by element (no whole-array assignment). An unpacked array that is really a bundle of wires
//   (hc_cube's per-node arrays) is marked (* mem2reg *) so that yosys does not build a memory.
// * The enums below document the encodings; the RTL compares fields with the enum constants
//   (hc_pkg::OutMem) but does not cast to an enum type (hc_pkg::out_op_e'(x) is a syntax error).
// * A variable declared inside a loop of an always_comb is a static signal to yosys: it must be
//   assigned on every path, or yosys infers a latch. hc_node declares them once at the top of the
//   block with defaults.
// * Concurrent assertions (assert property ... disable iff ... else $error) are for Verilator
//   only: they sit inside `ifndef SYNTHESIS (read_verilog defines SYNTHESIS); Icarus skips them
//   (-gsupported-assertions). What feeds them may use a 2-D packed array (yosys never reads it).
// * Parameters, sizes and loop indices are `int`, not `int unsigned`: Icarus 11 cannot parse
//   `int unsigned` (every such value is a small non-negative size, the same in either type).
// * A signal is declared before its first use, a port connection included: Icarus takes an
//   undeclared name for an implicit one-bit net.
// * Memories are written in always_ff blocks like RAM macros; a memory that should become block
//   RAM has a registered read (hc_node's table).

// Combinational blocks that assign a default and then the value are `HC_ALWAYS_COMB: always_comb,
// except under Icarus Verilog, where it is always @*. Icarus 11.0 wakes an always_comb whenever a
// later always_comb of the same module instance runs (a fault of 11.0, mended in later
// releases), so such blocks wake each other without end at the first clock edge; always @*
// means the same there without the fault. The other always_comb blocks write each variable once
// on each path (docs/hardware/testbench.md §3).
`ifdef __ICARUS__
`define HC_ALWAYS_COMB always @*
`else
`define HC_ALWAYS_COMB always_comb
`endif

package hc_pkg;

  // ---------------------------------------------------------------------------
  // Table word encoding (docs/hardware/node.md §3)
  // ---------------------------------------------------------------------------

  /// Bits of the opcode field, table word bits [1:0].
  localparam int OpcodeBits = 2;
  /// Bits of the WAIT cycle count, table word bits [33:2].
  localparam int WaitBits = 32;
  /// A table word is never narrower than an opcode plus a WAIT count.
  localparam int MinTableWidth = OpcodeBits + WaitBits;

  /// Sub-opcode field of an opcode-0 word, bits [4:2]: 0 is END, 1 is MAC (docs/hardware/arithmetic.md §2); the others
  /// are reserved and execute as END.
  localparam int SubOpAt = 2;
  localparam int SubOpBits = 3;
  localparam logic [2:0] SubOpMac = 3'd1;
  /// Where a MAC word's six SlotBits-wide fields (a, b, c, m-1, k-1, p-1) start.
  localparam int MacFieldsAt = 5;

  /// One channel's field of an XFER or PERMUTE (ChanBits wide, channel c at
  /// 2 + c * ChanBits), least significant first: the output side (op, relative bit, index of
  /// IdxBits bits), then, from ChInAt + IdxBits on, the input side (op, relative bit, slot of
  /// SlotBits bits). sw/tables/table_image.h kChannelField is the same layout, and
  /// tests/registry_test.cpp checks the two agree.
  localparam int ChOutOpAt  = 0;
  localparam int ChOutRelAt = 2;
  localparam int ChOutIdxAt = 3;
  localparam int ChInAt     = 3;  // plus IdxBits: where the input side starts
  localparam int ChInOpAt   = 0;  // from the input side's start
  localparam int ChInRelAt  = 2;
  localparam int ChInSlotAt = 3;

  /// Instruction opcode.
  typedef enum logic [1:0] {
    OpEnd     = 2'd0,  // node done, done stays high
    OpXfer    = 2'd1,  // one transfer cycle
    OpWait    = 2'd2,  // WAIT c: c cycles without data
    OpPermute = 2'd3   // one cycle of local copies inside the node's memory (docs/hardware/node.md §2.1)
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
    InAdd      = 2'd3   // add the arriving word into a slot (combining receive, docs/hardware/arithmetic.md §1; XFER only)
  } in_op_e;

  // ---------------------------------------------------------------------------
  // Error kinds (docs/hardware/checks.md): bit index in err_any_o, counter index in err_count_o
  // ---------------------------------------------------------------------------

  /// A word arrives on a channel whose input side is IDLE.
  localparam int ErrLost = 0;
  /// The input side is MEM, ADD or PASS but no word arrives.
  localparam int ErrNodata = 1;
  /// FWD without a PASS word on the source channel, or the source channel out of range.
  localparam int ErrFwd = 2;
  /// A slot (after the relative XOR) is >= NumSlots.
  localparam int ErrSlot = 3;
  /// The program counter runs past the loaded table without an END.
  localparam int ErrOverrun = 4;
  /// One-port mode and more than one port sends, or more than one port receives.
  localparam int ErrOneport = 5;
  /// WAIT 0, output op 3, or a PERMUTE channel neither IDLE/IDLE nor MEM/MEM (ADD included).
  localparam int ErrIllegal = 6;
  /// Two channels write the same slot in one cycle.
  localparam int ErrConflict = 7;
  /// A PASS word is not forwarded by the next cycle's instruction.
  localparam int ErrDropped = 8;
  /// MAC overlap mode (docs/hardware/arithmetic.md §3): a MAC issued while the MAC units are busy, or an
  /// XFER / PERMUTE channel reading the running MAC's C block or writing its A, B or C block.
  localparam int ErrOverlap = 9;
  /// Number of error kinds.
  localparam int NumErrKinds = 10;
  /// Width of one sticky saturating error counter.
  localparam int ErrCountBits = 16;

  /// Width of the cube's cycle, transfer-cycle, local-cycle and word counters.
  localparam int CountBits = 32;

  // ---------------------------------------------------------------------------
  // Derived widths (docs/hardware/node.md §1, §3)
  // ---------------------------------------------------------------------------

  /// max(a, b)
  function automatic int hc_max(int a, int b);
    hc_max = (a > b) ? a : b;
  endfunction

  /// max(1, clog2(n)): bits of an index into n things, at least one.
  function automatic int hc_bits(int n);
    hc_bits = hc_max(1, $clog2(n));
  endfunction

  /// IdxBits = max(SlotBits, PortBits + LaneBits): width of out_idx (slot or FWD channel).
  function automatic int hc_idx_bits(int dim, int lanes,
                                     int num_slots);
    hc_idx_bits = hc_max(hc_bits(num_slots), hc_bits(dim) + hc_bits(lanes));
  endfunction

  /// ChanBits = 6 + IdxBits + SlotBits: bits of one channel's field in an XFER.
  function automatic int hc_chan_bits(int dim, int lanes,
                                      int num_slots);
    hc_chan_bits = 6 + hc_idx_bits(dim, lanes, num_slots) + hc_bits(num_slots);
  endfunction

  /// TableWidth = max(34, 2 + n*b*ChanBits, 5 + 6*SlotBits): the last term holds a MAC (docs/hardware/arithmetic.md §2).
  function automatic int hc_table_width(int dim, int lanes,
                                        int num_slots);
    hc_table_width = hc_max(hc_max(MinTableWidth,
                                   OpcodeBits + dim * lanes * hc_chan_bits(dim, lanes, num_slots)),
                            MacFieldsAt + 6 * hc_bits(num_slots));
  endfunction

  // ---------------------------------------------------------------------------
  // Routed mode (docs/hardware/router.md): message words, packets, the load port's address space
  // ---------------------------------------------------------------------------

  /// The router's configuration word (header word 0, router.md §11): routed mode at bit 0, the
  /// routing function's bit (none: e-cube; sw/router/messages.h HCUBE_ROUTE_KINDS gives each
  /// function its bit, and tests/registry_test.cpp checks the two agree), the FIFO depth in
  /// CfgDepthBits bits (0: FifoDepth) and the start-up cycles from CfgTauAt on.
  localparam int CfgRoutedAt = 0;
  localparam int CfgSourceAt = 1;
  localparam int CfgAdaptiveAt = 2;
  localparam int CfgDepthAt = 8;
  localparam int CfgDepthBits = 8;
  localparam int CfgTauAt = 32;

  /// Bits of a message's release cycle.
  localparam int RelBits = 32;
  /// Bits of the start-up tau in the router configuration word (bits [41:32]; docs/hardware/router.md §7).
  localparam int TauBits = 10;
  /// Default input FIFO depth of a router (the run-time depth is 1 .. this).
  localparam int FifoDepthDefault = 4;
  /// Load port address bits above the table address: 0 table, 1 message memory, 2 router header.
  localparam int LoadSelBits = 2;

  /// The longest source route a message carries: 2n + 2 dimensions.
  function automatic int hc_route_max(int dim);
    hc_route_max = 2 * dim + 2;
  endfunction

  /// Bits of a route: a count 0 .. RouteMax and RouteMax dimensions of max(1, clog2(n)) bits.
  function automatic int hc_route_bits(int dim);
    hc_route_bits = hc_bits(hc_route_max(dim) + 1) + hc_route_max(dim) * hc_bits(dim);
  endfunction

  /// Message word: src slot, dst node, dst slot, route (count, dimensions), release cycle, start
  /// flag (the first word of a message that pays the start-up tau, docs/hardware/router.md §7).
  function automatic int hc_msg_width(int dim, int num_slots);
    hc_msg_width = 2 * hc_bits(num_slots) + dim + hc_route_bits(dim) + RelBits + 1;
  endfunction

  /// Width of the load port's data: a table word or (with a router) a message word, whichever is
  /// wider.
  function automatic int hc_load_width(int dim, int lanes,
                                       int num_slots, int has_router);
    hc_load_width = has_router != 0 ?
        hc_max(hc_table_width(dim, lanes, num_slots), hc_msg_width(dim, num_slots)) :
        hc_table_width(dim, lanes, num_slots);
  endfunction

  /// Packet: word, dst node, dst slot, remaining route, tag (source node and message index),
  /// last-hop flag.
  function automatic int hc_pkt_bits(int dim, int num_slots,
                                     int msg_depth, int word_width);
    hc_pkt_bits = word_width + dim + hc_bits(num_slots) + hc_route_bits(dim) + dim +
                  hc_bits(msg_depth) + 1;
  endfunction

  /// Bits of a packet's virtual channel field (docs/hardware/router.md §13): max(1, clog2 V) on top of
  /// the packet with V >= 2 virtual channels per link, none with one (the packet of docs/hardware/router.md §11).
  function automatic int hc_vc_field_bits(int vcs);
    hc_vc_field_bits = vcs > 1 ? hc_bits(vcs) : 0;
  endfunction

  /// A router's link packet with V virtual channels: hc_pkt_bits plus the VC field.
  function automatic int hc_pkt_bits_vc(int dim, int num_slots,
                                        int msg_depth, int word_width,
                                        int vcs);
    hc_pkt_bits_vc = hc_pkt_bits(dim, num_slots, msg_depth, word_width) + hc_vc_field_bits(vcs);
  endfunction

  /// A link packet's place on the router ports: hc_pkt_bits_vc rounded up to whole 32-bit words,
  /// so that every port's packet starts on a word (the bits above the packet are 0).
  function automatic int hc_pkt_stride(int dim, int num_slots,
                                       int msg_depth, int word_width,
                                       int vcs);
    hc_pkt_stride = (hc_pkt_bits_vc(dim, num_slots, msg_depth, word_width, vcs) + 31) / 32 * 32;
  endfunction

  /// Bits of a router's per-cycle stall count: at most n V FIFO heads and n queue heads lose
  /// arbitration. With V = 1 the width of docs/hardware/router.md §11, max(1, clog2(n (n + 1) + 1)).
  function automatic int hc_stall_bits(int dim, int vcs);
    hc_stall_bits = hc_max(hc_bits(dim * (dim + 1) + 1), hc_bits(dim * (vcs + 1) + 1));
  endfunction

  /// Load port address: with a router max(table address, router header address) plus
  /// LoadSelBits on top; without, the table address.
  function automatic int hc_load_addr_bits(int dim, int depth,
                                           int has_router);
    hc_load_addr_bits = has_router != 0 ?
        hc_max(hc_bits(depth), hc_bits(dim + 3)) + LoadSelBits : hc_bits(depth);
  endfunction

endpackage
