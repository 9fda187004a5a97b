// Johnsson & Ho 1987 §6.1: the MPT paths of the paper's example (x = (1001||0100)) and the node
// sequence of its path 0, the ~ad / ~s relations of Definitions 12 and 15, Lemmas 9, 10, 13, 14
// checked by enumeration for n = 2..10, and SPT / DPT / MPT run through the table executor and
// the static verifier with exact cycle counts against the §6.1 formulas.
#include "schedules/transpose2d.h"

#include <gtest/gtest.h>

#include <string>

#include "algorithms.h"
#include "error.h"
#include "executor.h"
#include "matrix/layout.h"
#include "reference.h"
#include "test_util.h"
#include "verifier.h"

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
  EXPECT_EQ(check.correct, perm.elements()) << what;
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
