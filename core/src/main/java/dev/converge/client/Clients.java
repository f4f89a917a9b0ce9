package dev.converge.client;

import dev.converge.client.internal.CipherPreference;
import dev.converge.client.internal.PreferringOkHttpClientFactory;
import dev.converge.schema.Json;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.json.JsonMapper;

/**
 * fabric8 clients that cost an operator less CPU: OkHttp for HTTP, Jackson's Blackbird module for
 * JSON.
 *
 * <p>fabric8 picks its HTTP client from the classpath, at random among those of equal priority, and
 * its default is Vert.x. Converge asks for fabric8's OkHttp client by name. Measured on the
 * AppDeployment operator converging 1,000 objects on a 2-core machine, the same code spent 15.6 s
 * of CPU with the JDK's HTTP client, 15.6 s with Vert.x and 10.5 to 11.1 s with OkHttp, and
 * converged in 27 to 29 s instead of 36 to 38 s. On a JVM limited to the client compiler, the
 * client offers ChaCha20-Poly1305 first (see the core README).
 *
 * <p>JSON goes through {@link Json#serialization()} (Jackson's Blackbird module and direct
 * any-setters), the mapping Converge's strategies use too.
 *
 * <p>The object in each watch event is read in one pass, straight into its class, where fabric8
 * would build a tree of it first and then convert the tree; the objects are the same.
 *
 * <pre>{@code
 * KubernetesClient client = Clients.create(Config.autoConfigure(null));
 * }</pre>
 */
public final class Clients {

  private Clients() {}

  /**
   * The system property that, set to {@code false}, leaves Blackbird and the direct any-setters
   * out: fabric8's own serialization, should a model class of yours need it. The same as {@link
   * Json#BLACKBIRD}.
   */
  public static final String BLACKBIRD = Json.BLACKBIRD;

  /**
   * A new fabric8 serialization (the client's JSON and YAML, its registry of custom resource
   * classes): {@link Json#serialization()}, with watch events read in one pass.
   *
   * @return a new serialization on each call, so that one client's registry of custom resource
   *     classes is not another's
   */
  public static KubernetesSerialization serialization() {
    return Json.serialization(
        JsonMapper.builder().addMixIn(WatchEvent.class, WatchEventReading.class).build());
  }

  /**
   * A client builder using {@link #serialization()} and fabric8's OkHttp client, offering TLS
   * cipher suites in the order {@code converge.tls.cipher-preference} gives (ChaCha20-Poly1305
   * first on a JVM without its optimizing compiler).
   *
   * @return a new builder, for the caller to complete (with the client's {@code Config}, above all)
   * @throws IllegalArgumentException if {@value CipherPreference#PROPERTY} has a value it does not
   *     know
   */
  public static KubernetesClientBuilder builder() {
    return new KubernetesClientBuilder()
        .withHttpClientFactory(new PreferringOkHttpClientFactory(CipherPreference.fromSystem()))
        .withKubernetesSerialization(serialization());
  }

  /**
   * Like {@link #builder()}, with OkHttp network interceptors: each runs on the thread that sends
   * the request, after the connection is open and right before the request is written to it, for a
   * check that must be as close as possible to the moment a request leaves the process.
   *
   * @param networkInterceptors the interceptors, run in this order for each request
   * @return a new builder, for the caller to complete (with the client's {@code Config}, above all)
   * @throws IllegalArgumentException if {@value CipherPreference#PROPERTY} has a value it does not
   *     know
   */
  public static KubernetesClientBuilder builder(List<okhttp3.Interceptor> networkInterceptors) {
    return new KubernetesClientBuilder()
        .withHttpClientFactory(
            new PreferringOkHttpClientFactory(CipherPreference.fromSystem(), networkInterceptors))
        .withKubernetesSerialization(serialization());
  }

  /** Reads the object of a {@link WatchEvent} with {@link WatchEventObjectDeserializer}. */
  @SuppressWarnings("unused") // read by Jackson as annotations on WatchEvent's members
  private abstract static class WatchEventReading {
    @JsonDeserialize(using = WatchEventObjectDeserializer.class)
    private Object object;

    @JsonDeserialize(using = WatchEventObjectDeserializer.class)
    abstract void setObject(Object object);
  }

  /**
   * A client for {@code config} built by {@link #builder()}: OkHttp, Blackbird and the cipher order
   * of {@code converge.tls.cipher-preference}.
   *
   * @param config where and as whom to connect
   * @return a new client, the caller's to close
   * @throws IllegalArgumentException if {@value CipherPreference#PROPERTY} has a value it does not
   *     know
   */
  public static KubernetesClient create(Config config) {
    return builder().withConfig(config).build();
  }
}
