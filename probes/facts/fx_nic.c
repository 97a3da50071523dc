/* NIC tuning facts (see fx_nic.h). Only ioctls that 2.6.18 knows are issued
 * unconditionally; the newer ones (GGRO 2.6.30, GCHANNELS 2.6.37, the LRO flag
 * of GFLAGS 2.6.24) simply fail there with EOPNOTSUPP, which is reported as
 * the fact's error: the rules then say "not checkable", never "passed". Netlink
 * is never used, so the same binary runs on RHEL 5 and on current kernels. */
#include "fx_nic.h"

#include <errno.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "fx_fact.h"
#include "fx_fs.h"
#include "fx_str.h"

/* One value of an ETHTOOL_G* answer: word `idx` of the u32 array the kernel fills. */
typedef struct nic_field {
  const char* name;
  int idx;
  int is_bool;
} nic_field;

/* A group of values read by one ioctl (or, for offloads, one ioctl per value). */
typedef struct nic_group {
  const char* member;
  const char* note;
} nic_group;

#define ETH_GCOALESCE 0x0e
#define ETH_GRINGPARAM 0x10
#define ETH_GPAUSEPARAM 0x12
#define ETH_GRXCSUM 0x14
#define ETH_GTXCSUM 0x16
#define ETH_GSG 0x18
#define ETH_GTSO 0x1e
#define ETH_GGSO 0x23
#define ETH_GFLAGS 0x25
#define ETH_GGRO 0x2b
#define ETH_GCHANNELS 0x3c
#define ETH_FLAG_LRO (1u << 15)

/* struct ethtool_coalesce: cmd, then 22 u32 in this order. */
static const nic_field kCoalesce[] = {{"rx_usecs", 1, 0},    {"rx_frames", 2, 0},   {"tx_usecs", 5, 0},
                                      {"tx_frames", 6, 0},   {"adaptive_rx", 10, 1}, {"adaptive_tx", 11, 1}};
/* struct ethtool_ringparam: cmd, rx_max, rx_mini_max, rx_jumbo_max, tx_max, rx, rx_mini, rx_jumbo, tx. */
static const nic_field kRing[] = {{"rx", 5, 0}, {"tx", 8, 0}, {"rx_max", 1, 0}, {"tx_max", 4, 0}};
/* struct ethtool_channels: cmd, max_rx, max_tx, max_other, max_combined, rx, tx, other, combined. */
static const nic_field kChannels[] = {{"combined", 8, 0}, {"rx", 5, 0},           {"tx", 6, 0},
                                      {"other", 7, 0},    {"max_combined", 4, 0}};
/* struct ethtool_pauseparam: cmd, autoneg, rx_pause, tx_pause. */
static const nic_field kPause[] = {{"autoneg", 1, 1}, {"rx", 2, 1}, {"tx", 3, 1}};

static int eth_ioctl(int fd, const char* ifname, uint32_t* words) {
  struct ifreq ifr;
  if (fd < 0) return -fd;
  memset(&ifr, 0, sizeof ifr);
  fx_copy(ifr.ifr_name, sizeof ifr.ifr_name, ifname);
  ifr.ifr_data = (char*)words;
  return ioctl(fd, FX_SIOCETHTOOL, &ifr) == 0 ? 0 : errno;
}

/* A recorded value: "on"/"off", "true"/"false" or a number. 1 when it parsed. */
static int rec_value(const char* v, int is_bool, long long* out) {
  if (is_bool && (strcmp(v, "on") == 0 || strcmp(v, "true") == 0)) return *out = 1, 1;
  if (is_bool && (strcmp(v, "off") == 0 || strcmp(v, "false") == 0)) return *out = 0, 1;
  return fx_parse_ll(v, out);
}

static void put_value(fx_json* j, const char* key, int is_bool, long long v, const char* src, int err,
                      const char* note) {
  fx_fact_begin(j, key);
  if (err)
    fx_json_null(j, "value");
  else if (is_bool)
    fx_json_bool(j, "value", v != 0);
  else
    fx_json_int(j, "value", v);
  fx_fact_end(j, src, err, note);
}

