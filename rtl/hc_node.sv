// hcube RTL: one node of the Boolean n-cube (docs/hardware/node.md, checks.md).
//
// A node holds NumSlots words of memory, a table of TableDepth instructions written through the
// load port, and a sequencer that executes one instruction per cycle after start_i. Its Dim ports
// have Lanes channels each (channel c = port * Lanes + lane). The outputs of a channel are
// combinational from the memory (or the channel's PASS input register, for FWD); the words a
// node receives are written at the end of the cycle, so an exchange is a swap.
//
// A PERMUTE (docs/hardware/node.md §2.1) uses the same per-channel memory read and write ports
// without the links: a MEM/MEM channel reads its output slot at the start of the cycle and
// writes the word into its input slot at the end, so one PERMUTE swaps slots or rotates a cycle
// of up to Dim * Lanes slots. Nothing is sent in a PERMUTE cycle (out_valid_o stays low).
//
// The node's address is an input (node_id_i, sampled in reset), not a parameter, so Verilator
// builds one node class for the whole cube; hc_node is never inlined into hc_cube for the same
// reason. Two more details keep the node's C++ code shared by all instances (and a 1024-node
// cube quick to build):
// * the inputs that differ between instances are public_flat_rd, so that Verilator does not
//   substitute the cube's expression (a constant node id, an array element) into the node's code;
// * the node has no assertions of its own: Verilator 5.006 writes every assertion message with
//   the instance's name as a literal, which makes the node's code per instance. The node reports
//   each error condition on err_event_o and hc_cube asserts on them, naming the node.

