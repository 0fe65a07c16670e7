#pragma once
#include <string_view>

namespace boreas {
std::string_view version();
}
