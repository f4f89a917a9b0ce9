#!/usr/bin/env bash
# Generates an operator project from the archetype just built, then builds it and runs its unit
# and integration tests against the Converge artifacts of this build, as a user would:
#
#   check-generated-project.sh <repository root> <converge version> <maven local repository>
#                              <archetype plugin version> offline=<true|false>
#
# The generated project resolves from a repository folder of its own under archetype/target:
# the Converge artifacts of this build are placed there (never in the shared local repository),
# and everything else is read from the caller's local repository as a file repository (Maven
# Central only for what is missing there, and not at all when the outer build runs offline).
set -euo pipefail

root=$(cd "$1" && pwd)
version=$2
user_repo=$3
archetype_plugin=$4
offline=${5:-offline=false}
offline=${offline#offline=}

# The BOM has no parent (so that importing it imports nothing else): its pins are written twice.
for property in fabric8.version jackson.version victools.version; do
  built_with=$(grep -o "<$property>[^<]*" "$root/pom.xml" | head -1)
  pinned=$(grep -o "<$property>[^<]*" "$root/bom/pom.xml" | head -1)
  if [[ "$built_with" != "$pinned" ]]; then
    echo "bom/pom.xml pins ${pinned#*>} for $property but the build uses ${built_with#*>}:" \
      "set the same version in bom/pom.xml" >&2
    exit 1
  fi
done
if ! grep -q "<converge.version>$version</converge.version>" "$root/bom/pom.xml" \
    || ! grep -q "<version>$version</version>" "$root/bom/pom.xml"; then
  echo "bom/pom.xml is not at version $version (its <version> and <converge.version>): set both" >&2
  exit 1
fi

work="$root/archetype/target/generated-project-check"
repo="$work/repository"
project="$work/database-operator"
rm -rf "$project" "$repo/dev/converge"
mkdir -p "$repo" "$work"

place() {  # place <artifactId> <pom file> [jar file]
  local dir="$repo/dev/converge/$1/$version"
  mkdir -p "$dir"
  cp "$2" "$dir/$1-$version.pom"
  if [[ $# -ge 3 ]]; then
    if [[ ! -f $3 ]]; then
      echo "missing $3: build the module first (mvn verify from the repository root)" >&2
      exit 1
    fi
    cp "$3" "$dir/$1-$version.jar"
  fi
}
place converge-parent "$root/pom.xml"
place converge-bom "$root/bom/pom.xml"
for module in strategy-spi core strategies-update strategies-patch strategies-ssa crd-gen testing testing-operator; do
  place "converge-$module" "$root/$module/pom.xml" "$root/$module/target/converge-$module-$version.jar"
done
place converge-operator-archetype "$root/archetype/pom.xml" \
  "$root/archetype/target/converge-operator-archetype-$version.jar"

cat > "$work/settings.xml" <<SETTINGS
<settings>
  <localRepository>$repo</localRepository>
  <profiles>
    <profile>
      <id>local-cache</id>
      <repositories>
        <repository>
          <id>local-cache</id>
          <url>file://$user_repo</url>
          <snapshots><enabled>false</enabled></snapshots>
        </repository>
      </repositories>
      <pluginRepositories>
        <pluginRepository>
          <id>local-cache</id>
          <url>file://$user_repo</url>
          <snapshots><enabled>false</enabled></snapshots>
        </pluginRepository>
      </pluginRepositories>
    </profile>
  </profiles>
  <activeProfiles><activeProfile>local-cache</activeProfile></activeProfiles>
</settings>
SETTINGS

mvn_args=(-B -ntp -s "$work/settings.xml")
if [[ $offline == true ]]; then
  mvn_args+=(-o -Daether.offline.protocols=file)
fi

start=$(date +%s%N)
(cd "$work" && mvn "${mvn_args[@]}" \
  "org.apache.maven.plugins:maven-archetype-plugin:$archetype_plugin:generate" \
  -DinteractiveMode=false -DarchetypeCatalog=local \
  -DarchetypeGroupId=dev.converge -DarchetypeArtifactId=converge-operator-archetype \
  -DarchetypeVersion="$version" \
  -DgroupId=com.example.databases -DartifactId=database-operator -Dversion=1.0.0-SNAPSHOT \
  -Dpackage=com.example.databases -Dkind=Database) > "$work/generate.log" 2>&1 \
  || { tail -50 "$work/generate.log"; echo "archetype:generate failed; log: $work/generate.log" >&2; exit 1; }
generated=$(date +%s%N)

# The kind given on the command line names every type, file and resource; nothing is left of the
# template's default.
sources="$project/src/main/java/com/example/databases"
for expected in "$sources/api/Database.java" "$sources/api/DatabaseSpec.java" \
    "$sources/api/DatabaseStatus.java" "$sources/controller/DatabaseReconciler.java" \
    "$sources/controller/DatabaseController.java" "$sources/DatabaseOperator.java" \
    "$project/samples/database.yaml" "$project/Dockerfile"; do
  if [[ ! -f $expected ]]; then
    echo "archetype:generate -Dkind=Database did not write $expected" >&2
    exit 1
  fi
done
if grep -rli widget "$project"; then
  echo "the files above still speak of Widget after archetype:generate -Dkind=Database" >&2
  exit 1
fi

(cd "$project" && mvn "${mvn_args[@]}" verify) > "$work/build.log" 2>&1 \
  || { tail -80 "$work/build.log"; echo "the generated project's build failed; log: $work/build.log" >&2; exit 1; }
done_at=$(date +%s%N)

grep -E "Tests run: .*, Failures: 0, Errors: 0" "$work/build.log" | grep -v " -- in " || true
for expected in DatabaseReconcilerTest DatabaseOperatorIT; do
  if ! grep -q "Tests run: .*-- in .*$expected" "$work/build.log"; then
    echo "the generated project's build did not run $expected; log: $work/build.log" >&2
    exit 1
  fi
done
for expected in "$project/target/deploy/databases.example.com.yaml" \
    "$project/target/deploy/20-clusterrole.yaml" "$project/target/database-operator-1.0.0-SNAPSHOT.jar"; do
  if [[ ! -f $expected ]]; then
    echo "the generated project's build did not write $expected; log: $work/build.log" >&2
    exit 1
  fi
done
if ! ls "$project"/target/lib/converge-core-*.jar > /dev/null 2>&1; then
  echo "the generated project's build did not copy its runtime dependencies to target/lib" \
    "(the Dockerfile's lib/); log: $work/build.log" >&2
  exit 1
fi
ms() { echo $(( ($1 - $2) / 1000000 )); }
printf 'generated project: archetype:generate %d ms, then mvn verify (unit + integration tests) %d ms;\n' \
  "$(ms "$generated" "$start")" "$(ms "$done_at" "$generated")"
awk -v ms="$(ms "$done_at" "$start")" \
  'BEGIN { printf "from archetype:generate to a green integration test: %.1f s\n", ms / 1000 }'
