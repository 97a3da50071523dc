// The framing of labgate's one shell per host (see shell_protocol.h).
#include "shell_protocol.h"

#include <charconv>

#include "labgate/transport/shell_quote.h"
#include "remote_command.h"

namespace labgate::transport {

namespace {
std::string marker(const std::string& token, long id) {
  return "\n\037lg-" + token + " " + std::to_string(id);
}
}  // namespace

std::string shell_request(const std::string& token, long id, const std::vector<std::string>& argv,
                          std::string_view input) {
  const std::string m = "\\n\\037lg-" + token + " " + std::to_string(id);
  // One line: the shell runs it once it has read it. A subshell, so nothing a
  // command sets or changes (a variable, the directory, an exec) reaches the next.
  // The acknowledgement first ("+": never a prefix of the end marker, whose id is followed by a space).
  std::string line = "printf '" + m + "+\\n'; ";
  line += input.empty() ? "(exec " + shell_join(argv) + ") </dev/null"
                        : "printf %b " + encode_for_printf_b(input) + " | (exec " + shell_join(argv) + ")";
  line += "; lg_s=$?; printf '" + m + " %s\\n' \"$lg_s\"; printf '" + m + "\\n' >&2\n";
  return line;
}

ShellReply::ShellReply(const std::string& token, long id, std::size_t limit)
    : ack_marker_(marker(token, id) + "+\n"),
      out_marker_(marker(token, id) + " "),
      err_marker_(marker(token, id) + "\n"),
      out_(limit),
      err_(limit) {}

bool ShellReply::feed(std::string& held, Capture& cap, std::string_view chunk, const std::string& m,
                      bool with_status) {
  held.append(chunk);
  const auto at = held.find(m);
  if (at != std::string::npos) {
    std::size_t end = at + m.size();
    if (with_status) {
      const auto nl = held.find('\n', end);
      if (nl == std::string::npos) return false;  // the status is on its way
      int s = -1;
      std::from_chars(held.data() + end, held.data() + nl, s);
      status_ = s;
      end = nl + 1;
    }
    cap.append(std::string_view(held).substr(0, at));
    stray_ += held.size() - end;
    held.clear();
    return true;
  }
  // Keep only what may be the start of the marker; the rest is output.
  const std::size_t keep = std::min(held.size(), m.size() + 16);
  cap.append(std::string_view(held).substr(0, held.size() - keep));
  held.erase(0, held.size() - keep);
  return false;
}

void ShellReply::feed_out(std::string_view chunk) {
  if (out_done_) {
    stray_ += chunk.size();
    return;
  }
  if (!started_) {
    // Nothing of this command's precedes the acknowledgement: what does is a
    // stray writer's (a background process of an earlier command).
    held_out_.append(chunk);
    const auto at = held_out_.find(ack_marker_);
    if (at == std::string::npos) {
      const std::size_t keep = std::min(held_out_.size(), ack_marker_.size());
      stray_ += held_out_.size() - keep;
      held_out_.erase(0, held_out_.size() - keep);
      return;
    }
    started_ = true;
    stray_ += at;
    const std::string rest = held_out_.substr(at + ack_marker_.size());
    held_out_.clear();
    out_done_ = feed(held_out_, out_, rest, out_marker_, true);
    return;
  }
  out_done_ = feed(held_out_, out_, chunk, out_marker_, true);
}

void ShellReply::feed_err(std::string_view chunk) {
  if (err_done_) {
    stray_ += chunk.size();
    return;
  }
  err_done_ = feed(held_err_, err_, chunk, err_marker_, false);
}

RunResult ShellReply::result() {
  RunResult r;
  r.out = std::move(out_.text());
  r.err = std::move(err_.text());
  // $? as the shell saw it: 128+N for a command killed by signal N.
  r.exit_status = status_;
  return r;
}

}  // namespace labgate::transport
