// A host that is not the harness's client, talking to a probe server: for the
// security lab tests. `stranger tcp|udp SRC DST PORT COUNT INTERVAL_MS` binds
// SRC (another address of a lab host) and makes COUNT attempts, INTERVAL_MS
// apart. tcp: connect, send a pingpong hello and a stream control line, print
// what came back ("reset", "closed", "answered", "silent" or "refused" when
// the connect itself failed). udp: send a 64-byte datagram each time; print
// "answered" for each answer as it comes, or "ignored" at the end if none did.
// Exit 0 when it could try, 2 on bad usage.
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

sockaddr_in addr_of(const char* ip, int port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  if (inet_pton(AF_INET, ip, &a.sin_addr) != 1) {
    std::fprintf(stderr, "stranger: '%s' is not an IPv4 address\n", ip);
    std::exit(2);
  }
  return a;
}

int bound_socket(int type, const sockaddr_in& src) {
  const int fd = socket(AF_INET, type, 0);
  if (fd < 0 || bind(fd, reinterpret_cast<const sockaddr*>(&src), sizeof src) != 0) {
    std::fprintf(stderr, "stranger: cannot bind %s: %s\n", inet_ntoa(src.sin_addr), std::strerror(errno));
    std::exit(1);
  }
  return fd;
}

// What the server did with one connection from us.
std::string tcp_attempt(const sockaddr_in& src, const sockaddr_in& dst) {
  const int fd = bound_socket(SOCK_STREAM, src);
  timeval tv{2, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  if (connect(fd, reinterpret_cast<const sockaddr*>(&dst), sizeof dst) != 0) {
    close(fd);
    return "refused";
  }
  // A pingpong hello ("LGPP", version 1, size 64) and a stream request line:
  // whichever server this is, a client it served would get an answer.
  const uint32_t hello[4] = {0, htonl(1), htonl(64), 0};
  unsigned char buf[64];
  std::memcpy(buf, hello, sizeof hello);
  std::memcpy(buf, "LGPP", 4);
  const char line[] = "LGST 1 tcp 64 7\n";
  // A reset that arrives before or between the sends is reported by send()
  // (and then no longer by recv()).
  if (send(fd, buf, sizeof hello, MSG_NOSIGNAL) < 0 || send(fd, line, sizeof line - 1, MSG_NOSIGNAL) < 0) {
    const int err = errno;
    close(fd);
    return err == ECONNRESET || err == EPIPE ? "reset" : "silent";
  }
  const ssize_t n = recv(fd, buf, sizeof buf, 0);
  const int err = errno;
  close(fd);
  if (n > 0) return "answered";
  if (n == 0) return "closed";
  if (err == ECONNRESET || err == EPIPE) return "reset";
  return "silent";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 7 || (std::strcmp(argv[1], "tcp") != 0 && std::strcmp(argv[1], "udp") != 0)) {
    std::fprintf(stderr, "usage: stranger tcp|udp SRC DST PORT COUNT INTERVAL_MS\n");
    return 2;
  }
  const sockaddr_in src = addr_of(argv[2], 0);
  const sockaddr_in dst = addr_of(argv[3], std::atoi(argv[4]));
  const int count = std::atoi(argv[5]);
  const int interval_ms = std::atoi(argv[6]);
  if (std::strcmp(argv[1], "tcp") == 0) {
    for (int i = 0; i < count; ++i) {
      std::printf("%s\n", tcp_attempt(src, dst).c_str());
      std::fflush(stdout);
      usleep(static_cast<useconds_t>(interval_ms) * 1000);
    }
    return 0;
  }
  // Each answer is printed as it comes ("answered", flushed, so a caller that
  // stops us early still sees it); "ignored" at the end if none came.
  const int fd = bound_socket(SOCK_DGRAM, src);
  int answered = 0;
  unsigned char buf[2048] = {};
  auto collect = [&](int wait_ms) {
    pollfd p{fd, POLLIN, 0};
    while (poll(&p, 1, wait_ms) > 0) {
      if (recv(fd, buf, sizeof buf, 0) > 0) {
        ++answered;
        std::printf("answered\n");
        std::fflush(stdout);
      }
    }
  };
  for (int i = 0; i < count; ++i) {
    std::memcpy(buf, &i, sizeof i);
    sendto(fd, buf, 64, 0, reinterpret_cast<const sockaddr*>(&dst), sizeof dst);
    collect(interval_ms);
  }
  collect(500);
  close(fd);
  if (!answered) std::printf("ignored\n");
  return 0;
}
