package dev.converge.client;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.module.blackbird.BlackbirdModule;

/**
 * fabric8 clients whose JSON costs less CPU.
 *
 * <p>Jackson 3 reads and writes each property of a model object through a method handle kept in a
 * field, which the JIT cannot fold into the caller: every property of every object goes through the
 * generic invoker, and each handle is recompiled once it has been used a hundred times or so,
 * thousands of compilations across the Kubernetes model. An operator spends most of its CPU turning
 * watch events, requests and responses into JSON and back, so this shows in its CPU per object.
 * Jackson's Blackbird module instead calls getters, setters and constructors through lambdas
 * generated once per property, which the JIT inlines like ordinary calls. The JSON written and read
 * is the same.
 *
 * <pre>{@code
 * KubernetesClient client = Clients.create(Config.autoConfigure(null));
 * }</pre>
 */
public final class Clients {

  private Clients() {}

  /**
   * The system property that, set to {@code false}, leaves Blackbird out: fabric8's own
   * serialization, should a model class of yours need it.
   */
  public static final String BLACKBIRD = "converge.json.blackbird";

  /**
   * A new fabric8 serialization (the client's JSON and YAML, its registry of custom resource
   * classes) with Jackson's Blackbird module, unless {@value #BLACKBIRD} is {@code false}.
   */
  public static KubernetesSerialization serialization() {
    JsonMapper.Builder mapper = JsonMapper.builder();
    if (!"false".equals(System.getProperty(BLACKBIRD))) {
      mapper.addModule(new BlackbirdModule());
    }
    return new KubernetesSerialization(mapper.build(), true);
  }

  /** A client builder using {@link #serialization()}. */
  public static KubernetesClientBuilder builder() {
    return new KubernetesClientBuilder().withKubernetesSerialization(serialization());
  }

  /** A client for {@code config} using {@link #serialization()}. */
  public static KubernetesClient create(Config config) {
    return builder().withConfig(config).build();
  }
}
