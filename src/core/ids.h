#pragma once
// Dense integer ids. Each kind is its own type so a JobId can never be passed as a NodeId.

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>

namespace boreas {

template <typename Tag>
class Id {
 public:
  static constexpr uint32_t kInvalid = std::numeric_limits<uint32_t>::max();
  constexpr Id() = default;
  constexpr explicit Id(uint32_t v) : value_(v) {}
  constexpr uint32_t value() const { return value_; }
  constexpr bool valid() const { return value_ != kInvalid; }
  constexpr auto operator<=>(const Id&) const = default;

 private:
  uint32_t value_ = kInvalid;
};

using JobId = Id<struct JobTag>;
using NodeId = Id<struct NodeTag>;
using GpuId = Id<struct GpuTag>;
using RackId = Id<struct RackTag>;
using ZoneId = Id<struct ZoneTag>;
using QueueId = Id<struct QueueTag>;
using GpuTypeId = Id<struct GpuTypeTag>;

}  // namespace boreas

template <typename Tag>
struct std::hash<boreas::Id<Tag>> {
  size_t operator()(boreas::Id<Tag> id) const noexcept { return std::hash<uint32_t>{}(id.value()); }
};
