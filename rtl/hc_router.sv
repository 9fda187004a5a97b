// hcube RTL: the packet router of one node in routed mode (docs/hardware/router.md).
//
// The router injects the messages that software loaded into its message memory and moves
// one-word packets by their headers, one hop per cycle when the path is free: an input FIFO per
// port (run-time depth 1 .. FifoDepth), injection queues Q_0 .. Q_{n-1} and Q_L read from the
// message memory (software stores each queue's messages contiguously, in list order, and loads
// where each queue begins into the header registers), per-output round-robin arbitration over
// the FIFO heads and the queue head, and credit-based flow control with a credit return latency
// of one cycle. Routing is e-cube (lowest differing dimension first, the iPSC and CM routers of
// Johnsson & Ho 1987 §8.2), source (the next dimension of the packet's remaining route) or
// adaptive (P-cube, Glass & Ni's turn model for the hypercube: first a dimension where the node
// has 0 and the destination 1, then one where the node has 1 and the destination 0; of those,
// the output with the most credits, the lowest of equals; docs/hardware/router.md §3).
// Multi-word messages (docs/hardware/router.md §7): a message is consecutive words of one queue, each word a packet
// of its own; its first word carries the start flag and, with a start-up tau > 0 configured,
// waits until the node's start-up unit (one message at a time, tau cycles) has served it.
// Virtual channels (docs/hardware/router.md §13, parameter NumVcs = V): each input port has V FIFOs
// F_{i,c} (FIFO f = i*V + c) and each output V credit counters C_{j,c} (index j*V + c) but one
// round-robin pointer over the R = nV + 1 requesters (FIFO f, the queue as nV), so a link still
// carries one packet per cycle; the packet names the VC it travels on (a field on top) and the
// credit wires are per FIFO. A head requests a port and a VC chosen on the credits at the start
// of the cycle: e-cube and source take the VC of their port with the most credits; adaptive
// with V >= 2 is Duato's fully adaptive minimal routing with an e-cube escape VC 0. With
// NumVcs = 1 every VC term is generated away and the router is that of docs/hardware/router.md §11 gate for gate.
// It matches the golden model (sw/router/router_engine.cpp) cycle for cycle.
//
// Structure, in the manner of PULP's common_cells: each input FIFO is an hc_fifo and each
// output's arbiter an hc_rr_arb; the router's own state is the configuration, the queues, the
// start-up unit and the credits. The next state of a cycle in which packets move is computed as
// _d signals from the state alone (block next_state); the clocked block chooses between reset,
// start, a load through the load port and that move. The credits are the exception, for the
// reason given where they are counted.
//
// hc_node owns the data memory: the router names the slots it reads (the injected words and the
// local copy, as the memory is at the start of the cycle) and the slots it writes at the end of
// the cycle (deliveries per input port, the local copy as port n). The link word travels on
// hc_node's channel ports (lane 0 of each port), so the cube's word counters and the testbench's
// traffic monitor see routed traffic as they see table traffic; the header travels beside it.
//
// Per-cycle cost: the per-port loops look at FIFO heads only when the FIFO holds a packet, so an
// idle router (table mode included) costs the simulator little; a packet is assembled only for
// a granted head, and the blocked-head report is computed only once halted.

