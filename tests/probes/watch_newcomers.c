/* watch_newcomers: the tasks the noise watch must find after it has listed
 * /proc (tests/probes/watch_tasks_run.sh). After DELAY_MS it starts a thread in
 * this already-running process and forks a child process, each pinned to CPU
 * and busy until it has had BUSY_MS of CPU time (at most 10 s: a shared
 * machine may give it little), and prints one line per task as it ends:
 * "thread|child TID CPU_NS" (its own CPU time), so the test knows whom to look
 * for and how long each ran. Then, after another DELAY_MS asleep, this process's
 * own task does the same ("known"): a task the watch has seen sleep through
 * scans (where it skips a process whose CPU clock did not move) must still be
 * found when it runs again.
 *   watch_newcomers CPU DELAY_MS BUSY_MS */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int g_cpu;
static long g_busy_ms;

static long long clock_ns(clockid_t c) {
  struct timespec t;
  clock_gettime(c, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Pinned to the CPU, busy for g_busy_ms of CPU time, then says who it was and how long it ran. */
static void busy(const char* what) {
  cpu_set_t set;
  const long long give_up = clock_ns(CLOCK_MONOTONIC) + 10000000000LL;
  volatile unsigned long spin = 0;
  CPU_ZERO(&set);
  CPU_SET(g_cpu, &set);
  if (sched_setaffinity(0, sizeof(set), &set) != 0) {
    perror("watch_newcomers: sched_setaffinity");
    exit(1);
  }
  while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < g_busy_ms * 1000000LL && clock_ns(CLOCK_MONOTONIC) < give_up) spin++;
  printf("%s %ld %lld\n", what, (long)syscall(SYS_gettid), clock_ns(CLOCK_THREAD_CPUTIME_ID));
  fflush(stdout);
}

static void* thread_main(void* arg) {
  (void)arg;
  busy("thread");
  return NULL;
}

int main(int argc, char** argv) {
  pthread_t thread;
  pid_t child;
  int status = 0;
  if (argc != 4) {
    fprintf(stderr, "usage: watch_newcomers CPU DELAY_MS BUSY_MS\n");
    return 2;
  }
  g_cpu = atoi(argv[1]);
  g_busy_ms = atol(argv[3]);
  usleep((useconds_t)(atol(argv[2]) * 1000));
  if (pthread_create(&thread, NULL, thread_main, NULL) != 0) return 1;
  pthread_join(thread, NULL);
  fflush(stdout);
  if ((child = fork()) == 0) {
    busy("child");
    _exit(0);
  }
  if (child < 0 || waitpid(child, &status, 0) != child || status != 0) return 1;
  usleep((useconds_t)(atol(argv[2]) * 1000));
  busy("known");
  return 0;
}
