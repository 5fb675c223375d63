#!/usr/bin/env bash
# What the agent adds to the CPU time of a JVM that sends one request, in milliseconds, beside a no-op and an empty
# agent (the floors of any agent). For ratios beside the OpenTelemetry agent, see startup-ratio.sh
# (docs/BENCHMARKS.md, "Java agent overhead"). A benchmark, not a test: run it on a machine as quiet as you can get.
#
#   mvn -B -pl hfr-agent-bytebuddy -am package -DskipTests     # the agent jar and the test classes
#   hfr-agent-bytebuddy/bench/startup-cpu.sh [RUNS] [VARIANT...]
#
# RUNS JVMs (default 7) per variant, the variants alternating run by run. Each JVM runs StartupProbe, which
# sends one GET with the JDK HttpClient to a loopback server (LoopbackServer, a JVM of its own) and exits.
# CPU is the whole process's user + sys time as GNU time reports it. Variants (default: none agent):
#   none        no agent
#   noop        a Java agent whose transformer changes nothing (NoOpAgent): the floor of every agent whose
#               transformer stays registered
#   empty       a Java agent whose premain does nothing and registers no transformer (EmptyAgent): the floor
#               of every -javaagent
#   agent       -javaagent:target/hfr-agent.jar with its default options
#   agent-idle  the agent with every client switched off: its premain and transformer, no instrumentation
#   before      -javaagent:$BEFORE_JAR, another build of the agent (e.g. main's) to compare with
#   jar:PATH    -javaagent:PATH, any other agent jar (options after PATH as usual: jar:x.jar=a=b)
#   opt:OPTION  no agent, one JVM option instead (e.g. opt:--add-modules=java.instrument, which -javaagent implies)
# Prints one line per JVM, then per variant the median and mean CPU, the median wall time and, when "none" is
# among the variants, what each variant adds to it: the difference of the medians, of the means, and the
# median of the run-by-run differences (each JVM against the "none" JVM of the same round; the rounds run
# the variants in a rotating order, so no variant always runs first). And the load average before and after. JAVA (default: java on the PATH) picks the JVM. EMPTY=1 runs StartupProbe
# without a URL instead: an empty main, which sends no request (the JVM's and the agent's premain alone).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-7}
shift || true
VARIANTS=("${@:-none agent}")
read -r -a VARIANTS <<< "${VARIANTS[*]}"
JAVA=${JAVA:-java}
CP=target/test-classes
[ -f target/hfr-agent.jar ] || { echo "build first: mvn -B -pl hfr-agent-bytebuddy -am package -DskipTests" >&2; exit 1; }
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "needs GNU time (/usr/bin/time)" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'kill "$SERVER_PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT
printf 'Premain-Class: dev.hfr.agent.bench.NoOpAgent\nCan-Retransform-Classes: true\n' > "$WORK/manifest"
jar cfm "$WORK/noop.jar" "$WORK/manifest" -C "$CP" dev/hfr/agent/bench/NoOpAgent.class
printf 'Premain-Class: dev.hfr.agent.bench.EmptyAgent\n' > "$WORK/empty-manifest"
jar cfm "$WORK/empty.jar" "$WORK/empty-manifest" -C "$CP" dev/hfr/agent/bench/EmptyAgent.class

"$JAVA" -cp "$CP" dev.hfr.agent.bench.LoopbackServer > "$WORK/url" &
SERVER_PID=$!
for _ in $(seq 100); do [ -s "$WORK/url" ] && break; sleep 0.1; done
URL=$(cat "$WORK/url")
PROBE_ARGS=("$URL")
[ -z "${EMPTY:-}" ] || PROBE_ARGS=()

agent_args() {
  case "$1" in
    none) ;;
    noop) echo "-javaagent:$WORK/noop.jar" ;;
    empty) echo "-javaagent:$WORK/empty.jar" ;;
    agent) echo "-javaagent:target/hfr-agent.jar" ;;
    before) echo "-javaagent:${BEFORE_JAR:?set BEFORE_JAR to the other agent jar}" ;;
    agent-idle) echo "-javaagent:target/hfr-agent.jar=instrument.jdk-httpclient=false,instrument.http-url-connection=false,instrument.okhttp=false,instrument.apache-httpclient5=false" ;;
    jar:*) echo "-javaagent:${1#jar:}" ;;
    opt:*) echo "${1#opt:}" ;;
    *) echo "unknown variant $1" >&2; exit 1 ;;
  esac
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)   $("$JAVA" -version 2>&1 | head -1)   ${PROBE_ARGS[*]:-empty main}"
COUNT=${#VARIANTS[@]}
for run in $(seq "$RUNS"); do
  for i in $(seq 0 $((COUNT - 1))); do
    v=${VARIANTS[$(( (i + run - 1) % COUNT ))]}
    # shellcheck disable=SC2046
    "$TIME" -o "$WORK/t" -f "%e %U %S" "$JAVA" $(agent_args "$v") -cp "$CP" dev.hfr.agent.bench.StartupProbe "${PROBE_ARGS[@]}" > /dev/null 2> "$WORK/err" \
      || { cat "$WORK/err" >&2; exit 1; }
    read -r wall user sys < "$WORK/t"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%d", (u + s) * 1000 }')
    echo "$run $v cpu_ms=$cpu wall_s=$wall"
    echo "$v $cpu $wall $run" >> "$WORK/all"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -n | awk '{ x[NR] = $1 } END { printf "%s", (NR % 2) ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2 }'; }
for v in "${VARIANTS[@]}"; do
  cpus=$(awk -v v="$v" '$1 == v { print $2 }' "$WORK/all")
  walls=$(awk -v v="$v" '$1 == v { print $3 }' "$WORK/all")
  mean=$(echo "$cpus" | awk '{ s += $1 } END { printf "%d", s / NR }')
  printf "%-10s runs=%d cpu_median_ms=%s cpu_mean_ms=%s wall_median_s=%s   cpu_ms: %s\n" "$v" "$(echo "$cpus" | wc -l)" \
    "$(echo "$cpus" | median)" "$mean" "$(echo "$walls" | median)" "$(echo $cpus)"
done
if awk '$1 == "none" { found = 1 } END { exit !found }' "$WORK/all"; then
  none_median=$(awk '$1 == "none" { print $2 }' "$WORK/all" | median)
  none_mean=$(awk '$1 == "none" { s += $2; n++ } END { printf "%.1f", s / n }' "$WORK/all")
  for v in "${VARIANTS[@]}"; do
    [ "$v" != none ] || continue
    median_v=$(awk -v v="$v" '$1 == v { print $2 }' "$WORK/all" | median)
    mean_v=$(awk -v v="$v" '$1 == v { s += $2; n++ } END { printf "%.1f", s / n }' "$WORK/all")
    paired=$(awk -v v="$v" '$1 == "none" { none[$4] = $2 } $1 == v { cpu[$4] = $2 } END { for (r in cpu) if (r in none) print cpu[r] - none[r] }' "$WORK/all" | median)
    printf "%-10s adds to none: median %+d ms, mean %+d ms, paired (median of run-by-run differences) %+d ms\n" "$v" \
      "$(awk -v a="$median_v" -v b="$none_median" 'BEGIN { printf "%d", a - b }')" \
      "$(awk -v a="$mean_v" -v b="$none_mean" 'BEGIN { printf "%d", a - b }')" "$(awk -v p="$paired" 'BEGIN { printf "%d", p }')"
  done
fi
