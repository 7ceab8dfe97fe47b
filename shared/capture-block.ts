/**
 * ms after which the kernel hands over a ring block of the capture that is not full (tcpdump 4.99
 * sets 1,000 ms, tcpdump.c pcap_set_timeout; libpcap 1.10 passes it as tp_retire_blk_tov): a
 * query's row reaches the exact query log up to this long after its answer. Here, not in the
 * capture's code, so the window's words say it as the CLI's do (shared/query-log/no-rows.ts).
 * Pure module: no Node or DOM imports.
 */
export const BLOCK_TIMEOUT_MS = 1000;
