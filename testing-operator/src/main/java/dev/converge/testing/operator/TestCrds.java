package dev.converge.testing.operator;

import dev.converge.crd.CrdGenerator;
import dev.converge.crd.CrdInstaller;
import dev.converge.crd.GeneratedCrd;
import dev.converge.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Installs CustomResourceDefinitions on a test cluster once per JVM: the first call applies them
 * (server-side apply, as cluster administrator) and waits until the API server serves them; later
 * calls with the same definitions on the same cluster send nothing. A definition whose text changed
 * is applied again.
 */
public final class TestCrds {

  /** How long a definition may take to become {@code Established}. */
  public static final Duration ESTABLISH_TIMEOUT = Duration.ofSeconds(30);

  private static final Set<String> INSTALLED = ConcurrentHashMap.newKeySet();

  private TestCrds() {}

  /**
   * Installs the CRDs generated from annotated custom resource classes (as the build's crd-gen step
   * does).
   *
   * @param cluster the cluster to install them on
   * @param resourceClasses the custom resource classes
   * @throws dev.converge.crd.CrdGenerationException when the API server rejects a definition or
   *     does not establish it within {@link #ESTABLISH_TIMEOUT}
   */
  public static void installOnce(LocalCluster cluster, Class<?>... resourceClasses) {
    install(cluster, CrdGenerator.generate(resourceClasses));
  }

  /**
   * Installs the CRDs in YAML files, one definition per file (for CRDs you did not generate).
   *
   * @param cluster the cluster to install them on
   * @param files the YAML files, each holding one apiextensions.k8s.io/v1 CustomResourceDefinition
   * @throws java.io.UncheckedIOException when a file cannot be read
   * @throws IllegalArgumentException when a file holds anything but one CustomResourceDefinition
   * @throws dev.converge.crd.CrdGenerationException when the API server rejects a definition or
   *     does not establish it within {@link #ESTABLISH_TIMEOUT}
   */
  public static void installOnce(LocalCluster cluster, Path... files) {
    List<GeneratedCrd> crds = new ArrayList<>();
    try (KubernetesClient admin = cluster.newClient()) {
      for (Path file : files) {
        String yaml;
        try {
          yaml = Files.readString(file);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read CRD file " + file.toAbsolutePath(), e);
        }
        Object parsed = admin.getKubernetesSerialization().unmarshal(yaml);
        if (!(parsed instanceof CustomResourceDefinition crd)) {
          throw new IllegalArgumentException(
              file.toAbsolutePath()
                  + " holds "
                  + (parsed == null ? "nothing" : parsed.getClass().getSimpleName())
                  + ", not one apiextensions.k8s.io/v1 CustomResourceDefinition; give one CRD per file");
        }
        crds.add(new GeneratedCrd(crd.getMetadata().getName(), crd, yaml));
      }
    }
    install(cluster, crds);
  }

  private static void install(LocalCluster cluster, List<GeneratedCrd> crds) {
    String server = cluster.config().getMasterUrl();
    List<GeneratedCrd> missing =
        crds.stream().filter(crd -> !INSTALLED.contains(key(server, crd))).toList();
    if (missing.isEmpty()) {
      return;
    }
    try (KubernetesClient admin = cluster.newClient()) {
      CrdInstaller.install(admin, missing, ESTABLISH_TIMEOUT);
    }
    missing.forEach(crd -> INSTALLED.add(key(server, crd)));
  }

  private static String key(String server, GeneratedCrd crd) {
    return server + " " + crd.name() + " " + crd.yaml().hashCode();
  }
}
