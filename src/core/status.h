#pragma once
// Expected failures are values (ARCHITECTURE §7): a Status says what went wrong, where, and how
// to fix it. Assertions are for programmer errors only.

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace boreas {

enum class ErrorCode {
  kOk,
  kInvalidArgument,  // the input is malformed or out of range
  kNotFound,         // a named thing does not exist
  kIo,               // a file or stream could not be read or written
  kUnsupported,      // valid input that Boreas does not handle
  kConflict,         // the request clashes with current state
  kInternal,         // a bug: should never reach a user
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status ok() { return {}; }
  bool is_ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // Prefixes context, e.g. a file name: "cluster.yaml:3:5: " + message.
  Status with_context(const std::string& prefix) const { return {code_, prefix + message_}; }

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
};

inline Status invalid_argument(std::string msg) { return {ErrorCode::kInvalidArgument, std::move(msg)}; }
inline Status not_found(std::string msg) { return {ErrorCode::kNotFound, std::move(msg)}; }
inline Status io_error(std::string msg) { return {ErrorCode::kIo, std::move(msg)}; }
inline Status unsupported(std::string msg) { return {ErrorCode::kUnsupported, std::move(msg)}; }
inline Status conflict(std::string msg) { return {ErrorCode::kConflict, std::move(msg)}; }
inline Status internal_error(std::string msg) { return {ErrorCode::kInternal, std::move(msg)}; }

// A value or the Status that explains why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {  // NOLINT: implicit by design
    assert(!std::get<Status>(v_).is_ok() && "a Result built from a Status must hold an error");
  }

  bool is_ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    assert(!is_ok());
    return std::get<Status>(v_);
  }
  T& value() & {
    assert(is_ok());
    return std::get<T>(v_);
  }
  const T& value() const& {
    assert(is_ok());
    return std::get<T>(v_);
  }
  T&& value() && {
    assert(is_ok());
    return std::get<T>(std::move(v_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace boreas

// Returns early from the enclosing function when `expr` yields an error Status.
#define BOREAS_RETURN_IF_ERROR(expr)        \
  do {                                      \
    ::boreas::Status boreas_status_ = (expr); \
    if (!boreas_status_.is_ok()) {          \
      return boreas_status_;                \
    }                                       \
  } while (false)
