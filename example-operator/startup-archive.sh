#!/bin/sh
# Writes a class-data-sharing archive of the classes the operator's start loads. A JVM started with
# -XX:SharedArchiveFile=ARCHIVE maps them instead of reading, verifying and linking each one: about
# a third less time and CPU from start to caches synced on two CPUs.
#
#   startup-archive.sh ARCHIVE OPTIONS_FILE CLASS_PATH MAIN_CLASS [ARGUMENT...]
#
# The training start needs no API server. It is pointed at a closed local port, loads what a start
# loads up to its first failed requests, and is stopped after TRAINING_SECONDS (default 15); its
# JVM then writes the archive (-XX:ArchiveClassesAtExit). An archive holds for the JDK and the
# class path it was written with, so write it where the operator runs (the image does) and start
# with the same options file and class path. A JVM that cannot map it starts without it.
set -eu
if [ $# -lt 4 ]; then
  echo "usage: startup-archive.sh ARCHIVE OPTIONS_FILE CLASS_PATH MAIN_CLASS [ARGUMENT...]" >&2
  exit 2
fi
archive=$1
options=$2
classpath=$3
main=$4
shift 4
rm -f "$archive"
status=0
timeout -s TERM "${TRAINING_SECONDS:-15}" java "@$options" \
  "-XX:ArchiveClassesAtExit=$archive" \
  -Dkubernetes.master=https://127.0.0.1:1 \
  -Dkubernetes.auth.tryKubeConfig=false \
  -Dkubernetes.auth.tryServiceAccount=false \
  -cp "$classpath" "$main" "$@" >/dev/null 2>&1 || status=$?
if [ ! -s "$archive" ]; then
  echo "startup-archive: the training start (exit $status) wrote no archive at $archive" >&2
  exit 1
fi
echo "startup-archive: wrote $archive"
