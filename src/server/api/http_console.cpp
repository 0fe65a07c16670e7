#include "server/api/http_console.h"

#include <string>

#include "server/api/console_assets.h"

namespace boreas::server {
namespace {

// A literal path as an httplib route pattern (a regex): dots escaped.
std::string route_of(std::string_view path) {
  std::string out;
  for (const char c : path) {
    if (c == '.') {
      out += '\\';
    }
    out += c;
  }
  return out;
}

void send_asset(httplib::Response& res, const ConsoleAsset& asset) {
  res.status = 200;
  res.set_header("Content-Security-Policy", std::string(kConsoleCsp));
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("X-Frame-Options", "DENY");
  res.set_header("Referrer-Policy", "no-referrer");
  res.set_header("Cache-Control", "no-cache");
  res.set_content(std::string(asset.body), std::string(asset.content_type));
}

}  // namespace

void add_console_routes(httplib::Server& http) {
  for (const ConsoleAsset& asset : console_assets()) {
    http.Get(route_of(asset.path),
             [&asset](const httplib::Request&, httplib::Response& res) { send_asset(res, asset); });
  }
}

}  // namespace boreas::server
