// libFuzzer harness: the image reader (readImage in sw/tables/table_image.h, docs/hardware/node.md
// §3).
//
// Any input either reads as a table set or throws hcube::Error (bad input, named). A set that
// reads must also survive a round trip through the image writer for its own memory size: read
// again it is the same set, and writing it again gives the same image. Anything else (another
// exception, a crash, a sanitizer report, a timeout or running out of memory) is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

#include "base/error.h"
#include "tables/table_image.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  hcube::TableSet set;
  try {
    set = hcube::readImage(in, "fuzz.hex");
  } catch (const hcube::Error&) {
    return 0;  // refused with a message: the expected answer to bad input
  }
  std::ostringstream first;
  hcube::writeImage(first, set);
  std::istringstream again(first.str());
  hcube::TableSet reread;
  try {
    reread = hcube::readImage(again, "fuzz-rewritten.hex");
  } catch (const hcube::Error& e) {
    std::cerr << "round trip: the written image does not read back: " << e.what() << "\n"
              << first.str();
    std::abort();
  }
  std::ostringstream second;
  hcube::writeImage(second, reread);
  // 'algo' is optional in an image; the writer names an unnamed set "unknown".
  if (set.header.algo.empty()) set.header.algo = "unknown";
  if (!(reread == set) || second.str() != first.str()) {
    std::cerr << "round trip: the set read back differs from the set written\n" << first.str();
    std::abort();
  }
  return 0;
}
