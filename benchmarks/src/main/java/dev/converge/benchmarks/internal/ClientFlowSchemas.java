package dev.converge.benchmarks.internal;

import io.fabric8.kubernetes.api.model.flowcontrol.v1.FlowSchema;
import io.fabric8.kubernetes.api.model.flowcontrol.v1.FlowSchemaBuilder;
import io.fabric8.kubernetes.api.model.flowcontrol.v1.PriorityLevelConfigurationBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Counts one client's requests on the server side, by verb and resource, whatever the client is
 * written in. {@code apiserver_request_total} has no label for the user or user agent, but the API
 * server's priority and fairness filter classifies every request by user, verb and resource into a
 * FlowSchema and counts it in {@code apiserver_flowcontrol_dispatched_requests_total{flow_schema}}.
 * So the benchmark gives the measured client an identity of its own (a service account token, which
 * a client in any language uses from a kubeconfig, bound to cluster-admin) and installs one
 * FlowSchema per verb and resource for it, all in one priority level with a large share, so the
 * classification costs it nothing.
 */
public final class ClientFlowSchemas {

  /** The service account (in {@link #NAMESPACE}) the measured client authenticates as. */
  public static final String SERVICE_ACCOUNT = "converge-bench-client";

  /** Namespace of {@link #SERVICE_ACCOUNT}. */
  public static final String NAMESPACE = "default";

  /** Resources counted one by one; the rest is counted per verb as {@code *}. */
  public static final List<String> RESOURCES =
      List.of(
          "appdeployments",
          "appdeployments/status",
          "deployments",
          "services",
          "configmaps",
          "events",
          "pods",
          "replicasets",
          "leases",
          "namespaces",
          "customresourcedefinitions",
          "selfsubjectaccessreviews");

  private static final String PREFIX = "cvb-";
  private static final String PRIORITY_LEVEL = "converge-bench";
  private static final String NON_RESOURCE = PREFIX + "nonresource";

  private final Map<String, RequestKey> bySchema;

  private ClientFlowSchemas(Map<String, RequestKey> bySchema) {
    this.bySchema = bySchema;
  }

  /** Installs the binding, the priority level and the flow schemas. */
  public static ClientFlowSchemas install(KubernetesClient admin) {
    admin
        .serviceAccounts()
        .inNamespace(NAMESPACE)
        .resource(
            new io.fabric8.kubernetes.api.model.ServiceAccountBuilder()
                .withNewMetadata()
                .withName(SERVICE_ACCOUNT)
                .withNamespace(NAMESPACE)
                .endMetadata()
                .build())
        .serverSideApply();
    admin
        .rbac()
        .clusterRoleBindings()
        .resource(
            new ClusterRoleBindingBuilder()
                .withNewMetadata()
                .withName("converge-bench-client")
                .endMetadata()
                .withNewRoleRef()
                .withApiGroup("rbac.authorization.k8s.io")
                .withKind("ClusterRole")
                .withName("cluster-admin")
                .endRoleRef()
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName(SERVICE_ACCOUNT)
                .withNamespace(NAMESPACE)
                .endSubject()
                .build())
        .serverSideApply();
    admin
        .resource(
            new PriorityLevelConfigurationBuilder()
                .withNewMetadata()
                .withName(PRIORITY_LEVEL)
                .endMetadata()
                .withNewSpec()
                .withType("Limited")
                .withNewLimited()
                .withNominalConcurrencyShares(200)
                .withLendablePercent(0)
                .withNewLimitResponse()
                .withType("Reject")
                .endLimitResponse()
                .endLimited()
                .endSpec()
                .build())
        .serverSideApply();
    ClientFlowSchemas names = forNames();
    List<FlowSchema> schemas = new ArrayList<>();
    names.bySchema.forEach(
        (name, key) -> {
          if (!name.equals(NON_RESOURCE)) {
            schemas.add(
                schema(name, key.resource().equals("*") ? 200 : 100, key.verb(), key.resource()));
          }
        });
    schemas.add(
        new FlowSchemaBuilder()
            .withNewMetadata()
            .withName(NON_RESOURCE)
            .endMetadata()
            .withNewSpec()
            .withMatchingPrecedence(300)
            .withNewPriorityLevelConfiguration(PRIORITY_LEVEL)
            .addNewRule()
            .addNewSubject()
            .withKind("ServiceAccount")
            .withNewServiceAccount(SERVICE_ACCOUNT, NAMESPACE)
            .endSubject()
            .addNewNonResourceRule()
            .withVerbs("*")
            .withNonResourceURLs("*")
            .endNonResourceRule()
            .endRule()
            .endSpec()
            .build());
    for (FlowSchema schema : schemas) {
      admin.resource(schema).serverSideApply();
    }
    return names;
  }

  /** The flow schemas' names and what each counts, without installing anything. */
  static ClientFlowSchemas forNames() {
    Map<String, RequestKey> bySchema = new LinkedHashMap<>();
    for (String verb : RequestKey.VERBS) {
      for (String resource : RESOURCES) {
        bySchema.put(
            PREFIX + verb + "-" + resource.replace('/', '-'), new RequestKey(verb, resource));
      }
      bySchema.put(PREFIX + verb + "-other", new RequestKey(verb, "*"));
    }
    bySchema.put(NON_RESOURCE, new RequestKey("nonresource", "*"));
    return new ClientFlowSchemas(Map.copyOf(bySchema));
  }

  private static FlowSchema schema(String name, int precedence, String verb, String resource) {
    return new FlowSchemaBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withMatchingPrecedence(precedence)
        .withNewPriorityLevelConfiguration(PRIORITY_LEVEL)
        .addNewRule()
        .addNewSubject()
        .withKind("ServiceAccount")
        .withNewServiceAccount(SERVICE_ACCOUNT, NAMESPACE)
        .endSubject()
        .addNewResourceRule()
        .withVerbs(verb)
        .withApiGroups("*")
        .withResources(resource)
        .withNamespaces("*")
        .withClusterScope(true)
        .endResourceRule()
        .endRule()
        .endSpec()
        .build();
  }

  /** The request a flow schema counts, when it is one of these. */
  public Optional<RequestKey> keyOf(String flowSchema) {
    return Optional.ofNullable(bySchema.get(flowSchema));
  }
}
