// hcube: the hardware error kinds (docs/hardware/checks.md), described once. Each row gives the
// C++ enumerator, the name the tool prints and reads, the localparam rtl/hc_pkg.sv gives the same
// index (the bit in hc_cube's err_any_o and the counter in err_count_o) and what the kind means.
// The enum, the name table and the RTL testbench's names (tb/cube_tb.h) are all made from this
// list; the test Registries.HwErrorKindsAgreeWithTheRtlPackage checks rtl/hc_pkg.sv against it.
// Header-only and standard C++ only, so the RTL testbench compiles it too.
//
// A new kind: a row here (at the end: the index is the row), its localparam in rtl/hc_pkg.sv
// with NumErrKinds one more, and its detection in each executor (sw/exec/executor.cpp,
// sim/tlm/hc_tlm_node.cpp, rtl/hc_node.sv).
#pragma once

#include <array>

// X(enumerator, name, rtl localparam, meaning)
#define HCUBE_HW_ERROR_KINDS(X)                                                                  \
  X(kLost, "lost", "ErrLost", "a word arrived on a channel whose input side is IDLE")            \
  X(kNoData, "nodata", "ErrNodata", "the input side is MEM, ADD or PASS but no word arrived")    \
  X(kFwd, "fwd", "ErrFwd", "FWD from a channel that holds no PASS word from the previous cycle") \
  X(kSlot, "slot", "ErrSlot", "a slot (after the relative XOR) is outside the memory")           \
  X(kOverrun, "overrun", "ErrOverrun", "the program counter ran past the table without END")     \
  X(kOnePort, "oneport", "ErrOneport",                                                           \
    "one-port mode and more than one port sends or more than one receives")                      \
  X(kIllegal, "illegal", "ErrIllegal",                                                           \
    "a reserved field value, WAIT 0, or a PERMUTE channel neither IDLE/IDLE nor MEM/MEM")        \
  X(kConflict, "conflict", "ErrConflict", "two channels write the same slot in one cycle")       \
  X(kDropped, "dropped", "ErrDropped", "a PASS word was not forwarded in the next cycle")        \
  X(kOverlap, "overlap", "ErrOverlap",                                                           \
    "MAC overlap mode: a transfer or PERMUTE touches the running MAC's blocks, or a MAC is "     \
    "issued while one runs")

namespace hcube {

enum class HwError : int {
#define HCUBE_HW_ERROR_ENUMERATOR(kind, name, rtl, meaning) kind,
  HCUBE_HW_ERROR_KINDS(HCUBE_HW_ERROR_ENUMERATOR)
#undef HCUBE_HW_ERROR_ENUMERATOR
};

/// One row of HCUBE_HW_ERROR_KINDS.
struct HwErrorKindInfo {
  HwError kind;
  const char* name;      ///< as the tool prints and reads it
  const char* rtl_name;  ///< the localparam of rtl/hc_pkg.sv holding its index
  const char* meaning;
};

/// Every kind, in counter order: kHwErrorKindTable[i].kind == HwError(i).
inline constexpr std::array kHwErrorKindTable = {
#define HCUBE_HW_ERROR_ROW(kind, name, rtl, meaning) \
  HwErrorKindInfo{HwError::kind, name, rtl, meaning},
    HCUBE_HW_ERROR_KINDS(HCUBE_HW_ERROR_ROW)
#undef HCUBE_HW_ERROR_ROW
};
inline constexpr int kHwErrorKinds = static_cast<int>(kHwErrorKindTable.size());

}  // namespace hcube
