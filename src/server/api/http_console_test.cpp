// The console's routes: every embedded file at its path, with its type and the security headers.

#include "server/api/http_console.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <regex>
#include <string>
#include <thread>

#include "server/api/console_assets.h"

namespace boreas::server {
namespace {

class ConsoleRoutesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    add_console_routes(server_);
    port_ = server_.bind_to_any_port("127.0.0.1");
    ASSERT_GT(port_, 0);
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  void TearDown() override {
    server_.stop();
    thread_.join();
  }
  httplib::Result get(const std::string& path) { return httplib::Client("127.0.0.1", port_).Get(path); }

  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
};

const ConsoleAsset* asset_at(std::string_view path) {
  for (const ConsoleAsset& a : console_assets()) {
    if (a.path == path) {
      return &a;
    }
  }
  return nullptr;
}

TEST_F(ConsoleRoutesTest, EveryAssetIsServedWithItsTypeAndTheSecurityHeaders) {
  ASSERT_GE(console_assets().size(), 5u);  // the page, its script and style, three vendor modules
  for (const ConsoleAsset& a : console_assets()) {
    SCOPED_TRACE(std::string(a.path));
    auto res = get(std::string(a.path));
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200);
    EXPECT_EQ(res->get_header_value("Content-Type"), a.content_type);
    EXPECT_EQ(res->get_header_value("Content-Security-Policy"), kConsoleCsp);
    EXPECT_EQ(res->get_header_value("X-Content-Type-Options"), "nosniff");
    EXPECT_EQ(res->body, a.body);
    EXPECT_FALSE(a.body.empty());
  }
}

TEST_F(ConsoleRoutesTest, ThePageLoadsOnlyScriptsFromFilesAndTheVendorModulesImportByPath) {
  const ConsoleAsset* page = asset_at("/");
  ASSERT_NE(page, nullptr);
  EXPECT_EQ(page->content_type, "text/html; charset=utf-8");
  const std::string html(page->body);
  // The CSP forbids inline script: every <script> element must name its file.
  const std::regex script("<script[^>]*>");
  int scripts = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), script); it != std::sregex_iterator(); ++it) {
    EXPECT_NE(it->str().find("src=\"/console/"), std::string::npos) << it->str();
    ++scripts;
  }
  EXPECT_GE(scripts, 1);
  EXPECT_EQ(html.find(" style=\""), std::string::npos) << "inline styles are blocked by the CSP";
  for (const char* name : {"/console/vendor/preact.js", "/console/vendor/hooks.js", "/console/vendor/htm.js"}) {
    const ConsoleAsset* vendor = asset_at(name);
    ASSERT_NE(vendor, nullptr) << name;
    EXPECT_EQ(vendor->body.find("from\"preact\""), std::string::npos) << name << " imports a bare name";
  }
  EXPECT_NE(asset_at("/console/vendor/hooks.js")->body.find("from\"./preact.js\""), std::string::npos);
}

TEST_F(ConsoleRoutesTest, UnknownFilesAre404AndDotsAreLiteral) {
  auto missing = get("/console/nope.js");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
  auto dot = get("/console/appXjs");  // the route of /console/app.js must not match any character
  ASSERT_TRUE(dot);
  EXPECT_EQ(dot->status, 404);
}

}  // namespace
}  // namespace boreas::server
