#pragma once
// JSON answers shared by the API's handler files.

#include <httplib.h>

#include <nlohmann/json.hpp>
#include <string>

namespace boreas::server {

inline void send_json(httplib::Response& res, int status, const nlohmann::json& body) {
  res.status = status;
  // Replace, not throw: error messages may quote invalid UTF-8 from the request.
  res.set_content(body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
                  "application/json");
}

inline void send_error(httplib::Response& res, int status, const std::string& message) {
  send_json(res, status, {{"error", message}});
}

}  // namespace boreas::server
