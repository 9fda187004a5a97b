// hcube testbench: the configuration of one RTL build (docs/hardware/node.md §1, §3).
#pragma once

#include <string>

namespace hcube::tb {

/// The parameters an hc_cube build was verilated with, and the widths derived from them
/// exactly as rtl/hc_pkg.sv derives them.
struct CubeConfig {
  int dim = 3;              ///< n: cube dimensions (Dim)
  int num_slots = 8;        ///< M: memory words per node (NumSlots)
  int lanes = 1;            ///< b: lanes per port and direction (Lanes)
  int word_width = 32;      ///< W: word width in bits (WordWidth)
  int table_depth = 16;     ///< D: table words per node (TableDepth)
  bool has_router = false;  ///< the nodes have routers (HasRouter, docs/hardware/router.md §11)
  int vcs = 1;  ///< V: the routers' virtual channels per link (NumVcs, docs/hardware/router.md §13)

  /// The configuration compiled into this binary (HC_DIM, HC_NUM_SLOTS, HC_LANES,
  /// HC_TABLE_DEPTH, HC_HAS_ROUTER, HC_VCS).
  static CubeConfig FromBuild();
#ifdef HC_DIM
  /// The same, usable in constant expressions (the runner is compiled with the HC_* macros).
  static constexpr CubeConfig Build() {
    CubeConfig c;
    c.dim = HC_DIM;
    c.num_slots = HC_NUM_SLOTS;
    c.lanes = HC_LANES;
    c.table_depth = HC_TABLE_DEPTH;
#ifdef HC_HAS_ROUTER
    c.has_router = HC_HAS_ROUTER != 0;
#endif
#ifdef HC_VCS
    c.vcs = HC_VCS;
#endif
    return c;
  }
#endif

  constexpr int NumNodes() const { return 1 << dim; }
  constexpr int NumChans() const { return dim * lanes; }
  constexpr int SlotBits() const { return Bits(num_slots); }
  constexpr int PortBits() const { return Bits(dim); }
  constexpr int LaneBits() const { return Bits(lanes); }
  constexpr int IdxBits() const { return Max(SlotBits(), PortBits() + LaneBits()); }
  constexpr int ChanBits() const { return 6 + IdxBits() + SlotBits(); }
  /// max(34, 2 + n b ChanBits, 5 + 6 SlotBits): the last term holds a MAC
  /// (docs/hardware/arithmetic.md §2).
  constexpr int TableWidth() const {
    return Max(Max(34, 2 + NumChans() * ChanBits()), 5 + 6 * SlotBits());
  }
  /// U: multiply-add units per node (MacUnits; the runner's builds keep the default, 1).
  int mac_units = 1;
  constexpr int DepthBits() const { return Bits(table_depth); }
  /// Hex digits of one table word in an image file.
  constexpr int TableHexDigits() const { return (TableWidth() + 3) / 4; }

  // Routed mode (rtl/hc_pkg.sv, docs/hardware/router.md §1): the message word and the load port.
  constexpr int RouteMax() const { return 2 * dim + 2; }
  constexpr int RouteLenBits() const { return Bits(RouteMax() + 1); }
  constexpr int RouteBits() const { return RouteLenBits() + RouteMax() * PortBits(); }
  /// The release cycle's position in a message word (its top 32 bits).
  constexpr int ReleaseLsb() const { return 2 * SlotBits() + dim + RouteBits(); }
  /// The start flag (the first word of a message that pays tau, docs/hardware/router.md §7): the
  /// top bit.
  constexpr int StartBit() const { return ReleaseLsb() + 32; }
  constexpr int MsgWidth() const { return StartBit() + 1; }
  /// The load port's data: a table word, or with routers a message word if that is wider.
  constexpr int LoadWidth() const {
    return has_router ? Max(TableWidth(), MsgWidth()) : TableWidth();
  }
  /// The load port's address: with routers max(table address, header address) plus two select
  /// bits on top (LoadSelBits()), without them the table address.
  constexpr int LoadIndexBits() const {
    return has_router ? Max(DepthBits(), Bits(dim + 3)) : DepthBits();
  }
  constexpr int LoadSelBits() const { return has_router ? 2 : 0; }
  constexpr int LoadAddrBits() const { return LoadIndexBits() + LoadSelBits(); }
  /// A delivery tag: source node and message index.
  constexpr int TagBits() const { return dim + DepthBits(); }
  /// Bits of a FIFO occupancy (hc_pkg::FifoDepthDefault = 4).
  constexpr int OccBits() const { return 3; }
  /// The router's input FIFOs per node (V per port, FIFO f = port * V + VC, docs/hardware/router.md
  /// §13) and the bits of such an index (a blocked head's output port * V + VC).
  constexpr int NumFifos() const { return dim * vcs; }
  constexpr int FifoBits() const { return Bits(dim * vcs); }
  /// hc_pkg::hc_pkt_bits_vc: the router's link packet, with a VC field on top when V >= 2.
  constexpr int PktBits() const {
    return word_width + dim + SlotBits() + RouteBits() + dim + DepthBits() + 1 +
           (vcs > 1 ? Bits(vcs) : 0);
  }
  /// hc_pkg::hc_pkt_stride: a packet's place on the router's link ports, whole 32-bit words.
  constexpr int PktStride() const { return (PktBits() + 31) / 32 * 32; }
  /// hc_pkg::hc_stall_bits: a node's per-cycle stall count.
  constexpr int StallBits() const {
    return Max(Bits(dim * (dim + 1) + 1), Bits(dim * (vcs + 1) + 1));
  }
  static constexpr int kFifoDepthMax = 4;

  /// "dim 3, memory 8, lanes 1, table-depth 16, table-width 34"
  std::string Describe() const;

  /// max(1, clog2(n))
  static constexpr int Bits(int n) {
    int b = 0;
    while ((1LL << b) < n) ++b;
    return b < 1 ? 1 : b;
  }
  static constexpr int Max(int a, int b) { return a > b ? a : b; }
};

}  // namespace hcube::tb
