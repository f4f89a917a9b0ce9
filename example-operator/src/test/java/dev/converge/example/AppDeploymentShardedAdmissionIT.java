package dev.converge.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.crd.CrdInstaller;
import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentCrd;
import dev.converge.example.webhook.AppWebhooks;
import dev.converge.operator.LeaderElection;
import dev.converge.operator.ShardLabeller;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import dev.converge.testing.operator.RunningOperator;
import dev.converge.testing.operator.TestCrds;
import dev.converge.webhooks.ClientTarget;
import dev.converge.webhooks.ServingCertificate;
import dev.converge.webhooks.WebhookInstaller;
import dev.converge.webhooks.WebhookOptions;
import dev.converge.webhooks.WebhookServer;
import dev.converge.webhooks.Webhooks;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.Gauge;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two replicas of the operator, sharded, with the defaulting webhook called by kube-apiserver: a
 * new AppDeployment is stored with its shard label in its first version, the sharder (on whichever
 * replica leads) finds nothing to write, and the replica the label names runs the app.
 */
@ExtendWith(LocalClusterExtension.class)
class AppDeploymentShardedAdmissionIT {

  private static final String CONFIG = "app-operator-sharded-admission-it";
  private static final String SHARD = "shard.converge.dev/" + AppOperator.NAME;
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final List<String> REPLICAS = List.of("replica-a", "replica-b");

  @Test
  void newAppDeploymentsAreStoredAssignedAndTheSharderWritesNothing(
      KubernetesClient admin, LocalCluster cluster, TestNamespace ns) {
    String namespace = ns.name();
    TestCrds.installOnce(cluster, AppDeployment.class);
    KubernetesClient webhookClient = cluster.newClient();
    CrdInstaller.install(
        webhookClient, List.of(AppDeploymentCrd.generated()), Duration.ofSeconds(30));
    // The webhook watches the ring's Leases in the Lease namespace, as the operator's component
    // does when it runs with --sharded.
    ShardLabeller labeller = ShardLabeller.watching(webhookClient, namespace, AppOperator.NAME);
    Webhooks webhooks =
        AppWebhooks.create(
            webhookClient,
            WebhookOptions.defaults()
                .withNamespaceSelector(
                    new LabelSelectorBuilder()
                        .addToMatchLabels("kubernetes.io/metadata.name", namespace)
                        .build()),
            Optional.of(labeller));
    WebhookServer server =
        WebhookServer.builder(webhooks)
            .bindAddress("127.0.0.1")
            .port(0)
            .certificate(ServingCertificate.generateForLoopback())
            .start();
    try {
      WebhookInstaller.install(
          webhookClient, webhooks, CONFIG, ClientTarget.of(server), Duration.ofSeconds(30));
      try (RunningOperator a = replica(cluster, namespace, "replica-a");
          RunningOperator b = replica(cluster, namespace, "replica-b")) {
        List<RunningOperator> replicas = List.of(a, b);
        await("the sharder counts both replicas in")
            .atMost(PATIENCE)
            .until(() -> sharderFigure(replicas, "converge.sharder.members") == 2.0);
        await("the webhook's labeller counts both replicas in")
            .atMost(PATIENCE)
            .untilAsserted(
                () ->
                    assertThat(membersNamedByLabeller(labeller, namespace))
                        .containsExactlyInAnyOrderElementsOf(REPLICAS));

        ClusterState state = new ClusterState(admin, namespace);
        List<String> names = IntStream.range(0, 6).mapToObj(i -> "app-" + i).toList();
        Map<String, String> memberOf = new HashMap<>();
        for (String name : names) {
          AppDeployment created = state.create(name, "nginx:1.27", 1, null);
          // The create's response is the object as stored, in its first version.
          assertThat(created.getMetadata().getLabels())
              .as("AppDeployment %s/%s as created", namespace, name)
              .containsKey(SHARD);
          String member = created.getMetadata().getLabels().get(SHARD);
          assertThat(member).isIn(REPLICAS);
          // What a mutating webhook sets at creation is not tracked by field manager; a later
          // write that set the label (the sharder's patch) would own it with an Update.
          assertThat(labelOwners(created))
              .as("who set the shard label of %s", name)
              .allSatisfy(entry -> assertThat(entry.getOperation()).isEqualTo("Create"));
          memberOf.put(name, member);
        }

        for (String name : names) {
          AppDeployment running = state.awaitRunning(name, 1);
          assertThat(running.getMetadata().getLabels())
              .as("AppDeployment %s/%s once Running", namespace, name)
              .containsEntry(SHARD, memberOf.get(name));
          assertThat(labelOwners(running))
              .as("no later write set the shard label of %s", name)
              .allSatisfy(entry -> assertThat(entry.getOperation()).isEqualTo("Create"));
        }
        assertThat(sharderFigure(replicas, "converge.sharder.assignments"))
            .as("objects the sharder labelled")
            .isZero();
        assertThat(sharderFigure(replicas, "converge.sharder.drains"))
            .as("hand-overs the sharder asked for: it agrees with the webhook's members")
            .isZero();
        for (String replica : REPLICAS) {
          RunningOperator operator = replica.equals("replica-a") ? a : b;
          boolean owns = memberOf.containsValue(replica);
          assertThat(AppOperatorRun.reconciles(operator) > 0)
              .as("%s reconciled (it owns %s)", replica, owns ? "some apps" : "none")
              .isEqualTo(owns);
        }
      }
    } finally {
      webhookClient.resources(AppDeployment.class).inNamespace(namespace).delete();
      WebhookInstaller.uninstall(webhookClient, webhooks, CONFIG);
      server.close();
      labeller.close();
      webhookClient.close();
    }
  }

  private static RunningOperator replica(LocalCluster cluster, String namespace, String identity) {
    return AppOperatorRun.start(
        cluster,
        namespace,
        builder ->
            builder
                .leaderElection(
                    LeaderElection.onLease(namespace, AppOperator.NAME).withIdentity(identity))
                .sharded());
  }

  /** A sharder gauge of the replica that runs the sharder (NaN on the others); NaN when none. */
  private static double sharderFigure(List<RunningOperator> replicas, String gauge) {
    for (RunningOperator replica : replicas) {
      Gauge found = replica.meters().find(gauge).gauge();
      if (found != null && !Double.isNaN(found.value())) {
        return found.value();
      }
    }
    return Double.NaN;
  }

  /** The members the labeller names for twenty objects of the namespace. */
  private static Set<String> membersNamedByLabeller(ShardLabeller labeller, String namespace) {
    Set<String> members = new HashSet<>();
    for (int i = 0; i < 20; i++) {
      members.addAll(labeller.labelsFor(AppDeployment.of(namespace, "probe-" + i, null)).values());
    }
    return members;
  }

  /** The managedFields entries that own the shard label. */
  private static List<ManagedFieldsEntry> labelOwners(AppDeployment app) {
    return app.getMetadata().getManagedFields().stream()
        .filter(AppDeploymentShardedAdmissionIT::ownsShardLabel)
        .toList();
  }

  private static boolean ownsShardLabel(ManagedFieldsEntry entry) {
    if (entry.getFieldsV1() == null) {
      return false;
    }
    Object metadata = entry.getFieldsV1().getAdditionalProperties().get("f:metadata");
    if (!(metadata instanceof Map<?, ?> meta)) {
      return false;
    }
    Object labels = meta.get("f:labels");
    return labels instanceof Map<?, ?> l && l.containsKey("f:" + SHARD);
  }
}
