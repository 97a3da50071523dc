// Bounded capture of one output stream: keeps up to a limit and remembers that
// more came, so a flood of output becomes a clear error instead of OOM.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace labgate::transport {

class Capture {
 public:
  explicit Capture(std::size_t limit) : limit_(limit) {}
  /// Appends what fits; returns false once the limit has been passed.
  bool append(std::string_view data) {
    total_ += data.size();
    if (text_.size() < limit_) text_.append(data.substr(0, limit_ - text_.size()));
    return total_ <= limit_;
  }
  bool overflowed() const { return total_ > limit_; }
  std::size_t limit() const { return limit_; }
  std::size_t total() const { return total_; }
  std::string& text() { return text_; }

 private:
  std::size_t limit_;
  std::size_t total_ = 0;
  std::string text_;
};

/// "16 MiB" / "512 KiB" / "100 bytes", for messages.
std::string format_size(std::size_t bytes);

}  // namespace labgate::transport
