package dev.converge.schema;

import dev.converge.schema.internal.DirectAnySetters;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.module.blackbird.BlackbirdModule;

/**
 * The JSON mapping of Kubernetes objects that Converge's client and strategies share: fabric8's
 * serialization with Jackson's Blackbird module and direct any-setters.
 *
 * <p>Jackson 3 reads and writes each property of a model object through a method handle the JIT
 * cannot fold into its caller, and builds new method handles for every call of an any-setter
 * (through which fabric8's model receives {@code fieldsV1} and every property a class does not
 * declare). An operator spends most of its CPU turning objects into JSON and trees and back, so
 * this shows in its CPU per object. Blackbird calls getters, setters and constructors through
 * lambdas generated once per property, and the any-setters get a generated caller each; the JSON
 * written and read is the same. Set the system property {@value #BLACKBIRD} to {@code false} for
 * fabric8's own mapping, should a model class of yours need it.
 */
public final class Json {

  /**
   * The system property that, set to {@code false}, leaves Blackbird and the direct any-setters
   * out.
   */
  public static final String BLACKBIRD = "converge.json.blackbird";

  private Json() {}

  /**
   * A new serialization on a default mapper.
   *
   * @return a new serialization on each call, so that one client's registry of custom resource
   *     classes is not another's
   */
  public static KubernetesSerialization serialization() {
    return serialization(JsonMapper.builder().build());
  }

  /**
   * A new serialization on {@code mapper} (with mix-ins of its own, say), fabric8's modules
   * registered first and Blackbird's after them.
   *
   * @param mapper the mapper to start from
   * @return a new serialization
   */
  public static KubernetesSerialization serialization(ObjectMapper mapper) {
    return new Tuned(mapper);
  }

  /**
   * fabric8's serialization with the modules added after fabric8's own. Jackson applies the
   * deserializer changes of the module registered last first: registered before fabric8's, which
   * wraps every property of the model, Blackbird would find no property it knows how to speed up,
   * and each value read would still go through a method handle.
   */
  private static final class Tuned extends KubernetesSerialization {
    Tuned(ObjectMapper mapper) {
      super(mapper, true);
    }

    @Override
    protected ObjectMapper configureMapper(ObjectMapper mapper) {
      ObjectMapper configured = super.configureMapper(mapper);
      if ("false".equals(System.getProperty(BLACKBIRD))) {
        return configured;
      }
      return configured
          .rebuild()
          .addModule(new BlackbirdModule())
          .addModule(new DirectAnySetters())
          .build();
    }
  }
}