module hc_router
#(
  /* verilator tracing_off */
  /// Cube dimensions n: one input FIFO and one output per dimension.
  parameter int Dim = 3,
  /// Memory words per node M.
  parameter int NumSlots = 8,
  /// Word width W in bits.
  parameter int WordWidth = 32,
  /// Message memory words (hc_node: its table depth).
  parameter int MsgDepth = 16,
  /// Storage of each input FIFO; the configuration register chooses 1 .. FifoDepth at run time.
  parameter int FifoDepth = hc_pkg::FifoDepthDefault,
  /// Virtual channels per link V (1 .. 4, docs/hardware/router.md §13): V input FIFOs per port.
  parameter int NumVcs = 1,

  // derived
  localparam int SlotBits  = hc_pkg::hc_bits(NumSlots),
  localparam int PortBits  = hc_pkg::hc_bits(Dim),
  localparam int DepthBits = hc_pkg::hc_bits(MsgDepth),
  localparam int HdrBits   = hc_pkg::hc_bits(Dim + 3),
  localparam int MsgWidth  = hc_pkg::hc_msg_width(Dim, NumSlots),
  localparam int RouteMax  = hc_pkg::hc_route_max(Dim),
  localparam int LenBits   = hc_pkg::hc_bits(RouteMax + 1),
  localparam int RouteBits = RouteMax * PortBits,
  /// A delivered packet's tag: its source node and the index of its message there.
  localparam int TagBits   = Dim + DepthBits,
  /// Input FIFOs: V per input port, FIFO f = port * V + VC.
  localparam int NumFifos  = Dim * NumVcs,
  /// A virtual channel; a FIFO (or output VC) index port * V + VC.
  localparam int VcBits    = hc_pkg::hc_bits(NumVcs),
  localparam int FifoBits  = hc_pkg::hc_bits(NumFifos),
  /// Packet: word, dst, dslot, remaining route count and dimensions, tag, last-hop flag and, with
  /// V >= 2, the VC it travels on.
  localparam int PktBits   =
      hc_pkg::hc_pkt_bits_vc(Dim, NumSlots, MsgDepth, WordWidth, NumVcs),
  /// A packet's place on the link ports: PktBits rounded up to whole 32-bit words.
  localparam int PktStride =
      hc_pkg::hc_pkt_stride(Dim, NumSlots, MsgDepth, WordWidth, NumVcs),
  localparam int CntBits   = $clog2(FifoDepth + 1),
  localparam int StallBits = hc_pkg::hc_stall_bits(Dim, NumVcs)
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic [Dim-1:0]                node_id_i,

  /// Load port, message memory: word ld_addr_i <- ld_wdata_i.
  input  logic                          msg_we_i,
  /// Load port, header: 0 configuration, 1 + q the index where queue q begins (q = n + 1: the
  /// end of Q_L).
  input  logic                          hdr_we_i,
  input  logic [hc_pkg::hc_max(DepthBits, HdrBits)-1:0] ld_addr_i,
  input  logic [MsgWidth-1:0]           ld_wdata_i,

  /// One-cycle start pulse: queues from the header, FIFOs empty, credits D, pointers 0.
  input  logic                          start_i,
  /// The cube declares a deadlock this cycle: the state freezes from the end of the cycle.
  input  logic                          halt_i,

  /// The configuration selects routed mode.
  output logic                          routed_o,
  /// Started, and nothing is left to send (or halted).
  output logic                          done_o,
  /// A FIFO holds a packet or a queue head is released (docs/hardware/router.md §5).
  output logic                          work_o,
  /// A packet moved or was copied this cycle.
  output logic                          moved_o,
  /// The next rising edge changes none of the router's flip-flops (routed, started, nothing in
  /// its FIFOs or queues, nothing arriving, no credit returned, no load or start): the router's
  /// clock enable, which the node-array testbench uses to skip the node's edge (docs/hardware/router.md §14).
  output logic                          idle_o,
  /// Requesters not granted this cycle.
  output logic [StallBits-1:0]          stalls_o,
  /// The head of Q_L is copied this cycle, and the word copied.
  output logic                          copy_o,
  output logic [WordWidth-1:0]          copy_word_o,

  /// Memory read ports: slot k (queue Q_k's head source slot; k = n: Q_L) and its word.
  output logic [(Dim+1)*SlotBits-1:0]   rd_addr_o,
  input  logic [(Dim+1)*WordWidth-1:0]  rd_data_i,
  /// Memory write ports at the end of the cycle: k < n a delivery arriving on port k, k = n the
  /// local copy (the highest port wins a slot written twice).
  output logic [Dim:0]                  wr_en_o,
  output logic [(Dim+1)*SlotBits-1:0]   wr_addr_o,
  output logic [(Dim+1)*WordWidth-1:0]  wr_data_o,

  /// Links: packet sent on output j / arriving on input j, at bits [j*PktStride +: PktBits] (each
  /// port's packet starts on a 32-bit word; the bits above it are 0).
  output logic [Dim-1:0]                out_valid_o,
  output logic [Dim*PktStride-1:0]      out_pkt_o,
  input  logic [Dim-1:0]                in_valid_i,
  input  logic [Dim*PktStride-1:0]      in_pkt_i,
  /// Credits: input FIFO f = j*V + c popped (to the neighbour's output j, VC c) / the
  /// neighbour's FIFO f popped.
  output logic [NumFifos-1:0]           credit_o,
  input  logic [NumFifos-1:0]           credit_i,

  /// Deliveries this cycle (k = n: the local copy) and the tags of their packets.
  output logic [Dim:0]                  dlv_o,
  output logic [(Dim+1)*TagBits-1:0]    dlv_tag_o,
  /// Largest occupancy of input FIFO f at the end of a cycle since start.
  output logic [NumFifos*CntBits-1:0]   occ_max_o,
  /// Once halted (a deadlock declared), the heads that want to move (k < nV: FIFO k; nV + j:
  /// queue Q_j, released), their destination, the output they request (port * V + VC) and
  /// whether that output VC has no credit for them; zero before (the testbench reads them after
  /// the halt).
  output logic [NumFifos+Dim-1:0]       head_valid_o,
  output logic [(NumFifos+Dim)*Dim-1:0] head_dst_o,
  output logic [(NumFifos+Dim)*FifoBits-1:0] head_out_o,
  output logic [NumFifos+Dim-1:0]       head_nocredit_o,
  /// A packet arrived at a full FIFO (dropped) / two writes of one slot this cycle.
  output logic                          overflow_o,
  output logic                          conflict_o
);

  localparam int PtrBits = $clog2(MsgDepth + 1);  // derived: a queue pointer reaches D
  localparam int RelBits = hc_pkg::RelBits;       // derived
  localparam int TauBits = hc_pkg::TauBits;       // derived
  localparam int Req     = NumFifos + 1;          // derived: requesters per output
  localparam int ReqBits = hc_pkg::hc_bits(2 * Req);  // derived

  // Message word fields (docs/hardware/router.md §1), least significant first.
  localparam int MSrc   = 0;                    // derived
  localparam int MDst   = MSrc + SlotBits;      // derived
  localparam int MDslot = MDst + Dim;           // derived
  localparam int MLen   = MDslot + SlotBits;    // derived
  localparam int MRoute = MLen + LenBits;       // derived
  localparam int MRel   = MRoute + RouteBits;   // derived
  localparam int MStart = MRel + RelBits;       // derived
  // Packet fields, least significant first.
  localparam int PWord  = 0;                    // derived
  localparam int PDst   = WordWidth;            // derived
  localparam int PDslot = PDst + Dim;           // derived
  localparam int PLen   = PDslot + SlotBits;    // derived
  localparam int PRoute = PLen + LenBits;       // derived
  localparam int PTag   = PRoute + RouteBits;   // derived
  localparam int PLast  = PTag + TagBits;       // derived
  // The VC field (V >= 2 only; with V = 1 the constant branches that name it are never taken).
  localparam int PVc    = NumVcs > 1 ? PLast + 1 : PLast;  // derived

  // ---------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------

  /* verilator tracing_on */
  logic                     routed_q;   // configuration: routed mode
  logic                     source_q;   // configuration: source routing
  logic                     adaptive_q; // configuration: adaptive routing (neither: e-cube)
  logic [CntBits-1:0]       depth_q;    // configuration: FIFO depth D
  logic [TauBits-1:0]       tau_q;      // configuration: start-up cycles of a message
  logic                     su_busy_q;  // the start-up unit serves a queue head
  logic [PortBits-1:0]      su_queue_q; // ... of this queue
  logic [TauBits-1:0]       su_left_q;  // ... for this many more cycles
  logic [Dim-1:0]           qs_q;       // Q_j's head has had its start-up
  logic                     started_q;  // started in routed mode
  logic                     halted_q;   // deadlock declared
  logic [RelBits-1:0]       cyc_q;      // cycles since start while a queue holds a message
  logic [NumFifos*CntBits-1:0] fifo_cnt; // occupancy per input FIFO f = port * V + VC
  logic [NumFifos*CntBits-1:0] credit_q; // credits per output VC j * V + c
  /* verilator lint_off UNUSEDSIGNAL */
  logic [Dim*ReqBits-1:0]   rr_ptr;     // round-robin pointer per output port (for the waveform)
  /* verilator lint_on UNUSEDSIGNAL */
  logic [Dim-1:0]           grant_v;    // output j sends this cycle
  logic [Dim*ReqBits-1:0]   grant_i;    // ... the packet of requester r (FIFO r; nV: the queue)
  logic [Dim*VcBits-1:0]    grant_vc;   // ... on this VC (0 with V = 1)
  /* verilator tracing_off */
  logic [(Dim+2)*PtrBits-1:0] begin_q;  // header: where queue q begins, q at [q]
  logic [(Dim+1)*PtrBits-1:0] qh_q;     // queue heads
  logic [MsgWidth-1:0]      msg_q   [MsgDepth];
  logic [NumFifos*PktBits-1:0] fh_pkt;  // FIFO f's head packet (while fifo_cnt says it has one)
  logic [NumFifos-1:0]      fifo_full;  // FIFO f has no room for a push this cycle

  // The heads are looked at from start on, also once halted (the testbench reads the blocked
  // heads after a deadlock); packets move only while active.
  logic active;  // routed, started and not halted
  assign active = started_q && !halted_q;

  // ---------------------------------------------------------------------------
  // Heads: FIFO heads and queue heads, the outputs they request
  // ---------------------------------------------------------------------------

  logic [NumFifos-1:0]          fh_v;     // FIFO f holds a packet
  logic [NumFifos*PortBits-1:0] fh_out;   // ... the output port its head requests
  logic [NumFifos*VcBits-1:0]   fh_vc;    // ... and the VC there (0 with V = 1)
  logic [NumFifos-1:0]          fh_last;
  logic [Dim*VcBits-1:0]        qh_vc;    // the VC Q_j's head requests on port j
  logic [Dim:0]            qh_v;     // queue q's head is released
  logic [Dim-1:0]          qh_last;
  logic [Dim:0]            rel_wait; // queue q has a head not yet released
  logic [Dim-1:0]          su_wait;  // Q_j's head is released and waits for its start-up
  logic [SlotBits-1:0]     copy_slot; // Q_L's head: the slot it writes

  // Each queue's head: its message index (the fields are read from msg_q where they are used)
  // and the slot it reads.
  logic [(Dim+1)*MsgWidth-1:0]  qm;
  logic [(Dim+1)*DepthBits-1:0] q_at;  // the head's message index
  logic [Dim:0]                 q_any; // queue q is not empty

  `HC_ALWAYS_COMB begin : queue_heads
    qm        = '0;
    q_at      = '0;
    q_any     = '0;
    rd_addr_o = '0;
    if (started_q) begin
      for (int q = 0; q <= Dim; q++) begin
        q_at[q*DepthBits +: DepthBits] = qh_q[q*PtrBits +: DepthBits];
        if (started_q && qh_q[q*PtrBits +: PtrBits] < begin_q[(q + 1)*PtrBits +: PtrBits]) begin
          q_any[q] = 1'b1;
          qm[q*MsgWidth +: MsgWidth] = msg_q[qh_q[q*PtrBits +: DepthBits]];
          rd_addr_o[q*SlotBits +: SlotBits] = msg_q[qh_q[q*PtrBits +: DepthBits]][MSrc +: SlotBits];
        end
      end
    end
  end

  // Per output port, on the credits at the start of the cycle (docs/hardware/router.md §13): the VC
  // with the most credits (lowest of equals: e-cube and source heads, P-cube injection), and of
  // the adaptive VCs 1 .. V-1 the one with the most credits and that count (Duato). The
  // injection heads' VCs follow from them alone. With V = 1 there is nothing to choose.
  logic [Dim*VcBits-1:0]  best_vc;
  logic [Dim*VcBits-1:0]  best_avc;
  logic [Dim*CntBits-1:0] best_acr;

  if (NumVcs > 1) begin : g_vc_pick
    `HC_ALWAYS_COMB begin : vc_pick
      logic [CntBits-1:0] cr;
      cr       = '0;
      best_vc  = '0;
      best_avc = '0;
      best_acr = '0;
      qh_vc    = '0;
      for (int j = 0; j < Dim; j++) begin
        cr = credit_q[j*NumVcs*CntBits +: CntBits];
        for (int c = 1; c < NumVcs; c++) begin
          if (credit_q[(j*NumVcs + c)*CntBits +: CntBits] > cr) begin
            cr = credit_q[(j*NumVcs + c)*CntBits +: CntBits];
            best_vc[j*VcBits +: VcBits] = VcBits'(c);
          end
        end
        best_avc[j*VcBits +: VcBits]   = VcBits'(1);
        best_acr[j*CntBits +: CntBits] = credit_q[(j*NumVcs + 1)*CntBits +: CntBits];
        for (int c = 2; c < NumVcs; c++) begin
          if (credit_q[(j*NumVcs + c)*CntBits +: CntBits] > best_acr[j*CntBits +: CntBits]) begin
            best_acr[j*CntBits +: CntBits] = credit_q[(j*NumVcs + c)*CntBits +: CntBits];
            best_avc[j*VcBits +: VcBits]   = VcBits'(c);
          end
        end
        // Q_j's head: Duato takes the best adaptive VC if it has a credit, else the escape VC 0
        // (its first hop is its e-cube dimension); the others the VC with the most credits.
        if (adaptive_q) begin
          if (best_acr[j*CntBits +: CntBits] != '0) begin
            qh_vc[j*VcBits +: VcBits] = best_avc[j*VcBits +: VcBits];
          end
        end else begin
          qh_vc[j*VcBits +: VcBits] = best_vc[j*VcBits +: VcBits];
        end
      end
    end
  end else begin : g_one_vc
    assign best_vc  = '0;
    assign best_avc = '0;
    assign best_acr = '0;
    assign qh_vc    = '0;
  end

  `HC_ALWAYS_COMB begin : heads
    logic [Dim-1:0]       diff;
    logic [PortBits-1:0]  out;
    logic                 last;
    logic [Dim-1:0]       allow;  // adaptive: the dimensions P-cube allows
    logic [CntBits-1:0]   best;   // adaptive: the most credits seen
    logic                 picked;
    logic [VcBits-1:0]    vc;     // the VC requested
    vc       = '0;
    allow    = '0;
    best     = '0;
    picked   = 1'b0;
    diff     = '0;
    out      = '0;
    last     = 1'b0;
    fh_v     = '0;
    fh_out   = '0;
    fh_vc    = '0;
    fh_last  = '0;
    qh_v     = '0;
    qh_last  = '0;
    rel_wait = '0;
    su_wait  = '0;
    copy_slot = '0;
    // Only the routing decision is made here; the packet itself is assembled for the granted
    // heads alone (block `send`).
    if (started_q) begin
      for (int i = 0; i < NumFifos; i++) begin
        if (fifo_cnt[i*CntBits +: CntBits] != '0) begin
          diff = fh_pkt[i*PktBits + PDst +: Dim] ^ node_id_i;
          out  = '0;
          vc   = '0;
          if (source_q) begin
            out  = fh_pkt[i*PktBits + PRoute +: PortBits];
            last = fh_pkt[i*PktBits + PLen +: LenBits] == LenBits'(1);
            if (NumVcs > 1) vc = best_vc[32'(out)*VcBits +: VcBits];
          end else if (adaptive_q && NumVcs > 1) begin
            // Duato's fully adaptive minimal routing with an escape VC (J. Duato, "A new theory
            // of deadlock-free adaptive routing in wormhole networks", IEEE TPDS 4(12), 1993):
            // of the adaptive VCs 1 .. V-1 of every dimension still to cross, the one with the
            // most credits (lowest dimension, then lowest VC, of equals: best_avc is the lowest
            // VC of its port); with no credit on any of them the escape VC 0 of the e-cube
            // dimension, whose FIFOs alone cannot form a cycle (docs/hardware/router.md §13).
            picked = 1'b0;
            best   = '0;
            for (int d = 0; d < Dim; d++) begin
              if (diff[d] && (!picked || best_acr[d*CntBits +: CntBits] > best)) begin
                out    = PortBits'(d);
                vc     = best_avc[d*VcBits +: VcBits];
                best   = best_acr[d*CntBits +: CntBits];
                picked = 1'b1;
              end
            end
            if (best == '0) begin
              vc = '0;
              for (int d = Dim; d > 0; d--) begin
                if (diff[d-1]) out = PortBits'(d - 1);
              end
            end
            last = (diff & (diff - Dim'(1))) == '0;
          end else if (adaptive_q) begin
            allow = ~node_id_i & fh_pkt[i*PktBits + PDst +: Dim];
            if (allow == '0) allow = node_id_i & ~fh_pkt[i*PktBits + PDst +: Dim];
            picked = 1'b0;
            best   = '0;
            for (int d = 0; d < Dim; d++) begin
              if (allow[d] && (!picked || credit_q[d*CntBits +: CntBits] > best)) begin
                out    = PortBits'(d);
                best   = credit_q[d*CntBits +: CntBits];
                picked = 1'b1;
              end
            end
            last = (diff & (diff - Dim'(1))) == '0;
          end else begin
            for (int d = Dim; d > 0; d--) begin
              if (diff[d-1]) out = PortBits'(d - 1);
            end
            last = (diff & (diff - Dim'(1))) == '0;
            if (NumVcs > 1) vc = best_vc[32'(out)*VcBits +: VcBits];
          end
          fh_v[i] = 1'b1;
          fh_out[i*PortBits +: PortBits] = out;
          fh_vc[i*VcBits +: VcBits] = vc;
          fh_last[i] = last;
        end
      end
      for (int q = 0; q <= Dim; q++) begin
        if (q_any[q]) begin
          if (qm[q*MsgWidth + MRel +: RelBits] <= cyc_q) begin
            qh_v[q] = 1'b1;
            if (q < Dim) begin
              if (qm[q*MsgWidth + MStart] && tau_q != '0 && !qs_q[q]) begin
                qh_v[q]    = 1'b0;  // waits for the start-up unit
                su_wait[q] = 1'b1;
              end
            end
          end else begin
            rel_wait[q] = 1'b1;
          end
          if (q == Dim) copy_slot = qm[q*MsgWidth + MDslot +: SlotBits];
          if (q < Dim) begin
            if (source_q) begin
              qh_last[q] = qm[q*MsgWidth + MLen +: LenBits] == LenBits'(1);
            end else begin
              qh_last[q] = qm[q*MsgWidth + MDst +: Dim] == (node_id_i ^ Dim'(1 << q));
            end
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------------------
  // The start-up unit (docs/hardware/router.md §7): idle, it takes the lowest queue whose released
  // head waits; it works tau cycles, after which that head may request its output.
  // ---------------------------------------------------------------------------

  logic                su_active;  // the unit works this cycle
  logic [PortBits-1:0] su_cur;     // ... for this queue
  logic [TauBits-1:0]  su_left;    // ... cycles left, this one included

  `HC_ALWAYS_COMB begin : startup_unit
    su_active = su_busy_q;
    su_cur    = su_queue_q;
    su_left   = su_left_q;
    if (!su_busy_q && su_wait != '0) begin
      su_active = 1'b1;
      su_left   = tau_q;
      for (int q = Dim; q > 0; q--) begin
        if (su_wait[q-1]) su_cur = PortBits'(q - 1);
      end
    end
    if (!active) su_active = 1'b0;
  end

  // ---------------------------------------------------------------------------
  // Arbitration per output (docs/hardware/router.md §4 step 2)
  // ---------------------------------------------------------------------------

  logic [NumFifos-1:0]  pop;       // FIFO f's head leaves
  logic [Dim-1:0]       inj;       // Q_j's head leaves
  logic [NumFifos-1:0]  use_cred;  // output VC j * V + c spends a credit
  logic [StallBits-1:0] stalls;

  // The requests: each FIFO head asks for its output, each released queue head Q_j for j; one
  // may send on its last hop or with a credit of the output VC it requests.
  logic [Dim*Req-1:0] reqs;  // requester i of output j at [j*Req + i]
  logic [Dim*Req-1:0] mays;  // ... and it may send

  `HC_ALWAYS_COMB begin : requests
    logic [PortBits-1:0] o;
    o    = '0;
    reqs = '0;
    mays = '0;
    if (active && (fh_v != '0 || qh_v[Dim-1:0] != '0)) begin
      for (int i = 0; i < NumFifos; i++) begin
        if (fh_v[i]) begin
          o = fh_out[i*PortBits +: PortBits];
          reqs[32'(o)*Req + i] = 1'b1;
          if (NumVcs == 1) begin
            mays[32'(o)*Req + i] = fh_last[i] || credit_q[32'(o)*CntBits +: CntBits] != '0;
          end else begin
            mays[32'(o)*Req + i] = fh_last[i] ||
                credit_q[(32'(o)*NumVcs + 32'(fh_vc[i*VcBits +: VcBits]))*CntBits +: CntBits] != '0;
          end
        end
      end
      for (int j = 0; j < Dim; j++) begin
        if (qh_v[j]) begin
          reqs[j*Req + NumFifos] = 1'b1;
          if (NumVcs == 1) begin
            mays[j*Req + NumFifos] = qh_last[j] || credit_q[j*CntBits +: CntBits] != '0;
          end else begin
            mays[j*Req + NumFifos] = qh_last[j] ||
                credit_q[(j*NumVcs + 32'(qh_vc[j*VcBits +: VcBits]))*CntBits +: CntBits] != '0;
          end
        end
      end
    end
  end

  // Round-robin per output over the requesters that may send; the pointer moves past the one
  // granted (the queue, requester nV: to 0) in a cycle where packets move.
  logic [Dim-1:0]         arb_gnt;
  logic [Dim*ReqBits-1:0] arb_idx;

  for (genvar j = 0; j < Dim; j++) begin : g_arb
    hc_rr_arb #(
      .NumReq (Req),
      .IdxBits(ReqBits)
    ) u_arb (
      .clk_i,
      .rst_ni,
      .clear_i(start_i),
      .en_i   (active && !halt_i),
      .req_i  (reqs[j*Req +: Req] & mays[j*Req +: Req]),
      .gnt_o  (arb_gnt[j]),
      .idx_o  (arb_idx[j*ReqBits +: ReqBits]),
      .ptr_o  (rr_ptr[j*ReqBits +: ReqBits])
    );
  end

  // What the grants take: the FIFO heads popped, the queue heads injected, the credits spent
  // and the requesters that lost.
  `HC_ALWAYS_COMB begin : grants
    logic [ReqBits-1:0] gi;
    logic [VcBits-1:0]  gvc;    // the granted requester's VC
    gi       = '0;
    gvc      = '0;
    pop      = '0;
    inj      = '0;
    use_cred = '0;
    stalls   = '0;
    grant_v  = '0;
    grant_i  = '0;
    grant_vc = '0;
    out_valid_o = '0;
    if (reqs != '0) begin
      for (int j = 0; j < Dim; j++) begin
        gi     = arb_idx[j*ReqBits +: ReqBits];
        stalls = stalls + StallBits'($countones(reqs[j*Req +: Req])) - StallBits'(arb_gnt[j]);
        if (arb_gnt[j]) begin
          grant_v[j] = 1'b1;
          grant_i[j*ReqBits +: ReqBits] = gi;
          out_valid_o[j] = 1'b1;
          if (NumVcs == 1) begin
            if (32'(gi) == Dim) begin
              inj[j] = 1'b1;
              use_cred[j] = !qh_last[j];
            end else begin
              pop = pop | (NumFifos'(1) << gi);
              use_cred[j] = ((fh_last >> gi) & NumFifos'(1)) == '0;
            end
          end else begin
            // The credit spent is that of the VC the packet requested (docs/hardware/router.md §13).
            if (32'(gi) == NumFifos) begin
              inj[j] = 1'b1;
              gvc    = qh_vc[j*VcBits +: VcBits];
              use_cred[j*NumVcs + 32'(gvc)] = !qh_last[j];
            end else begin
              pop = pop | (NumFifos'(1) << gi);
              gvc = fh_vc[32'(gi)*VcBits +: VcBits];
              use_cred[j*NumVcs + 32'(gvc)] = ((fh_last >> gi) & NumFifos'(1)) == '0;
            end
            grant_vc[j*VcBits +: VcBits] = gvc;
          end
        end
      end
    end
  end

  // The packets of the granted heads as they leave: route advanced, last-hop flag set; a queue
  // head's packet is built from its message and the word read from memory.
  `HC_ALWAYS_COMB begin : send
    logic [PktBits-1:0]     pkt;
    logic [LenBits-1:0]     len;
    logic [RouteBits-1:0]   route;
    logic [FifoBits-1:0]    gi;
    pkt       = '0;
    len       = '0;
    route     = '0;
    gi        = '0;
    out_pkt_o = '0;
    if (grant_v != '0) begin
      for (int j = 0; j < Dim; j++) begin
        if (grant_v[j]) begin
          if (inj[j]) begin
            pkt                     = '0;
            pkt[PWord +: WordWidth] = rd_data_i[j*WordWidth +: WordWidth];
            pkt[PDst +: Dim]        = qm[j*MsgWidth + MDst +: Dim];
            pkt[PDslot +: SlotBits] = qm[j*MsgWidth + MDslot +: SlotBits];
            pkt[PTag +: TagBits]    = {node_id_i, q_at[j*DepthBits +: DepthBits]};
            pkt[PLast]              = qh_last[j];
            len                     = qm[j*MsgWidth + MLen +: LenBits];
            route                   = qm[j*MsgWidth + MRoute +: RouteBits];
          end else begin
            // FIFO gi's head (a mux per output over the FIFO heads, which synthesis shares).
            gi = grant_i[j*ReqBits +: FifoBits];
            for (int i = 0; i < NumFifos; i++) begin
              if (32'(gi) == i) begin
                pkt        = fh_pkt[i*PktBits +: PktBits];
                pkt[PLast] = fh_last[i];
              end
            end
            len   = pkt[PLen +: LenBits];
            route = pkt[PRoute +: RouteBits];
          end
          pkt[PLen +: LenBits]     = len - LenBits'(1);
          pkt[PRoute +: RouteBits] = route >> PortBits;
          if (NumVcs > 1) pkt[PVc +: VcBits] = grant_vc[j*VcBits +: VcBits];
          out_pkt_o[j*PktStride +: PktBits] = pkt;
        end
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Receive: deliveries, FIFO pushes, the local copy (steps 3-5)
  // ---------------------------------------------------------------------------

  logic [NumFifos-1:0] push;
  logic [NumFifos-1:0] drop;  // pushed into a full FIFO

  // Deliveries from the links: packets on their last hop. They depend on the link inputs alone,
  // so a simulator evaluates them when the links change and not again at the clock edge.
  logic [Dim-1:0]           dl_en;
  logic [Dim*SlotBits-1:0]  dl_addr;
  logic [Dim*WordWidth-1:0] dl_data;
  logic [Dim*TagBits-1:0]   dl_tag;

  `HC_ALWAYS_COMB begin : deliver
    dl_en   = '0;
    dl_addr = '0;
    dl_data = '0;
    dl_tag  = '0;
    if (in_valid_i != '0) begin
      for (int j = 0; j < Dim; j++) begin
        if (in_valid_i[j] && in_pkt_i[j*PktStride + PLast]) begin
          dl_en[j] = 1'b1;
          dl_addr[j*SlotBits +: SlotBits]   = in_pkt_i[j*PktStride + PDslot +: SlotBits];
          dl_data[j*WordWidth +: WordWidth] = in_pkt_i[j*PktStride + PWord +: WordWidth];
          dl_tag[j*TagBits +: TagBits]      = in_pkt_i[j*PktStride + PTag +: TagBits];
        end
      end
    end
  end

  // The other arriving packets enter their FIFO (with V >= 2 that of the VC the packet names),
  // or are dropped when it stays full.
  `HC_ALWAYS_COMB begin : receive
    push = '0;
    drop = '0;
    if (in_valid_i != '0) begin
      for (int j = 0; j < Dim; j++) begin
        if (in_valid_i[j] && !in_pkt_i[j*PktStride + PLast]) begin
          if (NumVcs == 1) begin
            if (fifo_full[j]) begin
              drop[j] = 1'b1;
            end else begin
              push[j] = 1'b1;
            end
          end else begin
            for (int c = 0; c < NumVcs; c++) begin
              if (in_pkt_i[j*PktStride + PVc +: VcBits] == VcBits'(c)) begin
                if (fifo_full[j*NumVcs + c]) begin
                  drop[j*NumVcs + c] = 1'b1;
                end else begin
                  push[j*NumVcs + c] = 1'b1;
                end
              end
            end
          end
        end
      end
    end
  end

  // The memory writes: the deliveries, and the local copy as port n.
  logic cp_en;  // Q_L's head is copied this cycle
  assign cp_en     = active && qh_v[Dim];
  assign wr_en_o   = {cp_en, dl_en};
  assign wr_addr_o = {cp_en ? copy_slot : SlotBits'(0), dl_addr};
  assign wr_data_o = {cp_en ? rd_data_i[Dim*WordWidth +: WordWidth] : WordWidth'(0), dl_data};
  assign dlv_o     = {cp_en, dl_en};
  assign dlv_tag_o = {cp_en ? {node_id_i, q_at[Dim*DepthBits +: DepthBits]} : TagBits'(0), dl_tag};

  `HC_ALWAYS_COMB begin : conflicts
    conflict_o = 1'b0;
    if ((wr_en_o & (wr_en_o - (Dim+1)'(1))) != '0) begin  // two writes or more
      for (int a = 0; a <= Dim; a++) begin
        for (int b = a + 1; b <= Dim; b++) begin
          if (wr_en_o[a] && wr_en_o[b] &&
              wr_addr_o[a*SlotBits +: SlotBits] == wr_addr_o[b*SlotBits +: SlotBits]) begin
            conflict_o = 1'b1;
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Next state
  // ---------------------------------------------------------------------------

  logic [CntBits-1:0]     cfg_depth;

  // The configured depth, 1 .. FifoDepth (0 or more than FifoDepth: FifoDepth).
  `HC_ALWAYS_COMB begin : depth_cfg
    cfg_depth = CntBits'(FifoDepth);
    if (ld_wdata_i[hc_pkg::CfgDepthAt +: hc_pkg::CfgDepthBits] != '0 &&
        32'(ld_wdata_i[hc_pkg::CfgDepthAt +: hc_pkg::CfgDepthBits]) <= FifoDepth) begin
      cfg_depth = CntBits'(ld_wdata_i[hc_pkg::CfgDepthAt +: hc_pkg::CfgDepthBits]);
    end
  end

  // The next state of a cycle in which packets move (active, no halt declared), from the state
  // alone. Only the queue heads' release times read the cycle count, so it stops with the last
  // message (the queues are not refilled during a run): an idle router's flip-flops hold.
  logic [RelBits-1:0]         cyc_d;
  logic [(Dim+1)*PtrBits-1:0] qh_d;
  logic [Dim-1:0]             qs_d;
  logic                       su_busy_d;
  logic [PortBits-1:0]        su_queue_d;
  logic [TauBits-1:0]         su_left_d;

  `HC_ALWAYS_COMB begin : next_state
    cyc_d      = q_any != '0 ? cyc_q + RelBits'(1) : cyc_q;
    qh_d       = qh_q;
    qs_d       = qs_q;
    su_busy_d  = su_busy_q;
    su_queue_d = su_queue_q;
    su_left_d  = su_left_q;
    for (int q = 0; q < Dim; q++) begin
      if (inj[q]) begin
        qh_d[q*PtrBits +: PtrBits] = qh_q[q*PtrBits +: PtrBits] + PtrBits'(1);
        qs_d[q] = 1'b0;
      end
    end
    if (qh_v[Dim]) qh_d[Dim*PtrBits +: PtrBits] = qh_q[Dim*PtrBits +: PtrBits] + PtrBits'(1);
    if (su_active) begin
      if (su_left == TauBits'(1)) begin
        su_busy_d    = 1'b0;
        qs_d[su_cur] = 1'b1;
      end else begin
        su_busy_d  = 1'b1;
        su_queue_d = su_cur;
        su_left_d  = su_left - TauBits'(1);
      end
    end
  end

  always_ff @(posedge clk_i) begin : regs
    if (!rst_ni) begin
      routed_q  <= 1'b0;
      source_q  <= 1'b0;
      adaptive_q <= 1'b0;
      depth_q   <= CntBits'(FifoDepth);
      tau_q     <= '0;
      su_busy_q <= 1'b0;
      su_queue_q <= '0;
      su_left_q <= '0;
      qs_q      <= '0;
      started_q <= 1'b0;
      halted_q  <= 1'b0;
      cyc_q     <= '0;
      credit_q  <= '0;
      begin_q   <= '0;
      qh_q      <= '0;
    end else if (start_i) begin
      started_q <= routed_q;
      halted_q  <= 1'b0;
      su_busy_q <= 1'b0;
      qs_q      <= '0;
      cyc_q     <= '0;
      for (int j = 0; j < NumFifos; j++) begin
        credit_q[j*CntBits +: CntBits] <= depth_q;
      end
      qh_q      <= begin_q[(Dim+1)*PtrBits-1:0];
    end else begin
      if (hdr_we_i) begin
        if (ld_addr_i == '0) begin
          routed_q <= ld_wdata_i[hc_pkg::CfgRoutedAt];
          source_q <= ld_wdata_i[hc_pkg::CfgSourceAt];
          adaptive_q <= ld_wdata_i[hc_pkg::CfgAdaptiveAt];
          depth_q  <= cfg_depth;
          tau_q    <= ld_wdata_i[hc_pkg::CfgTauAt +: TauBits];
        end else if (32'(ld_addr_i) < Dim + 3) begin
          begin_q[(32'(ld_addr_i) - 1)*PtrBits +: PtrBits] <= ld_wdata_i[PtrBits-1:0];
        end
      end
      if (active && !halt_i) begin
        cyc_q      <= cyc_d;
        qh_q       <= qh_d;
        qs_q       <= qs_d;
        su_busy_q  <= su_busy_d;
        su_queue_q <= su_queue_d;
        su_left_q  <= su_left_d;
        // Per output VC f = j * V + c. The next counts are computed here rather than as _d
        // signals: credit_i comes from the neighbours, and a Verilated model evaluates logic that
        // reads a top-level input at every eval() (twice a cycle in the node-array model) but a
        // flip-flop's next state only at the clock edge.
        for (int f = 0; f < NumFifos; f++) begin
          if (use_cred[f] != credit_i[f]) begin
            credit_q[f*CntBits +: CntBits] <= credit_q[f*CntBits +: CntBits] -
                                              CntBits'(use_cred[f]) + CntBits'(credit_i[f]);
          end
        end
      end
      if (active && halt_i) halted_q <= 1'b1;
    end
  end

  // Input FIFO f = j * V + c takes the packets of input port j (with V >= 2 those naming VC c).
  for (genvar f = 0; f < NumFifos; f++) begin : g_fifo
    hc_fifo #(
      .Width(PktBits),
      .Depth(FifoDepth)
    ) u_fifo (
      .clk_i,
      .rst_ni,
      .clear_i  (start_i),
      .en_i     (active && !halt_i),
      .depth_i  (depth_q),
      .push_i   (push[f]),
      .data_i   (in_pkt_i[(f / NumVcs)*PktStride +: PktBits]),
      .pop_i    (pop[f]),
      .head_o   (fh_pkt[f*PktBits +: PktBits]),
      .cnt_o    (fifo_cnt[f*CntBits +: CntBits]),
      .full_o   (fifo_full[f]),
      .occ_max_o(occ_max_o[f*CntBits +: CntBits])
    );
  end

  // Message memory, written through the load port like a RAM.
  always_ff @(posedge clk_i) begin : msg_ram
    if (msg_we_i && 32'(ld_addr_i) < MsgDepth) msg_q[ld_addr_i[DepthBits-1:0]] <= ld_wdata_i;
  end

  // ---------------------------------------------------------------------------
  // Outputs
  // ---------------------------------------------------------------------------

  `HC_ALWAYS_COMB begin : blocked_heads
    head_valid_o    = '0;
    head_dst_o      = '0;
    head_out_o      = '0;
    head_nocredit_o = '0;
    if (halted_q) begin
      // The FIFO heads (k = f), then the queue heads (k = nV + j); the output as port * V + VC.
      for (int i = 0; i < NumFifos; i++) begin
        head_valid_o[i] = fh_v[i];
        head_dst_o[i*Dim +: Dim] = fh_pkt[i*PktBits + PDst +: Dim];
        if (NumVcs == 1) begin
          head_out_o[i*FifoBits +: FifoBits] = FifoBits'(fh_out[i*PortBits +: PortBits]);
        end else begin
          head_out_o[i*FifoBits +: FifoBits] = FifoBits'(
              32'(fh_out[i*PortBits +: PortBits])*NumVcs + 32'(fh_vc[i*VcBits +: VcBits]));
        end
        head_nocredit_o[i] = !fh_last[i] &&
            credit_q[(32'(fh_out[i*PortBits +: PortBits])*NumVcs + 32'(fh_vc[i*VcBits +: VcBits]))*
                     CntBits +: CntBits] == '0;
      end
      for (int i = 0; i < Dim; i++) begin
        head_valid_o[NumFifos + i] = qh_v[i];
        head_dst_o[(NumFifos + i)*Dim +: Dim] = qm[i*MsgWidth + MDst +: Dim];
        head_out_o[(NumFifos + i)*FifoBits +: FifoBits] =
            FifoBits'(i*NumVcs + 32'(qh_vc[i*VcBits +: VcBits]));
        head_nocredit_o[NumFifos + i] = !qh_last[i] &&
            credit_q[(i*NumVcs + 32'(qh_vc[i*VcBits +: VcBits]))*CntBits +: CntBits] == '0;
      end
    end
  end

  assign routed_o   = routed_q;
  assign done_o     = started_q && (halted_q || (fh_v == '0 && qh_v == '0 && rel_wait == '0 &&
                                                  su_wait == '0 && !su_busy_q));
  assign work_o     = active && (fh_v != '0 || qh_v != '0 || su_active);
  assign moved_o    = grant_v != '0 || (active && qh_v[Dim]) || su_active;
  // With the FIFOs and queues empty and the start-up unit free nothing is requested, granted,
  // popped or copied and cyc_q holds; with no packet or credit arriving nothing is pushed and
  // no credit count moves; a halted router changes only by a load or a start.
  assign idle_o     = rst_ni && !start_i && !msg_we_i && !hdr_we_i && in_valid_i == '0 &&
                      credit_i == '0 && (halted_q || (started_q && !halt_i && fh_v == '0 &&
                                                      q_any == '0 && !su_busy_q));
  assign stalls_o   = stalls;
  assign copy_o     = active && qh_v[Dim];
  assign copy_word_o = rd_data_i[Dim*WordWidth +: WordWidth];
  assign credit_o   = active ? pop : '0;
  assign overflow_o = drop != '0;

  /* verilator tracing_on */
endmodule
