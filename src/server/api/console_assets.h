#pragma once
// The web console's files (web/console/app/ and the pinned Preact and htm builds), embedded at
// build time by web/console/embed.mjs, so `boreas serve` answers `/` with no files at run time.

#include <span>
#include <string_view>

namespace boreas::server {

struct ConsoleAsset {
  std::string_view path;          // the URL path it is served at: "/" or "/console/NAME"
  std::string_view content_type;  // with its charset
  std::string_view body;
};

std::span<const ConsoleAsset> console_assets();  // sorted by path

}  // namespace boreas::server