/* A recorded field of `ioctl_name`: its errno line, its own line, or why there is none. */
static void put_recorded(fx_json* j, const fx_rec* rec, const char* member, const char* ioctl_name,
                         const nic_field* f, const char* note) {
  char key[96], src[FX_PATH_MAX + 16];
  const char* v;
  long long n;
  int err = fx_rec_errno(rec, ioctl_name, src, sizeof src);
  if (rec->err) {
    put_value(j, f->name, f->is_bool, 0, rec->path, rec->err, NULL);
    return;
  }
  if (err) {
    put_value(j, f->name, f->is_bool, 0, src, err, NULL);
    return;
  }
  snprintf(key, sizeof key, "%s.%s", member, f->name);
  if ((v = fx_rec_get(rec, key, src, sizeof src)) == NULL)
    fx_fact_str_note(j, f->name, NULL, rec->path, 0, "not in the recording");
  else if (!rec_value(v, f->is_bool, &n))
    fx_fact_str_note(j, f->name, NULL, src, 0, f->is_bool ? "not on/off" : "not a number");
  else
    put_value(j, f->name, f->is_bool, n, src, 0, note);
}

static void group(fx_json* j, int fd, const char* ifname, const fx_rec* rec, const char* member,
                  const char* ioctl_name, uint32_t cmd, const nic_field* fields, size_t nf, const char* note) {
  uint32_t words[32];
  char src[96];
  size_t k;
  int err = 0;
  fx_json_open(j, member);
  if (!rec) {
    memset(words, 0, sizeof words);
    words[0] = cmd;
    err = eth_ioctl(fd, ifname, words);
    snprintf(src, sizeof src, "ioctl SIOCETHTOOL %s %s", ioctl_name, ifname);
  }
  for (k = 0; k < nf; k++) {
    if (rec)
      put_recorded(j, rec, member, ioctl_name, &fields[k], note);
    else
      put_value(j, fields[k].name, fields[k].is_bool, words[fields[k].idx], src, err, err ? NULL : note);
  }
  fx_json_close(j);
}

/* Offloads: one legacy ioctl each (every kernel since they were added keeps
 * them, mapped onto its feature bits), so 2.6.18 answers all but gro and lro. */
static void offloads(fx_json* j, int fd, const char* ifname, const fx_rec* rec) {
  static const struct {
    const char* name;
    const char* ioctl_name;
    uint32_t cmd, mask;
  } kOff[] = {{"rx", "ETHTOOL_GRXCSUM", ETH_GRXCSUM, 0},  {"tx", "ETHTOOL_GTXCSUM", ETH_GTXCSUM, 0},
              {"sg", "ETHTOOL_GSG", ETH_GSG, 0},          {"tso", "ETHTOOL_GTSO", ETH_GTSO, 0},
              {"gso", "ETHTOOL_GGSO", ETH_GGSO, 0},       {"gro", "ETHTOOL_GGRO", ETH_GGRO, 0},
              {"lro", "ETHTOOL_GFLAGS", ETH_GFLAGS, ETH_FLAG_LRO}};
  size_t k;
  fx_json_open(j, "offload");
  for (k = 0; k < sizeof kOff / sizeof kOff[0]; k++) {
    nic_field f;
    f.name = kOff[k].name, f.idx = 1, f.is_bool = 1;
    if (rec) {
      put_recorded(j, rec, "offload", kOff[k].ioctl_name, &f, NULL);
    } else {
      uint32_t words[2];
      char src[96];
      int err;
      words[0] = kOff[k].cmd, words[1] = 0;
      err = eth_ioctl(fd, ifname, words);
      snprintf(src, sizeof src, "ioctl SIOCETHTOOL %s %s", kOff[k].ioctl_name, ifname);
      put_value(j, f.name, 1, kOff[k].mask ? (words[1] & kOff[k].mask) != 0 : words[1] != 0, src, err,
                kOff[k].mask ? "the LRO bit of the device flags" : NULL);
    }
  }
  fx_json_close(j);
}

