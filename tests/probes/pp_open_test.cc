// The pingpong client's open loop (pp_open.c) against a scripted TCP server on a
// socket pair: a reply the stream does not expect ends the run with an error
// that names what arrived and what was expected, also when nothing was.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

extern "C" {
#include "pp.h"
}

namespace {

// An open-loop TCP client of 16-byte requests at 1 per second, its socket one
// end of a pair; the test writes the server's replies into the other end.
struct OpenLoopClient {
  pp_config cfg{};
  pp_client c{};
  unsigned char tx[PP_HDR]{}, rx[PP_HDR]{};
  int server = -1;

  OpenLoopClient() {
    cfg.size = PP_HDR;
    cfg.rate = 1.0;
    cfg.duration_ns = 10'000'000'000ull;
    cfg.server_timeout_ns = 10'000'000'000ull;
    cfg.recv_timeout_ns = 1'000'000'000ull;
    cfg.worst = LG_OUTLIERS_WORST_DEFAULT;
    c.cfg = &cfg;
    c.tx = tx;
    c.rx = rx;
    int fds[2];
    EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    c.fd = fds[0];
    server = fds[1];
    c.hist = static_cast<lg_hist*>(std::malloc(sizeof(lg_hist)));
    lg_hist_reset(c.hist);
    EXPECT_EQ(lg_series_init(&c.series, 1'000'000'000ull, cfg.duration_ns), 0);
    EXPECT_EQ(pp_seqwin_init(&c.win, 4), 0);
    lg_outliers_init(&c.outliers, cfg.worst, LG_OUTLIERS_OVER_DEFAULT, 0);
    lg_moment_init(&c.moment, 1);
    EXPECT_EQ(pp_ow_init(&c.ow), 0);  // a PP_HDR-byte reply carries the server's stamp
    c.one_way = 1;                     // as pp_run_client sets it with forensics on
  }
  ~OpenLoopClient() {
    close(c.fd);
    close(server);
    pp_ow_free(&c.ow);
    pp_seqwin_free(&c.win);
    lg_series_free(&c.series);
    lg_outliers_free(&c.outliers);
    std::free(c.hist);
  }
  void reply(uint64_t seq) {
    unsigned char r[PP_HDR];
    pp_put_hdr(r, seq, 0);
    ASSERT_EQ(write(server, r, sizeof r), static_cast<ssize_t>(sizeof r));
  }
};

TEST(PingpongOpenLoop, AReplyWithNoRequestOutstandingIsNamedAsSuch) {
  OpenLoopClient t;
  t.reply(0);  // the answer to request 0, the only one due in the first second
  t.reply(5);  // and one the client never asked for
  pp_run_open(&t.c);
  EXPECT_EQ(t.c.meas.received, 1u);
  EXPECT_EQ(std::string(t.c.error),
            "reply carries sequence 5, but no request is outstanding: the TCP stream is out of step");
}

TEST(PingpongOpenLoop, AReplyOutOfStepNamesTheExpectedSequence) {
  OpenLoopClient t;
  t.reply(3);  // request 0 is outstanding
  pp_run_open(&t.c);
  EXPECT_EQ(t.c.meas.received, 0u);
  EXPECT_EQ(std::string(t.c.error), "reply carries sequence 3, expected 0: the TCP stream is out of step");
}

}  // namespace
