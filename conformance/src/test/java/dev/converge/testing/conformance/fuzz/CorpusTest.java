package dev.converge.testing.conformance.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.testing.conformance.FieldPath;
import dev.converge.testing.conformance.fuzz.internal.Corpus;
import dev.converge.testing.conformance.fuzz.internal.CorpusKind;
import dev.converge.testing.conformance.fuzz.internal.Mutation;
import dev.converge.testing.conformance.fuzz.internal.Mutator;
import dev.converge.testing.conformance.fuzz.internal.SequenceRunner;
import dev.converge.testing.conformance.internal.JsonValue;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CorpusTest {

  private final Corpus corpus = new Corpus("example.com/v1");

  @Test
  void everyKindLoadsAsTheTypedObjectAnOperatorWouldHold() {
    for (CorpusKind kind : corpus.kinds()) {
      Map<String, Object> tree = corpus.object(kind, "ns", "web");
      assertThat(FieldPath.of("metadata.name").get(tree)).as(kind.label()).contains("web");
      assertThat(SequenceRunner.toObject(tree).getMetadata().getNamespace()).isEqualTo("ns");
    }
    assertThat(SequenceRunner.toObject(corpus.object(corpus.kind("Deployment"), "ns", "web")))
        .isInstanceOf(Deployment.class);
    assertThat(SequenceRunner.toObject(corpus.object(corpus.kind("Custom resource"), "ns", "w")))
        .isInstanceOf(GenericKubernetesResource.class);
    Map<String, Object> cronJob = corpus.object(corpus.kind("CronJob"), "ns", "c");
    assertThat(
            FieldPath.of(
                    "spec.jobTemplate.spec.template.spec.containers[name=web].livenessProbe.tcpSocket.port")
                .get(cronJob))
        .contains(8080);
    assertThat(FieldPath.of("data.code").get(corpus.object(corpus.kind("ConfigMap"), "ns", "c")))
        .contains("010");
    assertThat(
            FieldPath.of(
                    "spec.template.spec.containers[name=web].env[name=POD_NAME].valueFrom.fieldRef.fieldPath")
                .get(corpus.object(corpus.kind("Deployment"), "ns", "web")))
        .contains("metadata.name");
  }

  @Test
  void mutationsAreDrawnFromTheSeedAndNeverTouchFrozenPaths() {
    CorpusKind deployment = corpus.kind("Deployment");
    for (long seed = 0; seed < 50; seed++) {
      Map<String, Object> a = corpus.object(deployment, "ns", "web");
      Map<String, Object> b = corpus.object(deployment, "ns", "web");
      List<Mutation> first = new Mutator(deployment, new Random(seed)).draw(a, 3);
      List<Mutation> second = new Mutator(deployment, new Random(seed)).draw(b, 3);
      assertThat(first.toString()).isEqualTo(second.toString());
      assertThat(JsonValue.equal(a, b)).isTrue();
      assertThat(FieldPath.of("spec.selector").get(a))
          .contains(Map.of("matchLabels", Map.of("app", "web")));
      assertThat(FieldPath.of("kind").get(a)).contains("Deployment");
    }
  }
}
