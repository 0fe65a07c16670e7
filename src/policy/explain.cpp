#include "policy/explain.h"

#include <fmt/format.h>

namespace boreas::policy {

PendingReason expand(const NoFitReason& r, const std::string& queue) {
  return PendingReason{r.kind, queue, "", r.need, r.have, 0, r.ceiling, r.ahead};
}

std::string_view to_string(PendingKind kind) {
  switch (kind) {
    case PendingKind::kNone:
      return "";
    case PendingKind::kQuotaExceeded:
      return "quota-exceeded";
    case PendingKind::kLendingLimit:
      return "lending-limit";
    case PendingKind::kNoFit:
      return "no-fit";
    case PendingKind::kBehindHigherPriority:
      return "behind-higher-priority";
    case PendingKind::kBehindReservation:
      return "behind-reservation";
    case PendingKind::kPreemptionCap:
      return "preemption-cap";
    case PendingKind::kGuaranteeOnly:
      return "guarantee-only";
    case PendingKind::kNeverFits:
      return "never-fits";
  }
  return "";
}

std::string describe(const PendingReason& r) {
  const std::string_view kind = to_string(r.kind);
  switch (r.kind) {
    case PendingKind::kNone:
      return "";
    case PendingKind::kQuotaExceeded:
      return fmt::format("{}: queue {} {} GPUs would reach {} (has {}, guaranteed {}, ceiling {})", kind, r.queue,
                         r.gpu_type, r.need, r.have, r.guaranteed, r.ceiling);
    case PendingKind::kLendingLimit:
      return fmt::format("{}: queue {} keeps {} unused {} GPUs it may not lend; {} would stay free", kind,
                         r.queue, r.need, r.gpu_type, r.have);
    case PendingKind::kNoFit:
      return fmt::format("{}: needs {} GPUs, largest free block {}, {} free", kind, r.need, r.have, r.ceiling);
    case PendingKind::kBehindHigherPriority:
      return fmt::format("{}: {} higher-ranked jobs of queue {} wait too; needs {} GPUs, {} free", kind, r.ahead,
                         r.queue, r.need, r.have);
    case PendingKind::kNeverFits:
      return fmt::format("{}: needs {} GPUs, queue {} could never get more than {}", kind, r.need, r.queue,
                         r.ceiling);
    default:
      return fmt::format("{}: needs {} GPUs", kind, r.need);
  }
}

}  // namespace boreas::policy
