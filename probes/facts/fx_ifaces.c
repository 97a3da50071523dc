/* Network interfaces: driver, driver version, firmware and bus from
 * SIOCETHTOOL/ETHTOOL_GDRVINFO (what `ethtool -i` shows, without the binary),
 * speed and duplex from ETHTOOL_GSET, MTU, flags and IPv4 address from the
 * classic SIOCGIF* ioctls, all on a plain socket(AF_INET, SOCK_DGRAM, 0) as on
 * 2.6.18; IPv6 addresses from /proc/net/if_inet6 (2.6.18 has it, and it needs
 * no netlink); the NIC's tuning through fx_nic.c. Under --root the ioctl answers
 * come from DIR/.labgate-ioctl/<ifname>.conf. */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fx_fact.h"
#include "fx_fs.h"
#include "fx_nic.h"
#include "fx_rec.h"
#include "fx_sections.h"
#include "fx_str.h"

/* <linux/ethtool.h> layouts (stable kernel ABI since 2.4); musl ships no
 * kernel headers, so they are spelled out here. */
#define FX_ETHTOOL_GSET 0x00000001
#define FX_ETHTOOL_GDRVINFO 0x00000003
struct fx_ethtool_drvinfo {
  uint32_t cmd;
  char driver[32], version[32], fw_version[32], bus_info[32];
  char erom_version[32], reserved2[12];
  uint32_t n_priv_flags, n_stats, testinfo_len, eedump_len, regdump_len;
};
struct fx_ethtool_cmd {
  uint32_t cmd, supported, advertising;
  uint16_t speed; /* Mb/s, low 16 bits */
  uint8_t duplex, port, phy_address, transceiver, autoneg, mdio_support;
  uint32_t maxtxpkt, maxrxpkt;
  uint16_t speed_hi; /* 0 on kernels before 2.6.27, which is right for < 64 Gb/s */
  uint8_t eth_tp_mdix, reserved2;
  uint32_t lp_advertising, reserved[2];
};

/* The kernel strings are fixed arrays that may lack a NUL. */
static void fixed(char* out, size_t outsz, const char* in, size_t insz) {
  size_t n = strnlen(in, insz);
  if (n >= outsz) n = outsz - 1;
  memcpy(out, in, n);
  out[n] = 0;
}

static void link_facts(fx_json* j, int have_flags, unsigned flags, const char* src, int err) {
  char note[64];
  snprintf(note, sizeof note, "flags:%s%s%s", (flags & IFF_UP) ? " UP" : "",
           (flags & IFF_RUNNING) ? " RUNNING" : "",
           (flags & (IFF_UP | IFF_RUNNING)) ? "" : " neither UP nor RUNNING");
  fx_fact_str_note(j, "admin", (flags & IFF_UP) ? "up" : "down", src, have_flags ? 0 : err, NULL);
  fx_fact_bool(j, "multicast", (flags & IFF_MULTICAST) != 0, src, have_flags ? 0 : err);
  /* Link is up only when the interface is up and has carrier (IFF_RUNNING). */
  fx_fact_str_note(j, "link", (flags & IFF_UP) && (flags & IFF_RUNNING) ? "up" : "down", src,
                   have_flags ? 0 : err, have_flags ? note : NULL);
}

/* ETHTOOL_GSET duplex: 0 half, 1 full, 0xff unknown (no link). */
static void duplex_fact(fx_json* j, int d, const char* src, int err) {
  if (err)
    fx_fact_str(j, "duplex", NULL, src, err);
  else if (d == 0 || d == 1)
    fx_fact_str(j, "duplex", d ? "full" : "half", src, 0);
  else
    fx_fact_str_note(j, "duplex", NULL, src, 0, "duplex unknown (no link or not reported)");
}

