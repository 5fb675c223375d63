#!/usr/bin/env bash
# Start-up as ratios, in one run: the whole-process CPU (user + sys) and the wall time of a JVM that serves HTTP on
# 127.0.0.1 and sends itself one failing (503) and one good (200) request over the JDK HttpClient (ServeAndSendProbe),
# with no agent, with this agent and with the OpenTelemetry Java agent (exporters off), in alternated rounds, medians.
# A benchmark, not a test.
#
#   mvn -B -pl hfr-agent-bytebuddy -am package -DskipTests     # the agent jar and the test classes
#   hfr-agent-bytebuddy/bench/startup-ratio.sh [ROUNDS] [VARIANT...]
#
# ROUNDS (default 15) rounds; each round runs every variant once, in an order that rotates from round to round, so no
# variant always runs first. Variants (default: none agent otel):
#   none        no agent
#   agent       -javaagent:target/hfr-agent.jar, default options (shadow mode)
#   idle        no agent, and the JVM never sends a request (ServeAndSendProbe idle: it serves and exits)
#   agent-idle  the agent, default options, in that JVM that never sends: its premain and its transformer, no Byte Buddy
#               (compared with "idle", which the script adds when it is not among the variants)
#   agent-off   the agent with every client switched off, in the JVM that sends: its premain alone
#   otel        -javaagent: the OpenTelemetry Java agent $OTEL_VERSION (default 2.22.0), fetched from Maven Central into
#               target/bench/ with Maven on first use, with -Dotel.traces.exporter=none -Dotel.metrics.exporter=none
#               -Dotel.logs.exporter=none
#   jar:PATH    -javaagent:PATH, any other agent jar (e.g. an earlier build of this one)
#   opt:OPTION  no agent, one JVM option instead
# Prints one line per JVM; then per variant the median CPU and wall time and their ratio to "none" ("idle" for the
# variants that never send); the median of the round-by-round ratios (each JVM against that JVM of its round); each
# agent's CPU overhead (over "none", or "idle") as a share of the OpenTelemetry agent's; and the load average before
# and after, which says how far to trust the figures on a shared machine (the ratios of alternated rounds move less
# than the absolute figures).
# JAVA (default: java on the PATH) picks the JVM.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-15}
shift || true
VARIANTS=("${@:-none agent otel}")
read -r -a VARIANTS <<< "${VARIANTS[*]}"
if [[ " ${VARIANTS[*]} " == *" agent-idle "* ]] && [[ " ${VARIANTS[*]} " != *" idle "* ]]; then
  VARIANTS+=(idle)
fi
JAVA=${JAVA:-java}
OTEL_VERSION=${OTEL_VERSION:-2.22.0}
CP=target/test-classes
[ -f target/hfr-agent.jar ] && [ -f "$CP/dev/hfr/agent/bench/ServeAndSendProbe.class" ] \
  || { echo "build first: mvn -B -pl hfr-agent-bytebuddy -am package -DskipTests" >&2; exit 1; }
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "needs GNU time (/usr/bin/time)" >&2; exit 1; }
OTEL_JAR=target/bench/opentelemetry-javaagent-$OTEL_VERSION.jar
if [[ " ${VARIANTS[*]} " == *" otel "* ]] && [ ! -f "$OTEL_JAR" ]; then
  mvn -B -q dependency:copy -Dartifact="io.opentelemetry.javaagent:opentelemetry-javaagent:$OTEL_VERSION" \
    -DoutputDirectory=target/bench >&2
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

