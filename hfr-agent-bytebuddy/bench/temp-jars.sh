#!/usr/bin/env bash
# What looking for the jars of gone JVMs costs a JVM that writes the copy of the nested libraries jar
# (prometheus.port; docs/AGENT.md, "Temporary files"). A benchmark, not a test: run it at normal priority.
#
#   mvn -B -pl hfr-agent-bytebuddy -am package -DskipTests
#   hfr-agent-bytebuddy/bench/temp-jars.sh [RUNS] [FOLDER]
#
# RUNS JVMs (default 5), each with a temporary folder of its own filled as FOLDER says, running StartupProbe (an
# empty main) with the agent (JAR, default target/hfr-agent.jar) and -Dhfr.agent.debug=true; prints the agent's
# "removed N jar(s) ... in X ms" and "opened META-INF/hfr-agent/libraries.jar ... in X ms" lines. FOLDER:
#   empty       nothing
#   N           N unrelated files (e.g. 300, 3000)
#   live        300 unrelated files, 20 directories, 5 jars named after a live pid (1)     (the default)
#   dead        the same and 20 copies of 1.1 MB named after a pid no process has
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
FOLDER=${2:-live}
JAR=${JAR:-target/hfr-agent.jar}
JAVA=${JAVA:-java}
[ -f "$JAR" ] || { echo "build first: mvn -B -pl hfr-agent-bytebuddy -am package -DskipTests" >&2; exit 1; }
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)   $JAR   folder $FOLDER"
for _ in $(seq "$RUNS"); do
  T=$(mktemp -d)
  case "$FOLDER" in
    empty) ;;
    live|dead)
      for n in $(seq 300); do echo x > "$T/unrelated-$n.tmp"; done
      for n in $(seq 20); do mkdir "$T/dir-$n"; done
      for n in $(seq 5); do echo x > "$T/hfr-agent-libraries-1-$n.jar"; done
      if [ "$FOLDER" = dead ]; then
        for n in $(seq 20); do head -c 1100000 /dev/zero > "$T/hfr-agent-libraries-4000000-$n.jar"; done
      fi ;;
    *) for n in $(seq "$FOLDER"); do echo x > "$T/unrelated-$n.tmp"; done ;;
  esac
  "$JAVA" -Djava.io.tmpdir="$T" -Dhfr.agent.debug=true -javaagent:"$JAR"=prometheus.port=0,summary.interval=0s \
    -cp target/test-classes dev.hfr.agent.bench.StartupProbe 2>&1 >/dev/null \
    | grep -E "opened META-INF/hfr-agent/libraries|removed [0-9]" | sed 's/^\[hfr-agent\] debug: //' | tr '\n' ' '
  echo
  rm -rf "$T"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
