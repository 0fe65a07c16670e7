#include "trace/line_reader.h"

#include <zlib.h>

#include <cstring>
#include <string>
#include <utility>

namespace boreas::trace {
namespace {
constexpr size_t kChunk = 1 << 20;
}

Result<LineReader> LineReader::open_file(const std::string& path) {
  gzFile gz = gzopen(path.c_str(), "rb");
  if (gz == nullptr) {
    return io_error(path + ": cannot open: " + std::strerror(errno) + "; check the path");
  }
  gzbuffer(gz, 256 * 1024);
  LineReader reader;
  reader.gz_ = gz;
  reader.name_ = path;
  reader.buffer_.resize(2 * kChunk);
  return reader;
}

LineReader LineReader::from_string(std::string_view text, std::string name) {
  LineReader reader;
  reader.name_ = std::move(name);
  reader.memory_ = text;
  reader.eof_ = true;
  return reader;
}

LineReader::LineReader(LineReader&& other) noexcept { *this = std::move(other); }

LineReader& LineReader::operator=(LineReader&& other) noexcept {
  if (this != &other) {
    close();
    gz_ = std::exchange(other.gz_, nullptr);
    name_ = std::move(other.name_);
    buffer_ = std::move(other.buffer_);
    memory_ = other.memory_;
    pos_ = other.pos_;
    end_ = other.end_;
    eof_ = other.eof_;
    line_number_ = other.line_number_;
    status_ = std::move(other.status_);
  }
  return *this;
}

LineReader::~LineReader() { close(); }

void LineReader::close() {
  if (gz_ != nullptr) {
    gzclose(static_cast<gzFile>(gz_));
    gz_ = nullptr;
  }
}

// Moves the unread tail to the front and appends the next chunk; false when nothing was added.
bool LineReader::fill() {
  if (eof_) {
    return false;
  }
  const size_t tail = end_ - pos_;
  std::memmove(buffer_.data(), buffer_.data() + pos_, tail);
  pos_ = 0;
  end_ = tail;
  if (buffer_.size() - end_ < kChunk) {
    buffer_.resize(buffer_.size() * 2);  // a line longer than a chunk
  }
  const int n = gzread(static_cast<gzFile>(gz_), buffer_.data() + end_, static_cast<unsigned>(kChunk));
  if (n < 0) {
    int code = 0;
    status_ = io_error(name_ + ": cannot read: " + gzerror(static_cast<gzFile>(gz_), &code) +
                       "; the file may be a truncated or corrupt .gz");
    eof_ = true;
    return false;
  }
  int code = Z_OK;
  gzerror(static_cast<gzFile>(gz_), &code);
  if (code != Z_OK) {  // zlib ends a cut-off stream like a whole one, with Z_BUF_ERROR set
    status_ = io_error(name_ + ": the gzip stream ends early after line " + std::to_string(line_number_) +
                       " (truncated or corrupt .gz); check the file with `gzip -t` and copy it again");
    eof_ = true;
    return false;
  }
  if (n == 0) {
    eof_ = true;
    return false;
  }
  end_ += static_cast<size_t>(n);
  return true;
}

bool LineReader::next(std::string_view& line) {
  if (!status_.is_ok()) {
    return false;
  }
  if (gz_ == nullptr) {
    if (memory_.empty()) {
      return false;
    }
    const size_t nl = memory_.find('\n');
    line = memory_.substr(0, nl);
    memory_ = nl == std::string_view::npos ? std::string_view() : memory_.substr(nl + 1);
  } else {
    size_t scanned = pos_;
    const char* nl = nullptr;
    while ((nl = static_cast<const char*>(std::memchr(buffer_.data() + scanned, '\n', end_ - scanned))) ==
           nullptr) {
      scanned = end_ - pos_;
      if (!fill()) {
        if (!status_.is_ok() || pos_ == end_) {
          return false;
        }
        nl = buffer_.data() + end_;  // last line without a newline
        break;
      }
    }
    const size_t len = static_cast<size_t>(nl - (buffer_.data() + pos_));
    line = std::string_view(buffer_.data() + pos_, len);
    pos_ = std::min(end_, pos_ + len + 1);
  }
  if (!line.empty() && line.back() == '\r') {
    line.remove_suffix(1);
  }
  ++line_number_;
  return true;
}

}  // namespace boreas::trace