module hc_node
#(
  /* verilator tracing_off */  // parameters, ports and localparams are not traced (see below)
  /// Cube dimensions n: the node has Dim ports, port j links to node node_id_i ^ (1 << j).
  parameter int Dim = 3,
  /// Memory words per node M (data slots plus scratch slots).
  parameter int NumSlots = 8,
  /// Lanes b per port and direction (channel width in words).
  parameter int Lanes = 1,
  /// Word width W in bits.
  parameter int WordWidth = 32,
  /// Table depth D: instructions per node.
  parameter int TableDepth = 16,
  /// Multiply-add units U of the MAC instruction (docs/hardware/arithmetic.md §2).
  parameter int MacUnits = 1,
  /// 1: the node has a router (hc_router, routed mode, docs/hardware/router.md §11); 0: table mode
  /// only, the router generated away.
  parameter int HasRouter = 0,
  /// Virtual channels per link of the router (1 .. 4, docs/hardware/router.md §13; HasRouter only).
  parameter int NumVcs = 1,

  // derived
  /// Channels per direction: Dim * Lanes.
  localparam int NumChans = Dim * Lanes,
  /// SlotBits = max(1, clog2(NumSlots)).
  localparam int SlotBits = hc_pkg::hc_bits(NumSlots),
  /// IdxBits = max(SlotBits, PortBits + LaneBits).
  localparam int IdxBits = hc_pkg::hc_idx_bits(Dim, Lanes, NumSlots),
  /// ChanBits = 6 + IdxBits + SlotBits.
  localparam int ChanBits = hc_pkg::hc_chan_bits(Dim, Lanes, NumSlots),
  /// TableWidth = max(34, 2 + NumChans * ChanBits, 5 + 6 * SlotBits).
  localparam int TableWidth = hc_pkg::hc_table_width(Dim, Lanes, NumSlots),
  /// Width of a table address.
  localparam int DepthBits = hc_pkg::hc_bits(TableDepth),
  /// Load port: address (the top LoadSelBits select table, messages or router header) and data.
  /// Without a router: DepthBits and TableWidth.
  localparam int LoadAddrBits = hc_pkg::hc_load_addr_bits(Dim, TableDepth, HasRouter),
  localparam int LoadWidth = hc_pkg::hc_load_width(Dim, Lanes, NumSlots, HasRouter),
  /// Routed mode (hc_router): a link packet's place on the rt_pkt ports (whole 32-bit words),
  /// delivery tag, FIFO occupancy and stall count widths.
  localparam int PktStride =
      hc_pkg::hc_pkt_stride(Dim, NumSlots, TableDepth, WordWidth, NumVcs),
  localparam int TagBits = Dim + DepthBits,
  localparam int OccBits = $clog2(hc_pkg::FifoDepthDefault + 1),
  localparam int StallBits = hc_pkg::hc_stall_bits(Dim, NumVcs),
  /// The router's input FIFOs (V per port, FIFO f = port * V + VC) and an index of one (a
  /// blocked head's output port * V + VC; with V = 1 a port).
  localparam int NumFifos = Dim * NumVcs,
  localparam int FifoBits = hc_pkg::hc_bits(Dim * NumVcs),
  /// Width of an output channel index (the fault mask's channel).
  localparam int FltChanBits = hc_pkg::hc_bits(Dim * Lanes)
) (
  /// Clock.
  input  logic                                clk_i,
  /// Active-low synchronous reset.
  input  logic                                rst_ni,
  /// This node's address in the cube (0 .. 2^Dim - 1).
  input  logic [Dim-1:0]                      node_id_i /* verilator public_flat_rd */,
  /// One-port mode: at most one port sends and one port receives per cycle; sampled at start_i.
  input  logic                                one_port_i,
  /// MAC overlap mode (docs/hardware/arithmetic.md §3): a MAC occupies the sequencer for one cycle and
  /// the MAC units run on beside the next instructions; sampled at start_i.
  input  logic                                mac_overlap_i,

  /// Table load port: write tbl_wdata_i at tbl_addr_i.
  input  logic                                tbl_we_i /* verilator public_flat_rd */,
  /// Load port: word address; the top LoadSelBits bits select the table (0), the router's
  /// message memory (1) or its header registers (2) (docs/hardware/router.md §1).
  input  logic [LoadAddrBits-1:0]             tbl_addr_i,
  /// Load port: table word (or message word, header word).
  input  logic [LoadWidth-1:0]                tbl_wdata_i /* verilator public_flat_rd */,

  /// Memory scan port: write mem_wdata_i into slot mem_addr_i.
  input  logic                                mem_we_i,
  /// Memory scan port: slot address (read and write).
  input  logic [SlotBits-1:0]                 mem_addr_i,
  /// Memory scan port: write data.
  input  logic [WordWidth-1:0]                mem_wdata_i /* verilator public_flat_rd */,
  /// Memory scan port: the word in slot mem_addr_i (combinational, 0 if out of range).
  output logic [WordWidth-1:0]                mem_rdata_o,

  /// One-cycle start pulse: pc <- 0, error counters <- 0; instruction 0 executes next cycle.
  input  logic                                start_i,
  /// The node has reached END (or ran past its loaded table) since the last start.
  output logic                                done_o,

  /// Output channels: a word is sent on channel c this cycle.
  output logic [NumChans-1:0]                 out_valid_o,
  /// Output channels: the words sent (zero where out_valid_o is low, except in a PERMUTE: the
  /// word a MEM/MEM channel copies, which the neighbour ignores as out_valid_o is low).
  output logic [NumChans*WordWidth-1:0]       out_data_o,
  /// Input channels: a word arrives on channel c this cycle.
  input  logic [NumChans-1:0]                 in_valid_i /* verilator public_flat_rd */,
  /// Input channels: the words arriving.
  input  logic [NumChans*WordWidth-1:0]       in_data_i /* verilator public_flat_rd */,
  /// Input channels: the arriving word is stored in memory at the end of this cycle.
  output logic [NumChans-1:0]                 store_o,
  /// The node executes a PERMUTE this cycle (the cube counts these cycles as local cycles).
  output logic                                permute_o,
  /// The node's MAC units are busy this cycle (the cube counts MAC cycles).
  output logic                                mac_o,

  /// Per error kind: the condition holds this cycle (hc_cube's assertions check it).
  output logic [hc_pkg::NumErrKinds-1:0]      err_event_o,
  /// Per error kind: the node's counter is non-zero.
  output logic [hc_pkg::NumErrKinds-1:0]      err_flags_o,
  /// Per error kind: sticky saturating counter, kind k at [k].
  output logic [hc_pkg::NumErrKinds*hc_pkg::ErrCountBits-1:0] err_count_o,

  // Fault mask (docs/hardware/faults.md), hc_cube's fault registers: while flt_en_i is high and
  // flt_node_i is this node, the word sent on channel flt_chan_i becomes ((word & ~flt_clr_i) |
  // flt_set_i) ^ flt_xor_i, and is not sent at all if flt_kill_i. Only the outputs change: the
  // node's own logic (a PERMUTE copy) uses the word before the mask.
  input  logic                                flt_en_i,
  input  logic [Dim-1:0]                      flt_node_i,
  input  logic [FltChanBits-1:0]              flt_chan_i,
  input  logic [WordWidth-1:0]                flt_xor_i,
  input  logic [WordWidth-1:0]                flt_clr_i,
  input  logic [WordWidth-1:0]                flt_set_i,
  input  logic                                flt_kill_i,

  // Routed mode (hc_router, docs/hardware/router.md): the router's link headers, credits, the
  // cube's deadlock detector and the statistics the testbench reads. A node without a router
  // (HasRouter = 0) has these ports too, since a port list cannot depend on a parameter in the
  // language both yosys 0.23 and Icarus read (no interfaces, no generate around ports), and one
  // port list lets hc_cube wire every node alike. There the inputs are never read and the
  // outputs are constant 0, so synthesis and Verilator remove them.
  input  logic                                rt_halt_i,
  output logic [Dim*PktStride-1:0]            rt_pkt_o,
  input  logic [Dim*PktStride-1:0]            rt_pkt_i,
  output logic [NumFifos-1:0]                 rt_credit_o,
  input  logic [NumFifos-1:0]                 rt_credit_i,
  output logic                                rt_work_o,
  output logic                                rt_moved_o,
  /// Routed mode: the next rising edge changes none of the node's flip-flops (docs/hardware/router.md
  /// §14); the node-array testbench skips that node's edge.
  output logic                                rt_idle_o,
  output logic [StallBits-1:0]                rt_stalls_o,
  output logic [Dim:0]                        rt_dlv_o,
  output logic [(Dim+1)*TagBits-1:0]          rt_dlv_tag_o,
  output logic [NumFifos*OccBits-1:0]         rt_occ_max_o,
  output logic [NumFifos+Dim-1:0]             rt_head_valid_o,
  output logic [(NumFifos+Dim)*Dim-1:0]       rt_head_dst_o,
  output logic [(NumFifos+Dim)*FifoBits-1:0]  rt_head_out_o,
  output logic [NumFifos+Dim-1:0]             rt_head_nocredit_o,
  output logic [WordWidth-1:0]                rt_copy_word_o
);
  /* verilator no_inline_module */

  // derived
  localparam int PcBits      = $clog2(TableDepth + 1);        // derived: pc reaches D
  localparam int ChanIdxBits = hc_pkg::hc_bits(NumChans);     // derived
  localparam int InAt        = hc_pkg::ChInAt + IdxBits;      // derived: a channel's input side
  localparam int AddrBits    = hc_pkg::hc_max(IdxBits, Dim);  // derived: slot after XOR
  localparam int WaitBits    = hc_pkg::WaitBits;              // derived
  localparam int CntBits     = hc_pkg::ErrCountBits;          // derived
  localparam int NumErrKinds = hc_pkg::NumErrKinds;           // derived

  // Signals kept in the waveform: mem_q (Verilator traces arrays of up to 32 words), active_q,
  // pc_q, wait_cnt_q, pass_valid_q, err_cnt_q, done, opcode and, per channel,
  // g_port[j].g_lane[l].out_valid / out_data / in_valid / in_data. The ports, the table and the
  // decode temporaries are left out so that the trace of a big cube stays small.
  //
  // Per-channel values are packed into flat vectors, channel c at [c*Width +: Width] (the subset
  // of hc_pkg.sv: no packed arrays of more than one dimension, no whole-array assignments).

  // ---------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------

  /* verilator tracing_on */
  logic [WordWidth-1:0]             mem_q [NumSlots];  // written by mem_write and g_lane.chan_write
  logic [Dim-1:0]                   node_id_q;     // the node's address, sampled in reset

  logic                             active_q;      // started since reset
  logic                             one_port_q;    // one_port_i at the last start
  logic                             mac_overlap_q; // mac_overlap_i at the last start
  logic [PcBits-1:0]                pc_q;          // program counter
  logic [WaitBits-1:0]              wait_cnt_q;    // cycles of the current WAIT done
  logic [NumChans-1:0]              pass_valid_q;  // a PASS word is held
  logic [NumErrKinds*CntBits-1:0]   err_cnt_q;     // sticky saturating counters, kind k at [k]
  logic                             done;          // = done_o
  logic [hc_pkg::OpcodeBits-1:0]    opcode;        // opcode executed this cycle (hc_pkg::opcode_e)

  // Not traced from here on, except the per-channel traffic.
  /* verilator tracing_off */
  logic [TableWidth-1:0]            tbl_q [TableDepth];  // written by tbl_ram
  logic [TableWidth-1:0]            tbl_rdata_q;   // tbl_q[pc_q], read at the edge before (tbl_ram)
  logic [NumChans*WordWidth-1:0]    pass_data_q;   // the word held on channel c at [c]
  logic [PcBits-1:0]                tbl_len_q;     // words loaded since reset

  // The node's address is sampled from node_id_i while rst_ni is low, as a chip samples its
  // address straps in reset, and the node uses the register. The input is constant in a cube,
  // so this changes nothing after reset; it keeps the address out of the logic that a
  // simulator re-evaluates whenever an input changes (the node-array model verilates hc_node
  // alone, where node_id_i is a top-level input: the channel decode XORs every relative slot
  // with the address and would otherwise be evaluated at every input change, not once per
  // clock edge; docs/hardware/testbench.md §2.1).
  always_ff @(posedge clk_i) begin : id_strap
    if (!rst_ni) node_id_q <= node_id_i;
  end

  // ---------------------------------------------------------------------------
  // Sequencer
  // ---------------------------------------------------------------------------

  logic [TableWidth-1:0] instr;
  logic                  halted;      // pc ran past the loaded table: behaves as END
  logic                  executing;   // an instruction other than END executes this cycle
  logic                  chan_instr;  // the instruction has channel fields: XFER or PERMUTE
  logic                  permute;     // the instruction is a PERMUTE
  logic [WaitBits-1:0]   wait_len;
  logic                  wait_last;   // last cycle of a WAIT
  logic                  advance;     // pc moves on at the end of the cycle
  logic                  overrun;     // pc moves past the loaded table
  logic                  mac;         // the instruction is a MAC (opcode 0, sub-opcode 1, docs/hardware/arithmetic.md §2)
  logic                  mac_last;    // the MAC units work on the last cycle of a MAC
  logic                  mac_busy;    // the MAC units run a MAC issued in an earlier cycle
  logic                  mac_issue;   // the instruction issues its MAC to the (idle) units
  logic                  mac_work;    // the MAC units work this cycle

  // In routed mode (HasRouter) the sequencer sees no table: END, nothing executes.
  assign halted     = pc_q >= tbl_len_q || routed;
  assign instr      = halted ? '0 : tbl_rdata_q;
  assign opcode     = instr[hc_pkg::OpcodeBits-1:0];
  assign mac        = active_q && opcode == hc_pkg::OpEnd &&
                      instr[hc_pkg::SubOpAt +: hc_pkg::SubOpBits] == hc_pkg::SubOpMac;
  assign executing  = active_q && (opcode != hc_pkg::OpEnd || mac);
  // XFER (1) and PERMUTE (3) are the opcodes with bit 0 set.
  assign chan_instr = executing && instr[0];
  assign permute    = chan_instr && instr[1];
  assign wait_len   = instr[hc_pkg::OpcodeBits +: WaitBits];
  // WAIT 0 is illegal and takes one cycle, like WAIT 1.
  assign wait_last  = wait_cnt_q + WaitBits'(1) >= wait_len;
  // A MAC: without overlap the sequencer stays on it until the units' last cycle; in overlap
  // mode (docs/hardware/arithmetic.md §3) it moves on after one cycle (a MAC met while the units are busy is refused).
  assign mac_issue  = mac && !mac_busy;
  assign advance    = executing && (opcode != hc_pkg::OpWait || wait_last) &&
                      (!mac || mac_overlap_q || mac_last);
  assign overrun    = advance && pc_q + PcBits'(1) >= tbl_len_q;
  assign done       = active_q && opcode == hc_pkg::OpEnd && !mac && !mac_busy;
  assign mac_o      = mac_work;

  // The MAC units' signals (hc_mac, below), declared here for the channels' overlap check.
  localparam int MacAddrBits = 2 * SlotBits + 2;  // derived: hc_mac's AddrBits
  // derived: the width in which a channel's slot is compared with the MAC's block bounds
  localparam int MacCmpBits = hc_pkg::hc_max(MacAddrBits, AddrBits);

  logic [MacUnits*MacAddrBits-1:0] mac_a_addr, mac_b_addr;
  logic [MacUnits*WordWidth-1:0]   mac_a_data, mac_b_data;
  logic [MacAddrBits-1:0]          mac_c_addr;
  logic [WordWidth-1:0]            mac_c_data;
  logic                            mac_we;
  logic [SlotBits-1:0]             mac_wr_addr;
  logic [WordWidth-1:0]            mac_wr_data;
  logic                            mac_slot_err;
  logic                            mac_conflict;
  logic [3*MacAddrBits-1:0]        mac_base_flat, mac_end_flat;
  // The blocks of the MAC worked on: A, B, C from slot *_lo up to (not including) *_hi.
  logic [MacCmpBits-1:0]           mac_a_lo, mac_a_hi, mac_b_lo, mac_b_hi, mac_c_lo, mac_c_hi;

  assign mac_a_lo = MacCmpBits'(mac_base_flat[0*MacAddrBits +: MacAddrBits]);
  assign mac_b_lo = MacCmpBits'(mac_base_flat[1*MacAddrBits +: MacAddrBits]);
  assign mac_c_lo = MacCmpBits'(mac_base_flat[2*MacAddrBits +: MacAddrBits]);
  assign mac_a_hi = MacCmpBits'(mac_end_flat[0*MacAddrBits +: MacAddrBits]);
  assign mac_b_hi = MacCmpBits'(mac_end_flat[1*MacAddrBits +: MacAddrBits]);
  assign mac_c_hi = MacCmpBits'(mac_end_flat[2*MacAddrBits +: MacAddrBits]);

  // ---------------------------------------------------------------------------
  // Channel decode and output side (from the instruction and the state only)
  // ---------------------------------------------------------------------------

  logic [NumChans*ChanBits-1:0]  chan_field;
  logic [NumChans-1:0]           chan_out_valid;
  logic [NumChans*WordWidth-1:0] chan_out_data;  // sent (XFER), copied (PERMUTE)
  logic [NumChans-1:0]           copy;           // PERMUTE: a MEM/MEM copy writes its slot
  logic [NumChans-1:0]           expect_word;    // input side is MEM or PASS
  logic [NumChans-1:0]           in_not_idle;    // input side is not IDLE
  logic [NumChans-1:0]           wr_slot;        // input side is MEM or ADD with a slot in range
  logic [NumChans-1:0]           add_slot;       // input side is ADD (combining receive, docs/hardware/arithmetic.md §1)
  logic [NumChans-1:0]           pass_slot;      // input side is PASS
  logic [NumChans*SlotBits-1:0]  wr_addr;        // the slot channel c writes
  logic [NumChans-1:0]           fwd_used;       // PASS register c is forwarded this cycle
  logic [Dim-1:0]                port_sends;     // some lane's output side is not IDLE
  logic [Dim-1:0]                port_recvs;     // some lane's input side is not IDLE
  logic                          any_fwd_err;
  logic                          any_slot_err;
  logic                          any_illegal;
  logic                          conflict;

  assign chan_field = instr[hc_pkg::OpcodeBits +: NumChans * ChanBits];

  // One generate block per channel: every part-select has a constant index, so the Verilated
  // node decodes a channel in straight-line code (a loop over the channels with computed
  // part-selects of the instruction, with bounds checks, was about 40 % of a node's per-cycle
  // work, and the pairwise conflict check another quarter; README "Simulation speed"). The
  // logic is the same: XFER and PERMUTE decode each channel's field, anything else leaves every
  // output at 0 (which keeps idle nodes cheap to simulate as well).
  logic [NumChans-1:0]          ch_slot_err;   // channel c's slot is out of range
  logic [NumChans-1:0]          ch_fwd_err;    // FWD without a PASS word
  logic [NumChans-1:0]          ch_illegal;    // output op 3, or a PERMUTE pair not MEM/MEM or IDLE/IDLE
  logic [NumChans-1:0]          ch_sends;      // XFER: the output side is not IDLE
  logic [NumChans-1:0]          ch_recvs;      // XFER: the input side is not IDLE
  logic [NumChans-1:0]          wr_any;        // the channel writes its slot (a store or a copy)
  logic [NumChans-1:0]          ch_overlap;    // the channel touches the running MAC's blocks (docs/hardware/arithmetic.md §3)
  // fwd_sel[c*NumChans + t]: channel c forwards PASS register t.
  logic [NumChans*NumChans-1:0] fwd_sel;
  // pair_conflict[a*NumChans + b], a < b: channels a and b both write the same slot.
  logic [NumChans*NumChans-1:0] pair_conflict;

  for (genvar c = 0; c < NumChans; c++) begin : g_dec
    logic [ChanBits-1:0]    field;
    logic [1:0]             out_op;     // hc_pkg::out_op_e
    logic [IdxBits-1:0]     out_idx;    // MEM: slot; FWD: source channel
    logic [1:0]             in_op;      // hc_pkg::in_op_e
    logic [AddrBits-1:0]    out_addr;   // slots after the relative XOR
    logic [AddrBits-1:0]    in_addr;
    logic                   out_addr_ok;
    logic                   in_addr_ok;
    logic [ChanIdxBits-1:0] fwd_src;
    logic                   fwd_ready;  // FWD source exists and holds a PASS word
    logic                   out_valid;
    logic [WordWidth-1:0]   out_data;
    logic                   slot_err;
    logic                   fwd_err;
    logic                   illegal;
    logic                   cp;
    logic                   wr;
    logic                   expect_in;
    logic                   rd_mem;     // XFER MEM send or PERMUTE copy: reads out_addr
    logic                   wr_mem;     // XFER MEM/ADD receive or PERMUTE copy: writes in_addr
    logic                   overlap;    // touches the running MAC's blocks (below)
    logic [NumChans-1:0]    fwd_oh;     // one-hot: the PASS register forwarded, if any

    // The instruction's fields. A node with a router decodes them only in an XFER or PERMUTE
    // cycle (0 otherwise), so that a routed run, whose table is idle, does not evaluate them
    // every cycle (n = 8: 2.4 % of a routed run's instructions, 3 % of its time). A table-mode
    // node (HasRouter = 0) decodes them always: gating them there cost 300 LUT4 at n = 3 and
    // saved nothing measurable. (The two branches repeat the expressions on purpose: one
    // always_comb for both, with a condition that is constant in a table-mode node, still cost
    // that node's Verilated code 1.6 % more instructions at n = 8.)
    if (HasRouter != 0) begin : g_fields_gated
      logic gate;
      assign gate = permute || chan_instr;
      // if/else, each path writing every field once (see next_run): the simulator skips the
      // decode outside XFER and PERMUTE.
      always_comb begin : fields
        if (gate) begin
          field       = chan_field[c*ChanBits +: ChanBits];
          out_op      = field[hc_pkg::ChOutOpAt +: 2];
          out_idx     = field[hc_pkg::ChOutIdxAt +: IdxBits];
          in_op       = field[InAt + hc_pkg::ChInOpAt +: 2];
          out_addr    = AddrBits'(out_idx) ^
                        (field[hc_pkg::ChOutRelAt] ? AddrBits'(node_id_q) : '0);
          in_addr     = AddrBits'(field[InAt + hc_pkg::ChInSlotAt +: SlotBits]) ^
                        (field[InAt + hc_pkg::ChInRelAt] ? AddrBits'(node_id_q) : '0);
          out_addr_ok = 32'(out_addr) < NumSlots;
          in_addr_ok  = 32'(in_addr) < NumSlots;
          fwd_src     = out_idx[ChanIdxBits-1:0];
          fwd_ready   = 32'(out_idx) < NumChans && pass_valid_q[fwd_src];
        end else begin
          field       = '0;
          out_op      = '0;
          out_idx     = '0;
          in_op       = '0;
          out_addr    = '0;
          in_addr     = '0;
          out_addr_ok = 1'b0;
          in_addr_ok  = 1'b0;
          fwd_src     = '0;
          fwd_ready   = 1'b0;
        end
      end
    end else begin : g_fields
      assign field       = chan_field[c*ChanBits +: ChanBits];
      assign out_op      = field[hc_pkg::ChOutOpAt +: 2];
      assign out_idx     = field[hc_pkg::ChOutIdxAt +: IdxBits];
      assign in_op       = field[InAt + hc_pkg::ChInOpAt +: 2];
      assign out_addr    = AddrBits'(out_idx) ^ (field[hc_pkg::ChOutRelAt] ? AddrBits'(node_id_q) : '0);
      assign in_addr     = AddrBits'(field[InAt + hc_pkg::ChInSlotAt +: SlotBits]) ^
                           (field[InAt + hc_pkg::ChInRelAt] ? AddrBits'(node_id_q) : '0);
      assign out_addr_ok = 32'(out_addr) < NumSlots;
      assign in_addr_ok  = 32'(in_addr) < NumSlots;
      assign fwd_src     = out_idx[ChanIdxBits-1:0];
      assign fwd_ready   = 32'(out_idx) < NumChans && pass_valid_q[fwd_src];
    end

    // The decode works only in an XFER or PERMUTE cycle, the MAC-overlap check only beside a
    // running MAC, and the forwarding select is one one-hot vector per channel (it was NumChans
    // comparators per channel): in idle cycles, routed mode's included, the simulator skips
    // them (at n = 10 about 6 % of a routed run's time and 10 % of a table-mode AAPC's). The
    // fields and slot addresses above are gated only in a node with a router.
    // Defaults, then the values of the path taken: Verilator's code for this form does only
    // the work of that path (written instead as every output assigned once on each path, the
    // table-mode node cost 5 % more instructions per cycle). It is HC_ALWAYS_COMB (hc_pkg.sv),
    // since under Icarus Verilog an always_comb with defaults wakes the node's other blocks
    // without end.
    `HC_ALWAYS_COMB begin : decode
      out_valid   = 1'b0;
      out_data    = '0;
      slot_err    = 1'b0;
      fwd_err     = 1'b0;
      illegal     = 1'b0;
      cp          = 1'b0;
      wr          = 1'b0;
      expect_in   = 1'b0;
      rd_mem      = 1'b0;
      wr_mem      = 1'b0;
      overlap     = 1'b0;
      fwd_oh      = '0;
      if (permute) begin
        // PERMUTE: MEM/MEM copies (an out-of-range read copies the word 0, an out-of-range write
        // is dropped), IDLE/IDLE does nothing, anything else is illegal and is neither range-
        // nor conflict-checked. No port is used: nothing is sent or expected, every arriving
        // word is lost and one-port mode does not apply. The word copied travels in
        // chan_out_data with chan_out_valid low, so the neighbour ignores it. out_addr is the
        // slot copied from, in_addr the slot copied to.
        if (out_op == hc_pkg::OutMem && in_op == hc_pkg::InMem) begin
          rd_mem = 1'b1;
          wr_mem = 1'b1;
          if (out_addr_ok) begin
            out_data = mem_q[out_addr[SlotBits-1:0]];
          end else begin
            slot_err = 1'b1;
          end
          if (in_addr_ok) begin
            cp = 1'b1;
          end else begin
            slot_err = 1'b1;
          end
        end else if (out_op != hc_pkg::OutIdle || in_op != hc_pkg::InIdle) begin
          illegal = 1'b1;
        end
      end else if (chan_instr) begin
        // XFER. Output side: the word read from memory as at the start of the cycle, or the
        // PASS register. An out-of-range slot sends the word 0.
        case (out_op)
          hc_pkg::OutMem: begin
            out_valid = 1'b1;
            rd_mem    = 1'b1;
            if (out_addr_ok) begin
              out_data = mem_q[out_addr[SlotBits-1:0]];
            end else begin
              slot_err = 1'b1;
            end
          end
          hc_pkg::OutFwd: begin
            if (fwd_ready) begin
              out_valid = 1'b1;
              out_data  = pass_data_q[fwd_src*WordWidth +: WordWidth];
              fwd_oh[fwd_src] = 1'b1;  // forwards PASS register fwd_src
            end else begin
              fwd_err = 1'b1;
            end
          end
          hc_pkg::OutIllegal: illegal = 1'b1;
          default: ;
        endcase
        if ((in_op == hc_pkg::InMem || in_op == hc_pkg::InAdd) && !in_addr_ok) slot_err = 1'b1;
        // Input side as the instruction describes it (the arriving words are checked below).
        expect_in = in_op != hc_pkg::InIdle;
        wr_mem    = in_op == hc_pkg::InMem || in_op == hc_pkg::InAdd;
        wr        = wr_mem && in_addr_ok;
      end
      // ---- MAC overlap mode (docs/hardware/arithmetic.md §3) ----
      // Beside a running MAC (mac_busy, issued in an earlier cycle) the channel may not read the
      // MAC's C block nor write its A, B or C block: checks on the instruction, on the slots
      // after the relative XOR (in range or not).
      if (mac_busy && (rd_mem || wr_mem)) begin
        overlap = (rd_mem && MacCmpBits'(out_addr) >= mac_c_lo &&
                   MacCmpBits'(out_addr) < mac_c_hi) ||
                  (wr_mem && ((MacCmpBits'(in_addr) >= mac_a_lo &&
                               MacCmpBits'(in_addr) < mac_a_hi) ||
                              (MacCmpBits'(in_addr) >= mac_b_lo &&
                               MacCmpBits'(in_addr) < mac_b_hi) ||
                              (MacCmpBits'(in_addr) >= mac_c_lo &&
                               MacCmpBits'(in_addr) < mac_c_hi)));
      end
    end

    // ---- MAC overlap mode (docs/hardware/arithmetic.md §3) ----
    // Beside a running MAC (mac_busy, issued in an earlier cycle) the channel may not read the
    // MAC's C block nor write its A, B or C block: checks on the instruction, on the slots
    // after the relative XOR (in range or not).
    // An if, not an AND: the simulator then skips the comparisons in every cycle without a
    // running MAC.


    assign chan_out_valid[c]                       = out_valid;
    assign chan_out_data[c*WordWidth +: WordWidth] = out_data;
    assign copy[c]                                 = cp;
    assign expect_word[c]                          = expect_in;
    assign in_not_idle[c]                          = expect_in;
    assign wr_slot[c]                              = wr;
    assign add_slot[c]    = chan_instr && !permute && in_op == hc_pkg::InAdd;
    assign pass_slot[c]   = chan_instr && !permute && in_op == hc_pkg::InPass;
    // The slot written (a PERMUTE's copy or an XFER's store); 0 outside XFER and PERMUTE.
    assign wr_addr[c*SlotBits +: SlotBits] = chan_instr ? in_addr[SlotBits-1:0] : '0;
    assign ch_slot_err[c] = slot_err;
    assign ch_fwd_err[c]  = fwd_err;
    assign ch_illegal[c]  = illegal;
    assign ch_sends[c]    = chan_instr && !permute && out_op != hc_pkg::OutIdle;
    assign ch_recvs[c]    = expect_in;
    assign wr_any[c]      = wr || cp;
    assign ch_overlap[c]  = overlap;
    assign fwd_sel[c*NumChans +: NumChans] = fwd_oh;

    // Write conflicts: this channel against every higher one, both writing (XFER stores or
    // PERMUTE copies; never both kinds in one cycle) the same slot. (A node with a router
    // compares the pairs in g_conflict_gated instead.)
    for (genvar b = 0; b < NumChans; b++) begin : g_pair
      if (b > c && HasRouter == 0) begin : g_cmp
        assign pair_conflict[c*NumChans + b] =
            wr_any[c] && wr_any[b] &&
            wr_addr[c*SlotBits +: SlotBits] == wr_addr[b*SlotBits +: SlotBits];
      end else begin : g_none
        assign pair_conflict[c*NumChans + b] = 1'b0;
      end
    end
  end

  for (genvar p = 0; p < Dim; p++) begin : g_port_use
    assign port_sends[p] = |ch_sends[p*Lanes +: Lanes];
    assign port_recvs[p] = |ch_recvs[p*Lanes +: Lanes];
  end
  // The PASS registers forwarded: the OR of the channels' one-hot selects, skipped in the
  // cycles that forward nothing (the usual case). A default then the loop: HC_ALWAYS_COMB
  // (always @* under Icarus Verilog, see hc_pkg.sv).
  `HC_ALWAYS_COMB begin : fwd_usage
    fwd_used = '0;
    if (fwd_sel != '0) begin
      for (int c = 0; c < NumChans; c++) fwd_used = fwd_used | fwd_sel[c*NumChans +: NumChans];
    end
  end
  if (NumChans == 1) begin : g_one_chan
    logic unused_wr;  // one channel: no pair to check for a conflict
    assign unused_wr = ^wr_any;
  end

  assign any_fwd_err  = |ch_fwd_err;
  assign any_slot_err = |ch_slot_err;
  assign any_illegal  = |ch_illegal;
  // With a router the pairs are compared only in an XFER or PERMUTE cycle, the only cycles in
  // which a channel writes (wr_any is 0 otherwise), so that routed runs skip the comparisons
  // (n = 10: 45 of them); pair_conflict is then 0.
  if (HasRouter != 0) begin : g_conflict_gated
    // In a function (see next_run).
    function automatic logic pair_writes(input logic run, input logic [NumChans-1:0] any,
                                         input logic [NumChans*SlotBits-1:0] addr);
      // The comparisons only in an XFER or PERMUTE cycle. The loop variables are written on
      // the other path too: yosys 0.23 makes a latch of a loop variable that one path leaves
      // unassigned.
      logic hit;
      int   a;
      int   b;
      if (run) begin
        hit = 1'b0;
        for (a = 0; a < NumChans; a++) begin
          for (b = a + 1; b < NumChans; b++) begin
            if (any[a] && any[b] && addr[a*SlotBits +: SlotBits] == addr[b*SlotBits +: SlotBits]) begin
              hit = 1'b1;
            end
          end
        end
      end else begin
        hit = 1'b0;
        a   = 0;
        b   = 0;
      end
      pair_writes = hit;
    endfunction
    assign conflict = pair_writes(chan_instr, wr_any, wr_addr);
    logic unused_pairs;  // all 0 here
    assign unused_pairs = ^pair_conflict;
  end else begin : g_conflict
    assign conflict = |pair_conflict;
  end

  // ---------------------------------------------------------------------------
  // Block multiply-accumulate (docs/hardware/arithmetic.md §2, §3): rtl/hc_mac.sv. Its reads
  // have multiplexers of their own; it writes through the scan port's write port (mem_write),
  // which the testbench uses only between runs, so that in overlap mode the channels keep theirs.
  // ---------------------------------------------------------------------------

  hc_mac #(
    .NumSlots (NumSlots),
    .WordWidth(WordWidth),
    .MacUnits (MacUnits)
  ) u_mac (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .issue_i   (mac_issue),
    .clear_i   (start_i),
    .field_i   (instr[hc_pkg::MacFieldsAt +: 6 * SlotBits]),
    .busy_o    (mac_busy),
    .work_o    (mac_work),
    .blk_base_o(mac_base_flat),
    .blk_end_o (mac_end_flat),
    .a_addr_o  (mac_a_addr),
    .b_addr_o  (mac_b_addr),
    .a_data_i  (mac_a_data),
    .b_data_i  (mac_b_data),
    .c_addr_o  (mac_c_addr),
    .c_data_i  (mac_c_data),
    .we_o      (mac_we),
    .wr_addr_o (mac_wr_addr),
    .wr_data_o (mac_wr_data),
    .last_o    (mac_last),
    .slot_err_o(mac_slot_err),
    .conflict_o(mac_conflict)
  );

  always_comb begin : mac_reads
    mac_c_data = (32'(mac_c_addr) < NumSlots) ? mem_q[mac_c_addr[SlotBits-1:0]] : '0;
    for (int u = 0; u < MacUnits; u++) begin
      mac_a_data[u*WordWidth +: WordWidth] =
          (32'(mac_a_addr[u*MacAddrBits +: MacAddrBits]) < NumSlots) ?
          mem_q[mac_a_addr[u*MacAddrBits +: SlotBits]] : '0;
      mac_b_data[u*WordWidth +: WordWidth] =
          (32'(mac_b_addr[u*MacAddrBits +: MacAddrBits]) < NumSlots) ?
          mem_q[mac_b_addr[u*MacAddrBits +: SlotBits]] : '0;
    end
  end

  // ---------------------------------------------------------------------------
  // Routed mode: the router (docs/hardware/router.md), sharing the memory and the links
  // ---------------------------------------------------------------------------

  // HasRouter = 0 generates none of it: `routed` is a constant 0, the muxes below fold away and
  // the node is the table-mode node of docs/hardware/node.md, checks.md, gate for gate and in Verilator's
  // per-cycle code (the load port keeps the table's width, the rt_* outputs are tied to 0).

  localparam int SelBits = HasRouter != 0 ? hc_pkg::LoadSelBits : 0;  // derived
  localparam int MsgWidth = hc_pkg::hc_msg_width(Dim, NumSlots);       // derived

  logic                          routed;      // the router's configuration selects routed mode
  logic                          rt_done;
  logic                          rt_copy;
  logic [Dim-1:0]                rt_valid;    // the router sends on port j (lane 0)
  logic [Dim:0]                  rt_wr_en;
  logic [(Dim+1)*SlotBits-1:0]   rt_wr_addr;
  logic [(Dim+1)*WordWidth-1:0]  rt_wr_data;
  logic [Dim-1:0]                rt_in_valid;
  logic                          rt_overflow;
  logic                          rt_conflict;
  logic                          rt_idle;     // the router's flip-flops hold at the next edge
  logic                          tbl_region;  // the load port addresses the table region
  logic                          tbl_we;      // the load port writes the table

  if (HasRouter != 0) begin : g_router
    logic [SelBits-1:0]            ld_sel;
    logic [(Dim+1)*SlotBits-1:0]   rt_rd_addr;
    logic [(Dim+1)*WordWidth-1:0]  rt_rd_data;

    assign ld_sel     = tbl_addr_i[LoadAddrBits-1 -: SelBits];
    assign tbl_region = ld_sel == '0;

    /* verilator tracing_on */  // the router instance is traced (hc_router picks its signals)
    hc_router #(
      .Dim       (Dim),
      .NumSlots  (NumSlots),
      .WordWidth (WordWidth),
      .MsgDepth  (TableDepth),
      .NumVcs    (NumVcs)
    ) u_router (
      .clk_i           (clk_i),
      .rst_ni          (rst_ni),
      .node_id_i       (node_id_q),
      .msg_we_i        (tbl_we_i && ld_sel == SelBits'(1)),
      .hdr_we_i        (tbl_we_i && ld_sel == SelBits'(2)),
      .ld_addr_i       (tbl_addr_i[LoadAddrBits-SelBits-1:0]),
      .ld_wdata_i      (tbl_wdata_i[MsgWidth-1:0]),
      .start_i         (start_i),
      .halt_i          (rt_halt_i),
      .routed_o        (routed),
      .done_o          (rt_done),
      .work_o          (rt_work_o),
      .moved_o         (rt_moved_o),
      .idle_o          (rt_idle),
      .stalls_o        (rt_stalls_o),
      .copy_o          (rt_copy),
      .copy_word_o     (rt_copy_word_o),
      .rd_addr_o       (rt_rd_addr),
      .rd_data_i       (rt_rd_data),
      .wr_en_o         (rt_wr_en),
      .wr_addr_o       (rt_wr_addr),
      .wr_data_o       (rt_wr_data),
      .out_valid_o     (rt_valid),
      .out_pkt_o       (rt_pkt_o),
      .in_valid_i      (rt_in_valid),
      .in_pkt_i        (rt_pkt_i),
      .credit_o        (rt_credit_o),
      .credit_i        (rt_credit_i),
      .dlv_o           (rt_dlv_o),
      .dlv_tag_o       (rt_dlv_tag_o),
      .occ_max_o       (rt_occ_max_o),
      .head_valid_o    (rt_head_valid_o),
      .head_dst_o      (rt_head_dst_o),
      .head_out_o      (rt_head_out_o),
      .head_nocredit_o (rt_head_nocredit_o),
      .overflow_o      (rt_overflow),
      .conflict_o      (rt_conflict)
    );
    /* verilator tracing_off */

    assign done_o    = routed ? rt_done : done;
    assign permute_o = routed ? rt_copy : permute;

    // The router's inputs: lane 0 of each port.
    for (genvar j = 0; j < Dim; j++) begin : g_rt_in
      assign rt_in_valid[j] = in_valid_i[j*Lanes];
    end

    // The router's memory read ports.
    for (genvar k = 0; k <= Dim; k++) begin : g_rt_read
      assign rt_rd_data[k*WordWidth +: WordWidth] = mem_q[rt_rd_addr[k*SlotBits +: SlotBits]];
    end

    // The local copy's write port, after the channels' (it is port n: it wins a slot written
    // twice).
    always_ff @(posedge clk_i) begin : rt_copy_write
      if (rt_wr_en[Dim]) begin
        mem_q[rt_wr_addr[Dim*SlotBits +: SlotBits]] <= rt_wr_data[Dim*WordWidth +: WordWidth];
      end
    end
  end else begin : g_no_router
    assign done_o             = done;
    assign permute_o          = permute;
    assign tbl_region         = 1'b1;
    assign routed             = 1'b0;
    assign rt_done            = 1'b0;
    assign rt_copy            = 1'b0;
    assign rt_valid           = '0;
    assign rt_wr_en           = '0;
    assign rt_wr_addr         = '0;
    assign rt_wr_data         = '0;
    assign rt_overflow        = 1'b0;
    assign rt_conflict        = 1'b0;
    assign rt_pkt_o           = '0;
    assign rt_credit_o        = '0;
    assign rt_work_o          = 1'b0;
    assign rt_moved_o         = 1'b0;
    assign rt_idle            = 1'b0;
    assign rt_stalls_o        = '0;
    assign rt_copy_word_o     = '0;
    assign rt_dlv_o           = '0;
    assign rt_dlv_tag_o       = '0;
    assign rt_occ_max_o       = '0;
    assign rt_head_valid_o    = '0;
    assign rt_head_dst_o      = '0;
    assign rt_head_out_o      = '0;
    assign rt_head_nocredit_o = '0;
    logic unused_rt;  // no router: its inputs and the constants above are not read
    assign rt_in_valid        = '0;
    assign unused_rt = ^{rt_halt_i, rt_pkt_i, rt_credit_i, rt_done, rt_copy, rt_wr_en, rt_wr_addr,
                         rt_wr_data, rt_in_valid};
  end

  // ---------------------------------------------------------------------------
  // Channels: names for the waveform, memory writes
  // ---------------------------------------------------------------------------

  logic                flt_hit;   // the fault mask applies to this node this cycle
  logic [NumChans-1:0] store;     // an arriving word is stored in memory (never in a PERMUTE)

  assign flt_hit = flt_en_i && flt_node_i == node_id_q;

  logic [NumChans-1:0] wr_en;     // the channel's memory write port writes (store or copy)
  logic [NumChans-1:0] pass_now;  // an arriving word is held for a FWD

  if (HasRouter != 0) begin : g_rt_lanes
    // In routed mode lane 0 of port j carries the router's traffic and its write port stores
    // the router's deliveries from port j.
    // Every bit written once (see next_run).
    always_comb begin : rt_lanes
      for (int c = 0; c < NumChans; c++) begin
        store[c] = routed ? c % Lanes == 0 && rt_wr_en[c / Lanes] : wr_slot[c] && in_valid_i[c];
        wr_en[c] = routed ? c % Lanes == 0 && rt_wr_en[c / Lanes] :
                            (wr_slot[c] && in_valid_i[c]) || copy[c];
      end
    end
  end else begin : g_tbl_lanes
    assign store = wr_slot & in_valid_i;
    assign wr_en = store | copy;
  end

  for (genvar j = 0; j < Dim; j++) begin : g_port
    for (genvar l = 0; l < Lanes; l++) begin : g_lane
      localparam int Chan = j * Lanes + l;  // derived

      // Traffic of channel (j, l): what the node sends on it and what arrives on it.
      /* verilator tracing_on */
      logic                 out_valid;
      logic [WordWidth-1:0] out_data;
      logic                 in_valid;
      logic [WordWidth-1:0] in_data;
      /* verilator tracing_off */
      logic [SlotBits-1:0]  wr_slot_addr;

      if (l == 0) begin : g_rt
        assign out_valid = routed ? rt_valid[j] : chan_out_valid[Chan];
        assign out_data  = routed ? rt_pkt_o[j*PktStride +: WordWidth] :
                                    chan_out_data[Chan*WordWidth +: WordWidth];
      end else begin : g_tbl
        assign out_valid = !routed && chan_out_valid[Chan];
        assign out_data  = chan_out_data[Chan*WordWidth +: WordWidth];
      end
      // The fault mask on this channel's output (hc_cube's registers, docs/hardware/faults.md).
      logic flt_here;
      assign flt_here = flt_hit && 32'(flt_chan_i) == Chan;
      assign out_data_o[Chan*WordWidth +: WordWidth] =
          flt_here ? ((out_data & ~flt_clr_i) | flt_set_i) ^ flt_xor_i : out_data;
      assign out_valid_o[Chan] = out_valid && !(flt_here && flt_kill_i);
      assign in_valid          = in_valid_i[Chan];
      assign in_data           = in_data_i[Chan*WordWidth +: WordWidth];
      assign pass_now[Chan]    = pass_slot[Chan] && in_valid;
      assign wr_slot_addr      = (routed && l == 0) ? rt_wr_addr[j*SlotBits +: SlotBits] :
                                                      wr_addr[Chan*SlotBits +: SlotBits];

      // ---- combining receive (docs/hardware/arithmetic.md §1) ----
      // An ADD writes the slot as it is at the start of the cycle plus the arriving word
      // (W-bit wrap-around): one more memory read and one adder per channel.
      logic [WordWidth-1:0] wr_data;
      assign wr_data = (routed && l == 0) ? rt_wr_data[j*WordWidth +: WordWidth] :
                       copy[Chan] ? out_data :
                       add_slot[Chan] ? mem_q[wr_slot_addr] + in_data : in_data;

      // A channel writing the slot the MAC writes in the same cycle (MAC overlap mode only: an
      // `overlap` error, docs/hardware/arithmetic.md §3) is suppressed: the MAC's word is kept.
      logic mac_same;
      assign mac_same = mac_we && wr_slot_addr == mac_wr_addr;

      // One memory write port per channel; they follow mem_write, so the scan port loses to a
      // channel and a higher channel wins over a lower one (a conflict is an error anyway).
      always_ff @(posedge clk_i) begin : chan_write
        if (wr_en[Chan] && !mac_same) mem_q[wr_slot_addr] <= wr_data;
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Checks (docs/hardware/checks.md)
  // ---------------------------------------------------------------------------

  logic [NumErrKinds-1:0] err_event;  // the condition of each error kind holds this cycle

  // Two blocks: the kinds the instruction and the state decide, and the two that depend on what
  // arrives (lost, nodata). Verilator evaluates a block as a whole, and re-evaluates logic that
  // reads a top-level input on every eval(): kept apart, only the small second block is
  // re-evaluated when the node-array model (docs/hardware/testbench.md §2.1) changes a node's inputs.
  logic [NumErrKinds-1:0] err_state;  // err_event but for lost and nodata

  // In routed mode every one of these is 0 (nothing executes, the MAC units and the PASS
  // registers stay idle after the start), so a routed node skips them (`routed` is a constant 0
  // in a node without a router).
  // (Each kind written once: see next_run.)
  always_comb begin : checks_state
    err_state[hc_pkg::ErrLost]     = 1'b0;
    err_state[hc_pkg::ErrNodata]   = 1'b0;
    err_state[hc_pkg::ErrFwd]      = !routed && any_fwd_err;
    err_state[hc_pkg::ErrSlot]     = !routed && (any_slot_err || mac_slot_err);
    err_state[hc_pkg::ErrOverrun]  = !routed && overrun;
    err_state[hc_pkg::ErrOneport]  = !routed && one_port_q && ($countones(port_sends) > 1 ||
                                                               $countones(port_recvs) > 1);
    err_state[hc_pkg::ErrIllegal]  = !routed && (any_illegal ||
                                     (executing && opcode == hc_pkg::OpWait && wait_len == '0));
    err_state[hc_pkg::ErrConflict] = !routed && (conflict || mac_conflict);
    err_state[hc_pkg::ErrDropped]  = !routed && |(pass_valid_q & ~fwd_used);
    err_state[hc_pkg::ErrOverlap]  = !routed && ((mac && mac_busy && mac_overlap_q) ||
                                                 |ch_overlap);
  end

  // err_state's lost and nodata are 0, and all of it is 0 in routed mode, where lost and conflict
  // are the router's FIFO overflow and double writes (the table is idle). One assignment: see
  // next_run.
  logic lost_now;  // the lost condition this cycle
  assign lost_now = routed ? rt_overflow : active_q && |(in_valid_i & ~in_not_idle);
  always_comb begin : checks
    err_event = err_state | (NumErrKinds'(lost_now) << hc_pkg::ErrLost) |
                (NumErrKinds'(|(expect_word & ~in_valid_i)) << hc_pkg::ErrNodata) |
                (NumErrKinds'(routed && rt_conflict) << hc_pkg::ErrConflict);
  end

  // ---------------------------------------------------------------------------
  // Next state
  // ---------------------------------------------------------------------------

  logic                           active_d;
  logic                           one_port_d;
  logic                           mac_overlap_d;
  logic [PcBits-1:0]              pc_d, pc_run;
  logic [WaitBits-1:0]            wait_cnt_d, wait_cnt_run;
  logic [NumChans-1:0]            pass_valid_d;
  logic [PcBits-1:0]              tbl_len_d;

  // Next state while running. The start pulse and the one-port input enter only through the
  // small muxes of next_state: Verilator re-evaluates logic that reads a top-level input on every
  // eval(), so that logic is kept small.
  // Every combinational block of the node writes each variable once per evaluation (no default
  // then override, no variable it also reads): Icarus Verilog 11 wakes an always_comb whenever a
  // later always_comb of the same module runs, so a block whose outputs pass through an
  // intermediate value would wake the others, and they it, without end in one time step.
  always_comb begin : next_run
    pc_run       = advance ? pc_q + PcBits'(1) : pc_q;
    wait_cnt_run = !(executing && opcode == hc_pkg::OpWait) ? wait_cnt_q :
                   wait_last ? '0 : wait_cnt_q + WaitBits'(1);
  end

  // The saturating error counters, one generate branch per kind: constant part-selects, which
  // the Verilated model evaluates as straight-line code (a loop over the kinds ran every cycle
  // with computed part-selects, about a tenth of a node's per-cycle work). The increment is
  // written inside the register block, not as combinational next-state logic: err_event depends
  // on the node's inputs, and Verilator re-evaluates logic combinational from a top-level input
  // on every eval() (the node-array model, docs/hardware/testbench.md §2.1, evaluates a node at least twice
  // per cycle), while a register block runs once per clock edge. The same counters for yosys.
  for (genvar k = 0; k < NumErrKinds; k++) begin : g_err_cnt
    always_ff @(posedge clk_i) begin : count
      if (!rst_ni || start_i) begin
        err_cnt_q[k*CntBits +: CntBits] <= '0;
      end else if (err_event[k] && err_cnt_q[k*CntBits +: CntBits] != '1) begin
        err_cnt_q[k*CntBits +: CntBits] <= err_cnt_q[k*CntBits +: CntBits] + CntBits'(1);
      end
    end
  end

  always_comb begin : next_state
    active_d     = active_q || start_i;
    one_port_d   = start_i ? one_port_i : one_port_q;
    mac_overlap_d = start_i ? mac_overlap_i : mac_overlap_q;
    pc_d         = start_i ? '0 : pc_run;
    wait_cnt_d   = start_i ? '0 : wait_cnt_run;
    pass_valid_d = start_i ? '0 : pass_now;
  end

  // The table's length is one past the highest address written since reset.
  always_comb begin : table_length
    tbl_len_d = (tbl_we && PcBits'(tbl_addr_i[DepthBits-1:0]) >= tbl_len_q) ?
                PcBits'(tbl_addr_i[DepthBits-1:0]) + PcBits'(1) : tbl_len_q;
  end

  always_ff @(posedge clk_i) begin : regs
    if (!rst_ni) begin
      active_q     <= 1'b0;
      one_port_q   <= 1'b0;
      mac_overlap_q <= 1'b0;
      pc_q         <= '0;
      wait_cnt_q   <= '0;
      tbl_len_q    <= '0;
      pass_valid_q <= '0;
    end else begin
      active_q     <= active_d;
      one_port_q   <= one_port_d;
      mac_overlap_q <= mac_overlap_d;
      pc_q         <= pc_d;
      wait_cnt_q   <= wait_cnt_d;
      tbl_len_q    <= tbl_len_d;
      pass_valid_q <= pass_valid_d;
    end
  end

  // The word arriving on every channel, held one cycle for a FWD (pass_valid_q says which count).
  // (Not in routed mode, where nothing forwards: an idle routed node's flip-flops all hold.)
  always_ff @(posedge clk_i) begin : pass_data_regs
    if (!routed) pass_data_q <= in_data_i;
  end

  // ---------------------------------------------------------------------------
  // Memories, written like RAM macros (docs/hardware/synthesis.md)
  // ---------------------------------------------------------------------------

  // Data memory: the scan port's write port here, one write port per channel in g_lane; the
  // reads are combinational (decode, scan port), so it is built from flip-flops. The scan port
  // writes between runs; during a run its write port is the MAC's (docs/hardware/arithmetic.md §2: c(i,j) at the end of
  // the cycle), which the channels' ports never override (g_lane.mac_same).
  always_ff @(posedge clk_i) begin : mem_write
    if (mem_we_i) begin
      if (32'(mem_addr_i) < NumSlots) mem_q[mem_addr_i] <= mem_wdata_i;
    end else if (mac_we) begin
      mem_q[mac_wr_addr] <= mac_wr_data;
    end
  end

  // Table memory: one write port (the load port) and one registered read port, so that it maps
  // to a block RAM. The read address is the pc of the next cycle (pc_d, 0 in reset), so
  // tbl_rdata_q holds tbl_q[pc_q] in every cycle, exactly the word an asynchronous read of
  // tbl_q[pc_q] would give; a word written to that address at the same edge is passed through
  // (write-first), so a table written while the node runs reads the same as well.
  logic [DepthBits-1:0] tbl_raddr;

  assign tbl_we    = tbl_we_i && tbl_region &&
                     32'(tbl_addr_i[LoadAddrBits-SelBits-1:0]) < TableDepth;
  assign tbl_raddr = rst_ni ? pc_d[DepthBits-1:0] : '0;

  always_ff @(posedge clk_i) begin : tbl_ram
    if (tbl_we) tbl_q[tbl_addr_i[DepthBits-1:0]] <= tbl_wdata_i[TableWidth-1:0];
    if (tbl_we && tbl_addr_i[DepthBits-1:0] == tbl_raddr) begin
      tbl_rdata_q <= tbl_wdata_i[TableWidth-1:0];
    end else begin
      tbl_rdata_q <= tbl_q[tbl_raddr];
    end
  end

  // ---------------------------------------------------------------------------
  // Outputs
  // ---------------------------------------------------------------------------

  assign mem_rdata_o = (32'(mem_addr_i) < NumSlots) ? mem_q[mem_addr_i] : '0;
  assign store_o     = store;
  assign err_event_o = err_event;
  // Routed and idle (docs/hardware/router.md §14): the router's flip-flops hold (rt_idle); the table side is halted
  // (pc, wait count, table read register) and its MAC units idle; no input changes memory, the
  // table, an error counter or a register (pass_data_q holds in routed mode).
  assign rt_idle_o   = routed && rt_idle && !tbl_we_i && !mem_we_i && !mac_busy &&
                       err_event == '0 && in_valid_i == '0;
  assign err_count_o = err_cnt_q;
  for (genvar k = 0; k < NumErrKinds; k++) begin : g_err_flag
    assign err_flags_o[k] = |err_cnt_q[k*CntBits +: CntBits];
  end

  /* verilator tracing_on */
endmodule