void fx_nic_ethtool(fx_json* j, int fd, const char* ifname, const fx_rec* rec) {
#define N(a) (sizeof a / sizeof a[0])
  group(j, fd, ifname, rec, "coalesce", "ETHTOOL_GCOALESCE", ETH_GCOALESCE, kCoalesce, N(kCoalesce), NULL);
  group(j, fd, ifname, rec, "ring", "ETHTOOL_GRINGPARAM", ETH_GRINGPARAM, kRing, N(kRing), NULL);
  group(j, fd, ifname, rec, "channels", "ETHTOOL_GCHANNELS", ETH_GCHANNELS, kChannels, N(kChannels), NULL);
  offloads(j, fd, ifname, rec);
  group(j, fd, ifname, rec, "pause", "ETHTOOL_GPAUSEPARAM", ETH_GPAUSEPARAM, kPause, N(kPause),
        "the configured setting, not what the link partner agreed");
#undef N
}

int fx_mask_to_list(const char* mask, char* out, size_t outsz) {
  /* Hex digits, most significant first, 32-bit groups separated by commas. */
  size_t len = strlen(mask), used = 0;
  int bit = 0, run_start = -1, any_digit = 0;
  long i;
  out[0] = 0;
  for (i = (long)len - 1; i >= -1; i--) {
    int d, b;
    if (i >= 0 && mask[i] == ',') continue;
    if (i >= 0) {
      char c = mask[i];
      if (c >= '0' && c <= '9')
        d = c - '0';
      else if (c >= 'a' && c <= 'f')
        d = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        d = c - 'A' + 10;
      else
        return 0;
      any_digit = 1;
    } else {
      d = 0; /* one more empty nibble closes a trailing run */
    }
    for (b = 0; b < 4; b++, bit++) {
      int set = (d >> b) & 1;
      if (set && run_start < 0) run_start = bit;
      if (!set && run_start >= 0) {
        int n = run_start == bit - 1 ? snprintf(out + used, outsz - used, "%s%d", used ? "," : "", run_start)
                                     : snprintf(out + used, outsz - used, "%s%d-%d", used ? "," : "",
                                                run_start, bit - 1);
        if (n < 0 || (size_t)n >= outsz - used) return 0;
        used += (size_t)n;
        run_start = -1;
      }
    }
  }
  return any_digit;
}

/* The affinity of one IRQ, from the best file this kernel has. */
static void affinity(fx_json* j, const char* irq) {
  static const char* const kFiles[] = {"effective_affinity_list", "smp_affinity_list", "smp_affinity"};
  char path[FX_PATH_MAX], buf[4096], list[4096];
  size_t k;
  int err = ENOENT;
  for (k = 0; k < 3; k++) {
    snprintf(path, sizeof path, "/proc/irq/%s/%s", irq, kFiles[k]);
    err = fx_read_small(path, buf, sizeof buf);
    if (err == ENOENT || err == ENOTDIR) continue;
    if (err || k < 2) {
      fx_fact_str_note(j, irq, buf, path, err,
                       k == 0 ? "where the kernel delivers it (4.13+)" : NULL);
      return;
    }
    if (fx_mask_to_list(fx_trim(buf), list, sizeof list))
      fx_fact_str_note(j, irq, list, path, 0, "from the hex mask (no smp_affinity_list on this kernel)");
    else
      fx_fact_str_note(j, irq, NULL, path, 0, "not a hex CPU mask");
    return;
  }
  fx_fact_str(j, irq, NULL, path, err);
}

/* Managed IRQs (the kernel spreads them; their affinity cannot be written) are
 * visible only through debugfs (4.15+); elsewhere this says it does not know. */
static void managed(fx_json* j, const char* irq) {
  char path[FX_PATH_MAX];
  fx_text t;
  int err;
  snprintf(path, sizeof path, "/sys/kernel/debug/irq/irqs/%s", irq);
  err = fx_read(path, &t);
  if (err)
    fx_fact_str_note(j, irq, NULL, path, err,
                     "no debugfs irq directory (not mounted, or a kernel before 4.15): unknown");
  else
    fx_fact_bool_note(j, irq, strstr(t.data, "AFFINITY_MANAGED") != NULL, path,
                      "IRQD_AFFINITY_MANAGED in the IRQ's state");
  fx_text_free(&t);
}

