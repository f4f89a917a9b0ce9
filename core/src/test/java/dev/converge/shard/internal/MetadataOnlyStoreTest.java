package dev.converge.shard.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetadataOnlyStoreTest {

  private static final ShardLabels KEYS = ShardLabels.of("widgets");

  private static GenericKubernetesResource configMap(Map<String, String> labels) {
    ObjectMeta meta = new ObjectMeta();
    meta.setName("settings");
    meta.setNamespace("apps");
    meta.setUid("0b1c");
    meta.setResourceVersion("42");
    meta.setLabels(labels);
    meta.setAnnotations(Map.of("note", "x".repeat(1000)));
    meta.setFinalizers(List.of("example.com/cleanup"));
    meta.setManagedFields(List.of(new ManagedFieldsEntry()));
    meta.setOwnerReferences(List.of(new OwnerReference()));
    GenericKubernetesResource cm = new GenericKubernetesResource();
    cm.setApiVersion("v1");
    cm.setKind("ConfigMap");
    cm.setMetadata(meta);
    cm.setAdditionalProperty("data", Map.of("big", "y".repeat(10_000)));
    return cm;
  }

  @Test
  void keepsWhatTheSharderReadsAndWritesWithAndNothingElse() {
    MetadataOnlyStore store = new MetadataOnlyStore(KEYS);
    GenericKubernetesResource cm =
        configMap(
            Map.of(
                "app", "demo",
                "shard.converge.dev/widgets", "member-a",
                "drain.shard.converge.dev/widgets", "true",
                "shard.converge.dev/other-ring", "member-b"));

    store.put("apps/settings", cm);
    GenericKubernetesResource kept = store.get("apps/settings");

    assertThat(kept).isNotSameAs(cm);
    assertThat(kept.getApiVersion()).isEqualTo("v1");
    assertThat(kept.getKind()).isEqualTo("ConfigMap");
    assertThat(kept.getAdditionalProperties()).isEmpty();
    ObjectMeta meta = kept.getMetadata();
    assertThat(meta.getName()).isEqualTo("settings");
    assertThat(meta.getNamespace()).isEqualTo("apps");
    assertThat(meta.getUid()).isEqualTo("0b1c");
    assertThat(meta.getResourceVersion()).isEqualTo("42");
    assertThat(meta.getLabels())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "shard.converge.dev/widgets", "member-a",
                "drain.shard.converge.dev/widgets", "true"));
    assertThat(meta.getAnnotations()).isNullOrEmpty();
    assertThat(meta.getFinalizers()).isNullOrEmpty();
    assertThat(meta.getManagedFields()).isNullOrEmpty();
    assertThat(meta.getOwnerReferences()).isNullOrEmpty();
    assertThat(meta.getAdditionalProperties()).isEmpty();
    assertThat(cm.getAdditionalProperties()).as("the parsed object is not changed").isNotEmpty();
  }

  @Test
  void anObjectWithoutRingLabelsKeepsNoLabel() {
    GenericKubernetesResource kept = MetadataOnlyStore.slim(configMap(Map.of("app", "demo")), KEYS);
    assertThat(kept.getMetadata().getLabels()).isEmpty();

    kept = MetadataOnlyStore.slim(configMap(null), KEYS);
    assertThat(kept.getMetadata().getLabels()).isEmpty();

    kept =
        MetadataOnlyStore.slim(configMap(Map.of("shard.converge.dev/widgets", "member-a")), KEYS);
    assertThat(kept.getMetadata().getLabels())
        .containsExactly(Map.entry("shard.converge.dev/widgets", "member-a"));
  }
}
