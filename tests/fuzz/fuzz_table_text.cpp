// libFuzzer harness: the table text reader (sw/tables/table_text.h, docs/table-format.md).
//
// Any input either reads as a table set or throws hcube::Error (bad input, named). A set that
// reads must also survive a round trip: written back and read again it is the same set, and the
// second writing is the same text. Anything else (another exception, a crash, a sanitizer
// report, a timeout or running out of memory) is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

#include "base/error.h"
#include "tables/table_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  hcube::TableSet set;
  try {
    set = hcube::readTableText(in, "fuzz.hct");
  } catch (const hcube::Error&) {
    return 0;  // refused with a message: the expected answer to bad input
  }
  std::ostringstream first;
  hcube::writeTableText(first, set);
  std::istringstream again(first.str());
  hcube::TableSet reread;
  try {
    reread = hcube::readTableText(again, "fuzz-rewritten.hct");
  } catch (const hcube::Error& e) {
    std::cerr << "round trip: the written text does not read back: " << e.what() << "\n"
              << first.str();
    std::abort();
  }
  std::ostringstream second;
  hcube::writeTableText(second, reread);
  if (!(reread == set) || second.str() != first.str()) {
    std::cerr << "round trip: the set read back differs from the set written\n" << first.str();
    std::abort();
  }
  return 0;
}