/* IRQ numbers whose /proc/interrupts name is the interface or starts with it
 * ("eth1", "eth1-rx-0", "eth1-TxRx-3"): what older drivers register. */
static int from_proc_interrupts(const char* ifname, fx_names* out) {
  fx_text t;
  char *cur, *end, *line;
  size_t cap = 0, n = strlen(ifname);
  int err = fx_read("/proc/interrupts", &t);
  out->names = NULL, out->n = 0, out->truncated = 0;
  if (err) return err;
  cur = t.data, end = t.data + t.len;
  while ((line = fx_next_line(&cur, end)) != NULL) {
    char *colon = strchr(line, ':'), *num = fx_trim(line), *last, *tok, *save = NULL;
    int match = 0;
    if (!colon || num >= colon || *num < '0' || *num > '9') continue;
    *colon = 0;
    last = NULL;
    for (tok = strtok_r(colon + 1, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) last = tok;
    for (tok = last; tok && !match;) {
      /* A shared line lists "eth1, eth2": check each name. */
      char* comma = strchr(tok, ',');
      if (comma) *comma = 0;
      match = strncmp(tok, ifname, n) == 0 && (tok[n] == 0 || tok[n] == '-' || tok[n] == '@');
      tok = comma ? comma + 1 : NULL;
    }
    if (!match) continue;
    if (out->n == cap) {
      char** bigger = realloc(out->names, (cap ? cap * 2 : 16) * sizeof *bigger);
      if (!bigger) break;
      out->names = bigger, cap = cap ? cap * 2 : 16;
    }
    if ((out->names[out->n] = strdup(fx_trim(num))) != NULL) out->n++;
  }
  fx_text_free(&t);
  return 0;
}

void fx_nic_irqs(fx_json* j, const char* ifname) {
  char path[FX_PATH_MAX], buf[64], src[FX_PATH_MAX];
  const char* note;
  fx_names irqs;
  long long node;
  size_t k;
  int err;
  snprintf(path, sizeof path, "/sys/class/net/%s/device/numa_node", ifname);
  err = fx_read_small(path, buf, sizeof buf);
  if (!err && fx_parse_ll(buf, &node))
    fx_fact_int(j, "numa_node", node, path, 0);
  else
    fx_fact_str_note(j, "numa_node", NULL, path, err, err ? NULL : "not a number");

  /* MSI/MSI-X vectors of the PCI device: drivers name them after the device
   * ("mlx5_comp3@pci:0000:3b:00.0"), not the interface, so the device decides. */
  snprintf(src, sizeof src, "/sys/class/net/%s/device/msi_irqs", ifname);
  err = fx_list(src, &irqs);
  note = "the PCI device's MSI/MSI-X vectors";
  if (err || irqs.n == 0) {
    if (!err) fx_names_free(&irqs);
    fx_copy(src, sizeof src, "/proc/interrupts");
    err = from_proc_interrupts(ifname, &irqs);
    note = "lines of /proc/interrupts named after the interface (no msi_irqs in sysfs)";
  }
  fx_fact_begin(j, "irqs");
  if (err) {
    fx_json_null(j, "value");
  } else {
    fx_json_open_array(j, "value");
    for (k = 0; k < irqs.n; k++) fx_json_str(j, NULL, irqs.names[k]);
    fx_json_close_array(j);
  }
  fx_fact_end(j, src, err, err ? NULL : note);
  fx_json_open(j, "irq_affinity");
  for (k = 0; !err && k < irqs.n; k++) affinity(j, irqs.names[k]);
  fx_json_close(j);
  fx_json_open(j, "irq_managed");
  for (k = 0; !err && k < irqs.n; k++) managed(j, irqs.names[k]);
  fx_json_close(j);
  if (!err) fx_names_free(&irqs);
}