static void live_iface(fx_json* j, int fd, const char* name) {
  struct ifreq ifr;
  struct fx_ethtool_drvinfo drv;
  struct fx_ethtool_cmd cmd;
  char src[96], buf[64];
  int err;
  unsigned flags = 0;

  memset(&ifr, 0, sizeof ifr);
  fx_copy(ifr.ifr_name, sizeof ifr.ifr_name, name);
  memset(&drv, 0, sizeof drv);
  drv.cmd = FX_ETHTOOL_GDRVINFO;
  ifr.ifr_data = (char*)&drv;
  err = fd < 0 ? -fd : ioctl(fd, FX_SIOCETHTOOL, &ifr) == 0 ? 0 : errno;
  snprintf(src, sizeof src, "ioctl SIOCETHTOOL ETHTOOL_GDRVINFO %s", name);
  fixed(buf, sizeof buf, drv.driver, sizeof drv.driver);
  fx_fact_str(j, "driver", buf, src, err);
  fixed(buf, sizeof buf, drv.version, sizeof drv.version);
  fx_fact_str(j, "driver_version", buf, src, err);
  fixed(buf, sizeof buf, drv.fw_version, sizeof drv.fw_version);
  fx_fact_str(j, "firmware_version", buf, src, err);
  fixed(buf, sizeof buf, drv.bus_info, sizeof drv.bus_info);
  fx_fact_str(j, "bus", buf, src, err);

  memset(&cmd, 0, sizeof cmd);
  cmd.cmd = FX_ETHTOOL_GSET;
  ifr.ifr_data = (char*)&cmd;
  err = fd < 0 ? -fd : ioctl(fd, FX_SIOCETHTOOL, &ifr) == 0 ? 0 : errno;
  snprintf(src, sizeof src, "ioctl SIOCETHTOOL ETHTOOL_GSET %s", name);
  {
    uint32_t speed = ((uint32_t)cmd.speed_hi << 16) | cmd.speed;
    if (!err && (speed == 0xFFFF || speed == 0xFFFFFFFFu || speed == 0))
      fx_fact_str_note(j, "speed_mbps", NULL, src, 0, "speed unknown (no link or not reported)");
    else
      fx_fact_int(j, "speed_mbps", speed, src, err);
    duplex_fact(j, err ? -1 : cmd.duplex, src, err);
  }

  memset(&ifr, 0, sizeof ifr);
  fx_copy(ifr.ifr_name, sizeof ifr.ifr_name, name);
  err = fd < 0 ? -fd : ioctl(fd, SIOCGIFMTU, &ifr) == 0 ? 0 : errno;
  snprintf(src, sizeof src, "ioctl SIOCGIFMTU %s", name);
  fx_fact_int(j, "mtu", err ? 0 : ifr.ifr_mtu, src, err);

  memset(&ifr, 0, sizeof ifr);
  fx_copy(ifr.ifr_name, sizeof ifr.ifr_name, name);
  err = fd < 0 ? -fd : ioctl(fd, SIOCGIFFLAGS, &ifr) == 0 ? 0 : errno;
  if (!err) flags = (unsigned short)ifr.ifr_flags;
  snprintf(src, sizeof src, "ioctl SIOCGIFFLAGS %s", name);
  link_facts(j, !err, flags, src, err);

  memset(&ifr, 0, sizeof ifr);
  fx_copy(ifr.ifr_name, sizeof ifr.ifr_name, name);
  ifr.ifr_addr.sa_family = AF_INET;
  err = fd < 0 ? -fd : ioctl(fd, SIOCGIFADDR, &ifr) == 0 ? 0 : errno;
  snprintf(src, sizeof src, "ioctl SIOCGIFADDR %s", name);
  if (!err) {
    struct sockaddr_in sin;
    memcpy(&sin, &ifr.ifr_addr, sizeof sin);
    fx_copy(buf, sizeof buf, inet_ntoa(sin.sin_addr));
  }
  if (err == EADDRNOTAVAIL)
    fx_fact_str_note(j, "ipv4_address", NULL, src, 0, "no IPv4 address");
  else
    fx_fact_str(j, "ipv4_address", buf, src, err);
}

/* A recorded interface: key=value lines standing in for the ioctl answers. */
static void recorded_iface(fx_json* j, const fx_rec* rec) {
  static const char* const kText[] = {"driver", "driver_version", "firmware_version", "bus"};
  static const char* const kInt[] = {"speed_mbps", "mtu"};
  char src[FX_PATH_MAX + 16];
  const char* v;
  size_t k;
  unsigned flags = 0;
  long long n;
  for (k = 0; k < 4; k++) {
    if ((v = fx_rec_get(rec, kText[k], src, sizeof src)) != NULL)
      fx_fact_str(j, kText[k], v, src, 0);
    else
      fx_fact_str_note(j, kText[k], NULL, rec->path, rec->err, rec->err ? NULL : "not in the recording");
  }
  for (k = 0; k < 2; k++) {
    if ((v = fx_rec_get(rec, kInt[k], src, sizeof src)) != NULL && fx_parse_ll(v, &n))
      fx_fact_int(j, kInt[k], n, src, 0);
    else if (v)
      fx_fact_str_note(j, kInt[k], NULL, src, 0, "not a number");
    else
      fx_fact_str_note(j, kInt[k], NULL, rec->path, rec->err, rec->err ? NULL : "not in the recording");
  }
  if ((v = fx_rec_get(rec, "duplex", src, sizeof src)) != NULL)
    duplex_fact(j, strcmp(v, "full") == 0 ? 1 : strcmp(v, "half") == 0 ? 0 : 0xff, src, 0);
  else
    fx_fact_str_note(j, "duplex", NULL, rec->path, rec->err, rec->err ? NULL : "not in the recording");
  if ((v = fx_rec_get(rec, "flags", src, sizeof src)) != NULL) {
    if (strstr(v, "UP")) flags |= IFF_UP;
    if (strstr(v, "RUNNING")) flags |= IFF_RUNNING;
    if (strstr(v, "MULTICAST")) flags |= IFF_MULTICAST;
    link_facts(j, 1, flags, src, 0);
  } else {
    link_facts(j, 0, 0, rec->path, rec->err ? rec->err : ENOENT);
  }
  if ((v = fx_rec_get(rec, "ipv4_address", src, sizeof src)) != NULL)
    fx_fact_str(j, "ipv4_address", v, src, 0);
  else
    fx_fact_str_note(j, "ipv4_address", NULL, rec->path, rec->err, rec->err ? NULL : "no IPv4 address");
}

