package dev.converge.crd.roundtrip;

import com.fasterxml.classmate.TypeResolver;
import dev.converge.crd.CrdGenerator;
import dev.converge.crd.CrdInstaller;
import dev.converge.crd.GeneratedCrd;
import dev.converge.crd.roundtrip.internal.HostileCase;
import dev.converge.crd.roundtrip.internal.HostileCases;
import dev.converge.crd.roundtrip.internal.RandomValues;
import dev.converge.crd.roundtrip.internal.StoredForm;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checks on a real API server that the CRD generated for a custom resource class and fabric8's
 * serialisation of that class agree, the way a user's own test would:
 *
 * <pre>{@code
 * @Test
 * void schemaAndSerialisationAgree(KubernetesClient client) {
 *   SchemaRoundTrip.of(MyResource.class).check(client);
 * }
 * }</pre>
 *
 * <p>It installs the generated CRD, then
 *
 * <ul>
 *   <li>draws random specs that the schema accepts (every bound, length, pattern, format, enum,
 *       item count, required property, set and list-map key), lets fabric8 read each into the Java
 *       spec class and write the resource with the client, and expects the server to accept it and
 *       to return what fabric8 wrote (after the server's defaulting and pruning), which fabric8
 *       reads back to the same value;
 *   <li>writes, for every constraint the schema declares, a value that breaks it, and expects a 422
 *       that names the field.
 * </ul>
 *
 * When the resource has a status subresource, each accepted instance also gets a random status,
 * written through {@code /status} and compared the same way. Draws that a CEL rule refuses are
 * drawn again and counted; CEL rules are not broken on purpose (nothing derives a violating value
 * from an arbitrary expression). Hostile values are written for the spec.
 *
 * <p>Sizes: {@value #DEFAULT_INSTANCES} instances unless {@link #instances(int)} or the system
 * property {@value #INSTANCES_PROPERTY} says otherwise; a random seed unless {@link #seed(long)} or
 * {@value #SEED_PROPERTY} fixes one. The seed is in the report and in every failure, so a failing
 * run can be repeated exactly.
 */
public final class SchemaRoundTrip {

  /** System property: how many random instances to write per resource class. */
  public static final String INSTANCES_PROPERTY = "converge.roundtrip.instances";

  /** System property: the random seed. */
  public static final String SEED_PROPERTY = "converge.roundtrip.seed";

  /** Random instances per class when nothing else is said. */
  public static final int DEFAULT_INSTANCES = 10;

  /** System property: at most how many hostile values to write per resource class. */
  public static final String HOSTILE_PROPERTY = "converge.roundtrip.hostile";

  /**
   * Hostile values per class when nothing else is said: every constraint but the wrong-type ones,
   * which fill up the rest in a random choice (an embedded pod template has over a thousand typed
   * fields).
   */
  public static final int DEFAULT_HOSTILE = 150;

  private static final int DRAWS_PER_INSTANCE = 100;
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final Class<? extends CustomResource<?, ?>> resourceClass;
  private final int instances;
  private final int hostileLimit;
  private final long seed;

  private SchemaRoundTrip(
      Class<? extends CustomResource<?, ?>> resourceClass,
      int instances,
      int hostileLimit,
      long seed) {
    this.resourceClass = resourceClass;
    this.instances = instances;
    this.hostileLimit = hostileLimit;
    this.seed = seed;
  }

  /**
   * {@return a check of {@code resourceClass} with the default size and seed} (see the class
   * comment)
   *
   * @param resourceClass the custom resource class whose generated schema is checked
   */
  public static SchemaRoundTrip of(Class<? extends CustomResource<?, ?>> resourceClass) {
    long seed = Long.getLong(SEED_PROPERTY, new Random().nextLong());
    return new SchemaRoundTrip(
        resourceClass,
        Integer.getInteger(INSTANCES_PROPERTY, DEFAULT_INSTANCES),
        Integer.getInteger(HOSTILE_PROPERTY, DEFAULT_HOSTILE),
        seed);
  }

  /**
   * {@return the same check with {@code count} random instances}
   *
   * @param count how many random instances to write; 0 or more
   */
  public SchemaRoundTrip instances(int count) {
    if (count < 0) {
      throw new IllegalArgumentException("instances must be 0 or more, was " + count);
    }
    return new SchemaRoundTrip(resourceClass, count, hostileLimit, seed);
  }

  /**
   * {@return the same check writing at most {@code limit} hostile values} (constraints first, then
   * wrong types)
   *
   * @param limit how many hostile values to write at most; 0 or more
   */
  public SchemaRoundTrip hostile(int limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("hostile must be 0 or more, was " + limit);
    }
    return new SchemaRoundTrip(resourceClass, instances, limit, seed);
  }

  /**
   * {@return the same check with a fixed seed}
   *
   * @param fixed the seed, e.g. the one a failed run printed
   */
  public SchemaRoundTrip seed(long fixed) {
    return new SchemaRoundTrip(resourceClass, instances, hostileLimit, fixed);
  }

  /**
   * Runs the check and returns the report.
   *
   * @param client a client allowed to install the CRD and write the resource in its namespace
   * @return the report of a run that passed
   * @throws AssertionError listing every failure (with the seed) when the schema and fabric8
   *     disagree
   */
  public RoundTripReport check(KubernetesClient client) {
    RoundTripReport report = run(client);
    if (!report.passed()) {
      throw new AssertionError(report.summary() + "\n  " + String.join("\n  ", report.failures()));
    }
    return report;
  }

  /**
   * Runs the check and returns the report without judging it.
   *
   * @param client a client allowed to install the CRD and write the resource in its namespace
   * @return the report, passed or not
   */
  public RoundTripReport run(KubernetesClient client) {
    KubernetesSerialization serialization = client.getKubernetesSerialization();
    List<GeneratedCrd> crds = CrdGenerator.generate(resourceClass);
    CrdInstaller.install(client, crds, Duration.ofSeconds(60));
    String version = HasMetadata.getVersion(resourceClass);
    CustomResourceDefinitionVersion entry =
        crds.get(0).definition().getSpec().getVersions().stream()
            .filter(v -> v.getName().equals(version))
            .findFirst()
            .orElseThrow();
    JsonNode schema =
        serialization.convertValue(entry.getSchema().getOpenAPIV3Schema(), JsonNode.class);
    String resource = crds.get(0).name() + "/" + version;
    JsonNode specSchema = schema.at("/properties/spec");
    List<String> failures = new ArrayList<>();
    if (specSchema.isMissingNode()) {
      failures.add(resourceClass.getName() + " has no spec to write");
      return new RoundTripReport(resource, seed, 0, 0, 0, 0, 0, 0, 0, 0, List.of(), failures);
    }
    List<com.fasterxml.classmate.ResolvedType> parameters =
        new TypeResolver().resolve(resourceClass).typeParametersFor(CustomResource.class);
    Class<?> specClass = parameters.get(0).getErasedType();
    Class<?> statusClass = parameters.get(1).getErasedType();
    JsonNode statusSchema = schema.at("/properties/status");
    boolean statusSubresource =
        entry.getSubresources() != null && entry.getSubresources().getStatus() != null;
    Set<String> ruleMessages = ruleMessages(schema);
    Writer writer =
        new Writer(
            client,
            serialization,
            specSchema,
            specClass,
            statusSubresource && !statusSchema.isMissingNode() ? statusSchema : null,
            statusClass,
            ruleMessages,
            failures);
    RandomValues values = new RandomValues(new Random(seed));
    String prefix = "rt-" + Long.toHexString(seed & 0xffffffL) + "-";
    for (int i = 0; i < instances; i++) {
      writer.randomInstance(values, prefix + i);
    }
    HostileCases.Found hostile = HostileCases.of(specSchema, "spec", values);
    List<HostileCase> chosen = choose(hostile.cases(), values.random());
    int refused = 0;
    int index = 0;
    for (HostileCase hostileCase : chosen) {
      if (writer.refuses(values, hostileCase, prefix + "h" + index++)) {
        refused++;
      }
    }
    List<String> seeded = failures.stream().map(f -> f + " [seed " + seed + "]").toList();
    return new RoundTripReport(
        resource,
        seed,
        instances,
        writer.accepted,
        writer.statuses,
        writer.statusesAccepted,
        writer.redrawn,
        chosen.size(),
        hostile.cases().size(),
        refused,
        hostile.unbrokenRules(),
        seeded);
  }

  /** Every constraint case first, then wrong-type cases in a random choice, up to the limit. */
  private List<HostileCase> choose(List<HostileCase> all, Random random) {
    List<HostileCase> constraints =
        new ArrayList<>(all.stream().filter(c -> !c.constraint().startsWith("type ")).toList());
    List<HostileCase> types =
        new ArrayList<>(all.stream().filter(c -> c.constraint().startsWith("type ")).toList());
    java.util.Collections.shuffle(constraints, random);
    java.util.Collections.shuffle(types, random);
    List<HostileCase> chosen = new ArrayList<>(constraints);
    chosen.addAll(types);
    return List.copyOf(chosen.subList(0, Math.min(hostileLimit, chosen.size())));
  }

  private static Set<String> ruleMessages(JsonNode schema) {
    Set<String> messages = new java.util.HashSet<>();
    for (JsonNode rules : schema.findValues("x-kubernetes-validations")) {
      for (JsonNode rule : rules) {
        if (rule.hasNonNull("message") && !rule.get("message").asString().isEmpty()) {
          messages.add(rule.get("message").asString());
        }
        messages.add("failed rule: " + rule.path("rule").asString());
      }
    }
    return messages;
  }

  /** Writes instances and hostile values of one class and keeps the counts. */
  private final class Writer {
    private final KubernetesClient client;
    private final KubernetesSerialization serialization;
    private final JsonNode specSchema;
    private final Class<?> specClass;
    private final Set<String> ruleMessages;
    private final List<String> failures;
    private final JsonNode statusSchema;
    private final Class<?> statusClass;
    private int accepted;
    private int redrawn;
    private int statuses;
    private int statusesAccepted;

    Writer(
        KubernetesClient client,
        KubernetesSerialization serialization,
        JsonNode specSchema,
        Class<?> specClass,
        JsonNode statusSchema,
        Class<?> statusClass,
        Set<String> ruleMessages,
        List<String> failures) {
      this.statusSchema = statusSchema;
      this.statusClass = statusClass;
      this.client = client;
      this.serialization = serialization;
      this.specSchema = specSchema;
      this.specClass = specClass;
      this.ruleMessages = ruleMessages;
      this.failures = failures;
    }

    void randomInstance(RandomValues values, String name) {
      for (int draw = 0; draw < DRAWS_PER_INSTANCE; draw++) {
        JsonNode drawn;
        Object spec;
        try {
          drawn = values.value(specSchema, "spec", Set.of());
        } catch (RuntimeException e) {
          failures.add(name + ": cannot draw a value the schema accepts: " + e.getMessage());
          return;
        }
        try {
          spec = serialization.convertValue(drawn, specClass);
        } catch (RuntimeException e) {
          failures.add(
              name
                  + ": fabric8 cannot read into "
                  + specClass.getName()
                  + " a spec the schema accepts, "
                  + drawn
                  + ": "
                  + e.getMessage());
          return;
        }
        CustomResource<Object, ?> resource = newResource(name + "-" + draw, spec);
        JsonNode sent = JSON.readTree(serialization.asJson(resource)).path("spec");
        CustomResource<?, ?> created;
        try {
          created = typed(resourceClass, resource).create();
        } catch (KubernetesClientException e) {
          if (e.getCode() == 422 && onlyRules(e)) {
            redrawn++;
            continue;
          }
          failures.add(
              name
                  + ": the server refused what fabric8 wrote for a valid spec: "
                  + serverMessage(e)
                  + "; sent "
                  + abbreviated(sent));
          return;
        }
        if (compare(name, resource, sent) && statusSchema != null) {
          status(values, name, created);
        }
        delete(resource);
        return;
      }
      failures.add(
          name
              + ": CEL rules refused "
              + DRAWS_PER_INSTANCE
              + " draws in a row; the rules accept too few"
              + " of the values the rest of the schema allows");
    }

    /**
     * Writes a random status through the status subresource and expects it back as fabric8 wrote
     * it. A draw a CEL rule refuses is counted as redrawn and the status left out for this
     * instance.
     */
    private void status(RandomValues values, String name, CustomResource<?, ?> created) {
      statuses++;
      JsonNode drawn;
      Object status;
      try {
        drawn = values.value(statusSchema, "status", Set.of());
        status = serialization.convertValue(drawn, statusClass);
      } catch (RuntimeException e) {
        failures.add(
            name
                + ": cannot draw a status fabric8 reads into "
                + statusClass.getName()
                + ": "
                + e.getMessage());
        return;
      }
      @SuppressWarnings("unchecked")
      CustomResource<?, Object> withStatus = (CustomResource<?, Object>) created;
      withStatus.setStatus(status);
      JsonNode sent = JSON.readTree(serialization.asJson(withStatus)).path("status");
      try {
        typed(resourceClass, withStatus).updateStatus();
      } catch (KubernetesClientException e) {
        if (e.getCode() == 422 && onlyRules(e)) {
          statuses--;
          redrawn++;
          return;
        }
        failures.add(
            name
                + ": the server refused what fabric8 wrote for a valid status: "
                + serverMessage(e)
                + "; sent "
                + abbreviated(sent));
        return;
      }
      GenericKubernetesResource live = generic(created.getMetadata().getName()).get();
      JsonNode liveStatus = JSON.valueToTree(live.getAdditionalProperties().get("status"));
      JsonNode expected = StoredForm.of(sent, statusSchema);
      Optional<String> stored = StoredForm.difference(expected, liveStatus, "status");
      if (stored.isPresent()) {
        failures.add(
            name
                + ": the server stored another status than fabric8 wrote (after defaults and pruning): "
                + stored.get()
                + "; sent "
                + abbreviated(sent));
        return;
      }
      JsonNode readBack =
          JSON.readTree(serialization.asJson(serialization.convertValue(liveStatus, statusClass)));
      JsonNode own =
          JSON.readTree(serialization.asJson(serialization.convertValue(expected, statusClass)));
      Optional<String> read = StoredForm.difference(own, readBack, "status");
      if (read.isPresent()) {
        failures.add(name + ": fabric8 reads the stored status back differently: " + read.get());
        return;
      }
      statusesAccepted++;
    }

    private boolean compare(String name, CustomResource<Object, ?> resource, JsonNode sent) {
      GenericKubernetesResource live = generic(resource).get();
      JsonNode liveSpec = JSON.valueToTree(live.getAdditionalProperties().get("spec"));
      JsonNode expected = StoredForm.of(sent, specSchema);
      Optional<String> stored = StoredForm.difference(expected, liveSpec, "spec");
      if (stored.isPresent()) {
        failures.add(
            name
                + ": the server stored something else than fabric8 wrote (after defaults and pruning): "
                + stored.get()
                + "; sent "
                + abbreviated(sent));
        return false;
      }
      JsonNode readBack =
          JSON.readTree(serialization.asJson(serialization.convertValue(liveSpec, specClass)));
      JsonNode own =
          JSON.readTree(serialization.asJson(serialization.convertValue(expected, specClass)));
      Optional<String> read = StoredForm.difference(own, readBack, "spec");
      if (read.isPresent()) {
        failures.add(name + ": fabric8 reads the stored spec back differently: " + read.get());
        return false;
      }
      accepted++;
      return true;
    }

    boolean refuses(RandomValues values, HostileCase hostileCase, String name) {
      JsonNode bad;
      try {
        JsonNode base = values.value(specSchema, "spec", Set.of(hostileCase.path()));
        bad = HostileCases.apply(base, "spec", hostileCase);
      } catch (RuntimeException e) {
        failures.add(
            hostileCase.path()
                + " ("
                + hostileCase.constraint()
                + "): cannot build a hostile value: "
                + e.getMessage());
        return false;
      }
      GenericKubernetesResource object = new GenericKubernetesResource();
      object.setApiVersion(HasMetadata.getApiVersion(resourceClass));
      object.setKind(HasMetadata.getKind(resourceClass));
      object.setMetadata(new ObjectMetaBuilder().withName(name).build());
      object.setAdditionalProperty("spec", JSON.convertValue(bad, Object.class));
      try {
        generics().resource(object).create();
        failures.add(
            hostileCase.path() + " (" + hostileCase.constraint() + "): the server accepted " + bad);
        generic(name).delete();
        return false;
      } catch (KubernetesClientException e) {
        if (e.getCode() == 422
            && e.getMessage() != null
            && e.getMessage().contains(hostileCase.path())) {
          return true;
        }
        failures.add(
            hostileCase.path()
                + " ("
                + hostileCase.constraint()
                + "): refused without naming the field ("
                + e.getCode()
                + "): "
                + serverMessage(e));
        return false;
      }
    }

    private static String serverMessage(KubernetesClientException e) {
      return e.getStatus() != null && e.getStatus().getMessage() != null
          ? e.getStatus().getMessage()
          : e.getMessage();
    }

    private static String abbreviated(JsonNode value) {
      String text = value.toString();
      return text.length() <= 600 ? text : text.substring(0, 600) + "...";
    }

    private boolean onlyRules(KubernetesClientException e) {
      List<StatusCause> causes =
          e.getStatus() == null || e.getStatus().getDetails() == null
              ? List.of()
              : e.getStatus().getDetails().getCauses();
      if (causes.isEmpty()) {
        return false;
      }
      return causes.stream()
          .allMatch(
              cause ->
                  cause.getMessage() != null
                      && ruleMessages.stream().anyMatch(cause.getMessage()::contains));
    }

    @SuppressWarnings("unchecked")
    private CustomResource<Object, ?> newResource(String name, Object spec) {
      CustomResource<Object, ?> resource;
      try {
        java.lang.reflect.Constructor<? extends CustomResource<?, ?>> constructor =
            resourceClass.getDeclaredConstructor();
        constructor.setAccessible(true);
        resource = (CustomResource<Object, ?>) constructor.newInstance();
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(
            resourceClass.getName()
                + " needs a no-argument constructor for the round"
                + " trip, as fabric8 needs one to read it",
            e);
      }
      resource.setMetadata(
          new ObjectMetaBuilder()
              .withName(name)
              .withNamespace(
                  Namespaced.class.isAssignableFrom(resourceClass) ? client.getNamespace() : null)
              .build());
      resource.setSpec(spec);
      resource.setStatus(null);
      return resource;
    }

    private <R extends CustomResource<?, ?>> io.fabric8.kubernetes.client.dsl.Resource<R> typed(
        Class<R> type, CustomResource<?, ?> resource) {
      return client.resources(type).resource(type.cast(resource));
    }

    private io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource> generic(
        CustomResource<Object, ?> resource) {
      return generic(resource.getMetadata().getName());
    }

    private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<
            GenericKubernetesResource,
            io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
            io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>>
        generics() {
      var all =
          client.genericKubernetesResources(
              HasMetadata.getApiVersion(resourceClass), HasMetadata.getKind(resourceClass));
      return Namespaced.class.isAssignableFrom(resourceClass)
          ? all.inNamespace(client.getNamespace())
          : all;
    }

    private io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource> generic(
        String name) {
      return generics().withName(name);
    }

    private void delete(CustomResource<Object, ?> resource) {
      generic(resource).delete();
    }
  }

  @Override
  public String toString() {
    return "SchemaRoundTrip["
        + resourceClass.getName()
        + ", "
        + instances
        + " instances, at most "
        + hostileLimit
        + " hostile values, seed "
        + seed
        + "]";
  }
}
