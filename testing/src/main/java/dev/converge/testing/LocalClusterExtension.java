package dev.converge.testing;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tests against one real local cluster per test run, with a namespace of their own.
 *
 * <p>Parameters it resolves: {@link LocalCluster} (shared; started on first use, stopped when the
 * run ends), {@link TestNamespace} and {@link KubernetesClient} (an administrator client whose
 * default namespace is the test's namespace). Asked for by a test method, the namespace belongs to
 * that method; asked for by a constructor or {@code @BeforeAll}, to the test class, and then every
 * test method of the class shares it (JUnit's stores fall back to the enclosing context). The
 * namespace is deleted and the client closed when its owner finishes.
 */
public final class LocalClusterExtension implements ParameterResolver {

  private static final Logger log = LoggerFactory.getLogger(LocalClusterExtension.class);
  private static final ExtensionContext.Namespace STORE =
      ExtensionContext.Namespace.create(LocalClusterExtension.class);

  /**
   * Public because JUnit creates the extension itself, from
   * {@code @ExtendWith(LocalClusterExtension.class)}; tests never call it.
   */
  public LocalClusterExtension() {}

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == LocalCluster.class
        || type == TestNamespace.class
        || type == KubernetesClient.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    LocalCluster cluster = cluster(context);
    if (type == LocalCluster.class) {
      return cluster;
    }
    NamespaceLease lease =
        context
            .getStore(STORE)
            .getOrComputeIfAbsent(
                NamespaceLease.class,
                k -> NamespaceLease.create(cluster, context),
                NamespaceLease.class);
    return type == TestNamespace.class ? lease.namespace() : lease.client();
  }

  /**
   * {@return the cluster shared by the whole run}, started on first use
   *
   * @param context any extension context of the run
   */
  public static LocalCluster cluster(ExtensionContext context) {
    return context
        .getRoot()
        .getStore(STORE)
        .getOrComputeIfAbsent(SharedCluster.class, k -> SharedCluster.start(), SharedCluster.class)
        .get();
  }

  /**
   * The run's cluster, or why it could not start: a cluster that failed once fails every later test
   * at once with the same cause, instead of being started again for each of them.
   */
  private record SharedCluster(LocalCluster cluster, RuntimeException failure)
      implements AutoCloseable {
    static SharedCluster start() {
      try {
        LocalCluster started = LocalCluster.start();
        log.info("shared local cluster started in {} ms", started.startupTime().toMillis());
        return new SharedCluster(started, null);
      } catch (RuntimeException e) {
        return new SharedCluster(null, e);
      }
    }

    LocalCluster get() {
      if (failure != null) {
        throw new IllegalStateException(
            "the local cluster could not start: " + failure.getMessage(), failure);
      }
      return cluster;
    }

    @Override
    public void close() {
      if (cluster != null) {
        cluster.close();
      }
    }
  }

  /** A namespace and a client bound to it, removed together. */
  private record NamespaceLease(TestNamespace namespace, KubernetesClient client)
      implements AutoCloseable {

    static NamespaceLease create(LocalCluster cluster, ExtensionContext context) {
      String name = namespaceName(context);
      KubernetesClient client =
          new KubernetesClientBuilder()
              .withConfig(new ConfigBuilder(cluster.config()).withNamespace(name).build())
              .build();
      try {
        client
            .namespaces()
            .resource(
                new NamespaceBuilder()
                    .withNewMetadata()
                    .withName(name)
                    .addToLabels("converge.dev/test", "true")
                    .endMetadata()
                    .build())
            .create();
      } catch (RuntimeException e) {
        client.close();
        throw new ParameterResolutionException("cannot create test namespace " + name, e);
      }
      return new NamespaceLease(new TestNamespace(name), client);
    }

    @Override
    public void close() {
      try {
        client.namespaces().withName(namespace.name()).delete();
      } catch (KubernetesClientException e) {
        log.warn("could not delete test namespace {}: {}", namespace.name(), e.getMessage());
      } finally {
        client.close();
      }
    }
  }

  static String namespaceName(ExtensionContext context) {
    String owner =
        context.getTestClass().map(Class::getSimpleName).orElse("test")
            + context.getTestMethod().map(m -> "-" + m.getName()).orElse("");
    String slug = owner.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    slug = slug.replaceAll("[^a-z0-9-]", "-").replaceAll("-+", "-").replaceAll("^-|-$", "");
    String suffix = Integer.toString(ThreadLocalRandom.current().nextInt(36 * 36 * 36 * 36), 36);
    int room = 63 - suffix.length() - 1;
    if (slug.length() > room) {
      slug = slug.substring(0, room).replaceAll("-$", "");
    }
    return slug + "-" + suffix;
  }
}
