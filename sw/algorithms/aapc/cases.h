// hcube: building blocks shared by the AAPC families of sw/cases/.
#pragma once

#include <string>

#include "algorithms/algorithms.h"
#include "schedule/schedule.h"
#include "tables/compiler.h"

namespace hcube {

/// The AAPC of a case: K = m * 2^n (default 2^n); throws Error naming --n or --k.
PermutationSpec aapcFor(const CaseSpec& spec);

/// A case whose schedule is one homogeneous relative-address schedule of an AAPC, repeated
/// K / 2^n times by the compiler with the given options.
BuiltCase relativeAapcCase(const RelativeSchedule& schedule, const PermutationSpec& perm,
                           const CompileOptions& options, const std::string& bound_source);

}  // namespace hcube
