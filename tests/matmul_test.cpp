// Issue 13: matrix multiplication of Johnsson & Ho 1988 (TR-623) §3 — the rotation algorithm
// A(.,1,1) and Cannon's algorithm A(.,2,1) — built as catalogue cases, verified statically (the
// verifier's product terms), run on the table executor and the TLM (and the RTL where a CI model
// is big enough), every element of A checked against C x D computed independently, and the
// exact counts: Table 5's arithmetic (PQR/N multiply-adds, / U), Table 6's element transfers
// and start-ups for the rotation, Cannon's rotations and alignment.
#include "schedules/matmul.h"

#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <string>

#include "algorithms.h"
#include "error.h"
#include "executor.h"
#include "matmul_layout.h"
#include "reference.h"
#include "rtl_backend.h"
#include "run_compare.h"
#include "test_util.h"
#include "tlm_backend.h"
#include "verifier.h"

namespace hcube {
namespace {

using testing::errorList;

struct MatmulCase {
  const char* method;
  int n;
  u64 p, q, r;
  bool one_port = false;
  u32 tau = 0;
  u64 packet = 0;
  u32 units = 1;
  bool rtl = false;  ///< also on the RTL (a CI model must hold it: n <= 4, K <= 4 * 2^n)
};

BuiltCase build(const MatmulCase& m) {
  std::map<std::string, std::string> params = {
      {"method", m.method},
      {"shape", std::to_string(m.p) + "x" + std::to_string(m.q) + "x" + std::to_string(m.r)},
      {"tau", std::to_string(m.tau)},
      {"packet", std::to_string(m.packet)},
      {"units", std::to_string(m.units)}};
  return buildCase(testing::caseSpec("matmul", m.n, 0, 1, m.one_port, params));
}

void expectMatmul(const MatmulCase& m) {
  SCOPED_TRACE(std::string(m.method) + " n = " + std::to_string(m.n) + " shape " +
               std::to_string(m.p) + "x" + std::to_string(m.q) + "x" + std::to_string(m.r) +
               (m.one_port ? " one-port" : "") + " tau " + std::to_string(m.tau) + " packet " +
               std::to_string(m.packet) + " U " + std::to_string(m.units));
  const BuiltCase c = build(m);
  const VerifyReport v = verifyTables(c.tables);
  EXPECT_TRUE(v.ok()) << (v.errors.empty() ? "" : v.errors[0]);
  const RunResult table = testing::onTable(c.tables);
  testing::expectSameRun("tlm", runOnTlm(c.tables, TlmOptions{}), table);
  if (m.rtl) {
    RtlOptions opt;
    opt.progress = &std::cerr;
    testing::expectSameRun("rtl", runOnRtl(c.tables, opt), table);
  }
  EXPECT_TRUE(table.errors.empty()) << errorList(table.errors);
  // Every element of A against C x D, by the reference model and once more here.
  const CheckResult check = checkAgainstReference(c.perm, table.memory);
  EXPECT_EQ(check.mismatches, 0U);
  EXPECT_EQ(check.correct, m.p * m.r);
  const MatmulLayout l = MatmulLayout::of(c.perm);
  const CubeMemory init = taggedMemory(c.perm, c.perm.slots());
  for (u64 i = 0; i < m.p; ++i) {
    for (u64 k = 0; k < m.r; ++k) {
      const GlobalAddress a = l.aAt(i, k);
      u32 want = init.at(a.node, a.slot);
      for (u64 j = 0; j < m.q; ++j) {
        const GlobalAddress cc = l.cAt(i, j);
        const GlobalAddress d = l.dAt(j, k);
        want += init.at(cc.node, cc.slot) * init.at(d.node, d.slot);
      }
      ASSERT_EQ(table.memory.at(a.node, a.slot), want) << "A(" << i << "," << k << ")";
    }
  }
  // Exact counts.
  const u64 nodes = u64{1} << m.n;
  const u64 arithmetic = m.p * m.q * m.r / nodes / m.units;  // Table 5: 2PQR/N operations
  const bool rotation = std::string(m.method) == "rotation";
  u64 transfers = 0;
  u64 messages = 0;
  if (rotation) {
    // Table 6, A^l(1,1,1): (N-1) P Q/N element transfers; one message per step and packet.
    const u64 block = m.p * m.q / nodes;
    transfers = (nodes - 1) * block;
    messages = (nodes - 1) * (m.packet == 0 ? 1 : (block + m.packet - 1) / m.packet);
  } else {
    // Cannon on a sqrt(N) x sqrt(N) grid: 2 (sqrt(N) - 1) rotation steps (alignment, then
    // between the multiplications); in each, C's block (P/sqrt(N) x Q/sqrt(N)) and D's
    // (Q/sqrt(N) x R/sqrt(N)) move, together on all ports, one after the other on one port.
    const u64 side = u64{1} << (m.n / 2);
    const u64 cb = (m.p / side) * (m.q / side);
    const u64 db = (m.q / side) * (m.r / side);
    auto msgs = [&](u64 words) { return m.packet == 0 ? 1 : (words + m.packet - 1) / m.packet; };
    const u64 per_step = m.one_port ? cb + db : std::max(cb, db);
    const u64 per_step_msgs = m.one_port ? msgs(cb) + msgs(db) : msgs(std::max(cb, db));
    transfers = 2 * (side - 1) * per_step;
    messages = 2 * (side - 1) * per_step_msgs;
  }
  EXPECT_EQ(c.lower_bound, transfers);
  EXPECT_EQ(table.transfer_cycles, transfers);
  EXPECT_EQ(table.cycles, arithmetic + transfers + messages * m.tau);
}

TEST(Matmul, RotationA111MatchesTables5And6) {
  expectMatmul({"rotation", 1, 2, 2, 2, false, 0, 0, 1, true});
  expectMatmul({"rotation", 2, 2, 4, 4, false, 0, 0, 1, true});
  expectMatmul({"rotation", 2, 2, 4, 8, true, 3, 0, 1, true});  // P x Q x R not square
  expectMatmul({"rotation", 3, 8, 8, 8, false, 2, 3, 1, false});
  expectMatmul({"rotation", 3, 4, 16, 8, false, 0, 0, 2, false});  // U = 2 divides Q/N = 2
  expectMatmul({"rotation", 4, 16, 16, 16, true, 5, 0, 1, false});
}

TEST(Matmul, CannonA121WithItsAlignment) {
  expectMatmul({"cannon", 2, 2, 2, 2, false, 0, 0, 1, true});
  expectMatmul({"cannon", 2, 2, 2, 4, true, 1, 0, 1, true});   // blocks 1x1, 1x2, 1x2
  expectMatmul({"cannon", 2, 4, 2, 6, true, 1, 0, 1, false});  // blocks 2x1, 1x3, 2x3
  expectMatmul({"cannon", 4, 8, 8, 8, false, 0, 0, 1, true});
  expectMatmul({"cannon", 4, 8, 4, 12, false, 4, 3, 1, false});
  expectMatmul({"cannon", 4, 8, 8, 8, true, 2, 0, 2, false});
  expectMatmul({"cannon", 6, 16, 16, 16, false, 0, 0, 1, false});
}

TEST(Matmul, BadInputIsNamed) {
  auto err = [](std::map<std::string, std::string> params, int n = 2) {
    return testing::errorOf(
        [&] { buildCase(testing::caseSpec("matmul", n, 0, 1, false, std::move(params))); });
  };
  EXPECT_EQ(err({{"method", "cannon"}, {"shape", "4x4x3"}}),
            "matmul: R = 3 does not divide over the 2 grid columns (grid 2x2)");
  EXPECT_EQ(err({{"method", "rotation"}, {"shape", "4x6x4"}}),
            "matmul: Q = 6 does not divide over the 4 grid columns (grid 1x4)");
  EXPECT_EQ(err({{"method", "cannon"}, {"shape", "4x4x4"}, {"grid", "2x4"}}),
            "--grid 2x4: N1 x N2 must be the 4 processors of the 2-cube, powers of two");
  EXPECT_EQ(err({{"method", "cannon"}, {"shape", "8x8x8"}, {"grid", "1x8"}}, 3),
            "--method cannon: Cannon's algorithm A(.,2,1) needs a square grid N1 = N2 = sqrt(N) "
            "(got 1x8; the paper's N1 != N2 variant is not built)");
  EXPECT_EQ(err({{"method", "strassen"}, {"shape", "4x4x4"}}),
            "--method 'strassen': unknown matmul method (rotation, cannon)");
  EXPECT_EQ(err({{"method", "rotation"}, {"shape", "4x4"}}),
            "--shape '4x4': expected PxQxR (positive integers)");
  EXPECT_EQ(err({{"shape", "4x4x4"}}), "--method is required for matmul (rotation, cannon)");
}

TEST(Matmul, SpecReadsBackFromText) {
  const PermutationSpec s = PermutationSpec::matmul(4, 8, 4, 12, 2);
  EXPECT_EQ(s.str(), "matmul n=4 shape=8x4x12 l=2");
  EXPECT_EQ(PermutationSpec::parse(s.str()).str(), s.str());
  EXPECT_EQ(s.slots(), 2U * 1U + 1U * 3U + 2U * 3U);
}

}  // namespace
}  // namespace hcube
