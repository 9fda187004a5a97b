// Johnsson & Ho 1987 §6.1: the MPT paths of the paper's example (x = (1001||0100)) and the node
// sequence of its path 0, the ~ad / ~s relations of Definitions 12 and 15, Lemmas 9, 10, 13, 14
// checked by enumeration for n = 2..10, and SPT / DPT / MPT run through the table executor and
// the static verifier with exact cycle counts against the §6.1 formulas.
#include "algorithms/transpose/transpose2d.h"

#include <gtest/gtest.h>

#include <string>

#include "algorithms/algorithms.h"
#include "algorithms/transpose/layout.h"
#include "base/error.h"
#include "exec/executor.h"
#include "spec/reference.h"
#include "tables/verifier.h"
#include "test_util.h"

namespace hcube {
namespace {

using testing::binary;

std::string joined(const std::vector<int>& dims) {
  std::string s;
  for (int d : dims) s += (s.empty() ? "" : ", ") + std::to_string(d);
  return s;
}

u64 fromBinary(const std::string& bits) { return std::stoull(bits, nullptr, 2); }

// ---------------------------------------------------------------------------------------------
// Golden values of §6.1.3
// ---------------------------------------------------------------------------------------------

TEST(Transpose2dPaths, SixMptPathsOfThePapersExample) {
  const u64 x = fromBinary("10010100");  // (1001||0100)
  EXPECT_EQ(transposeNode(8, x), fromBinary("01001001"));
  EXPECT_EQ(transposeHalfDistance(8, x), 3);
  const auto paths = mptPaths(8, x);
  ASSERT_EQ(paths.size(), 6U);
  EXPECT_EQ(joined(paths[0]), "7, 3, 6, 2, 4, 0");
  EXPECT_EQ(joined(paths[1]), "4, 0, 7, 3, 6, 2");
  EXPECT_EQ(joined(paths[2]), "6, 2, 4, 0, 7, 3");
  EXPECT_EQ(joined(paths[3]), "3, 7, 2, 6, 0, 4");
  EXPECT_EQ(joined(paths[4]), "0, 4, 3, 7, 2, 6");
  EXPECT_EQ(joined(paths[5]), "2, 6, 0, 4, 3, 7");
}

TEST(Transpose2dPaths, NodeSequenceOfPathZeroOfThePapersExample) {
  const u64 x = fromBinary("10010100");
  std::string seq;
  for (u64 y : pathNodes(x, mptPaths(8, x)[0])) seq += (seq.empty() ? "" : " ") + binary(y, 8);
  EXPECT_EQ(seq, "00010100 00011100 01011100 01011000 01001000 01001001");
}

TEST(Transpose2dPaths, RotationsAndPairSwapsRelateThePaths) {
  // §6.1.3: path p is path (p-1) mod H rotated right by two; path H + j is path j with row and
  // column dimensions swapped pairwise. Figure 4: 6 paths from (000111) to (111000).
  for (int n : {4, 6, 8}) {
    for (u64 x = 0; x < (u64{1} << n); ++x) {
      const auto paths = mptPaths(n, x);
      const int h = transposeHalfDistance(n, x);
      ASSERT_EQ(paths.size(), static_cast<size_t>(2 * h));
      for (int p = 0; p < 2 * h; ++p) {
        const int from = p < h ? (p + h - 1) % h : (p - h + h - 1) % h + h;
        std::vector<int> rotated = paths[static_cast<size_t>(from)];
        std::rotate(rotated.rbegin(), rotated.rbegin() + 2, rotated.rend());
        EXPECT_EQ(paths[static_cast<size_t>(p)], rotated) << "n " << n << " x " << x << " p " << p;
        if (p >= h) {
          std::vector<int> swapped = paths[static_cast<size_t>(p - h)];
          for (size_t i = 0; i + 1 < swapped.size(); i += 2) std::swap(swapped[i], swapped[i + 1]);
          EXPECT_EQ(paths[static_cast<size_t>(p)], swapped);
        }
      }
    }
  }
  EXPECT_EQ(mptPaths(6, fromBinary("000111")).size(), 6U);
  EXPECT_EQ(transposeNode(6, fromBinary("000111")), fromBinary("111000"));
}

TEST(Transpose2dPaths, SptAndDptPathsAreMptPathsZeroAndH) {
  // §6.1.1: SPT routes the differing pairs highest first, row before column; §6.1.2: DPT adds
  // the column-first order. Checked through the plan for every node of a 6-cube.
  const MatrixLayout before = MatrixLayout::make(3, 3, 6, "2d-cyclic", "binary");
  const MatrixLayout after = MatrixLayout::make(3, 3, 6, "2d-cyclic", "binary");
  const PermutationSpec perm = transposePermutation(before, after);
  Transpose2dOptions o;
  o.algo = Transpose2dAlgo::kDpt;
  const Transpose2dPlan plan = planTranspose2d(perm, o);
  ASSERT_EQ(plan.packets.size(), 56U);  // K = 1 element: packet 0 on path 0 only
  for (const PacketRoute& r : plan.packets) EXPECT_EQ(r.dims, mptPaths(6, r.source)[0]);
  // K = 16, B = 1: a node's packets alternate between path 0 and path H, in launch order.
  const MatrixLayout b2 = MatrixLayout::make(5, 5, 6, "2d-cyclic", "binary");
  const Transpose2dPlan plan2 = planTranspose2d(transposePermutation(b2, b2), o);
  std::vector<u64> sent(64);
  for (const PacketRoute& r : plan2.packets) {
    const auto paths = mptPaths(6, r.source);
    const u64 j = sent[r.source]++;
    EXPECT_EQ(r.dims, paths[j % 2 == 0 ? 0 : paths.size() / 2]) << r.source << " " << j;
    EXPECT_EQ(r.steps[0], j / 2);
  }
  for (u64 x = 0; x < 64; ++x) EXPECT_EQ(sent[x], transposeHalfDistance(6, x) ? 16U : 0U);
}

// ---------------------------------------------------------------------------------------------
// Definitions 12 and 15, Lemmas 9, 10, 13, 14
// ---------------------------------------------------------------------------------------------

TEST(Transpose2dRelations, AntiDiagonalAndClassExamplesOfDefinition15) {
  // (001||111) and (010||110): on one anti-diagonal (1 + 7 = 2 + 6) but x XOR tr(x) differs.
  const u64 a = fromBinary("001111");
  const u64 b = fromBinary("010110");
  EXPECT_TRUE(sameAntiDiagonal(6, a, b));
  EXPECT_NE(a ^ transposeNode(6, a), b ^ transposeNode(6, b));
  EXPECT_FALSE(sameTransposeClass(6, a, b));
  // The paper's second example repeats the first pair (a text-extraction slip); a pair with
  // equal x XOR tr(x) on different anti-diagonals: (000||110) and (001||111).
  const u64 c = fromBinary("000110");
  EXPECT_FALSE(sameAntiDiagonal(6, c, a));
  EXPECT_EQ(c ^ transposeNode(6, c), a ^ transposeNode(6, a));
  EXPECT_FALSE(sameTransposeClass(6, c, a));
  // x and tr(x) are always in one class; x XOR tr(x) equal implies equal H.
  for (u64 x = 0; x < 64; ++x) {
    EXPECT_TRUE(sameTransposeClass(6, x, transposeNode(6, x)));
    for (u64 y = 0; y < 64; ++y) {
      if ((x ^ transposeNode(6, x)) == (y ^ transposeNode(6, y))) {
        EXPECT_EQ(transposeHalfDistance(6, x), transposeHalfDistance(6, y));
      }
    }
  }
}

TEST(Transpose2dRelations, Lemma10OddAndEvenNodesForNUpTo8) {
  for (int n = 2; n <= 8; n += 2) {
    for (u64 x = 0; x < (u64{1} << n); ++x) {
      const int h = transposeHalfDistance(n, x);
      for (const auto& path : mptPaths(n, x)) {
        const auto nodes = pathNodes(x, path);
        for (size_t e = 0; e < nodes.size(); ++e) {
          const u64 y = nodes[e];
          if (e % 2 == 0) {  // edge e + 1 is odd: H one less, off the anti-diagonal
            EXPECT_FALSE(sameAntiDiagonal(n, x, y)) << n << " " << x << " " << e;
            EXPECT_EQ(transposeHalfDistance(n, y), h - 1);
          } else {  // Corollary 8: even nodes are in x's ~s class
            EXPECT_TRUE(sameTransposeClass(n, x, y)) << n << " " << x << " " << e;
          }
        }
      }
    }
  }
}

TEST(Transpose2dRelations, MptPathsAreTwoTwoHDisjointForNFrom2To10) {
  // ~s classes with H > 0 for n = 2..10: 3^(n/2) - 2^(n/2) (counted independently).
  const u64 expected_classes[] = {1, 5, 19, 65, 211};
  for (int n = 2; n <= 10; n += 2) {
    const MptDisjointness r = checkMptDisjointness(n, 3);
    EXPECT_EQ(r.paths_lengths_wrong, 0U) << "n = " << n;
    EXPECT_EQ(r.shared_within_node, 0U) << "Lemma 9, n = " << n;
    EXPECT_EQ(r.shared_between_classes, 0U) << "Lemma 13, n = " << n;
    EXPECT_EQ(r.timing_conflicts, 0U) << "Lemma 14, n = " << n;
    EXPECT_GT(r.edge_steps, 0U);
    EXPECT_EQ(r.classes, expected_classes[n / 2 - 1]) << "n = " << n;
  }
}

// ---------------------------------------------------------------------------------------------
// Runs: every element where the reference says, verifier clean, exact cycles
// ---------------------------------------------------------------------------------------------

struct Outcome {
  Transpose2dTables lowered;
  RunResult run;
};

Outcome runTranspose(const PermutationSpec& perm, const Transpose2dOptions& o,
                     const std::string& what) {
  Outcome out;
  out.lowered = lowerTranspose2d(planTranspose2d(perm, o), perm);
  const TableSet& set = out.lowered.tables;
  const VerifyReport v = verifyTables(set);
  EXPECT_TRUE(v.ok()) << what << ": " << (v.errors.empty() ? "" : v.errors.front());
  ExecOptions eo;
  eo.tagged_elements = perm.elements();
  out.run = executeTables(set, taggedMemory(perm, set.header.memoryWords()), eo);
  const CheckResult check = checkAgainstReference(perm, out.run.memory);
  EXPECT_EQ(check.mismatches, 0U) << what;
  EXPECT_EQ(check.correct, perm.participating()) << what;  // every element, or every real one
  EXPECT_TRUE(out.run.errors.empty()) << what;
  EXPECT_FALSE(out.run.timeout) << what;
  EXPECT_EQ(out.run.cycles, set.cycles()) << what;
  EXPECT_EQ(v.cycles, set.cycles()) << what;
  return out;
}

PermutationSpec square(int p, int n, const std::string& partition,
                       const std::string& encoding = "binary") {
  const MatrixLayout l = MatrixLayout::make(p, p, n, partition, encoding);
  return transposePermutation(l, l);
}

std::string label(const std::string& algo, int n, u64 k, u64 b, u64 tau, int lanes = 1) {
  return algo + " n=" + std::to_string(n) + " K=" + std::to_string(k) + " B=" + std::to_string(b) +
         " tau=" + std::to_string(tau) + " b=" + std::to_string(lanes);
}

TEST(Transpose2dRun, SptMatchesSection611ExactlyForN2To6) {
  for (int n : {2, 4, 6}) {
    for (int extra : {0, 2, 4}) {  // K = 1, 4, 16
      const PermutationSpec perm = square(n / 2 + extra / 2, n, "2d-consecutive");
      const u64 k = perm.slots();
      for (u64 b : {u64{1}, u64{2}, u64{4}}) {
        if (b > k) continue;
        for (u64 tau : {u64{0}, u64{3}, u64{20}}) {
          for (bool sync : {false, true}) {
            Transpose2dOptions o;
            o.packet = b;
            o.tau = tau;
            o.synchronous = sync;
            const std::string what = label(sync ? "spt-sync" : "spt", n, k, b, tau);
            const Outcome r = runTranspose(perm, o, what);
            const u64 formula = sptFormulaCycles(n, k, b, tau);
            EXPECT_EQ(r.lowered.transfer_end, formula) << what;
            EXPECT_EQ(r.run.cycles, formula + r.lowered.local_tail) << what;
            if (tau >= 3) {
              EXPECT_EQ(r.lowered.local_tail, 0U) << what;
            }
            EXPECT_EQ(r.lowered.buffered, 0U) << what;
            EXPECT_GE(r.run.transfer_cycles, transposeLowerBound(n, k, 0)) << what;
          }
        }
      }
    }
  }
}

TEST(Transpose2dRun, DptMatchesSection612ExactlyForN2To6) {
  for (int n : {2, 4, 6}) {
    const PermutationSpec perm = square(n / 2 + 2, n, "2d-cyclic", "gray");
    const u64 k = perm.slots();  // 16
    for (u64 b : {u64{1}, u64{2}, u64{8}}) {
      for (u64 tau : {u64{0}, u64{5}}) {
        for (bool sync : {false, true}) {
          Transpose2dOptions o;
          o.algo = Transpose2dAlgo::kDpt;
          o.packet = b;
          o.tau = tau;
          o.synchronous = sync;
          const std::string what = label(sync ? "dpt-sync" : "dpt", n, k, b, tau);
          const Outcome r = runTranspose(perm, o, what);
          const u64 formula = dptFormulaCycles(n, k, b, tau);
          EXPECT_EQ(r.lowered.transfer_end, formula) << what;
          EXPECT_EQ(r.run.cycles, formula + r.lowered.local_tail) << what;
          if (tau >= 5) {
            EXPECT_EQ(r.lowered.local_tail, 0U) << what;
          }
        }
      }
    }
  }
}

TEST(Transpose2dRun, CutThroughPaysTauOncePerPacket) {
  for (int n : {2, 4, 6}) {
    const PermutationSpec perm = square(n / 2 + 2, n, "2d-consecutive");
    const u64 k = perm.slots();
    for (bool dual : {false, true}) {
      for (u64 tau : {u64{0}, u64{4}}) {
        Transpose2dOptions o;
        o.algo = dual ? Transpose2dAlgo::kDpt : Transpose2dAlgo::kSpt;
        o.packet = 4;
        o.tau = tau;
        o.cut_through = true;
        const std::string what = label(dual ? "dpt-cut" : "spt-cut", n, k, 4, tau);
        const Outcome r = runTranspose(perm, o, what);
        EXPECT_EQ(r.lowered.transfer_end, cutThroughFormulaCycles(dual, n, k, 4, tau)) << what;
        // Every element crosses 2H(x) - 1 intermediate nodes by FWD, none through memory.
        u64 fwd = 0;
        u64 expected = 0;
        for (u64 x = 0; x < perm.nodes(); ++x) {
          const int h = transposeHalfDistance(n, x);
          if (h > 0) expected += k * static_cast<u64>(2 * h - 1);
          for (const Instruction& ins : r.lowered.tables.tableOf(x)) {
            for (const Channel& ch : ins.channels) fwd += ch.out.op == OutOp::kFwd ? 1 : 0;
          }
        }
        EXPECT_EQ(fwd, expected) << what;
      }
    }
  }
}

TEST(Transpose2dRun, MptMatchesItsScheduleAndTheorem2FirstCase) {
  for (int n : {2, 4, 6}) {
    for (int extra : {2, 4}) {
      const PermutationSpec perm = square(n / 2 + extra / 2, n, "2d-consecutive", "gray");
      const u64 k = perm.slots();  // 4 or 16 elements
      for (u64 b : {u64{1}, u64{2}, u64{4}}) {
        if (b > k) continue;
        for (u64 tau : {u64{0}, u64{6}}) {
          for (bool per_class : {false, true}) {
            Transpose2dOptions o;
            o.algo = Transpose2dAlgo::kMpt;
            o.packet = b;
            o.tau = tau;
            o.per_class_packets = per_class;
            const std::string what = label(per_class ? "mpt" : "mpt-uniform", n, k, b, tau);
            const Outcome r = runTranspose(perm, o, what);
            EXPECT_EQ(r.lowered.transfer_end,
                      per_class ? mptPerClassCycles(n, k, b, tau) : mptScheduleCycles(n, k, b, tau))
                << what;
            EXPECT_LE(mptPerClassCycles(n, k, b, tau), mptScheduleCycles(n, k, b, tau));
            EXPECT_EQ(r.run.cycles, r.lowered.transfer_end + r.lowered.local_tail) << what;
          }
        }
      }
    }
  }
  // Theorem 2, first case, is exact where every H divides the round structure: packets of
  // K/(2n), one round for the anti-diagonal nodes: (n+1)(tau + K/(2n)).
  for (int n : {2, 4}) {
    const PermutationSpec perm = square(n / 2 + 3, n, "2d-consecutive");  // K = 64
    const u64 k = perm.slots();
    const u64 b = k / (2 * static_cast<u64>(n));
    for (u64 tau : {u64{2}, u64{40}}) {
      Transpose2dOptions o;
      o.algo = Transpose2dAlgo::kMpt;
      o.packet = b;
      o.tau = tau;
      const Outcome r = runTranspose(perm, o, label("mpt", n, k, b, tau));
      EXPECT_EQ(r.lowered.transfer_end, (static_cast<u64>(n) + 1) * (tau + b));
      EXPECT_DOUBLE_EQ(
          static_cast<double>(r.lowered.transfer_end),
          (n + 1.0) * static_cast<double>(tau) + (n + 1.0) / (2.0 * n) * static_cast<double>(k));
    }
  }
  // MPT's steps: about half of SPT's packets, whatever H.
  EXPECT_EQ(mptStepsForHalfDistance(3, 12), 7U);
  EXPECT_EQ(mptStepsForHalfDistance(2, 12), 8U);
  EXPECT_EQ(mptStepsForHalfDistance(1, 12), 7U);
  EXPECT_EQ(mptStepsForHalfDistance(1, 1), 2U);
}

TEST(Transpose2dRun, WideChannelsAndPartialPackets) {
  const PermutationSpec perm = square(4, 4, "2d-cyclic");  // K = 16
  for (auto algo : {Transpose2dAlgo::kSpt, Transpose2dAlgo::kDpt, Transpose2dAlgo::kMpt}) {
    for (int lanes : {1, 2, 3}) {
      for (u64 b : {u64{3}, u64{6}}) {
        Transpose2dOptions o;
        o.algo = algo;
        o.packet = b;
        o.tau = 2;
        o.lanes = lanes;
        const std::string what =
            label("algo" + std::to_string(static_cast<int>(algo)), 4, 16, b, 2, lanes);
        const Outcome r = runTranspose(perm, o, what);
        // The last packet step of SPT carries the last packet (K mod B elements, when B does
        // not divide K); DPT's carries two packets when their number is even, the last full.
        // Such a step ends ceil(B/b) - ceil(last/b) cycles before a full one would.
        const u64 packets = (16 + b - 1) / b;
        const bool full_last = algo == Transpose2dAlgo::kDpt && packets % 2 == 0;
        const u64 full = (b + lanes - 1) / lanes;
        const u64 last = full_last ? full : (16 - (packets - 1) * b + lanes - 1) / lanes;
        const u64 formula = algo == Transpose2dAlgo::kSpt   ? sptFormulaCycles(4, 16, b, 2, lanes)
                            : algo == Transpose2dAlgo::kDpt ? dptFormulaCycles(4, 16, b, 2, lanes)
                                                            : mptPerClassCycles(4, 16, b, 2, lanes);
        if (algo != Transpose2dAlgo::kMpt) {
          EXPECT_EQ(r.lowered.transfer_end, formula - (full - last)) << what;
        } else {
          // The slowest class may end its last step early by a partial packet.
          EXPECT_LE(r.lowered.transfer_end, formula) << what;
          EXPECT_GT(r.lowered.transfer_end, formula - 2 - (6 + lanes - 1) / lanes) << what;
        }
      }
    }
  }
}

TEST(Transpose2dRun, NonSquareMatrixAndAnEightCube) {
  // 256 x 64 on a 4-cube, cyclic: K = 1024, the local map is not an involution.
  {
    const MatrixLayout before = MatrixLayout::make(8, 6, 4, "2d-cyclic", "binary");
    const MatrixLayout after = MatrixLayout::make(6, 8, 4, "2d-cyclic", "binary");
    const PermutationSpec perm = transposePermutation(before, after);
    Transpose2dOptions o;
    o.packet = 8;
    o.tau = 20;
    const Outcome r = runTranspose(perm, o, "spt 256x64");
    EXPECT_EQ(r.lowered.transfer_end, sptFormulaCycles(4, 1024, 8, 20));
    EXPECT_EQ(r.lowered.transfer_end, 3668U);
    EXPECT_EQ(r.run.cycles, 3668U + r.lowered.local_tail);
  }
  for (auto algo : {Transpose2dAlgo::kSpt, Transpose2dAlgo::kDpt, Transpose2dAlgo::kMpt}) {
    const PermutationSpec perm = square(5, 8, "2d-consecutive");  // K = 4
    Transpose2dOptions o;
    o.algo = algo;
    o.packet = 1;
    o.tau = 1;
    const Outcome r = runTranspose(perm, o, "n=8");
    const u64 formula = algo == Transpose2dAlgo::kSpt   ? sptFormulaCycles(8, 4, 1, 1)
                        : algo == Transpose2dAlgo::kDpt ? dptFormulaCycles(8, 4, 1, 1)
                                                        : mptPerClassCycles(8, 4, 1, 1);
    EXPECT_EQ(r.lowered.transfer_end, formula);
  }
}

// ---------------------------------------------------------------------------------------------
// Virtual elements (Definition 2): packets of real elements only, the busiest path's time
// ---------------------------------------------------------------------------------------------

/// The transpose of the 2^real_p x 2^real_q matrix extended to 2^p x 2^q (high-order index bits).
PermutationSpec extended(int real_p, int real_q, int p, int q, int n, const std::string& partition,
                         const std::string& encoding = "binary") {
  return transposePermutation(
      MatrixLayout::makeExtended(real_p, real_q, p, q, n, partition, encoding),
      MatrixLayout::makeExtended(real_q, real_p, q, p, n, partition, encoding));
}

TEST(Transpose2dVirtual, RealFormulaAndBoundAreThePapersWithoutVirtualElements) {
  // With every element real, R_x = K for every off-diagonal node and some node is at distance
  // n: transpose2dRealCycles is the §6.1 formula and transposeRealLowerBound Theorem 3.
  for (int n : {2, 4, 6}) {
    const PermutationSpec perm = square(n / 2 + 2, n, "2d-cyclic");  // K = 16
    const std::vector<u64> real = realElementsSent(perm);
    for (u64 x = 0; x < perm.nodes(); ++x) {
      EXPECT_EQ(real[x], transposeHalfDistance(n, x) > 0 ? 16U : 0U);
    }
    for (u64 b : {u64{1}, u64{3}, u64{16}}) {
      for (u64 tau : {u64{0}, u64{5}}) {
        for (int lanes : {1, 2}) {
          Transpose2dOptions o;
          o.packet = b;
          o.tau = tau;
          o.lanes = lanes;
          const std::string what = label("formula", n, 16, b, tau, lanes);
          EXPECT_EQ(transposeRealLowerBound(perm, tau, lanes).cycles,
                    transposeLowerBound(n, 16, tau, lanes))
              << what;
          o.algo = Transpose2dAlgo::kSpt;
          EXPECT_EQ(transpose2dRealCycles(n, real, o), sptFormulaCycles(n, 16, b, tau, lanes));
          o.synchronous = true;
          EXPECT_EQ(transpose2dRealCycles(n, real, o), sptFormulaCycles(n, 16, b, tau, lanes));
          o.algo = Transpose2dAlgo::kDpt;
          EXPECT_EQ(transpose2dRealCycles(n, real, o), dptFormulaCycles(n, 16, b, tau, lanes));
          o.synchronous = false;
          EXPECT_EQ(transpose2dRealCycles(n, real, o), dptFormulaCycles(n, 16, b, tau, lanes));
          o.cut_through = true;
          EXPECT_EQ(transpose2dRealCycles(n, real, o),
                    cutThroughFormulaCycles(true, n, 16, b, tau, lanes));
          o.algo = Transpose2dAlgo::kSpt;
          EXPECT_EQ(transpose2dRealCycles(n, real, o),
                    cutThroughFormulaCycles(false, n, 16, b, tau, lanes));
          o.cut_through = false;
          o.algo = Transpose2dAlgo::kMpt;
          EXPECT_EQ(transpose2dRealCycles(n, real, o), mptPerClassCycles(n, 16, b, tau, lanes));
          o.per_class_packets = false;
          EXPECT_EQ(transpose2dRealCycles(n, real, o), mptScheduleCycles(n, 16, b, tau, lanes));
        }
      }
    }
  }
  EXPECT_NE(testing::errorOf([] {
              transpose2dRealCycles(4, std::vector<u64>(8), {});
            }).find("8 real-element counts for the 16 nodes"),
            std::string::npos);
}

TEST(Transpose2dVirtual, PacketsHoldOnlyRealElements) {
  // 2 x 64 extended to the square 64 x 64 (--virtual square) on 16 nodes, K = 256:
  // 2d-consecutive puts the two real rows on node row 0 (R_x = 2 rows x 16 columns = 32),
  // 2d-cyclic on node rows 0 and 1 (one real row of 16 each: R_x = 16).
  for (const auto& [partition, per_node] :
       std::vector<std::pair<std::string, u64>>{{"2d-consecutive", 32}, {"2d-cyclic", 16}}) {
    const PermutationSpec perm = extended(1, 6, 6, 6, 4, partition);
    ASSERT_TRUE(perm.hasVirtual());
    const std::vector<u64> real = realElementsSent(perm);
    u64 off_diagonal_virtual = 0;
    for (u64 x = 0; x < 16; ++x) {
      const u64 row = x >> 2;
      const bool sends = transposeHalfDistance(4, x) > 0;
      const bool holds_real = partition == "2d-cyclic" ? row < 2 : row == 0;
      EXPECT_EQ(real[x], sends && holds_real ? per_node : 0U) << partition << " node " << x;
      if (sends) off_diagonal_virtual += 256 - real[x];
    }
    for (auto algo : {Transpose2dAlgo::kSpt, Transpose2dAlgo::kDpt, Transpose2dAlgo::kMpt}) {
      Transpose2dOptions o;
      o.algo = algo;
      o.packet = 3;
      const Transpose2dPlan plan = planTranspose2d(perm, o);
      EXPECT_EQ(plan.virtual_slots, off_diagonal_virtual);
      std::vector<u64> sent(16);
      std::vector<u64> packets(16);
      for (const PacketRoute& r : plan.packets) {
        for (u32 l : r.slots) EXPECT_TRUE(perm.participates({r.source, l})) << r.source << " " << l;
        sent[r.source] += r.slots.size();
        ++packets[r.source];
      }
      for (u64 x = 0; x < 16; ++x) {
        EXPECT_EQ(sent[x], real[x]) << x;
        if (algo != Transpose2dAlgo::kMpt || transposeHalfDistance(4, x) == 2) {
          EXPECT_EQ(packets[x], (real[x] + 2) / 3) << x;  // ceil(R_x / B)
        }
      }
    }
  }
}

TEST(Transpose2dVirtual, CyclesFollowTheBusiestRealPath) {
  // Exact transfer cycles against transpose2dRealCycles and hand values, every real element
  // where the reference says, the verifier clean, words = the real elements' distances, and
  // Theorem 3 over the real elements below. (The extended matrix's formula in brackets.)
  struct Row {
    std::string what;
    PermutationSpec perm;
    Transpose2dOptions o;
    u64 transfer;  ///< worked out by hand from the layout
    u64 extended;  ///< the §6.1 formula for the whole extended matrix
    u64 bound;     ///< transposeRealLowerBound
  };
  auto opts = [](Transpose2dAlgo algo, u64 b, u64 tau, bool cut = false, bool sync = false,
                 bool per_class = true) {
    Transpose2dOptions o;
    o.algo = algo;
    o.packet = b;
    o.tau = tau;
    o.cut_through = cut;
    o.synchronous = sync;
    o.per_class_packets = per_class;
    return o;
  };
  using A = Transpose2dAlgo;
  // 2 x 64 -> 64 x 64, 2d-consecutive: R_x = 32 on (00||01), (00||10) (H = 1), (00||11) (H = 2);
  // 2 x 64 -> 64 x 64, 2d-cyclic: R_x = 16 on node rows 0 and 1, H up to 2; 2 x 2 -> 4 x 4
  // (--virtual needed, both indices short): K = 1 on (00||01) and (01||00) only, H = 1.
  const PermutationSpec cons = extended(1, 6, 6, 6, 4, "2d-consecutive");
  const PermutationSpec cyc = extended(1, 6, 6, 6, 4, "2d-cyclic", "gray");
  const PermutationSpec tiny = extended(1, 1, 2, 2, 4, "2d-consecutive");
  const std::vector<Row> rows = {
      // (ceil(32/4) + 4 - 1)(4 + 2); extended (64 + 3) * 6. Bound: d tau = 8, R_q = 64 real
      // elements on (00||10), (00||11) over 8 links = 8, R_max / n = 8.
      {"spt cons", cons, opts(A::kSpt, 4, 2), 66, 402, 8},
      {"spt-sync cons", cons, opts(A::kSpt, 4, 2, false, true), 66, 402, 8},
      {"dpt cons", cons, opts(A::kDpt, 4, 2), 42, 210, 8},            // (ceil(32/8) + 3) * 6
      {"spt-cut cons", cons, opts(A::kSpt, 4, 2, true), 51, 387, 8},  // 8 * 6 + 3
      {"dpt-cut cons", cons, opts(A::kDpt, 4, 2, true), 27, 195, 8},  // 4 * 6 + 3
      // H = 2: 8 packets of 4, steps 4 + 1; H = 1: its best B is 4 too, 8 packets in 5 steps.
      {"mpt cons", cons, opts(A::kMpt, 4, 2), 30, 198, 8},
      {"mpt-uniform cons", cons, opts(A::kMpt, 4, 2, false, false, false), 30, 198, 8},
      // (16 + 3) * 1; (ceil(16/2) + 3)(2 + 1); (ceil(16/4) + 3)(2 + 1); 8 * 3 + 3.
      {"spt cyc", cyc, opts(A::kSpt, 1, 0), 19, 259, 8},
      {"spt cyc tau", cyc, opts(A::kSpt, 2, 1), 33, 393, 8},
      {"dpt cyc tau", cyc, opts(A::kDpt, 2, 1), 21, 201, 8},
      {"spt-cut cyc", cyc, opts(A::kSpt, 2, 1, true), 27, 387, 8},
      // H = 2: 16 packets, steps(2, 16) = 4 + 4 + 1 = 9.
      {"mpt cyc", cyc, opts(A::kMpt, 1, 0), 9, 129, 8},
      // (1 + 2 - 1)(1 + 3) against (1 + 4 - 1)(1 + 3); bound d tau = 2 * 3.
      {"spt tiny", tiny, opts(A::kSpt, 1, 3), 8, 16, 6},
      {"dpt-cut tiny", tiny, opts(A::kDpt, 1, 3, true), 5, 7, 6},  // 1 * 4 + 1 against 4 + 3
      {"mpt tiny", tiny, opts(A::kMpt, 1, 3), 8, 16, 6},  // steps(1, 1) = 2 against steps(2, 1) = 4
      // --route sync idles through the full order: x's lowest differing pair is 0, d_x = n.
      {"spt-sync tiny", tiny, opts(A::kSpt, 1, 3, false, true), 16, 16, 6},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.what);
    const int n = row.perm.n();
    const u64 k = row.perm.slots();
    const Outcome r = runTranspose(row.perm, row.o, row.what);
    const u64 formula = transpose2dRealCycles(n, realElementsSent(row.perm), row.o);
    EXPECT_EQ(formula, row.transfer);
    EXPECT_EQ(r.lowered.transfer_end, row.transfer);
    EXPECT_EQ(r.run.cycles, row.transfer + r.lowered.local_tail);
    EXPECT_EQ(r.run.words, row.perm.participatingDistance());
    const RealLowerBound lb = transposeRealLowerBound(row.perm, row.o.tau, row.o.lanes);
    EXPECT_EQ(lb.cycles, row.bound);
    // Theorem 3's d tau counts a start-up per hop: store-and-forward only (cut-through pays one).
    if (!row.o.cut_through) {
      EXPECT_LE(lb.cycles, r.lowered.transfer_end);
    }
    if (row.o.algo != A::kMpt) {
      const bool dual = row.o.algo == A::kDpt;
      EXPECT_EQ(row.o.cut_through ? cutThroughFormulaCycles(dual, n, k, row.o.packet, row.o.tau)
                : dual            ? dptFormulaCycles(n, k, row.o.packet, row.o.tau)
                                  : sptFormulaCycles(n, k, row.o.packet, row.o.tau),
                row.extended);
    } else {
      EXPECT_EQ(row.o.per_class_packets ? mptPerClassCycles(n, k, row.o.packet, row.o.tau)
                                        : mptScheduleCycles(n, k, row.o.packet, row.o.tau),
                row.extended);
    }
  }
}

TEST(Transpose2dCase, CatalogueBuildsTheUsersCommands) {
  CaseSpec spec;
  spec.algo = "spt";
  spec.n = 4;
  spec.params = {{"matrix", "256x64"}, {"partition", "2d-cyclic"}, {"tau", "20"}, {"packet", "8"}};
  const BuiltCase c = buildCase(spec);
  EXPECT_EQ(c.lower_bound, 512U);  // max(4 * 20, 1024 / 2)
  EXPECT_NE(c.bound_source.find("= 3668 cycles"), std::string::npos) << c.bound_source;
  EXPECT_TRUE(verifyTables(c.tables).ok());

  spec.algo = "mpt";
  spec.n = 6;
  spec.params = {{"matrix", "64x64"}, {"partition", "2d-consecutive"}, {"encoding", "gray"}};
  const BuiltCase m = buildCase(spec);
  EXPECT_EQ(m.perm.slots(), 64U);
  EXPECT_EQ(m.lower_bound, 32U);
  EXPECT_TRUE(verifyTables(m.tables).ok());
}

// The reported lower bound is one: no measured run beats it. Store-and-forward pays τ on every
// hop (Theorem 3's n τ); cut-through pays it once at the source, so its time term is τ + n (the
// paper's n τ would be above runs like spt --forward cut, τ = 16, B = 64 at n = 6: 69 cycles).
// Every algorithm and forwarding mode at n = 2, 4, 6, τ = 0, 2, 16, B = 1, 4, 64 (at most K),
// all-real and with virtual elements.
TEST(Transpose2dCase, NoRunBeatsTheReportedLowerBound) {
  int runs = 0;
  for (int n : {2, 4, 6}) {
    const u64 k = u64{1} << n;
    const std::string square = std::to_string(k) + "x" + std::to_string(k);
    for (const char* algo : {"spt", "dpt", "mpt"}) {
      for (const char* forward : {"store", "cut"}) {
        if (std::string(algo) == "mpt" && std::string(forward) == "cut") continue;
        for (u64 tau : {0, 2, 16}) {
          for (u64 packet : {1, 4, 64}) {
            for (bool virt : {false, true}) {
              CaseSpec spec = testing::caseSpec(algo, n);
              // Virtual: 2x64 on the 4-cube extended to the square (nodes hold both kinds),
              // 2x8 and 4x1024 extended in the rows only (whole nodes virtual).
              const std::string short_matrix = n == 2 ? "2x8" : n == 4 ? "2x64" : "4x1024";
              spec.params = {{"matrix", virt ? short_matrix : square},
                             {"tau", std::to_string(tau)},
                             {"packet", std::to_string(std::min(packet, k))},
                             {"forward", forward}};
              if (virt && n == 4) spec.params["virtual"] = "square";
              if (std::string(algo) == "mpt") spec.params.erase("forward");
              std::string what = std::string(algo) + " n=" + std::to_string(n);
              for (const auto& [key, v] : spec.params) what += " --" + key + " " + v;
              const BuiltCase c = buildCase(spec);
              const testing::CheckedRun r = testing::runChecked(c);
              testing::expectCleanRun(r, c.perm.participating(), what);
              // cycles: the WAIT start-ups count (transfer_cycles counts XFER cycles only).
              EXPECT_GE(r.run.cycles, c.lower_bound) << what << ": " << c.bound_source;
              if (!virt) {
                const u64 time = std::string(forward) == "cut" && std::string(algo) != "mpt"
                                     ? tau + static_cast<u64>(n)
                                     : tau * static_cast<u64>(n);
                EXPECT_EQ(c.lower_bound, std::max(time, k / 2)) << what;
              }
              ++runs;
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(runs, 3 * 5 * 3 * 3 * 2);
}

TEST(Transpose2dCase, VirtualElementsReportTheRealFormulaAndBound) {
  // spt 2 x 64 --virtual square --partition 2d-cyclic --tau 1 --packet 2 on 16 nodes: R_x = 16,
  // (8 + 3)(2 + 1) = 33 cycles against the extended 64 x 64's (128 + 3) * 3 = 393; Theorem 3 over
  // the real elements: max(4 * 1, 64 / 8, 16 / 4) = 8 (extended: max(4, 256 / 2) = 128). Of the
  // 3968 virtual elements, 992 sit on the diagonal nodes, which keep their block.
  CaseSpec spec;
  spec.algo = "spt";
  spec.n = 4;
  spec.params = {{"matrix", "2x64"},
                 {"virtual", "square"},
                 {"partition", "2d-cyclic"},
                 {"tau", "1"},
                 {"packet", "2"}};
  const BuiltCase c = buildCase(spec);
  EXPECT_EQ(c.lower_bound, 8U);
  for (const std::string part :
       {"Theorem 3 over the real elements (Definition 2), max(d*tau, R_q/(N/2), R_max/n) with d = "
        "4 the longest real distance, R_q = 64 real elements in the busier off-diagonal quadrant, "
        "R_max = 16 on the busiest node (extended matrix: max(n*tau, PQ/2N) = 128)",
        "section 6.1.1 (ceil(R_x/B)+2H(x)-1)(B+tau) with R_x the real elements node x sends (at "
        "most 16 of K = 256), max over x, = 33 cycles (extended matrix: 393)",
        "paper's B_opt for PQ/N = 16 = 2.3", "2976 virtual elements (Definition 2) left out"}) {
    EXPECT_NE(c.bound_source.find(part), std::string::npos) << c.bound_source;
  }
  const testing::CheckedRun r = testing::runChecked(c);
  testing::expectCleanRun(r, 128, "spt 2x64 square");
  EXPECT_EQ(r.run.words, c.perm.participatingDistance());
  // The default B is B_opt for the busiest node's R_x = 16 (sqrt(16 * 9 / 3) = 6.9 -> 7), not
  // for K = 256 (27.7).
  spec.params = {
      {"matrix", "2x64"}, {"virtual", "square"}, {"partition", "2d-cyclic"}, {"tau", "9"}};
  EXPECT_NE(buildCase(spec).bound_source.find("B = 7, paper's B_opt for PQ/N = 16 = 6.9"),
            std::string::npos)
      << buildCase(spec).bound_source;
  // --virtual needed on 2 x 64: the real rows fill node rows 0 and 1 and (00||11) sends all K =
  // 16 of its elements over n hops, so the time is the extended matrix's: 19, 11 and 9 cycles.
  for (const auto& [algo, cycles] :
       std::vector<std::pair<std::string, u64>>{{"spt", 19}, {"dpt", 11}, {"mpt", 9}}) {
    spec.algo = algo;
    spec.params = {{"matrix", "2x64"}};
    const BuiltCase v = buildCase(spec);
    EXPECT_NE(v.bound_source.find("= " + std::to_string(cycles) +
                                  " cycles (extended matrix: " + std::to_string(cycles) + ")"),
              std::string::npos)
        << v.bound_source;
    EXPECT_EQ(v.lower_bound, 8U);  // R_q = 4 nodes x 16 over 8 links
    EXPECT_EQ(testing::runChecked(v).run.cycles, cycles);
  }
}

TEST(Transpose2dCase, BadInputIsAnErrorNamingTheOption) {
  auto message = [](CaseSpec spec) {
    try {
      buildCase(spec);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CaseSpec spec;
  spec.algo = "spt";
  spec.n = 4;
  spec.params = {{"matrix", "16x16"}, {"route", "zigzag"}};
  EXPECT_NE(message(spec).find("--route 'zigzag'"), std::string::npos) << message(spec);
  spec.params = {{"matrix", "16x16"}, {"forward", "cut"}, {"route", "sync"}};
  EXPECT_NE(message(spec).find("--route sync with --forward cut"), std::string::npos);
  spec.params = {{"matrix", "16x16"}, {"packet", "0"}};
  EXPECT_NE(message(spec).find("--packet 0"), std::string::npos) << message(spec);
  spec.algo = "mpt";
  spec.params = {{"matrix", "16x16"}, {"forward", "cut"}};
  EXPECT_NE(message(spec).find("--forward cut"), std::string::npos);
  spec.params = {{"matrix", "16x16"}, {"sizing", "big"}};
  EXPECT_NE(message(spec).find("--sizing 'big'"), std::string::npos) << message(spec);
  spec.algo = "spt";
  EXPECT_NE(message(spec).find("--sizing: algorithm 'spt' takes no such option"), std::string::npos)
      << message(spec);
  spec.algo = "mpt";
  spec.params = {{"matrix", "16x16"}, {"bogus", "1"}};
  EXPECT_NE(message(spec).find("--bogus"), std::string::npos);
  spec.n = 3;
  spec.params = {{"matrix", "16x16"}};
  EXPECT_NE(message(spec).find("n = 3"), std::string::npos) << message(spec);
  spec.n = 4;
  spec.params = {{"matrix", "16x16"}, {"partition", "row-cyclic"}};
  EXPECT_NE(message(spec).find("tr(x)"), std::string::npos) << message(spec);
  spec.one_port = true;
  spec.params = {{"matrix", "16x16"}};
  EXPECT_NE(message(spec).find("--ports one"), std::string::npos) << message(spec);
}

}  // namespace
}  // namespace hcube
