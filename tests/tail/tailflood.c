/* tailflood: the softirq storm the tail lab tests inject (issue 25). Sends UDP
 * datagrams to ADDR:PORT as fast as it can for BUSY_MS of every second for
 * SECONDS seconds, so the receiver's NET_RX softirq runs wherever the receiving
 * interface's rps_cpus steer it. It prints its pid first, then each burst as
 * "burst FROM_NS TO_NS" on CLOCK_MONOTONIC (the probes' clock, so a test can
 * tell the round trips during a burst), and at the end how many datagrams it
 * sent (on stderr), so a test can show the storm's size.
 *   tailflood SECONDS BUSY_MS ADDR PORT */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "each_second.h"

int main(int argc, char** argv) {
  struct sockaddr_in to;
  long long end, second, sent = 0, failed = 0;
  long busy;
  char payload[18];
  int fd;
  memset(&to, 0, sizeof to);
  to.sin_family = AF_INET;
  if (argc != 5 || atoi(argv[1]) <= 0 || (busy = atol(argv[2])) <= 0 || busy > 1000 ||
      inet_pton(AF_INET, argv[3], &to.sin_addr) != 1 || atoi(argv[4]) <= 0 || atoi(argv[4]) > 65535) {
    fprintf(stderr, "usage: tailflood SECONDS BUSY_MS (1..1000) IPV4_ADDR PORT\n");
    return 2;
  }
  to.sin_port = htons((unsigned short)atoi(argv[4]));
  if ((fd = socket(AF_INET, SOCK_DGRAM, 0)) < 0) {
    perror("tailflood: socket");
    return 1;
  }
  memset(payload, 'f', sizeof payload);
  printf("%d\n", (int)getpid());
  fflush(stdout);
  end = now_ms() + 1000LL * atoi(argv[1]);
  for (second = now_ms(); second < end; second += 1000) {
    long long from = now_ns();
    while (now_ms() < second + busy) {
      int i;
      /* The clock is read once per 64 datagrams: the storm is the point. */
      for (i = 0; i < 64; i++) {
        if (sendto(fd, payload, sizeof payload, 0, (struct sockaddr*)&to, sizeof to) < 0)
          failed++;
        else
          sent++;
      }
    }
    printf("burst %lld %lld\n", from, now_ns());
    fflush(stdout);
    sleep_until_ms(second + 1000);
  }
  fprintf(stderr, "tailflood: %lld datagrams sent, %lld refused\n", sent, failed);
  return 0;
}
