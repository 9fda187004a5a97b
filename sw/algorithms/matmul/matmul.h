// hcube: matrix multiplication A += C x D on the cube (Johnsson & Ho 1988, TR-623, §3), compiled
// into per-node tables of XFERs (rotations) and block multiply-accumulates (MAC,
// docs/hardware/arithmetic.md §2). The matrices start in the paper's allocation
// (sw/spec/matmul_layout.h).
//
// Methods built:
//  * "rotation", A(.,1,1) with rotations (§3.1, "A Rotation Algorithm A(1,1,1)", Gray code
//    encoding): one-dimensional column partitioning (grid 1 x N). In step t = 0 .. N-1 processor
//    a holds block column (a + t) mod N of C and adds C's block times the matching Q/N rows of
//    its D block into its A block; between steps C rotates one processor to the left, a
//    nearest-neighbour transfer on the Gray-coded ring. (N-1) P Q/N element transfers and N-1
//    start-ups (Table 6, A^l(1,1,1)); PQR/N multiply-adds (Table 5, 2 PQ ceil(R/N) operations).
//  * "exchange", A(.,1,1) with the Gray code exchange (§3.1, A(1,1,1) one-port, A(n,1,1) n-port:
//    C's block cut into n pieces of rows, each exchanged along its own rotated dimension):
//    (N-1) P Q/N, resp. (N-1) ceil(P/n) Q/N element transfers, N-1 steps (Table 6).
//  * "a114", A(.,1,4) (§3.1): transpose of D by the exchange AAPC, N partial products, all-to-all
//    reduction of A with combining receives; (N-1) P R/N + n Q/2 R/N element transfers, 2n
//    start-ups (Table 6, A^c(1,1,4)); on all-port hardware A(n,1,4), the transpose and the
//    reduction on n rotated dimension orders at once: (N-1) P R/N / n + Q/2 R/N (Table 6).
//  * "doubling", A(.,1,1) by doubling (§3.1, "A Doubling Algorithm A(.,1,1)"): the "broadcast"
//    form on the grid 1 x N, C broadcast all-to-all on SBTs / nRSBTs: (N-1) P Q/N element
//    transfers, n start-ups (Table 6, A^c(1,1,1)).
//  * "a113", A(.,1,3) (§3.1): transpose of C, all-to-all broadcast of D, N^2 block products
//    into A^T, transpose of A^T adding into A (combining receives); (N-1) Q R/N + n P/2 R/N +
//    n P/2 Q/N element transfers, 3n start-ups (Table 6, A^c(1,1,3)); all-port: A^c(n,1,3).
//  * "a122" .. "a125", A(.,2,2) .. A(.,2,5) (§3.2, Figure 2, appendix B) on any N1 x N2 grid:
//    transposes of C, D or A, broadcasts within grid rows or columns and all-to-all reductions
//    within grid columns or rows; Table 8's element transfers and start-ups (one-port), nRSBT
//    broadcasts and reductions on all-port hardware. The square part of a transpose is §2.2's
//    SBT transpose (one-port) or, on all-port hardware, the SPT (Table 11), DPT or MPT of
//    Johnsson & Ho 1987 §6.1 in packets; on N1 != N2 it follows an exchange within the |n1 - n2|
//    extra dimensions (§2's combination for N1 x N2 blocks), or stands alone where whole blocks
//    move (A(.,2,4)'s D and A(.,2,3)'s A with N1 > N2).
//  * "a131", A(.,3,1) (§3.3): three-dimensional partitioning N1 x N2' x N3' on the layout grid
//    N1 x N2 (N2' N3' = N2, N2' >= N1; default N2' = N1): D's sub-strips exchanged within the
//    N3' fibers (the paper's ld3 transformation; C's lc3 is the layout itself), C broadcast along
//    N2', D along N1', one product per fiber position, all-to-all reduction of A within the
//    fibers.
//  * "cannon", A(.,2,1) realised by rotations, which is Cannon's algorithm (§3.2, "Cannon's
//    Algorithm A(1,2,1)", N1 = N2 = sqrt(N), Gray code encoding): the initial alignment rotates
//    row a1 of C left by a1 and column a2 of D up by a2 (sqrt(N) - 1 steps of one-processor
//    rotations, the rows / columns already aligned idle), then sqrt(N) multiply steps with a
//    rotation of C left and D up between them.
//  * "broadcast", A(.,2,1) by all-to-all broadcasting (§3.2, "A Doubling Algorithm A(.,2,1)"):
//    C's blocks broadcast within grid rows and D's within grid columns on SBTs (one-port,
//    Table 8) or nRSBTs (n-port, Table 11), any N1 x N2 grid, no alignment; then one product
//    of the gathered row of C and column of D per processor. Gathered blocks go to scratch.
// A rotation moves a block in place: every word is sent on the port towards one ring neighbour
// and received from the other into the same slot in the same XFER (the hardware's swap
// semantics, §2). A message of `packet` words (0: the whole block) is preceded by WAIT tau, its
// start-up; on all-port hardware the C and D rotations of a step travel together, on one-port
// hardware one after the other.
// With `mac_overlap` (docs/hardware/arithmetic.md §3, square grids, "cannon" only) the multiply
// steps of Cannon's algorithm issue their MAC and rotate C and D into a second pair of buffers
// while the MAC units run: a step costs max(MAC, 1 + rotation) cycles instead of their sum.
#pragma once

