package io.tlogsim.storage;

/**
 * One row of the managed-instance per-file table (REFERENCE.md section 4, "Azure SQL Managed Instance General
 * Purpose"): files up to {@code maxGiB} (and above the previous row's) get these IOPS and MiB/s. The instance counts
 * every I/O once against the IOPS cap, whatever its size.
 */
public record ManagedInstanceBand(String name, long maxGiB, long iops, long mibPerSec) {}
