/* tailhog: the CPU hog the tail lab tests inject (issue 25). Busy for BUSY_MS of
 * every second for SECONDS seconds, on whatever CPU it is started on (taskset),
 * so the noise watch can name it by its comm ("tailhog") and pid. It prints its
 * pid first, so the test knows which one to look for.
 *   tailhog SECONDS BUSY_MS */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "each_second.h"

int main(int argc, char** argv) {
  long long end, second;
  long busy;
  volatile unsigned long spin = 0;
  if (argc != 3 || atoi(argv[1]) <= 0 || (busy = atol(argv[2])) <= 0 || busy > 1000) {
    fprintf(stderr, "usage: tailhog SECONDS BUSY_MS (1..1000)\n");
    return 2;
  }
  printf("%d\n", (int)getpid());
  fflush(stdout);
  end = now_ms() + 1000LL * atoi(argv[1]);
  for (second = now_ms(); second < end; second += 1000) {
    while (now_ms() < second + busy) spin++;
    sleep_until_ms(second + 1000);
  }
  return 0;
}
