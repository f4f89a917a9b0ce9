package dev.converge.benchmarks.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ApiServerMetricsTest {

  private static final String BEFORE =
      """
      # HELP apiserver_request_total [STABLE] Counter of apiserver requests
      apiserver_request_total{code="201",component="apiserver",dry_run="",group="apps",resource="deployments",scope="resource",subresource="",verb="POST",version="v1"} 7
      apiserver_request_total{code="200",component="apiserver",dry_run="",group="apps",resource="deployments",scope="resource",subresource="",verb="APPLY",version="v1"} 3
      apiserver_request_total{code="200",component="apiserver",dry_run="",group="apps.converge.dev",resource="appdeployments",scope="resource",subresource="status",verb="PATCH",version="v1"} 2
      apiserver_request_total{code="200",component="",dry_run="",group="",resource="",scope="",subresource="/readyz",verb="GET",version=""} 40
      apiserver_flowcontrol_dispatched_requests_total{flow_schema="cvb-create-deployments",priority_level="converge-bench"} 5
      apiserver_flowcontrol_dispatched_requests_total{flow_schema="exempt",priority_level="exempt"} 99
      """;

  private static final String AFTER =
      BEFORE
              .replace("verb=\"POST\",version=\"v1\"} 7", "verb=\"POST\",version=\"v1\"} 17")
              .replace(
                  "\"cvb-create-deployments\",priority_level=\"converge-bench\"} 5",
                  "\"cvb-create-deployments\",priority_level=\"converge-bench\"} 12")
          + "apiserver_flowcontrol_dispatched_requests_total{flow_schema=\"cvb-get-other\",priority_level=\"converge-bench\"} 1.0\n";

  @Test
  void readsEveryonesRequestsAndTheClientsFromItsFlowSchemas() {
    ClientFlowSchemas schemas = ClientFlowSchemas.forNames();
    MetricsSnapshot snapshot = ApiServerMetrics.parse(BEFORE, schemas);
    assertThat(snapshot.all())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                new RequestKey("create", "deployments"), 7L,
                new RequestKey("patch", "deployments"), 3L,
                new RequestKey("patch", "appdeployments/status"), 2L));
    assertThat(snapshot.client())
        .containsExactlyEntriesOf(Map.of(new RequestKey("create", "deployments"), 5L));
  }

  @Test
  void aDeltaSplitsWritesAndReadsIntoTheClientsAndEveryoneElses() {
    ClientFlowSchemas schemas = ClientFlowSchemas.forNames();
    MetricsSnapshot delta =
        ApiServerMetrics.parse(AFTER, schemas).since(ApiServerMetrics.parse(BEFORE, schemas));
    assertThat(delta.allWrites()).isEqualTo(10);
    assertThat(delta.clientWrites()).isEqualTo(7);
    assertThat(delta.otherWrites()).isEqualTo(3);
    assertThat(delta.clientReads()).isEqualTo(1);
  }

  @Test
  void anAccessReviewIsNeitherAWriteNorARead() {
    // the client's 20 SelfSubjectAccessReviews and one Service create: 1 write, 0 reads
    String before =
        BEFORE
            + "apiserver_request_total{code=\"201\",component=\"apiserver\",dry_run=\"\",group=\"authorization.k8s.io\",resource=\"selfsubjectaccessreviews\",scope=\"resource\",subresource=\"\",verb=\"POST\",version=\"v1\"} 0\n"
            + "apiserver_flowcontrol_dispatched_requests_total{flow_schema=\"cvb-create-selfsubjectaccessreviews\",priority_level=\"converge-bench\"} 0\n";
    String after =
        before
            .replace("verb=\"POST\",version=\"v1\"} 0", "verb=\"POST\",version=\"v1\"} 20")
            .replace(
                "\"cvb-create-selfsubjectaccessreviews\",priority_level=\"converge-bench\"} 0",
                "\"cvb-create-selfsubjectaccessreviews\",priority_level=\"converge-bench\"} 20")
            .replace("verb=\"POST\",version=\"v1\"} 7", "verb=\"POST\",version=\"v1\"} 8")
            .replace(
                "\"cvb-create-deployments\",priority_level=\"converge-bench\"} 5",
                "\"cvb-create-deployments\",priority_level=\"converge-bench\"} 6");
    ClientFlowSchemas schemas = ClientFlowSchemas.forNames();
    MetricsSnapshot delta =
        ApiServerMetrics.parse(after, schemas).since(ApiServerMetrics.parse(before, schemas));
    assertThat(delta.client())
        .containsEntry(new RequestKey("create", "selfsubjectaccessreviews"), 20L);
    assertThat(delta.clientWrites()).isEqualTo(1);
    assertThat(delta.clientReads()).isZero();
    assertThat(delta.allWrites()).isEqualTo(1);
  }
}
