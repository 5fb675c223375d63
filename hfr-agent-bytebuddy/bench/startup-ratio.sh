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
#   agent-idle  the agent with every client switched off: its premain alone, no Byte Buddy (where the agent's cost goes)
#   otel        -javaagent: the OpenTelemetry Java agent $OTEL_VERSION (default 2.22.0), fetched from Maven Central into
#               target/bench/ with Maven on first use, with -Dotel.traces.exporter=none -Dotel.metrics.exporter=none
#               -Dotel.logs.exporter=none
#   jar:PATH    -javaagent:PATH, any other agent jar (e.g. an earlier build of this one)
#   opt:OPTION  no agent, one JVM option instead
# Prints one line per JVM; then per variant the median CPU and wall time and their ratio to "none"; the median of the
# round-by-round ratios (each JVM against the "none" JVM of its round); for "agent", its overhead (median CPU over
# "none") as a share of the OpenTelemetry agent's; and the load average before and after, which says how far to trust
# the figures on a shared machine (the ratios of alternated rounds move less than the absolute figures).
# JAVA (default: java on the PATH) picks the JVM.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-15}
shift || true
VARIANTS=("${@:-none agent otel}")
read -r -a VARIANTS <<< "${VARIANTS[*]}"
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
    agent-idle) echo "-javaagent:target/hfr-agent.jar=instrument.jdk-httpclient=false,instrument.http-url-connection=false,instrument.okhttp=false,instrument.apache-httpclient5=false" ;;
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
    # shellcheck disable=SC2046
    "$TIME" -o "$WORK/t" -f "%e %U %S" "$JAVA" $(jvm_args "$v") -cp "$CP" dev.hfr.agent.bench.ServeAndSendProbe \
      > "$WORK/out" 2> "$WORK/err" || { cat "$WORK/err" >&2; exit 1; }
    grep -q "^/fail 503" "$WORK/out" && grep -q "^/ok 200" "$WORK/out" || { echo "$v: unexpected output" >&2; cat "$WORK/out" >&2; exit 1; }
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
has_none=$(awk '$1 == "none" { found = 1 } END { print found + 0 }' "$WORK/all")
for v in "${VARIANTS[@]}"; do
  cpu=$(column_median "$v" 2)
  wall=$(column_median "$v" 3)
  line=$(printf "%-8s rounds=%d cpu_median_ms=%s wall_median_ms=%s" "$v" "$ROUNDS" "$cpu" "$wall")
  if [ "$has_none" = 1 ]; then
    none_cpu=$(column_median none 2)
    none_wall=$(column_median none 3)
    paired=$(awk -v v="$v" '$1 == "none" { n[$4] = $2 } $1 == v { c[$4] = $2 } END { for (r in c) if (r in n) print c[r] / n[r] }' "$WORK/all" | median)
    line="$line $(awk -v c="$cpu" -v nc="$none_cpu" -v w="$wall" -v nw="$none_wall" -v p="$paired" \
      'BEGIN { printf "cpu_ratio=%.2fx wall_ratio=%.2fx cpu_ratio_paired=%.2fx", c / nc, w / nw, p }')"
  fi
  echo "$line"
done
if [ "$has_none" = 1 ] && [[ " ${VARIANTS[*]} " == *" otel "* ]]; then
  for v in "${VARIANTS[@]}"; do
    [ "$v" != none ] && [ "$v" != otel ] || continue
    awk -v a="$(column_median "$v" 2)" -v o="$(column_median otel 2)" -v n="$(column_median none 2)" -v v="$v" \
      'BEGIN { printf "%-8s cpu overhead %+d ms = %.0f%% of the OpenTelemetry agent'"'"'s %+d ms\n", v, a - n, 100 * (a - n) / (o - n), o - n }'
  done
fi
