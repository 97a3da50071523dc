// Bounded capture of one output stream: keeps up to a limit and remembers that
// more came, so a flood of output becomes a clear error instead of OOM.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace labgate::transport {

class Capture {
 public:
  explicit Capture(std::size_t limit) : limit_(limit) {}
  /// Called with each complete line (without its newline) as it arrives, so a
  /// caller can show a long command's progress before it ends.
  void on_line(std::function<void(std::string_view)> sink) { sink_ = std::move(sink); }
  /// Appends what fits; returns false once the limit has been passed.
  bool append(std::string_view data) {
    if (sink_) feed_lines(data);
    total_ += data.size();
    if (text_.size() < limit_) text_.append(data.substr(0, limit_ - text_.size()));
    return total_ <= limit_;
  }
  bool overflowed() const { return total_ > limit_; }
  std::size_t limit() const { return limit_; }
  std::size_t total() const { return total_; }
  std::string& text() { return text_; }

 private:
  void feed_lines(std::string_view data) {
    for (;;) {
      const auto nl = data.find('\n');
      if (nl == std::string_view::npos) break;
      partial_.append(data.substr(0, nl));
      sink_(partial_);
      partial_.clear();
      data.remove_prefix(nl + 1);
    }
    // A line longer than this is not progress; keep memory bounded.
    if (partial_.size() < 4096) partial_.append(data.substr(0, 4096 - partial_.size()));
  }

  std::size_t limit_;
  std::function<void(std::string_view)> sink_;
  std::string partial_;
  std::size_t total_ = 0;
  std::string text_;
};

/// "16 MiB" / "512 KiB" / "100 bytes", for messages.
std::string format_size(std::size_t bytes);

}  // namespace labgate::transport
