package dev.converge.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.crd.roundtrip.RoundTripReport;
import dev.converge.crd.roundtrip.SchemaRoundTrip;
import dev.converge.crd.sample.AppDeployment;
import dev.converge.crd.sample.Schedule;
import dev.converge.crd.sample.Widget;
import dev.converge.crd.sample.Workload;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The round-trip property on the real API server, for every annotation and type the generator
 * supports: Widget (every annotation), Schedule (JDK, Jackson and fabric8 value types), Workload
 * (embedded pod template, resources, env, selector), AppDeployment (status with conditions) and a
 * cluster-scoped resource. Random instances (and statuses) written by fabric8 are accepted and read
 * back equal; values breaking each declared constraint are refused with the field named.
 *
 * <p>{@value SchemaRoundTrip#DEFAULT_INSTANCES} instances per type inside {@code mvn verify}; more
 * with {@code -Dconverge.roundtrip.instances=500}, a fixed seed with {@code
 * -Dconverge.roundtrip.seed=...}.
 */
@ExtendWith(LocalClusterExtension.class)
class SchemaRoundTripIT {

  static Stream<Class<? extends CustomResource<?, ?>>> types() {
    return Stream.of(
        Widget.class,
        Schedule.class,
        Workload.class,
        AppDeployment.class,
        CustomResourceDefinitionTest.ClusterSetting.class);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("types")
  void randomInstancesRoundTripAndHostileOnesAreRefused(
      Class<? extends CustomResource<?, ?>> type, KubernetesClient client) {
    RoundTripReport report = SchemaRoundTrip.of(type).check(client);
    System.out.println("round trip " + report.summary());
    assertThat(report.accepted()).isEqualTo(report.instances()).isPositive();
    assertThat(report.statusesAccepted()).isEqualTo(report.statuses());
    assertThat(report.refused()).isEqualTo(report.hostile()).isPositive();
  }

  @AfterAll
  static void removeCrds(LocalCluster cluster) {
    try (KubernetesClient client = cluster.newClient()) {
      for (GeneratedCrd crd : CrdGenerator.generate(types().map(t -> (Class<?>) t).toList())) {
        client.apiextensions().v1().customResourceDefinitions().withName(crd.name()).delete();
      }
    }
  }
}