/* The interface's IPv6 addresses, every scope, from /proc/net/if_inet6 lines
 * "fd4c67620000001900000000000000001 04 40 00 80 ic0" (address in 32 hex
 * digits, index, prefix length, scope, flags, name), printed as inet_ntop does. */
static void ipv6_fact(fx_json* j, const char* name) {
  const char* src = "/proc/net/if_inet6";
  fx_text t;
  char *cur, *end, *line;
  int err = fx_read(src, &t);
  fx_fact_begin(j, "ipv6_addresses");
  if (err) {
    fx_json_null(j, "value");
    fx_fact_end(j, src, err, err == ENOENT ? "no IPv6 in this kernel" : NULL);
    return;
  }
  fx_json_open_array(j, "value");
  cur = t.data, end = t.data + t.len;
  while ((line = fx_next_line(&cur, end)) != NULL) {
    char hex[33], dev[IFNAMSIZ + 1], text[INET6_ADDRSTRLEN];
    unsigned char a[16];
    unsigned idx, plen, scope, flags;
    int k;
    if (sscanf(line, "%32s %x %x %x %x %16s", hex, &idx, &plen, &scope, &flags, dev) != 6 ||
        strlen(hex) != 32 || strcmp(dev, name) != 0)
      continue;
    for (k = 0; k < 16; k++) {
      unsigned byte;
      if (sscanf(hex + 2 * k, "%2x", &byte) != 1) break;
      a[k] = (unsigned char)byte;
    }
    if (k == 16 && inet_ntop(AF_INET6, a, text, sizeof text)) fx_json_str(j, NULL, text);
  }
  fx_json_close_array(j);
  fx_fact_end(j, src, 0, NULL);
  fx_text_free(&t);
}

/* Names in /proc/net/dev ("  eth0: 1234 ..."), or just membership of one. */
static int dev_list(fx_names* out) {
  fx_text t;
  char *cur, *end, *line;
  size_t cap = 0;
  int err = fx_read("/proc/net/dev", &t);
  out->names = NULL, out->n = 0, out->truncated = 0;
  if (err) return err;
  cur = t.data, end = t.data + t.len;
  while ((line = fx_next_line(&cur, end)) != NULL) {
    char* colon = strchr(line, ':');
    char* name;
    if (!colon) continue;
    *colon = 0;
    name = fx_trim(line);
    if (!*name || strlen(name) >= IFNAMSIZ || out->n >= 4096) continue;
    if (out->n == cap) {
      char** bigger = realloc(out->names, (cap ? cap * 2 : 16) * sizeof *bigger);
      if (!bigger) break;
      out->names = bigger, cap = cap ? cap * 2 : 16;
    }
    if ((out->names[out->n] = strdup(name)) != NULL) out->n++;
  }
  fx_text_free(&t);
  return 0;
}

static void one_iface(fx_json* j, int fd, const char* name, const fx_names* dev, int deverr) {
  size_t k;
  int present = 0;
  for (k = 0; k < dev->n; k++) present |= strcmp(dev->names[k], name) == 0;
  fx_json_open(j, name);
  fx_fact_bool(j, "exists", present, "/proc/net/dev", deverr);
  if (fx_under_root()) {
    static fx_rec rec; /* large; one interface at a time */
    fx_rec_load(&rec, name);
    recorded_iface(j, &rec);
    fx_nic_ethtool(j, fd, name, &rec);
  } else {
    live_iface(j, fd, name);
    fx_nic_ethtool(j, fd, name, NULL);
  }
  ipv6_fact(j, name);
  fx_nic_irqs(j, name);
  fx_iface_mcast_route(j, name);
  fx_json_close(j);
}

void fx_section_interfaces(fx_json* j, const fx_args* a) {
  fx_names dev;
  int deverr = dev_list(&dev), fd = -1, i;
  size_t k;
  if (!fx_under_root()) {
    /* Plain flags only: SOCK_CLOEXEC/SOCK_NONBLOCK make 2.6.18 fail with EINVAL. */
    fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) fd = -errno;
  }
  fx_json_open(j, "interfaces");
  for (i = 0; i < a->n_ifaces; i++) one_iface(j, fd, a->ifaces[i], &dev, deverr);
  if (a->all_ifaces)
    for (k = 0; k < dev.n; k++) {
      int asked = 0;
      for (i = 0; i < a->n_ifaces; i++) asked |= strcmp(a->ifaces[i], dev.names[k]) == 0;
      if (!asked) one_iface(j, fd, dev.names[k], &dev, deverr);
    }
  fx_json_close(j);
  if (fd >= 0) close(fd);
  fx_names_free(&dev);
}
