// hcube TLM model: the node side of the load bus that both kinds of node share (HcTlmNode and
// sim/cosim's HcCosimNode): decoding an access to a node's load target (hc_tlm_map regions
// without the node field; README.md, "Sockets and protocol"), the range checks of its regions
// and the read of the status region (the nine error counters, then done).
#pragma once

#include <array>
#include <cstring>
#include <tlm>

#include "exec/hw_errors.h"
#include "hc_tlm_config.h"
#include "spec/address.h"

namespace hcube {

/// An access to a node's load target, decoded.
struct HcLoadAccess {
  u64 region = 0;  ///< hc_tlm_map::kRegion*
  u64 offset = 0;  ///< byte offset in the region
  unsigned length = 0;
  unsigned char* data = nullptr;
  bool write = false;
};

/// Decodes `trans` into `access`. Returns false when the access ends here: bits outside region
/// and offset, byte enables or a streaming width below the length (error response set), or an
/// IGNORE command (TLM_OK_RESPONSE set).
inline bool decodeLoadAccess(tlm::tlm_generic_payload& trans, HcLoadAccess& access) {
  namespace map = hc_tlm_map;
  const u64 address = trans.get_address();
  access.region = (address & map::kRegionMask) >> map::kRegionShift;
  access.offset = address & map::kOffsetMask;
  access.length = trans.get_data_length();
  access.data = trans.get_data_ptr();
  access.write = trans.get_command() == tlm::TLM_WRITE_COMMAND;
  tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
  if ((address & ~(map::kRegionMask | map::kOffsetMask)) != 0) {
    status = tlm::TLM_ADDRESS_ERROR_RESPONSE;
  } else if (trans.get_command() == tlm::TLM_IGNORE_COMMAND) {
    status = tlm::TLM_OK_RESPONSE;
  } else if (trans.get_byte_enable_ptr() != nullptr) {
    status = tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  } else if (trans.get_streaming_width() < access.length) {
    status = tlm::TLM_BURST_ERROR_RESPONSE;
  } else {
    return true;
  }
  trans.set_response_status(status);
  return false;
}

/// Whether `access` covers whole `unit`-byte items (at least one) among the first `items`.
inline bool coversWholeItems(const HcLoadAccess& access, unsigned unit, u64 items) {
  return access.length != 0 && access.offset % unit == 0 && access.length % unit == 0 &&
         access.offset / unit + access.length / unit <= items;
}

/// The status region: the error counters in HwError order, then done (1 or 0).
using HcNodeStatus = std::array<u32, kHwErrorKinds + 1>;
static_assert(hc_tlm_map::kStatusDone == 4 * kHwErrorKinds, "the done flag follows the counters");

/// Reads `status` into the access; false (error response set) for a write or a range outside it.
inline bool readStatus(tlm::tlm_generic_payload& trans, const HcLoadAccess& access,
                       const HcNodeStatus& status) {
  if (access.write) {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return false;
  }
  if (!coversWholeItems(access, 4, status.size())) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  std::memcpy(access.data, reinterpret_cast<const unsigned char*>(status.data()) + access.offset,
              access.length);
  return true;
}

}  // namespace hcube
