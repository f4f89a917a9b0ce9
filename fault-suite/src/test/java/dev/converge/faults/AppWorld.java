package dev.converge.faults;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.example.desired.AppLabels;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The AppDeployments of one namespace and what a user asked of them: churns them (creates, spec
 * changes, ConfigMap changes, deletes) and checks the cluster against the last request.
 */
final class AppWorld {

  /** What the cluster looks like against what was asked. Every count must be 0 when converged. */
  record Check(
      int apps,
      int notConverged,
      int missingChildren,
      int duplicatedChildren,
      int orphanedChildren,
      int leftoverFinalizers,
      List<String> examples) {
    boolean converged() {
      return notConverged == 0
          && missingChildren == 0
          && duplicatedChildren == 0
          && orphanedChildren == 0
          && leftoverFinalizers == 0;
    }
  }

  private final KubernetesClient admin;
  private final String namespace;
  private final Random random;
  private final int minReplicas;
  private final Set<String> live = new TreeSet<>();
  private final AtomicInteger next = new AtomicInteger();
  private final AtomicInteger churned = new AtomicInteger();

  AppWorld(KubernetesClient admin, String namespace, long seed) {
    this(admin, namespace, seed, 1);
  }

  /**
   * A world whose AppDeployments ask for {@code minReplicas} or one more pods (0 keeps thousands of
   * AppDeployments light: their Deployments still change, no pod is made).
   */
  AppWorld(KubernetesClient admin, String namespace, long seed, int minReplicas) {
    this.minReplicas = minReplicas;
    this.admin = admin;
    this.namespace = namespace;
    this.random = new Random(seed);
  }

  /** Creates {@code count} AppDeployments, each with a ConfigMap of its own. */
  synchronized void create(int count) {
    for (int i = 0; i < count; i++) {
      String name = "app-" + next.getAndIncrement();
      retrying(() -> admin.resource(configMap(name, "hello")).createOr(c -> c.update()));
      AppDeploymentSpec spec =
          new AppDeploymentSpec(
              "registry.example.com/app:1." + random.nextInt(5),
              minReplicas + random.nextInt(2),
              name + "-config",
              8080);
      retrying(() -> admin.resource(AppDeployment.of(namespace, name, spec)).create());
      live.add(name);
      churned.incrementAndGet();
    }
  }

  /**
   * One round of churn over {@code count} random apps: a spec change, a ConfigMap change, a delete
   * and a create, in turns.
   */
  synchronized void churn(int count) {
    for (int i = 0; i < count; i++) {
      List<String> names = new ArrayList<>(live);
      if (names.isEmpty()) {
        create(1);
        continue;
      }
      String name = names.get(random.nextInt(names.size()));
      switch (i % 4) {
        case 0 ->
            retrying(
                () ->
                    admin
                        .resources(AppDeployment.class)
                        .inNamespace(namespace)
                        .withName(name)
                        .edit(
                            app -> {
                              AppDeploymentSpec old = app.getSpec();
                              app.setSpec(
                                  new AppDeploymentSpec(
                                      "registry.example.com/app:2." + random.nextInt(1000),
                                      minReplicas + random.nextInt(2),
                                      old.configMapName(),
                                      old.port()));
                              return app;
                            }));
        case 1 ->
            retrying(
                () ->
                    admin
                        .resource(configMap(name, "v" + random.nextInt(100000)))
                        .createOr(c -> c.update()));
        case 2 -> {
          retrying(
              () ->
                  admin
                      .resources(AppDeployment.class)
                      .inNamespace(namespace)
                      .withName(name)
                      .delete());
          retrying(
              () -> admin.configMaps().inNamespace(namespace).withName(name + "-config").delete());
          live.remove(name);
        }
        default -> {
          create(1);
          continue;
        }
      }
      churned.incrementAndGet();
    }
  }

  /** The AppDeployments that should exist now (created and not deleted). */
  synchronized Set<String> live() {
    return new TreeSet<>(live);
  }