jvm_args() {
  case "$1" in
    none) ;;
    agent) echo "-javaagent:target/hfr-agent.jar" ;;
    idle) ;;
    agent-idle) echo "-javaagent:target/hfr-agent.jar" ;;
    agent-off) echo "-javaagent:target/hfr-agent.jar=instrument.jdk-httpclient=false,instrument.http-url-connection=false,instrument.okhttp=false,instrument.apache-httpclient5=false" ;;
    otel) echo "-javaagent:$OTEL_JAR -Dotel.traces.exporter=none -Dotel.metrics.exporter=none -Dotel.logs.exporter=none" ;;
    jar:*) echo "-javaagent:${1#jar:}" ;;
    opt:*) echo "${1#opt:}" ;;
    *) echo "unknown variant $1" >&2; exit 1 ;;
  esac
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)   $("$JAVA" -version 2>&1 | head -1)   $(nproc) cores"
COUNT=${#VARIANTS[@]}
for round in $(seq "$ROUNDS"); do
  for i in $(seq 0 $((COUNT - 1))); do
    v=${VARIANTS[$(( (i + round - 1) % COUNT ))]}
    mode=(); [[ "$v" == idle || "$v" == *-idle ]] && mode=(idle)
    # shellcheck disable=SC2046
    "$TIME" -o "$WORK/t" -f "%e %U %S" "$JAVA" $(jvm_args "$v") -cp "$CP" dev.hfr.agent.bench.ServeAndSendProbe "${mode[@]}" \
      > "$WORK/out" 2> "$WORK/err" || { cat "$WORK/err" >&2; exit 1; }
    if [ ${#mode[@]} -gt 0 ]; then
      grep -q "^idle " "$WORK/out" || { echo "$v: unexpected output" >&2; cat "$WORK/out" >&2; exit 1; }
    else
      grep -q "^/fail 503" "$WORK/out" && grep -q "^/ok 200" "$WORK/out" || { echo "$v: unexpected output" >&2; cat "$WORK/out" >&2; exit 1; }
    fi
    read -r wall user sys < "$WORK/t"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%d", (u + s) * 1000 }')
    wall_ms=$(awk -v w="$wall" 'BEGIN { printf "%d", w * 1000 }')
    echo "$round $v cpu_ms=$cpu wall_ms=$wall_ms"
    echo "$v $cpu $wall_ms $round" >> "$WORK/all"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -n | awk '{ x[NR] = $1 } END { printf "%s", (NR % 2) ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2 }'; }
column_median() { awk -v v="$1" -v c="$2" '$1 == v { print $c }' "$WORK/all" | median; }
base_of() { if [[ "$1" == idle || "$1" == *-idle ]]; then echo idle; else echo none; fi; }
has() { awk -v v="$1" '$1 == v { found = 1 } END { print found + 0 }' "$WORK/all"; }
for v in "${VARIANTS[@]}"; do
  cpu=$(column_median "$v" 2)
  wall=$(column_median "$v" 3)
  line=$(printf "%-10s rounds=%d cpu_median_ms=%s wall_median_ms=%s" "$v" "$ROUNDS" "$cpu" "$wall")
  b=$(base_of "$v")
  if [ "$(has "$b")" = 1 ]; then
    base_cpu=$(column_median "$b" 2)
    base_wall=$(column_median "$b" 3)
    paired=$(awk -v v="$v" -v b="$b" '$1 == b { n[$4] = $2 } $1 == v { c[$4] = $2 } END { for (r in c) if (r in n) print c[r] / n[r] }' "$WORK/all" | median)
    line="$line $(awk -v c="$cpu" -v nc="$base_cpu" -v w="$wall" -v nw="$base_wall" -v p="$paired" -v b="$b" \
      'BEGIN { printf "vs %s: cpu_ratio=%.2fx wall_ratio=%.2fx cpu_ratio_paired=%.2fx", b, c / nc, w / nw, p }')"
  fi
  echo "$line"
done
if [ "$(has none)" = 1 ] && [ "$(has otel)" = 1 ]; then
  for v in "${VARIANTS[@]}"; do
    [ "$v" != none ] && [ "$v" != otel ] && [ "$v" != idle ] || continue
    b=$(base_of "$v")
    [ "$(has "$b")" = 1 ] || continue
    awk -v a="$(column_median "$v" 2)" -v o="$(column_median otel 2)" -v n="$(column_median none 2)" -v bc="$(column_median "$b" 2)" -v v="$v" \
      'BEGIN { printf "%-10s cpu overhead %+d ms = %.0f%% of the OpenTelemetry agent'"'"'s %+d ms\n", v, a - bc, 100 * (a - bc) / (o - n), o - n }'
  done
fi
