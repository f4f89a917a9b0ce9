package dev.converge.operator.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.operator.DryRunReport;
import dev.converge.operator.DryRunReport.Change;
import dev.converge.operator.DryRunReport.Entry;
import dev.converge.operator.DryRunReport.FieldChange;
import dev.converge.operator.DryRunReport.Outcome;
import dev.converge.operator.DryRunReport.Refusal;
import dev.converge.operator.internal.DryRunRecorder.ApiPath;
import dev.converge.operator.internal.DryRunRecorder.Write;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The parts of a dry run that need no API server: paths, verbs, creates, refusals, the report. */
class DryRunRecorderTest {

  private static final String SERVER = "https://127.0.0.1:6443";

  private final DryRunRecorder recorder = new DryRunRecorder(null, "test");

  @Test
  void pathsNameTheObjectItsNamespaceAndSubresource() {
    ApiPath status = ApiPath.parse(SERVER + "/apis/apps/v1/namespaces/shop/deployments/web/status");
    assertThat(status.apiVersion()).isEqualTo("apps/v1");
    assertThat(status.namespace()).isEqualTo("shop");
    assertThat(status.resource()).isEqualTo("deployments");
    assertThat(status.name()).isEqualTo("web");
    assertThat(status.subresource()).isEqualTo("status");
    assertThat(status.objectUrl("web"))
        .isEqualTo(SERVER + "/apis/apps/v1/namespaces/shop/deployments/web");

    ApiPath collection = ApiPath.parse(SERVER + "/api/v1/namespaces/shop/configmaps");
    assertThat(collection.apiVersion()).isEqualTo("v1");
    assertThat(collection.name()).isNull();
    assertThat(collection.objectUrl("c"))
        .isEqualTo(SERVER + "/api/v1/namespaces/shop/configmaps/c");

    ApiPath namespace = ApiPath.parse(SERVER + "/api/v1/namespaces/shop/status");
    assertThat(namespace.namespace()).isEmpty();
    assertThat(namespace.resource()).isEqualTo("namespaces");
    assertThat(namespace.name()).isEqualTo("shop");
    assertThat(namespace.subresource()).isEqualTo("status");

    ApiPath clusterScoped =
        ApiPath.parse(SERVER + "/apis/rbac.authorization.k8s.io/v1/clusterroles/r");
    assertThat(clusterScoped.namespace()).isEmpty();
    assertThat(clusterScoped.name()).isEqualTo("r");
  }

  @Test
  void verbsFollowMethodAndPatchType() {
    assertThat(DryRunRecorder.verb("POST", "application/json")).isEqualTo("create");
    assertThat(DryRunRecorder.verb("PUT", "application/json")).isEqualTo("update");
    assertThat(DryRunRecorder.verb("PATCH", "application/merge-patch+json")).isEqualTo("patch");
    assertThat(DryRunRecorder.verb("PATCH", "application/apply-patch+yaml")).isEqualTo("apply");
    assertThat(DryRunRecorder.verb("DELETE", "")).isEqualTo("delete");
  }

  @Test
  void aCreateIsAllNewFieldsOfTheServersAnswer() {
    Entry entry =
        recorder.entry(
            new Write(
                "POST",
                SERVER + "/api/v1/namespaces/shop/configmaps",
                "application/json",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"}}",
                201,
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\","
                    + "\"namespace\":\"shop\",\"uid\":\"u\",\"resourceVersion\":\"5\"},"
                    + "\"data\":{\"k\":\"v\"}}"));

    assertThat(entry)
        .isEqualTo(
            new Entry(
                "v1",
                "ConfigMap",
                "shop",
                "c",
                "",
                "create",
                Outcome.CHANGED,
                List.of(
                    new FieldChange(Change.ADDED, "apiVersion", null, "\"v1\""),
                    new FieldChange(Change.ADDED, "data.k", null, "\"v\""),
                    new FieldChange(Change.ADDED, "kind", null, "\"ConfigMap\""),
                    new FieldChange(Change.ADDED, "metadata.name", null, "\"c\""),
                    new FieldChange(Change.ADDED, "metadata.namespace", null, "\"shop\"")),
                null));
  }

