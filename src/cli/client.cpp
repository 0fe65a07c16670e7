#include "cli/client.h"

#include <httplib.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <thread>

namespace boreas::cli {
namespace {

using nlohmann::json;

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : fallback;
}

Result<std::string> read_token(const ClientArgs& a) {
  if (a.token_file.empty()) {
    return env_or("BOREAS_TOKEN", "");
  }
  std::ifstream f(a.token_file);
  std::string t;
  if (!(f >> t)) {
    return io_error("--token-file " + a.token_file + ": cannot read a token from it");
  }
  return t;
}

Status answer_error(const httplib::Response& res) {
  const json j = json::parse(res.body, nullptr, false);
  std::string msg = j.is_object() && j.contains("error") && j["error"].is_string() ? j["error"].get<std::string>()
                                                                                  : res.body;
  // The daemon's messages quote what was sent (names, queues), which may hold escapes.
  msg = msg.empty() ? "HTTP " + std::to_string(res.status) + " with no message" : terminal_safe(msg);
  if (res.status == 404) {
    return not_found(msg);
  }
  return invalid_argument(res.status / 100 == 4 ? msg : "HTTP " + std::to_string(res.status) + ": " + msg);
}

}  // namespace

void add_common(CLI::App* cmd, ClientArgs& a) {
  cmd->add_option("--server", a.server, "Daemon URL (default: $BOREAS_SERVER or http://127.0.0.1:8080)");
  cmd->add_option("--token-file", a.token_file,
                  "File holding the token (default: the token in $BOREAS_TOKEN)");
  cmd->add_flag("--json", a.json_out, "Print the API's JSON instead of a table");
}

Result<json> request(const ClientArgs& a, const std::string& method, const std::string& path,
                     const std::string& body, const Headers& extra, Retry retry) {
  const std::string url = a.server.empty() ? env_or("BOREAS_SERVER", "http://127.0.0.1:8080") : a.server;
  auto token = read_token(a);
  if (!token.is_ok()) {
    return token.status();
  }
  httplib::Client client(url);
  client.set_connection_timeout(5);
  client.set_read_timeout(60);
  client.set_tcp_nodelay(true);
  httplib::Headers headers(extra.begin(), extra.end());
  if (!token->empty()) {
    headers.emplace("Authorization", "Bearer " + *token);
  }
  httplib::Result res{nullptr, httplib::Error::Unknown};
  for (int attempt = 1;; ++attempt) {
    res = method == "GET"      ? client.Get(path, headers)
          : method == "DELETE" ? client.Delete(path, headers)
                               : client.Post(path, headers, body, "application/json");
    const bool transient = !res || res->status >= 500;
    if (!transient || attempt >= retry.attempts) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(retry.first_delay_ms << (attempt - 1)));
  }
  if (!res) {
    return io_error("cannot reach the daemon at " + url + " (" + httplib::to_string(res.error()) +
                    "); start `boreas serve` or set --server / BOREAS_SERVER");
  }
  if (res->status / 100 != 2) {
    return answer_error(*res);
  }
  return json::parse(res->body, nullptr, false);
}

std::string terminal_safe(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) {
      std::ostringstream hex;
      hex << "\\x" << std::hex << std::setw(2) << std::setfill('0') << static_cast<int>(c);
      out += hex.str();
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string cell(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || j[key].is_null()) {
    return "-";
  }
  return terminal_safe(j[key].is_string() ? j[key].get<std::string>() : j[key].dump());
}

void print_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(header.empty() ? (rows.empty() ? 0 : rows[0].size()) : header.size());
  for (size_t c = 0; c < width.size(); ++c) {
    width[c] = header.empty() ? 0 : header[c].size();
    for (const auto& r : rows) {
      width[c] = std::max(width[c], r[c].size());
    }
  }
  auto line = [&](const std::vector<std::string>& r) {
    for (size_t c = 0; c < r.size(); ++c) {
      std::cout << (c + 1 < r.size() ? r[c] + std::string(width[c] + 2 - r[c].size(), ' ') : r[c]);
    }
    std::cout << "\n";
  };
  if (!header.empty()) {
    line(header);
  }
  for (const auto& r : rows) {
    line(r);
  }
}

std::string to_yaml(const json& j, int indent) {
  const std::string pad(static_cast<size_t>(indent), ' ');
  const auto scalar = [](const json& v) { return v.dump(-1, ' ', true, json::error_handler_t::replace); };
  std::string out;
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      const bool nested = (v.is_object() || v.is_array()) && !v.empty();
      out += pad + json(k).dump() + ":" + (nested ? "\n" + to_yaml(v, indent + 2) : " " + scalar(v) + "\n");
    }
  } else if (j.is_array()) {
    for (const auto& v : j) {
      const bool nested = (v.is_object() || v.is_array()) && !v.empty();
      out += pad + "-" + (nested ? "\n" + to_yaml(v, indent + 2) : " " + scalar(v) + "\n");
    }
  } else {
    out += pad + scalar(j) + "\n";
  }
  return out;
}

int show(const ClientArgs& a, const Result<json>& r, const std::function<void(const json&)>& human) {
  if (!r.is_ok()) {
    return report_error(r.status());
  }
  if (a.json_out) {
    std::cout << r->dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  } else {
    human(*r);
  }
  return kExitOk;
}

std::string format_utc(int64_t us) {
  if (us == 0) {
    return "-";
  }
  const std::time_t t = static_cast<std::time_t>(us / 1'000'000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

Result<uint32_t> parse_job_id(const std::string& text) {
  const bool digits = !text.empty() && text.size() <= 9 && text.find_first_not_of("0123456789") == std::string::npos;
  const uint32_t id = digits ? static_cast<uint32_t>(std::stoul(text)) : 0;
  if (id == 0) {
    return invalid_argument("job id `" + terminal_safe(text) + "`: expected a number such as 42 (see `boreas jobs`)");
  }
  return id;
}

}  // namespace boreas::cli
