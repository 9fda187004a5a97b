// libFuzzer harness: the message list reader of routed mode (sw/router/message_text.h,
// docs/hardware/router.md §1).
//
// Any input either reads as a message list or throws hcube::Error (bad input, named). A list
// that reads must survive a round trip: formatted and read again it formats to the same text
// with the same messages. Anything else (another exception, a crash, a sanitizer report, a
// timeout or running out of memory) is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include "base/error.h"
#include "router/message_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  hcube::MessageList list;
  try {
    list = hcube::parseMessageText(text, "fuzz.hcm");
  } catch (const hcube::Error&) {
    return 0;  // refused with a message: the expected answer to bad input
  }
  const std::string first = hcube::formatMessageText(list);
  hcube::MessageList reread;
  try {
    reread = hcube::parseMessageText(first, "fuzz-rewritten.hcm");
  } catch (const hcube::Error& e) {
    std::cerr << "round trip: the written list does not read back: " << e.what() << "\n" << first;
    std::abort();
  }
  if (reread.per_node != list.per_node || hcube::formatMessageText(reread) != first) {
    std::cerr << "round trip: the list read back differs from the list written\n" << first;
    std::abort();
  }
  return 0;
}
