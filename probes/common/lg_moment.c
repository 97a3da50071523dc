/* Run-time discovery and reading of an outlier's circumstances (see lg_moment.h). */
#include "lg_moment.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "lg_measure_util.h"

#ifndef RUSAGE_THREAD
#define RUSAGE_THREAD 1
#endif
#ifndef SIOCGSTAMP
#define SIOCGSTAMP 0x8906
#endif
#ifndef SIOCGSTAMPNS
#define SIOCGSTAMPNS 0x8907
#endif

/* A getrusage costs a system call, a /proc read some microseconds: windows of
 * 64 and 1024 samples keep either under a few ns per round trip. */
#define LG_WINDOW_RUSAGE 64
#define LG_WINDOW_PROC 1024

/* "voluntary_ctxt_switches:\t12" and "nonvoluntary_ctxt_switches:\t3" (2.6.23+). */
static int read_status(const char* path, int64_t* v, int64_t* iv) {
  char line[128];
  FILE* f = fopen(path, "r");
  int got = 0;
  if (f == NULL) return -1;
  while (fgets(line, sizeof(line), f) != NULL) {
    if (strncmp(line, "voluntary_ctxt_switches:", 24) == 0) {
      *v = atoll(line + 24);
      got |= 1;
    } else if (strncmp(line, "nonvoluntary_ctxt_switches:", 27) == 0) {
      *iv = atoll(line + 27);
      got |= 2;
    }
  }
  fclose(f);
  return got == 3 ? 0 : -1;
}

static int read_counters(const lg_moment* m, int64_t* v, int64_t* iv) {
  struct rusage ru;
  switch (m->ctx_kind) {
    case 1:
    case 3:
      if (getrusage(m->ctx_kind == 1 ? RUSAGE_THREAD : RUSAGE_SELF, &ru) != 0) return -1;
      *v = ru.ru_nvcsw;
      *iv = ru.ru_nivcsw;
      return 0;
    case 2:
      return read_status(m->status_path, v, iv);
    default:
      return -1;
  }
}

void lg_moment_init(lg_moment* m, int single_thread) {
  struct rusage ru;
  int64_t v, iv;
  memset(m, 0, sizeof(*m));
  m->stamp_why = "not available: no socket given";
  snprintf(m->status_path, sizeof(m->status_path), "/proc/self/task/%ld/status", (long)syscall(SYS_gettid));
  if (getrusage(RUSAGE_THREAD, &ru) == 0) { /* 2.6.26+; EINVAL before */
    m->ctx_kind = 1;
    m->every = LG_WINDOW_RUSAGE;
  } else if (read_status(m->status_path, &v, &iv) == 0) {
    m->ctx_kind = 2;
    m->every = LG_WINDOW_PROC;
  } else if (single_thread && getrusage(RUSAGE_SELF, &ru) == 0) {
    m->ctx_kind = 3; /* 2.6.18: the status file has no switch counts yet */
    m->every = LG_WINDOW_RUSAGE;
  } else {
    m->ctx_kind = 0;
    m->every = LG_WINDOW_RUSAGE;
    m->ctx_why = "not available: no RUSAGE_THREAD, no switch counts in /proc/self/task/TID/status";
  }
  lg_moment_rebase(m, 0);
}

void lg_moment_off(lg_moment* m, const char* why) {
  memset(m, 0, sizeof(*m));
  m->ctx_why = m->stamp_why = why;
  m->every = m->countdown = UINT32_MAX; /* a rebase then reads no counters (ctx_kind 0) */
  m->cpu = LG_UNKNOWN;
  m->vcsw = m->ivcsw = LG_UNKNOWN;
}

void lg_moment_stamps(lg_moment* m, int fd, int udp) {
  struct timespec ts;
  struct timeval tv;
  if (!udp) {
    m->stamp_why = "not available: the kernel keeps no per-socket receive stamp for TCP";
    return;
  }
  /* The first request turns stamping on; ENOENT only says nothing arrived yet. */
  if (ioctl(fd, SIOCGSTAMPNS, &ts) == 0 || errno == ENOENT) {
    m->stamp_kind = 1;
  } else if (ioctl(fd, SIOCGSTAMP, &tv) == 0 || errno == ENOENT) {
    m->stamp_kind = 2; /* before 2.6.22 */
  } else {
    m->stamp_why = "not available: the kernel refuses SIOCGSTAMPNS and SIOCGSTAMP";
  }
}

void lg_moment_stamps_given(lg_moment* m) {
  m->stamp_kind = 3;
  m->stamp_why = NULL;
}

