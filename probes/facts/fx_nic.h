/* The interconnect NIC's tuning, per interface: coalescing, rings, channels,
 * offloads and pause (SIOCETHTOOL ETHTOOL_G* ioctls, or their recording under
 * --root), its PCI device's NUMA node, and its IRQs with their affinity. */
#ifndef LABGATE_PROBES_FACTS_FX_NIC_H
#define LABGATE_PROBES_FACTS_FX_NIC_H

#include "fx_json.h"
#include "fx_rec.h"

#define FX_SIOCETHTOOL 0x8946

/** Writes "coalesce", "ring", "channels", "offload", "pause". Live: `fd` is the
 * socket (negative: -errno of its creation); recorded: `rec` is not NULL. */
void fx_nic_ethtool(fx_json* j, int fd, const char* ifname, const fx_rec* rec);
/** Writes "numa_node", "irqs", "irq_affinity", "irq_managed" (sysfs and /proc). */
void fx_nic_irqs(fx_json* j, const char* ifname);

/** Turns a hex CPU mask ("00000000,0000000f") into a CPU list ("0-3"). 1 on success. */
int fx_mask_to_list(const char* mask, char* out, size_t outsz);

#endif
