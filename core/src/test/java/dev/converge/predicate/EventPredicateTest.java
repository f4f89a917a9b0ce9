package dev.converge.predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.source.ResourceEvent;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventPredicateTest {

  private static Deployment deployment(
      long generation,
      String resourceVersion,
      Map<String, String> labels,
      Map<String, String> annotations) {
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName("web")
        .withNamespace("ns")
        .withGeneration(generation)
        .withResourceVersion(resourceVersion)
        .withLabels(labels)
        .withAnnotations(annotations)
        .endMetadata()
        .build();
  }

  private static Deployment deployment(long generation, String resourceVersion) {
    return deployment(generation, resourceVersion, Map.of(), Map.of());
  }

  private static <T extends HasMetadata> ResourceEvent<T> update(T before, T after) {
    return new ResourceEvent.Updated<>(before, after);
  }

  @Test
  void generationChangedPassesSpecChangesAndDropsStatusOnlyUpdates() {
    EventPredicate<Deployment> p = EventPredicate.generationChanged();
    assertThat(p.test(update(deployment(1, "10"), deployment(2, "11")))).isTrue();
    assertThat(p.test(update(deployment(2, "11"), deployment(2, "12"))))
        .as("status update: same generation, new resourceVersion")
        .isFalse();
    assertThat(p.test(new ResourceEvent.Created<>(deployment(1, "10")))).isTrue();
    assertThat(p.test(new ResourceEvent.Deleted<>(deployment(1, "10"), false))).isTrue();
    assertThat(p.test(new ResourceEvent.Generic<>(deployment(1, "10")))).isTrue();
  }

  @Test
  void generationChangedPassesTheUpdateThatStartsDeletionSoFinalizersRun() {
    Deployment live = deployment(4, "20");
    Deployment deleting =
        new DeploymentBuilder(live)
            .editMetadata()
            .withResourceVersion("21")
            .withDeletionTimestamp("2026-11-29T12:00:00Z")
            .endMetadata()
            .build();
    Deployment stillDeleting =
        new DeploymentBuilder(deleting)
            .editMetadata()
            .withResourceVersion("22")
            .endMetadata()
            .build();

    assertThat(EventPredicate.<Deployment>generationChanged().test(update(live, deleting)))
        .isTrue();
    assertThat(EventPredicate.<Deployment>generationChanged().test(update(deleting, stillDeleting)))
        .isFalse();
  }

  @Test
  void generationChangedNeverPassesUpdatesOfKindsWithoutGeneration() {
    ConfigMap before =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName("c")
            .withResourceVersion("1")
            .endMetadata()
            .addToData("k", "1")
            .build();
    ConfigMap after =
        new ConfigMapBuilder(before)
            .editMetadata()
            .withResourceVersion("2")
            .endMetadata()
            .addToData("k", "2")
            .build();
    assertThat(EventPredicate.<ConfigMap>generationChanged().test(update(before, after))).isFalse();
    assertThat(EventPredicate.<ConfigMap>resourceVersionChanged().test(update(before, after)))
        .isTrue();
  }

  @Test
  void resourceVersionChangedDropsResyncs() {
    EventPredicate<Deployment> p = EventPredicate.resourceVersionChanged();
    Deployment same = deployment(3, "42");
    assertThat(p.test(update(same, same))).isFalse();
    assertThat(p.test(update(deployment(3, "42"), deployment(3, "43")))).isTrue();
  }

  @Test
  void labelsChangedTreatsMissingAndEmptyAlike() {
    EventPredicate<Deployment> p = EventPredicate.labelsChanged();
    assertThat(p.test(update(deployment(1, "1", null, null), deployment(1, "2", Map.of(), null))))
        .isFalse();
    assertThat(
            p.test(
                update(
                    deployment(1, "1", Map.of("a", "1"), null),
                    deployment(1, "2", Map.of("a", "2"), null))))
        .isTrue();
    assertThat(
            p.test(
                update(
                    deployment(1, "1", Map.of("a", "1"), Map.of("x", "1")),
                    deployment(1, "2", Map.of("a", "1"), Map.of("x", "2")))))
        .as("an annotation change is not a label change")
        .isFalse();
  }

  @Test
  void annotationsChanged() {
    EventPredicate<Deployment> p = EventPredicate.annotationsChanged();
    assertThat(
            p.test(
                update(
                    deployment(1, "1", null, Map.of("x", "1")),
                    deployment(1, "2", null, Map.of("x", "2")))))
        .isTrue();
    assertThat(
            p.test(
                update(
                    deployment(1, "1", Map.of("a", "1"), Map.of("x", "1")),
                    deployment(1, "2", Map.of("a", "2"), Map.of("x", "1")))))
        .isFalse();
  }

  @Test
  void labelSelectorSupportsMatchLabelsAndEveryOperator() {
    EventPredicate<Deployment> p =
        EventPredicate.labelSelector(
            new LabelSelectorBuilder()
                .addToMatchLabels("app", "web")
                .addNewMatchExpression()
                .withKey("tier")
                .withOperator("In")
                .withValues("front", "edge")
                .endMatchExpression()
                .addNewMatchExpression()
                .withKey("env")
                .withOperator("NotIn")
                .withValues("dev")
                .endMatchExpression()
                .addNewMatchExpression()
                .withKey("owner")
                .withOperator("Exists")
                .endMatchExpression()
                .addNewMatchExpression()
                .withKey("legacy")
                .withOperator("DoesNotExist")
                .endMatchExpression()
                .build());

    Map<String, String> good = Map.of("app", "web", "tier", "edge", "owner", "me");
    assertThat(p.test(new ResourceEvent.Created<>(deployment(1, "1", good, null)))).isTrue();
    assertThat(
            p.test(
                new ResourceEvent.Created<>(
                    deployment(1, "1", Map.of("app", "web", "tier", "back", "owner", "me"), null))))
        .as("In")
        .isFalse();
    assertThat(
            p.test(
                new ResourceEvent.Created<>(
                    deployment(
                        1,
                        "1",
                        Map.of("app", "web", "tier", "edge", "owner", "me", "env", "dev"),
                        null))))
        .as("NotIn")
        .isFalse();
    assertThat(
            p.test(
                new ResourceEvent.Created<>(
                    deployment(1, "1", Map.of("app", "web", "tier", "edge"), null))))
        .as("Exists")
        .isFalse();
    assertThat(
            p.test(
                new ResourceEvent.Created<>(
                    deployment(
                        1,
                        "1",
                        Map.of("app", "web", "tier", "edge", "owner", "me", "legacy", "y"),
                        null))))
        .as("DoesNotExist")
        .isFalse();
    assertThat(
            p.test(
                new ResourceEvent.Created<>(
                    deployment(1, "1", Map.of("app", "api", "tier", "edge", "owner", "me"), null))))
        .as("matchLabels")
        .isFalse();
  }

  @Test
  void labelSelectorOnUpdateLooksAtTheNewState() {
    EventPredicate<Deployment> p = EventPredicate.hasLabels(Map.of("app", "web"));
    assertThat(
            p.test(
                update(
                    deployment(1, "1", Map.of(), null),
                    deployment(1, "2", Map.of("app", "web"), null))))
        .isTrue();
    assertThat(
            p.test(
                update(
                    deployment(1, "1", Map.of("app", "web"), null),
                    deployment(1, "2", Map.of(), null))))
        .isFalse();
  }

  @Test
  void labelSelectorRejectsUnknownOperatorsNamingTheFix() {
    assertThatThrownBy(
            () ->
                EventPredicate.labelSelector(
                    new LabelSelectorBuilder()
                        .addNewMatchExpression()
                        .withKey("tier")
                        .withOperator("Equals")
                        .withValues("a")
                        .endMatchExpression()
                        .build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'Equals'")
        .hasMessageContaining("In, NotIn, Exists or DoesNotExist");
    assertThatThrownBy(
            () ->
                EventPredicate.labelSelector(
                    new LabelSelectorBuilder()
                        .addNewMatchExpression()
                        .withKey("tier")
                        .withOperator("In")
                        .endMatchExpression()
                        .build()))
        .hasMessageContaining("needs at least one value");
  }

  @Test
  void andOrNotCompose() {
    EventPredicate<Deployment> gen = EventPredicate.generationChanged();
    EventPredicate<Deployment> labels = EventPredicate.labelsChanged();
    ResourceEvent<Deployment> specOnly = update(deployment(1, "1"), deployment(2, "2"));
    ResourceEvent<Deployment> labelOnly =
        update(
            deployment(1, "1", Map.of("a", "1"), null), deployment(1, "2", Map.of("a", "2"), null));
    ResourceEvent<Deployment> statusOnly = update(deployment(1, "1"), deployment(1, "2"));

    assertThat(gen.or(labels).test(specOnly)).isTrue();
    assertThat(gen.or(labels).test(labelOnly)).isTrue();
    assertThat(gen.or(labels).test(statusOnly)).isFalse();
    assertThat(gen.and(labels).test(specOnly)).isFalse();
    assertThat(EventPredicate.not(gen).test(statusOnly)).isTrue();
    assertThat(EventPredicate.<Deployment>anyOf(gen, labels).test(labelOnly)).isTrue();
    assertThat(EventPredicate.<Deployment>allOf(gen, labels).test(labelOnly)).isFalse();
    assertThat(EventPredicate.<Deployment>allOf().test(statusOnly)).isTrue();
    assertThat(EventPredicate.<Deployment>anyOf().test(statusOnly)).isFalse();
  }

  @Test
  void customPredicateHasOneRulePerEventType() {
    EventPredicate<Deployment> p =
        EventPredicate.<Deployment>custom()
            .onCreate(d -> d.getMetadata().getName().startsWith("w"))
            .onUpdate(
                (before, after) ->
                    !before
                        .getMetadata()
                        .getGeneration()
                        .equals(after.getMetadata().getGeneration()))
            .onDelete(d -> false)
            .build();

    assertThat(p.test(new ResourceEvent.Created<>(deployment(1, "1")))).isTrue();
    assertThat(p.test(update(deployment(1, "1"), deployment(1, "2")))).isFalse();
    assertThat(p.test(update(deployment(1, "1"), deployment(2, "2")))).isTrue();
    assertThat(p.test(new ResourceEvent.Deleted<>(deployment(1, "1"), true))).isFalse();
    assertThat(p.test(new ResourceEvent.Generic<>(deployment(1, "1"))))
        .as("types without a rule pass")
        .isTrue();
  }

  @Test
  void contentChangedPassesDataChangesOfConfigMapsAndSecretsButNotMetadataOnlyOnes() {
    EventPredicate<HasMetadata> p = EventPredicate.contentChanged();
    ConfigMap before =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName("cfg")
            .withResourceVersion("1")
            .endMetadata()
            .withData(Map.of("A", "1"))
            .build();
    ConfigMap relabelled =
        new ConfigMapBuilder(before)
            .editMetadata()
            .withResourceVersion("2")
            .withLabels(Map.of("team", "b"))
            .endMetadata()
            .build();
    ConfigMap edited =
        new ConfigMapBuilder(before)
            .editMetadata()
            .withResourceVersion("3")
            .endMetadata()
            .withData(Map.of("A", "2"))
            .build();
    ConfigMap binary = new ConfigMapBuilder(before).withBinaryData(Map.of("B", "AAEC")).build();

    assertThat(p.test(update(before, relabelled))).isFalse();
    assertThat(p.test(update(before, edited))).isTrue();
    assertThat(p.test(update(before, binary))).isTrue();
    assertThat(p.test(new ResourceEvent.Created<>(before))).isTrue();
    assertThat(p.test(new ResourceEvent.Deleted<>(before, false))).isTrue();

    Secret secret =
        new SecretBuilder()
            .withNewMetadata()
            .withName("s")
            .withResourceVersion("1")
            .endMetadata()
            .withData(Map.of("K", "dg=="))
            .build();
    Secret annotated =
        new SecretBuilder(secret)
            .editMetadata()
            .withResourceVersion("2")
            .withAnnotations(Map.of("a", "b"))
            .endMetadata()
            .build();
    Secret rotated = new SecretBuilder(annotated).withData(Map.of("K", "dw==")).build();
    assertThat(p.test(update(secret, annotated))).isFalse();
    assertThat(p.test(update(annotated, rotated))).isTrue();

    assertThat(p.test(update(deployment(1, "1"), deployment(1, "2"))))
        .as("other kinds: any new resourceVersion")
        .isTrue();
    assertThat(p.test(update(deployment(1, "1"), deployment(1, "1")))).isFalse();
  }
}