#include <string>

#include "spec/permutation.h"
#include "tables/table.h"

namespace hcube {

/// The methods matmulTables builds, for messages.
inline constexpr const char* kMatmulMethods =
    "rotation, exchange, doubling, a113, a114, cannon, broadcast, a122, a123, a124, a125, a131";

struct MatmulOptions {
  PermutationSpec spec = PermutationSpec::aapc(1, 1);  ///< a matmul spec (its grid and shape)
  std::string method;                                  ///< one of kMatmulMethods
  u32 tau = 0;                                         ///< start-up cycles per message
  u64 packet = 0;                                      ///< words per message, 0: whole block
  bool one_port = false;
  u32 mac_units = 1;  ///< U, multiply-add units per node
  /// broadcast: nRSBTs (every port of a grid row or column at once) rather than SBTs.
  bool n_port_tree = false;
  /// MAC overlap mode (docs/hardware/arithmetic.md §3): cannon on a square grid only, its MACs
  /// overlapping the rotations with double-buffered C and D blocks.
  bool mac_overlap = false;
  /// A(.,2,2) .. A(.,2,5): how the square part of a transpose moves blocks. "sbt": §2.2's SBT
  /// transpose (TR-623 Table 8, one-port); "spt", "dpt", "mpt": the Single, Dual and Multiple
  /// Paths transposes of Johnsson & Ho 1987 §6.1 in packets of `packet` words (0: the size that
  /// makes the transpose fastest), all-port hardware only; "spt" is what TR-623 Table 11 charges.
  /// Empty: "spt" on all-port hardware, "sbt" on one-port.
  std::string transpose;
  /// A(.,3,1): n3', the fiber's dimensions (N3' = 2^n3', N2' = N2 / N3'); -1: N2' = N1.
  int fiber_dims = -1;
  /// A(.,3,1): the fiber is the low n3' bits of the row field (N1' = N1 / N3', N2' = N2)
  /// instead of the column field.
  bool fiber_in_rows = false;
};

/// What a matmul schedule costs, counted while it is built (every node does the same).
struct MatmulCounts {
  u64 arithmetic_cycles = 0;    ///< cycles of MAC instructions
  u64 transfer_cycles = 0;      ///< XFER cycles (element transfers in sequence)
  u64 startups = 0;             ///< messages in sequence (WAIT tau each)
  u64 alignment_transfers = 0;  ///< of transfer_cycles: Cannon's initial alignment
  u64 local_cycles = 0;         ///< PERMUTE cycles (local copies, A(.,2,5) with N1 > N2)
};

/// The tables (one per node) and their counts; throws Error naming what does not fit (the
/// method's grid, the shape).
TableSet matmulTables(const MatmulOptions& o, MatmulCounts* counts = nullptr);

}  // namespace hcube
