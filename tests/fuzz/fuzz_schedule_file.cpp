// libFuzzer harness: the schedule file reader (sw/algorithms/schedule_file.h,
// docs/schedule-format.md).
//
// Any input either reads as a checked schedule or throws hcube::Error (bad input, named). A
// schedule that reads must survive a round trip (written and read again, it writes the same
// text) and compile for the hardware it names (lanes as the file says, all-port): the reader's
// checks promise that every element arrives, so the compiler must not refuse what the reader
// accepted, except for what only the hardware decides (a relative schedule has one lane).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

#include "algorithms/schedule_file.h"
#include "base/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  hcube::ScheduleFile s;
  try {
    s = hcube::readScheduleFile(in, "fuzz.hcs");
  } catch (const hcube::Error&) {
    return 0;  // refused with a message: the expected answer to bad input
  }
  std::ostringstream first;
  hcube::writeScheduleFile(first, s);
  std::istringstream again(first.str());
  hcube::ScheduleFile reread;
  try {
    reread = hcube::readScheduleFile(again, "fuzz-rewritten.hcs");
  } catch (const hcube::Error& e) {
    std::cerr << "round trip: the written schedule does not read back: " << e.what() << "\n"
              << first.str();
    std::abort();
  }
  std::ostringstream second;
  hcube::writeScheduleFile(second, reread);
  if (second.str() != first.str()) {
    std::cerr << "round trip: the schedule read back writes other text\n" << first.str();
    std::abort();
  }
  hcube::CompileOptions o;
  o.lanes = s.lanes;
  try {
    hcube::compileScheduleFile(s, o);
  } catch (const hcube::Error& e) {
    std::cerr << "the compiler refused a schedule the reader accepted: " << e.what() << "\n"
              << first.str();
    std::abort();
  }
  return 0;
}
