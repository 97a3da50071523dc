/* The kernel's view of the system clock's synchronisation: one read-only
 * adjtimex(2) call (modes = 0, no privilege needed, on every kernel since
 * 2.0), whose status word, return value and error estimates the NTP/PTP
 * daemon keeps up to date. Under --root the answers come from
 * DIR/.labgate-ioctl/adjtimex.conf (status=, state=, maxerror=, esterror=). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include <unistd.h>

#include "fx_fact.h"
#include "fx_fs.h"
#include "fx_rec.h"
#include "fx_sections.h"
#include "fx_str.h"

/* What a daemon set, as adjtimex reports it. */
typedef struct clock_view {
  long long status, state, maxerror, esterror;
} clock_view;

static void status_names(long long status, char* out, size_t outsz) {
  static const struct {
    long long bit;
    const char* name;
  } kBits[] = {{STA_PLL, "PLL"},           {STA_PPSFREQ, "PPSFREQ"},   {STA_PPSTIME, "PPSTIME"},
               {STA_FLL, "FLL"},           {STA_INS, "INS"},           {STA_DEL, "DEL"},
               {STA_UNSYNC, "UNSYNC"},     {STA_FREQHOLD, "FREQHOLD"}, {STA_PPSSIGNAL, "PPSSIGNAL"},
               {STA_CLOCKERR, "CLOCKERR"}, {STA_NANO, "NANO"}};
  size_t k;
  out[0] = 0;
  for (k = 0; k < sizeof kBits / sizeof kBits[0]; k++)
    if (status & kBits[k].bit) {
      if (out[0]) strncat(out, " ", outsz - strlen(out) - 1);
      strncat(out, kBits[k].name, outsz - strlen(out) - 1);
    }
  if (!out[0]) fx_copy(out, outsz, "none");
}

/* Synchronised is what the kernel itself answers: adjtimex returns TIME_ERROR
 * while STA_UNSYNC or STA_CLOCKERR is set (ntp_gettime's rule). */
static void write_view(fx_json* j, const clock_view* v, const char* src) {
  char names[160], note[256];
  int synced = v->state != TIME_ERROR && !(v->status & (STA_UNSYNC | STA_CLOCKERR));
  status_names(v->status, names, sizeof names);
  snprintf(note, sizeof note, "status 0x%llx (%s), adjtimex returned %lld%s", v->status, names, v->state,
           v->state == TIME_ERROR ? " (TIME_ERROR)" : "");
  fx_fact_bool_note(j, "synchronized", synced, src, note);
  fx_fact_int(j, "status", v->status, src, 0);
  fx_fact_int(j, "state", v->state, src, 0);
  fx_fact_int(j, "maxerror_us", v->maxerror, src, 0);
  fx_fact_int(j, "esterror_us", v->esterror, src, 0);
}

static void write_error(fx_json* j, const char* src, int err, const char* note) {
  static const char* const kKeys[] = {"synchronized", "status", "state", "maxerror_us", "esterror_us"};
  size_t k;
  for (k = 0; k < sizeof kKeys / sizeof kKeys[0]; k++) fx_fact_str_note(j, kKeys[k], NULL, src, err, note);
}

static void recorded(fx_json* j) {
  static const char* const kKeys[] = {"status", "state", "maxerror", "esterror"};
  static fx_rec rec;
  long long* slots[4];
  clock_view v;
  char src[FX_PATH_MAX + 16];
  const char* val;
  size_t k;
  int err;
  fx_rec_load(&rec, "adjtimex");
  if (rec.err) {
    write_error(j, rec.path, rec.err, NULL);
    return;
  }
  if ((err = fx_rec_errno(&rec, "adjtimex", src, sizeof src)) != 0) {
    write_error(j, src, err, NULL);
    return;
  }
  slots[0] = &v.status, slots[1] = &v.state, slots[2] = &v.maxerror, slots[3] = &v.esterror;
  for (k = 0; k < 4; k++) {
    val = fx_rec_get(&rec, kKeys[k], src, sizeof src);
    if (!val || sscanf(val, "%lli", slots[k]) != 1) {
      write_error(j, rec.path, 0, "the recording lacks a numeric status, state, maxerror or esterror");
      return;
    }
  }
  write_view(j, &v, rec.path);
}

void fx_section_clock(fx_json* j) {
  struct timex tx;
  clock_view v;
  long rc;
  fx_json_open(j, "clock");
  if (fx_under_root()) {
    recorded(j);
  } else {
    memset(&tx, 0, sizeof tx); /* modes = 0: read only */
    /* The raw call: musl's adjtimex() may go through clock_adjtime (2.6.39+). */
    rc = syscall(SYS_adjtimex, &tx);
    if (rc < 0) {
      write_error(j, "adjtimex", errno, NULL);
    } else {
      v.status = tx.status, v.state = rc, v.maxerror = tx.maxerror, v.esterror = tx.esterror;
      write_view(j, &v, "adjtimex");
    }
  }
  fx_json_close(j);
}