  /** Gives the AppDeployment {@code name} a new image and pod count, as a user's edit would. */
  synchronized void edit(String name) {
    retrying(
        () ->
            admin
                .resources(AppDeployment.class)
                .inNamespace(namespace)
                .withName(name)
                .edit(
                    app -> {
                      AppDeploymentSpec old = app.getSpec();
                      app.setSpec(
                          new AppDeploymentSpec(
                              "registry.example.com/app:3." + random.nextInt(1000),
                              minReplicas + random.nextInt(2),
                              old.configMapName(),
                              old.port()));
                      return app;
                    }));
    churned.incrementAndGet();
  }

  /** Objects created, changed or deleted so far. */
  int churned() {
    return churned.get();
  }

  private ConfigMap configMap(String app, String greeting) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(app + "-config")
        .withNamespace(namespace)
        .endMetadata()
        .addToData("GREETING", greeting)
        .build();
  }

  /** Compares the cluster with what was asked. */
  Check check() {
    List<AppDeployment> apps =
        admin.resources(AppDeployment.class).inNamespace(namespace).list().getItems();
    Map<String, ConfigMap> configs =
        byName(admin.configMaps().inNamespace(namespace).list().getItems());
    List<Deployment> deployments =
        admin.apps().deployments().inNamespace(namespace).list().getItems();
    List<Service> services = admin.services().inNamespace(namespace).list().getItems();
    Set<String> appUids =
        apps.stream().map(a -> a.getMetadata().getUid()).collect(Collectors.toSet());
    List<String> examples = new ArrayList<>();
    int notConverged = 0;
    int missing = 0;
    int finalizers = 0;
    Set<String> expected;
    synchronized (this) {
      expected = new TreeSet<>(live);
    }
    Map<String, AppDeployment> appsByName = byName(apps);
    for (String name : expected) {
      AppDeployment app = appsByName.get(name);
      if (app == null) {
        notConverged++;
        example(examples, "AppDeployment " + name + " is missing");
        continue;
      }
      Optional<Deployment> deployment = owned(deployments, app);
      Optional<Service> service = owned(services, app);
      if (deployment.isEmpty() || service.isEmpty()) {
        missing++;
        example(
            examples,
            "AppDeployment "
                + name
                + ": Deployment "
                + deployment.isPresent()
                + ", Service "
                + service.isPresent());
        continue;
      }
      String problem = differences(app, deployment.get(), configs.get(name + "-config"));
      if (problem != null) {
        notConverged++;
        example(examples, "AppDeployment " + name + ": " + problem);
      }
    }
    for (AppDeployment app : apps) {
      if (!expected.contains(app.getMetadata().getName())) {
        if (app.getMetadata().getDeletionTimestamp() != null
            && !app.getMetadata().getFinalizers().isEmpty()) {
          finalizers++;
          example(
              examples,
              "AppDeployment "
                  + app.getMetadata().getName()
                  + " keeps finalizers "
                  + app.getMetadata().getFinalizers());
        } else {
          notConverged++;
          example(examples, "AppDeployment " + app.getMetadata().getName() + " should be gone");
        }
      }
    }
    int orphaned = 0;
    int duplicated = 0;
    for (List<? extends HasMetadata> children : List.of(deployments, services)) {
      Map<String, Long> perOwner = new HashMap<>();
      for (HasMetadata child : children) {
        Optional<OwnerReference> owner = controller(child);
        if (owner.isEmpty() || !appUids.contains(owner.get().getUid())) {
          orphaned++;
          example(
              examples,
              child.getKind() + " " + child.getMetadata().getName() + " has no live owner");
        } else {
          perOwner.merge(owner.get().getUid(), 1L, Long::sum);
        }
      }
      for (long n : perOwner.values()) {
        if (n > 1) {
          duplicated += (int) n - 1;
        }
      }
    }
    return new Check(
        expected.size(), notConverged, missing, duplicated, orphaned, finalizers, examples);
  }

  private static String differences(AppDeployment app, Deployment deployment, ConfigMap config) {
    var spec = app.getSpec();
    var podSpec = deployment.getSpec().getTemplate().getSpec();
    if (!Objects.equals(deployment.getSpec().getReplicas(), spec.replicasOrDefault())) {
      return "replicas "
          + deployment.getSpec().getReplicas()
          + ", want "
          + spec.replicasOrDefault();
    }
    if (!Objects.equals(podSpec.getContainers().get(0).getImage(), spec.image())) {
      return "image " + podSpec.getContainers().get(0).getImage() + ", want " + spec.image();
    }
    String hash =
        deployment.getSpec().getTemplate().getMetadata().getAnnotations() == null
            ? null
            : deployment
                .getSpec()
                .getTemplate()
                .getMetadata()
                .getAnnotations()
                .get(AppLabels.CONFIG_HASH_ANNOTATION);
    String want = config == null ? null : expectedHash(config.getData(), config.getBinaryData());
    if (!Objects.equals(hash, want)) {
      return "config hash " + hash + ", want " + want;
    }
    Long observed = app.getStatus() == null ? null : app.getStatus().observedGeneration();
    if (!Objects.equals(observed, app.getMetadata().getGeneration())) {
      return "status.observedGeneration "
          + observed
          + ", generation "
          + app.getMetadata().getGeneration();
    }
    return null;
  }

  /**
   * The config hash a pod template must carry, computed here from the definition the operator
   * documents (not with its code): SHA-256 over {@code 'd'}, the number of {@code data} entries as
   * a big-endian int32 and, in key order, each key and value as a big-endian int32 length and its
   * UTF-8 bytes; then {@code 'b'} and the same for {@code binaryData}, values base64-decoded; the
   * first 16 hex digits.
   */
  static String expectedHash(Map<String, String> data, Map<String, String> binaryData) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      for (char section : new char[] {'d', 'b'}) {
        Map<String, String> given = section == 'd' ? data : binaryData;
        Map<String, String> entries = given == null ? new TreeMap<>() : new TreeMap<>(given);
        out.writeByte(section);
        out.writeInt(entries.size());
        for (Map.Entry<String, String> e : entries.entrySet()) {
          byte[] key = e.getKey().getBytes(StandardCharsets.UTF_8);
          byte[] value =
              section == 'd'
                  ? e.getValue().getBytes(StandardCharsets.UTF_8)
                  : Base64.getDecoder().decode(e.getValue());
          out.writeInt(key.length);
          out.write(key);
          out.writeInt(value.length);
          out.write(value);
        }
      }
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray()))
          .substring(0, 16);
    } catch (IOException | NoSuchAlgorithmException e) {
      throw new IllegalStateException("cannot hash in memory", e);
    }
  }

  private static <T extends HasMetadata> Optional<T> owned(List<T> children, AppDeployment app) {
    return children.stream()
        .filter(
            c ->
                controller(c).map(o -> o.getUid().equals(app.getMetadata().getUid())).orElse(false))
        .findFirst();
  }

  private static Optional<OwnerReference> controller(HasMetadata child) {
    return child.getMetadata().getOwnerReferences().stream()
        .filter(o -> Boolean.TRUE.equals(o.getController()))
        .findFirst();
  }

  private static <T extends HasMetadata> Map<String, T> byName(List<T> items) {
    return items.stream()
        .collect(
            Collectors.toMap(i -> i.getMetadata().getName(), Function.identity(), (a, b) -> a));
  }

  private static void example(List<String> examples, String text) {
    if (examples.size() < 5) {
      examples.add(text);
    }
  }

  /** The admin's own requests may meet the same faults (a restarting API server): retried. */
  private static void retrying(Runnable request) {
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofMinutes(2))
        // the first attempt at once: Awaitility otherwise waits one poll interval before it
        .pollDelay(java.time.Duration.ZERO)
        .pollInterval(java.time.Duration.ofMillis(100))
        .ignoreExceptionsInstanceOf(KubernetesClientException.class)
        .until(
            () -> {
              try {
                request.run();
              } catch (KubernetesClientException e) {
                if (e.getCode() != 404 && e.getCode() != 409) {
                  throw e;
                }
                // already gone, or already there
              }
              return true;
            });
  }
}
