/* Which interface multicast leaves by: the route the main table gives
 * 224.0.0.0/4 as a whole (the longest prefix of /4 or shorter that holds it,
 * lowest metric first), from /proc/net/route as every kernel since 2.0 lists
 * it. A subscriber whose joins go out another interface than the feed's
 * never sees the feed. Policy routing (ip rule) is not in /proc/net/route. */
#include <stdio.h>
#include <string.h>

#include "fx_fact.h"
#include "fx_fs.h"
#include "fx_sections.h"
#include "fx_str.h"

#define MCAST_NET 0xE0000000u /* 224.0.0.0, host order */

typedef struct mroute {
  int loaded, err, line, prefix;
  long metric;
  char iface[32], dest[20], inside[256]; /* inside: more specific routes within 224/4 */
} mroute;

static unsigned swap32(unsigned v) { /* /proc/net/route prints network order as host (LE) hex */
  return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
}

static int prefix_len(unsigned mask) {
  int n = 0;
  while (mask & 0x80000000u) n++, mask <<= 1;
  return n;
}

static void load(mroute* m) {
  fx_text t;
  char *cur, *end, *line;
  int lineno = 0;
  m->loaded = 1, m->prefix = -1, m->iface[0] = 0, m->inside[0] = 0;
  if ((m->err = fx_read("/proc/net/route", &t)) != 0) return;
  cur = t.data, end = t.data + t.len;
  while ((line = fx_next_line(&cur, end)) != NULL) {
    char ifname[32];
    unsigned dest, gw, flags, mask;
    int refcnt, use, len;
    long metric;
    lineno++;
    if (sscanf(line, "%31s %x %x %x %d %d %ld %x", ifname, &dest, &gw, &flags, &refcnt, &use, &metric,
               &mask) != 8)
      continue;
    if (!(flags & 0x1)) continue; /* RTF_UP */
    dest = swap32(dest), mask = swap32(mask), len = prefix_len(mask);
    if (len > 4) {
      if ((dest & 0xF0000000u) == MCAST_NET && strlen(m->inside) + 48 < sizeof m->inside)
        snprintf(m->inside + strlen(m->inside), sizeof m->inside - strlen(m->inside), "%s%u.%u.%u.%u/%d %s",
                 m->inside[0] ? ", " : "", dest >> 24, (dest >> 16) & 255, (dest >> 8) & 255, dest & 255, len,
                 ifname);
      continue;
    }
    if ((MCAST_NET & mask) != dest) continue;
    if (len < m->prefix || (len == m->prefix && metric >= m->metric)) continue;
    m->prefix = len, m->metric = metric, m->line = lineno;
    fx_copy(m->iface, sizeof m->iface, ifname);
    snprintf(m->dest, sizeof m->dest, "%u.%u.%u.%u/%d", dest >> 24, (dest >> 16) & 255, (dest >> 8) & 255,
             dest & 255, len);
  }
  fx_text_free(&t);
}

void fx_iface_mcast_route(fx_json* j, const char* ifname) {
  static mroute m;
  char src[64], note[512];
  if (!m.loaded) load(&m);
  if (m.err) {
    fx_fact_str(j, "multicast_route", NULL, "/proc/net/route", m.err);
    return;
  }
  if (m.prefix < 0) {
    fx_fact_bool_note(j, "multicast_route", 0, "/proc/net/route",
                      "no route holds 224.0.0.0/4 (no default route either): a sender without "
                      "IP_MULTICAST_IF gets ENETUNREACH");
    return;
  }
  snprintf(src, sizeof src, "/proc/net/route:%d", m.line);
  snprintf(note, sizeof note, "224.0.0.0/4 goes via %s (route %s)%s%s", m.iface, m.dest,
           m.inside[0] ? "; more specific inside it: " : "", m.inside);
  fx_fact_bool_note(j, "multicast_route", strcmp(m.iface, ifname) == 0, src, note);
}