void lg_moment_rebase(lg_moment* m, uint64_t seq) {
  const char* src;
  m->countdown = m->every;
  m->from_seq = seq;
  m->cpu = lg_current_cpu(&src);
  if (read_counters(m, &m->vcsw, &m->ivcsw) != 0) m->vcsw = m->ivcsw = LG_UNKNOWN;
}

/* Realtime stamp of the last packet read on fd, in ns; 0 when there is none. */
static uint64_t last_stamp(const lg_moment* m, int fd) {
  struct timespec ts;
  struct timeval tv;
  if (m->stamp_kind == 1 && ioctl(fd, SIOCGSTAMPNS, &ts) == 0)
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
  if (m->stamp_kind == 2 && ioctl(fd, SIOCGSTAMP, &tv) == 0)
    return (uint64_t)tv.tv_sec * 1000000000ull + (uint64_t)tv.tv_usec * 1000ull;
  return 0;
}

void lg_moment_capture(lg_moment* m, lg_outlier* r, int fd, uint64_t read_ns) {
  const char* src;
  int64_t v, iv;
  r->sock_wait_ns = LG_UNKNOWN;
  if (m->stamp_kind == 1 || m->stamp_kind == 2) { /* 3: the reader fills it from its own read */
    uint64_t stamp = last_stamp(m, fd);
    if (stamp == 0) {
      m->stamp_missing++;
    } else {
      /* The stamp is on CLOCK_REALTIME: carry the read time over to it. A kernel
       * that had no socket wanting stamps turns them on lazily (a deferred
       * static key): datagrams received in the first moments after
       * lg_moment_stamps() may be unstamped, and SIOCGSTAMPNS then answers the
       * ioctl's own time (a wait of 0). Outliers are judged after the warm-up. */
      struct timespec rt;
      uint64_t mono = lg_now_ns(), real;
      clock_gettime(CLOCK_REALTIME, &rt);
      real = (uint64_t)rt.tv_sec * 1000000000ull + (uint64_t)rt.tv_nsec - (mono - read_ns);
      r->sock_wait_ns = real > stamp ? (int64_t)(real - stamp) : 0;
    }
  }
  r->cpu_before = m->cpu;
  r->cpu_after = lg_current_cpu(&src);
  r->ctx_from_seq = m->from_seq;
  r->vcsw = r->ivcsw = LG_UNKNOWN;
  if (read_counters(m, &v, &iv) != 0) v = iv = LG_UNKNOWN;
  if (m->vcsw >= 0 && v >= 0) {
    r->vcsw = v - m->vcsw;
    r->ivcsw = iv - m->ivcsw;
  }
  /* The next window starts here, from the readings just taken: a rebase would
   * read the same CPU and counters again, two more system calls per outlier
   * (bench/loop_cost.py counts them). */
  m->countdown = m->every;
  m->from_seq = r->seq + 1;
  m->cpu = r->cpu_after;
  m->vcsw = v;
  m->ivcsw = iv;
}

void lg_moment_keep(lg_moment* m, lg_outliers* o, int fd, uint64_t seq, uint64_t value_ns, uint64_t at_ns,
                    uint64_t read_ns) {
  lg_outlier r;
  memset(&r, 0, sizeof(r));
  r.value_ns = value_ns;
  r.at_ns = at_ns;
  r.seq = seq;
  if (!lg_outliers_stores(o, value_ns)) {
    /* Over the threshold with that log full and milder than the worst kept:
     * only counted (over_not_kept), so its circumstances are not read. */
    lg_outliers_add(o, &r);
    lg_moment_tick(m, seq + 1);
    return;
  }
  lg_moment_capture(m, &r, fd, read_ns);
  lg_outliers_add(o, &r);
}

void lg_moment_write_json(const lg_moment* m, FILE* out) {
  static const char* const kCtx[] = {NULL, "getrusage_thread", "proc_task_status", "getrusage_self"};
  static const char* const kStamp[] = {NULL, "SIOCGSTAMPNS", "SIOCGSTAMP", "recvmsg_timestamp"};
  const char* cpu_src = "none";
  (void)lg_current_cpu(&cpu_src);
  fprintf(out, "{\"cpu\":\"%s\",\"context_switches\":", cpu_src);
  lg_json_string(out, m->ctx_kind ? kCtx[m->ctx_kind] : m->ctx_why);
  fprintf(out, ",\"window_samples\":%u,\"sock_wait\":", m->every);
  lg_json_string(out, m->stamp_kind ? kStamp[m->stamp_kind] : m->stamp_why);
  fprintf(out, ",\"sock_wait_missing\":%llu}", (unsigned long long)m->stamp_missing);
}