  @Test
  void aRefusedWriteCarriesTheServersMessageAndNoChange() {
    Entry entry =
        recorder.entry(
            new Write(
                "PATCH",
                SERVER + "/apis/apps/v1/namespaces/shop/deployments/web",
                "application/apply-patch+yaml",
                "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"}}",
                422,
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":"
                    + "\"Deployment.apps \\\"web\\\" is invalid: spec.selector: field is"
                    + " immutable\",\"reason\":\"Invalid\",\"code\":422}"));

    assertThat(entry)
        .isEqualTo(
            new Entry(
                "apps/v1",
                "Deployment",
                "shop",
                "web",
                "",
                "apply",
                Outcome.REFUSED,
                List.of(),
                new Refusal(
                    422,
                    "Invalid",
                    "Deployment.apps \"web\" is invalid: spec.selector: field is immutable")));
  }

  @Test
  void deletingWhatIsAlreadyGoneChangesNothing() {
    Entry entry =
        recorder.entry(
            new Write(
                "DELETE",
                SERVER + "/api/v1/namespaces/shop/configmaps/gone",
                "application/json",
                "{\"apiVersion\":\"v1\",\"kind\":\"DeleteOptions\"}",
                404,
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"reason\":\"NotFound\",\"code\":404}"));

    assertThat(entry.outcome()).isEqualTo(Outcome.UNCHANGED);
    assertThat(entry.kind()).isEqualTo("configmaps"); // the server named no kind: the resource
    assertThat(entry.name()).isEqualTo("gone");
  }

  @Test
  void theReportCountsObjectsByTheirWorstOutcomeAndPrintsDiffLines() {
    Entry label =
        new Entry(
            "v1",
            "ConfigMap",
            "shop",
            "a",
            "",
            "apply",
            Outcome.CHANGED,
            List.of(
                new FieldChange(Change.ADDED, "metadata.labels.team", null, "\"x\""),
                new FieldChange(Change.CHANGED, "data.replicas", "1", "2"),
                new FieldChange(Change.REMOVED, "data.old", "\"o\"", null)),
            null);
    Entry same =
        new Entry("v1", "ConfigMap", "shop", "b", "", "apply", Outcome.UNCHANGED, List.of(), null);
    Entry refused =
        new Entry(
            "v1",
            "ConfigMap",
            "shop",
            "c",
            "",
            "apply",
            Outcome.REFUSED,
            List.of(),
            new Refusal(422, "Invalid", "metadata.labels: Invalid value"));
    Entry status =
        new Entry(
            "example.com/v1",
            "Widget",
            "shop",
            "w",
            "status",
            "patch",
            Outcome.CHANGED,
            List.of(new FieldChange(Change.CHANGED, "status.phase", "\"A\"", "\"B\"")),
            null);
    DryRunReport report =
        new DryRunReport(
            List.of(label, same, refused, status),
            List.of("Widget shop/v", "Widget shop/w"),
            List.of());

    assertThat(report.reconciled()).isEqualTo(2);
    assertThat(report.unchanged()).isEqualTo(2); // ConfigMap b and Widget v
    assertThat(report.wouldChange()).isEqualTo(2); // ConfigMap a and Widget w
    assertThat(report.wouldBeRefused()).isEqualTo(1);
    assertThat(report.writesByKind())
        .containsExactly(
            java.util.Map.entry("ConfigMap", 3), java.util.Map.entry("Widget/status", 1));
    assertThat(report.text())
        .isEqualTo(
            "ConfigMap shop/a (apply)\n"
                + "  + metadata.labels.team: x\n"
                + "  ~ data.replicas: 1 -> 2\n"
                + "  - data.old: o\n"
                + "ConfigMap shop/c (apply): would be refused: 422 Invalid:"
                + " metadata.labels: Invalid value\n"
                + "Widget shop/w (patch status)\n"
                + "  ~ status.phase: A -> B\n"
                + "2 primaries reconciled; 5 objects: 2 unchanged, 2 would change,"
                + " 1 would be refused\n"
                + "writes by kind: ConfigMap 3, Widget/status 1\n");
    JsonNode json = JsonMapper.builder().build().readTree(report.json());
    assertThat(json.get("schema").asString()).isEqualTo("converge.dev/dry-run-report/v1");
    assertThat(json.at("/summary/objects").asInt()).isEqualTo(5);
    assertThat(json.at("/summary/wouldChange").asInt()).isEqualTo(2);
    assertThat(json.at("/summary/wouldBeRefused").asInt()).isEqualTo(1);
    assertThat(json.at("/summary/writesByKind/Widget~1status").asInt()).isEqualTo(1);
    JsonNode first = json.at("/entries/0");
    assertThat(first.get("subresource").isNull()).isTrue();
    assertThat(first.at("/changes/0/change").asString()).isEqualTo("ADDED");
    assertThat(first.at("/changes/0/path").asString()).isEqualTo("metadata.labels.team");
    assertThat(first.at("/changes/0/before").isNull()).isTrue();
    assertThat(first.at("/changes/0/after").asString()).isEqualTo("x");
    assertThat(first.at("/changes/1/after").asInt()).isEqualTo(2);
    assertThat(json.at("/entries/2/refusal/code").asInt()).isEqualTo(422);
    assertThat(json.at("/entries/2/refusal/message").asString())
        .isEqualTo("metadata.labels: Invalid value");
    assertThat(json.get("failures").isEmpty()).isTrue();
  }
}
