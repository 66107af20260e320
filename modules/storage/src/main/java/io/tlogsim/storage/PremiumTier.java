package io.tlogsim.storage;

/**
 * One Azure Premium SSD size (REFERENCE.md section 4): its name (P10 ... P80), size, IOPS and MB/s caps, and whether
 * it may burst on credits.
 *
 * @param mibPerSec throughput cap in MiB/s: Azure's "MB/s" for disks, which the managed-instance table gives as MiB/s
 *     with the same figures
 */
public record PremiumTier(String name, long sizeGiB, long iops, long mibPerSec, boolean creditBursting) {}
