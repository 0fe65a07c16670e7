#include "core/version.h"

namespace boreas {
std::string_view version() { return "0.1.0"; }
}  // namespace boreas
