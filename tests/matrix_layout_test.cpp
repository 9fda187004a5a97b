// Matrix layouts on the cube: Johnsson & Ho 1987 §2, Tables 1 and 2, and the transposition
// permutation of Definition 1 between layouts.
#include <gtest/gtest.h>

#include <set>

#include "algorithms/transpose/layout.h"
#include "base/error.h"
#include "spec/reference.h"
#include "test_util.h"

namespace hcube {
namespace {

u64 G(u64 x) { return grayEncode(x); }
u64 bits(u64 x, int hi, int lo) { return (x >> lo) & ((u64{1} << (hi - lo + 1)) - 1); }

// Table 1: the processor address of element (u, v) for consecutive and cyclic one-dimensional
// partitionings, binary and Gray. p = 6, q = 5, n = 3 (a non-square matrix, so a mix-up of u and
// v or p and q shows). The slot holds the remaining bits in order (§2 address fields).
TEST(MatrixLayout, Table1ProcessorAddresses) {
  const int p = 6, q = 5, n = 3;
  struct Row {
    const char* partition;
    const char* encoding;
    u64 (*node)(u64 u, u64 v);
    u64 (*slot)(u64 u, u64 v);
  };
  const Row table1[] = {
      {"row-consecutive", "binary", [](u64 u, u64) { return bits(u, 5, 3); },
       [](u64 u, u64 v) { return (bits(u, 2, 0) << 5) | v; }},
      {"row-cyclic", "binary", [](u64 u, u64) { return bits(u, 2, 0); },
       [](u64 u, u64 v) { return (bits(u, 5, 3) << 5) | v; }},
      {"col-consecutive", "binary", [](u64, u64 v) { return bits(v, 4, 2); },
       [](u64 u, u64 v) { return (u << 2) | bits(v, 1, 0); }},
      {"col-cyclic", "binary", [](u64, u64 v) { return bits(v, 2, 0); },
       [](u64 u, u64 v) { return (u << 2) | bits(v, 4, 3); }},
      {"row-consecutive", "gray", [](u64 u, u64) { return G(bits(u, 5, 3)); },
       [](u64 u, u64 v) { return (bits(u, 2, 0) << 5) | v; }},
      {"row-cyclic", "gray", [](u64 u, u64) { return G(bits(u, 2, 0)); },
       [](u64 u, u64 v) { return (bits(u, 5, 3) << 5) | v; }},
      {"col-consecutive", "gray", [](u64, u64 v) { return G(bits(v, 4, 2)); },
       [](u64 u, u64 v) { return (u << 2) | bits(v, 1, 0); }},
      {"col-cyclic", "gray", [](u64, u64 v) { return G(bits(v, 2, 0)); },
       [](u64 u, u64 v) { return (u << 2) | bits(v, 4, 3); }},
  };
  for (const Row& r : table1) {
    const MatrixLayout l = MatrixLayout::make(p, q, n, r.partition, r.encoding);
    EXPECT_EQ(l.k(), 8);
    for (u64 u = 0; u < 64; ++u) {
      for (u64 v = 0; v < 32; ++v) {
        const GlobalAddress a = l.place(u, v);
        ASSERT_EQ(a.node, r.node(u, v)) << r.partition << " " << r.encoding << " " << u << "," << v;
        ASSERT_EQ(a.slot, r.slot(u, v)) << r.partition << " " << r.encoding << " " << u << "," << v;
        ASSERT_EQ(l.element(a), std::make_pair(u, v));
      }
    }
  }
}

// Table 2: combined assignment. Contiguous field (u_{p-i} .. u_{p-i-n+1}) with p = 7, i = 2,
// n = 3: row bits 5..3. Non-contiguous (u_{p-1}..u_{p-s} u_{n-s-1}..u_0) with p = 7, n = 4,
// s = 2: row bits 6,5 and 1,0, each part Gray-coded on its own: G(u6 u5) G(u1 u0).
TEST(MatrixLayout, Table2CombinedAssignment) {
  struct Row {
    int n;
    const char* partition;
    const char* encoding;
    u64 (*node)(u64 u, u64 v);
  };
  const Row table2[] = {
      {3, "u5-3", "binary", [](u64 u, u64) { return bits(u, 5, 3); }},
      {3, "v5-3", "binary", [](u64, u64 v) { return bits(v, 5, 3); }},
      {3, "u5-3", "gray", [](u64 u, u64) { return G(bits(u, 5, 3)); }},
      {3, "v5-3", "gray", [](u64, u64 v) { return G(bits(v, 5, 3)); }},
      {4, "u6-5,u1-0", "binary", [](u64 u, u64) { return (bits(u, 6, 5) << 2) | bits(u, 1, 0); }},
      {4, "v6-5,v1-0", "binary", [](u64, u64 v) { return (bits(v, 6, 5) << 2) | bits(v, 1, 0); }},
      {4, "u6-5,u1-0", "gray",
       [](u64 u, u64) { return (G(bits(u, 6, 5)) << 2) | G(bits(u, 1, 0)); }},
      {4, "v6-5,v1-0", "gray",
       [](u64, u64 v) { return (G(bits(v, 6, 5)) << 2) | G(bits(v, 1, 0)); }},
  };
  for (const Row& r : table2) {
    const MatrixLayout l = MatrixLayout::make(7, 7, r.n, r.partition, r.encoding);
    std::set<u64> seen;
    for (u64 u = 0; u < 128; ++u) {
      for (u64 v = 0; v < 128; ++v) {
        const GlobalAddress a = l.place(u, v);
        ASSERT_EQ(a.node, r.node(u, v)) << r.partition << " " << r.encoding;
        seen.insert(packAddress(a, l.slots()));
      }
    }
    EXPECT_EQ(seen.size(), 128U * 128U) << r.partition;  // a bijection onto (node | slot)
  }
}

// §2: two-dimensional address fields, n_r = n_c = 2 (n = 4), p = 5, q = 4.
// Cyclic (u_{p-1}..u_{nr} vp, u_{nr-1}..u_0 rp, v_{q-1}..v_{nc} vp, v_{nc-1}..v_0 rp);
// consecutive (u_{p-1}..u_{p-nr} rp, .. vp, v_{q-1}..v_{q-nc} rp, .. vp).
TEST(MatrixLayout, TwoDimensionalAddressFields) {
  const MatrixLayout cyc = MatrixLayout::make(5, 4, 4, "2d-cyclic", "binary");
  const MatrixLayout con = MatrixLayout::make(5, 4, 4, "2d-consecutive", "binary");
  const MatrixLayout mix = MatrixLayout::make(5, 4, 4, "2d-consecutive-cyclic", "gray-cols");
  EXPECT_EQ(cyc.rowNodeBits(), 2);
  EXPECT_EQ(cyc.colNodeBits(), 2);
  for (u64 u = 0; u < 32; ++u) {
    for (u64 v = 0; v < 16; ++v) {
      EXPECT_EQ(cyc.place(u, v), (GlobalAddress{(bits(u, 1, 0) << 2) | bits(v, 1, 0),
                                                (bits(u, 4, 2) << 2) | bits(v, 3, 2)}));
      EXPECT_EQ(con.place(u, v), (GlobalAddress{(bits(u, 4, 3) << 2) | bits(v, 3, 2),
                                                (bits(u, 2, 0) << 2) | bits(v, 1, 0)}));
      EXPECT_EQ(mix.place(u, v), (GlobalAddress{(bits(u, 4, 3) << 2) | G(bits(v, 1, 0)),
                                                (bits(u, 2, 0) << 2) | bits(v, 3, 2)}));
    }
  }
  // Odd n: rows get ceil(n/2) node bits.
  const MatrixLayout odd = MatrixLayout::make(4, 4, 3, "2d-cyclic", "binary");
  EXPECT_EQ(odd.rowNodeBits(), 2);
  EXPECT_EQ(odd.colNodeBits(), 1);
}

// §2 (the one-dimensional example before §3): cyclic column partitioning before and after,
// p = q > n. Before (u, v_{q-1}..v_n | v_{n-1}..v_0), after
// (v, u_{p-1}..u_n | u_{n-1}..u_0): the real fields are disjoint (I is empty), an AAPC.
TEST(MatrixLayout, TransposeColumnCyclicIsTheAddressFieldSwap) {
  const int p = 5, q = 5, n = 3;
  const MatrixLayout before = MatrixLayout::make(p, q, n, "col-cyclic", "binary");
  const MatrixLayout after = MatrixLayout::make(q, p, n, "col-cyclic", "binary");
  const PermutationSpec t = transposePermutation(before, after);
  EXPECT_EQ(t.kind(), PermutationSpec::Kind::kLinear);
  EXPECT_EQ(t.n(), 3);
  EXPECT_EQ(t.slots(), 128U);
  for (u64 u = 0; u < 32; ++u) {
    for (u64 v = 0; v < 32; ++v) {
      const GlobalAddress from{bits(v, 2, 0), (u << 2) | bits(v, 4, 3)};
      const GlobalAddress to{bits(u, 2, 0), (v << 2) | bits(u, 4, 3)};
      ASSERT_EQ(t.dest(from), to) << u << "," << v;
    }
  }
}

// Every layout pair for a small non-square matrix: the transpose puts a(u, v) where the layout
// after says a^T(v, u) is, the reference model agrees, and the map is a bijection.
TEST(MatrixLayout, TransposeEveryLayoutPairSmall) {
  const char* partitions[] = {
      "row-consecutive", "row-cyclic", "col-consecutive",       "col-cyclic",
      "2d-consecutive",  "2d-cyclic",  "2d-consecutive-cyclic", "u3,v0"};
  const char* encodings[] = {"binary", "gray", "gray-rows", "gray-cols"};
  const int p = 4, q = 3, n = 2;
  int pairs = 0;
  for (const char* pb : partitions) {
    for (const char* eb : encodings) {
      if (std::string(pb) == "u3,v0") continue;  // needs q >= 4 for the layout after; below
      const MatrixLayout before = MatrixLayout::make(p, q, n, pb, eb);
      for (const char* pa : partitions) {
        for (const char* ea : encodings) {
          const std::string pas = std::string(pa) == "u3,v0" ? "u2,v3" : pa;
          const MatrixLayout after = MatrixLayout::make(q, p, n, pas, ea);
          const PermutationSpec t = transposePermutation(before, after);
          const CubeMemory want = expectedMemory(t);
          for (u64 u = 0; u < 16; ++u) {
            for (u64 v = 0; v < 8; ++v) {
              const GlobalAddress from = before.place(u, v);
              const GlobalAddress to = after.place(v, u);
              ASSERT_EQ(t.dest(from), to);
              ASSERT_EQ(want.at(to.node, to.slot), packAddress(from, t.slots()));
            }
          }
          ++pairs;
        }
      }
    }
  }
  EXPECT_EQ(pairs, 7 * 4 * 8 * 4);
}

TEST(MatrixLayout, RelayoutConvertsConsecutiveToCyclic) {
  // Corollary 6/7: consecutive row storage to cyclic row storage of the same matrix.
  const MatrixLayout from = MatrixLayout::make(6, 2, 2, "row-consecutive", "binary");
  const MatrixLayout to = MatrixLayout::make(6, 2, 2, "row-cyclic", "binary");
  const PermutationSpec c = relayoutPermutation(from, to);
  for (u64 u = 0; u < 64; ++u) {
    for (u64 v = 0; v < 4; ++v) {
      EXPECT_EQ(c.dest({bits(u, 5, 4), (bits(u, 3, 0) << 2) | v}),
                (GlobalAddress{bits(u, 1, 0), (bits(u, 5, 2) << 2) | v}));
    }
  }
}

TEST(MatrixLayout, StringFormsRoundTrip) {
  const MatrixLayout l = MatrixLayout::parse("128x64/u6-4,v1-0/gray-cols", 5);
  EXPECT_EQ(l.str(), "128x64/u6-4,v1-0/gray-cols");
  EXPECT_EQ(l.p(), 7);
  EXPECT_EQ(l.q(), 6);
  EXPECT_EQ(l.fields().size(), 2U);
  EXPECT_FALSE(l.gray(0));
  EXPECT_TRUE(l.gray(1));
  EXPECT_EQ(MatrixLayout::parse("4x8/col-cyclic/binary", 2).str(), "4x8/col-cyclic/binary");
}

using testing::errorOf;

TEST(MatrixLayout, BadInputNamesTheOption) {
  auto has = [](const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
  };
  CaseSpec spec;
  spec.algo = "transpose-1d";
  spec.n = 5;
  auto layouts = [&](std::map<std::string, std::string> params) {
    spec.params = std::move(params);
    return errorOf([&] {
      CaseParams cp(spec);
      transposeLayoutsFromParams(cp, spec, "col-cyclic");
    });
  };
  // The matrix does not fit: fewer elements than nodes.
  EXPECT_TRUE(has(layouts({{"matrix", "4x4"}}), "--matrix 4x4")) << layouts({{"matrix", "4x4"}});
  EXPECT_TRUE(has(layouts({{"matrix", "48x64"}}), "--matrix '48x64'"));
  EXPECT_TRUE(has(layouts({{"matrix", "64"}}), "--matrix '64'"));
  // The partitioning cannot use n = 5: only 16 columns.
  const std::string few = layouts({{"matrix", "256x16"}, {"partition", "col-cyclic"}});
  EXPECT_TRUE(has(few, "--partition 'col-cyclic'")) << few;
  EXPECT_TRUE(has(few, "q = 4")) << few;
  // ... and the transpose of a 16x256 matrix stored by columns has only 16 columns.
  const std::string after = layouts({{"matrix", "16x256"}, {"partition", "col-cyclic"}});
  EXPECT_TRUE(has(after, "--to-partition 'col-cyclic'")) << after;
  EXPECT_TRUE(has(layouts({{"partition", "diagonal"}}), "--partition 'diagonal'"));
  EXPECT_TRUE(has(layouts({{"partition", "u3-1,v2"}}), "node address bits"));
  EXPECT_TRUE(has(layouts({{"partition", "u3-1,u2-1"}}), "used twice"));
  EXPECT_TRUE(has(layouts({{"encoding", "ascii"}}), "--encoding 'ascii'"));
  EXPECT_TRUE(has(layouts({{"to-encoding", "ascii"}}), "--to-encoding 'ascii'"));
  spec.slots = 8;
  EXPECT_TRUE(has(layouts({{"matrix", "64x64"}}), "--k 8"));
}

TEST(MatrixLayout, DefaultsFromTheCase) {
  CaseSpec spec;
  spec.algo = "transpose-1d";
  spec.n = 3;
  CaseParams cp(spec);
  const TransposeLayouts t = transposeLayoutsFromParams(cp, spec, "row-consecutive");
  EXPECT_EQ(t.str(), "8x8/row-consecutive/binary>8x8/row-consecutive/binary");
  spec.slots = 32;
  spec.params = {{"to-encoding", "gray"}, {"partition", "col-cyclic"}};
  CaseParams cp2(spec);
  const TransposeLayouts t2 = transposeLayoutsFromParams(cp2, spec, "row-consecutive");
  EXPECT_EQ(t2.str(), "16x16/col-cyclic/binary>16x16/col-cyclic/gray");
  cp2.finish();
}

}  // namespace
}  // namespace hcube
