#!/bin/bash
# Ad-hoc probe (not part of the report): what tcpdump's snap length (-s) and ring (-B) cost per
# packet, apart from the product. dnsmasq answers locally on 127.0.0.1:5399, dnsperf asks it at a
# fixed 10,000 qps for 4 s per mode; modes interleaved per round: no capture, and tcpdump with the
# product's other flags (electron/core/capture/tcpdump-argv.ts) and its one-copy-per-loopback-packet
# filter into `cat`. Prints, per run, the clock ticks (proc(5) /proc/PID/stat utime+stime) of
# dnsmasq and tcpdump and dnsperf's CPU seconds. Run as
# `bash e2e/bed/sandbox.sh bash scripts/bench/tap-probe.sh` (root in the sandbox opens the capture);
# ROUNDS (default 4).
set -u
D=$(mktemp -d)
printf 'a.example.test A\nb.example.test A\n' > $D/q
dnsmasq -k -p 5399 --no-resolv --address=/example.test/10.0.0.1 --listen-address=127.0.0.1 --bind-interfaces --cache-size=1000 -u root --pid-file= --log-facility=$D/dm.log &
DM=$!
sleep 0.5
ticks() { awk '{print $14+$15}' /proc/$1/stat 2>/dev/null || echo 0; }
FILTER='udp port 5399 and not (outbound and ifindex 1)'
for round in $(seq "${ROUNDS:-4}"); do
  for mode in none s4200B2048 s512B2048 s4200B512; do
    TP=""
    case $mode in
      none) ;;
      s4200B2048) tcpdump -i any -y LINUX_SLL2 -n -s 4200 -B 2048 -U -w - "$FILTER" 2>/dev/null > >(cat > /dev/null) & TP=$! ;;
      s512B2048) tcpdump -i any -y LINUX_SLL2 -n -s 512 -B 2048 -U -w - "$FILTER" 2>/dev/null > >(cat > /dev/null) & TP=$! ;;
      s4200B512) tcpdump -i any -y LINUX_SLL2 -n -s 4200 -B 512 -U -w - "$FILTER" 2>/dev/null > >(cat > /dev/null) & TP=$! ;;
    esac
    sleep 0.5
    d0=$(ticks $DM); t0=0; [ -n "$TP" ] && t0=$(ticks $TP)
    out=$( { /usr/bin/time -f 'PERF %U %S' dnsperf -s 127.0.0.1 -p 5399 -d $D/q -l 4 -Q 10000 -c 1 ; } 2>&1 )
    d1=$(ticks $DM); t1=0; [ -n "$TP" ] && t1=$(ticks $TP)
    q=$(echo "$out" | awk '/Queries completed/{print $3}')
    perf=$(echo "$out" | awk '/^PERF/{print $2+$3}')
    echo "round=$round mode=$mode load=$(cut -d' ' -f1 /proc/loadavg) queries=$q dnsmasq_ticks=$((d1-d0)) tcpdump_ticks=$((t1-t0)) dnsperf_cpu_s=$perf"
    [ -n "$TP" ] && kill $TP; sleep 0.3
  done
done
kill $DM
