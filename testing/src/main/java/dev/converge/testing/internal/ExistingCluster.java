package dev.converge.testing.internal;

import dev.converge.testing.LocalCluster;
import io.fabric8.kubernetes.client.Config;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The cluster of the current kubeconfig, used when {@code USE_EXISTING_CLUSTER=true}. Nothing is
 * started or stopped; tests still get a namespace of their own.
 */
public final class ExistingCluster implements LocalCluster {
  private final Config config;
  private final Path kubeconfig;

  private ExistingCluster(Config config, Path kubeconfig) {
    this.config = config;
    this.kubeconfig = kubeconfig;
  }

  /** Reads {@code $KUBECONFIG} (first entry) or {@code ~/.kube/config}. */
  public static ExistingCluster fromKubeconfig() {
    Path path =
        Optional.ofNullable(System.getenv("KUBECONFIG"))
            .filter(v -> !v.isBlank())
            .map(v -> Path.of(v.split(java.io.File.pathSeparator, 2)[0]))
            .orElseGet(() -> Path.of(System.getProperty("user.home"), ".kube", "config"));
    return new ExistingCluster(Config.autoConfigure(null), path);
  }

  @Override
  public Config config() {
    return config;
  }

  @Override
  public Path kubeconfig() {
    return kubeconfig;
  }

  @Override
  public Duration startupTime() {
    return Duration.ZERO;
  }

  @Override
  public void close() {
    // not ours to stop
  }
}
