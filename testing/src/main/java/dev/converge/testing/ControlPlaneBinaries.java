package dev.converge.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the control-plane binaries are.
 *
 * <p>Each binary is looked up, in order, in {@code $KUBEBUILDER_ASSETS} (envtest's convention: a
 * folder with ready {@code etcd}, {@code kube-apiserver}, {@code kubectl}), in {@code
 * $CONVERGE_CONTROLPLANE_BIN}, and in the cache folder that {@code controlplane/build.sh} fills
 * ({@code ${CONVERGE_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/converge}/controlplane/bin}). A missing
 * binary is an error that says which command builds it; nothing is skipped silently.
 *
 * @param etcd etcd server
 * @param kubeApiserver kube-apiserver
 * @param kubeControllerManager kube-controller-manager
 * @param kubeScheduler kube-scheduler
 * @param kubectl kubectl
 * @param kwok kwok controller (fake nodes and pods)
 * @param kwokStages folder of kwok Stage YAML files
 */
public record ControlPlaneBinaries(
    Path etcd,
    Path kubeApiserver,
    Path kubeControllerManager,
    Path kubeScheduler,
    Path kubectl,
    Path kwok,
    Path kwokStages) {

  /** The command that builds every binary into the default cache folder. */
  public static final String BUILD_COMMAND = "bash controlplane/build.sh";

  /**
   * Finds every binary, or fails naming what is missing, where it looked, and how to build it.
   *
   * @return the binaries found
   */
  public static ControlPlaneBinaries locate() {
    List<Path> folders = searchFolders();
    Map<String, Path> found = new LinkedHashMap<>();
    List<String> missing = new ArrayList<>();
    for (String name :
        List.of(
            "etcd",
            "kube-apiserver",
            "kube-controller-manager",
            "kube-scheduler",
            "kubectl",
            "kwok",
            "stages")) {
      Optional<Path> path =
          folders.stream()
              .map(folder -> folder.resolve(name))
              .filter(p -> name.equals("stages") ? Files.isDirectory(p) : Files.isExecutable(p))
              .findFirst();
      path.ifPresentOrElse(p -> found.put(name, p), () -> missing.add(name));
    }
    if (!missing.isEmpty()) {
      throw new IllegalStateException(
          "Local control plane binaries missing: "
              + String.join(", ", missing)
              + " (looked in "
              + folders
              + "). Build them once with `"
              + BUILD_COMMAND
              + "` from the repository root (Go 1.26+, a cold build takes about half an hour),"
              + " or point KUBEBUILDER_ASSETS / CONVERGE_CONTROLPLANE_BIN at a folder that has them,"
              + " or set USE_EXISTING_CLUSTER=true to use the cluster of your kubeconfig.");
    }
    return new ControlPlaneBinaries(
        found.get("etcd"),
        found.get("kube-apiserver"),
        found.get("kube-controller-manager"),
        found.get("kube-scheduler"),
        found.get("kubectl"),
        found.get("kwok"),
        found.get("stages"));
  }

  /** {@return the folders searched, in order} */
  public static List<Path> searchFolders() {
    List<Path> folders = new ArrayList<>();
    env("KUBEBUILDER_ASSETS").map(Path::of).ifPresent(folders::add);
    env("CONVERGE_CONTROLPLANE_BIN").map(Path::of).ifPresent(folders::add);
    folders.add(defaultCacheFolder());
    return folders;
  }

  /**
   * {@return the folder {@code controlplane/build.sh} writes to}, computed the same way the script
   * does
   */
  public static Path defaultCacheFolder() {
    Path cache =
        env("CONVERGE_CACHE_DIR")
            .map(Path::of)
            .orElseGet(
                () ->
                    env("XDG_CACHE_HOME")
                        .map(Path::of)
                        .orElseGet(() -> Path.of(System.getProperty("user.home"), ".cache"))
                        .resolve("converge"));
    return cache.resolve("controlplane").resolve("bin");
  }

  private static Optional<String> env(String name) {
    return Optional.ofNullable(System.getenv(name)).filter(v -> !v.isBlank());
  }
}
