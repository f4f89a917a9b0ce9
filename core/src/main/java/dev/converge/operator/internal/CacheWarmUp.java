package dev.converge.operator.internal;

import dev.converge.schema.ApiKind;
import dev.converge.schema.ResourceSchemas;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the first reconcile would otherwise wait for, done while the caches sync, on a daemon
 * thread: Jackson's serializers and deserializers of the cached kinds (the first reconcile converts
 * objects between classes and trees, and building them on a cold JVM takes longer than the
 * reconcile itself), and the OpenAPI schemas of the built-in kinds strategies will write. Custom
 * resources are left to their first apply: their schema may not be published yet.
 */
public final class CacheWarmUp {

  private static final Logger log = LoggerFactory.getLogger(CacheWarmUp.class);

  private CacheWarmUp() {}

  /** Starts warming up for {@code kinds}, the classes the operator's caches hold whole. */
  public static void start(
      String operatorName, KubernetesClient client, Collection<Class<?>> kinds) {
    List<ApiKind> builtIn =
        kinds.stream()
            .filter(type -> HasMetadata.class.isAssignableFrom(type))
            .filter(type -> !CustomResource.class.isAssignableFrom(type))
            .map(
                type -> {
                  @SuppressWarnings("unchecked")
                  Class<? extends HasMetadata> kind = (Class<? extends HasMetadata>) type;
                  return new ApiKind(HasMetadata.getApiVersion(kind), HasMetadata.getKind(kind));
                })
            .toList();
    if (builtIn.isEmpty()) {
      return;
    }
    List<Class<?>> types = List.copyOf(kinds);
    Thread warmUp =
        new Thread(
            () -> {
              serialization(operatorName, client, types);
              ResourceSchemas schemas = ResourceSchemas.of(client);
              for (ApiKind kind : builtIn) {
                try {
                  schemas.forKind(kind);
                } catch (RuntimeException e) {
                  log.debug(
                      "operator {}: schema of {} not read ahead ({}); the first apply reads it",
                      operatorName,
                      kind,
                      e.toString());
                }
              }
            },
            "converge-" + operatorName + "-schemas");
    warmUp.setDaemon(true);
    warmUp.start();
  }

  private static void serialization(
      String operatorName, KubernetesClient client, List<Class<?>> kinds) {
    var serialization = client.getKubernetesSerialization();
    for (Class<?> type : kinds) {
      try {
        Object empty = type.getDeclaredConstructor().newInstance();
        Object tree = serialization.convertValue(empty, Map.class);
        serialization.convertValue(tree, type);
      } catch (ReflectiveOperationException | RuntimeException e) {
        log.debug("operator {}: no warm-up of {} ({})", operatorName, type.getName(), e.toString());
      }
    }
  }
}
