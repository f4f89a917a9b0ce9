package dev.converge.operator.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TypedVersionsTest {

  private final KubernetesSerialization serialization = new KubernetesSerialization();
  private final List<String> converted = new ArrayList<>();

  /** Converts as the informers do, and records which resourceVersion each conversion read. */
  private final TypedVersions<Deployment> versions =
      new TypedVersions<>(
          stored -> {
            converted.add(stored.getMetadata().getResourceVersion());
            if ("unreadable".equals(stored.getMetadata().getLabels().get("state"))) {
              return Optional.empty();
            }
            return Optional.of(serialization.convertValue(stored, Deployment.class));
          },
          true);

  private final ItemStore<GenericKubernetesResource> store =
      versions.store(new TrimmingItemStore<>(true));

  private static GenericKubernetesResource version(String resourceVersion, String state) {
    GenericKubernetesResource object = new GenericKubernetesResource();
    object.setApiVersion("apps/v1");
    object.setKind("Deployment");
    object.setMetadata(
        new ObjectMetaBuilder()
            .withNamespace("shop")
            .withName("web")
            .withResourceVersion(resourceVersion)
            .withLabels(Map.of("state", state))
            .build());
    return object;
  }

  private GenericKubernetesResource put(GenericKubernetesResource object) {
    store.put(store.getKey(object), object);
    return object;
  }

  @Test
  void eachStoredVersionIsConvertedOnceHoweverOftenItIsRead() {
    GenericKubernetesResource v1 = put(version("1", "new"));
    Optional<Deployment> first = versions.read(v1);
    Optional<Deployment> again = versions.read(v1);

    assertThat(converted).containsExactly("1");
    assertThat(first)
        .get()
        .extracting(d -> d.getMetadata().getLabels().get("state"))
        .isEqualTo("new");
    assertThat(again.get()).isSameAs(first.get());
  }

  @Test
  void anUpdateReadsTheVersionBeforeAndAfterWithoutConvertingEitherAgain() {
    GenericKubernetesResource v1 = put(version("1", "new"));
    GenericKubernetesResource v2 = put(version("2", "rolled"));

    Deployment before = versions.read(v1).orElseThrow();
    Deployment after = versions.read(v2).orElseThrow();

    assertThat(converted).containsExactly("1", "2");
    assertThat(before.getMetadata().getResourceVersion()).isEqualTo("1");
    assertThat(after.getMetadata().getResourceVersion()).isEqualTo("2");
  }

  @Test
  void aVersionNoLongerHeldIsConvertedAfreshNeverTakenForAnother() {
    GenericKubernetesResource v1 = put(version("1", "new"));
    GenericKubernetesResource v2 = put(version("2", "rolled"));
    put(version("3", "scaled"));
    versions.handled(v1); // an update handled late: v1 is no longer held, v2 is

    Deployment late = versions.read(v1).orElseThrow();
    versions.read(v2);

    assertThat(late.getMetadata().getResourceVersion()).isEqualTo("1");
    assertThat(converted).containsExactly("1", "2", "3", "1");
  }

  @Test
  void theReplacedVersionIsLetGoOnceItsUpdateIsHandledAndEverythingOnRemoval() {
    GenericKubernetesResource v1 = put(version("1", "new"));
    put(version("2", "rolled"));
    assertThat(versions.held()).isEqualTo(2);

    versions.handled(v1);
    assertThat(versions.held()).isEqualTo(1);

    store.remove("shop/web");
    assertThat(versions.held()).isZero();
    assertThat(store.get("shop/web")).isNull();
  }

  @Test
  void withoutHandlersNoReplacedVersionIsKept() {
    TypedVersions<Deployment> unhandled =
        new TypedVersions<>(
            stored -> Optional.of(serialization.convertValue(stored, Deployment.class)), false);
    ItemStore<GenericKubernetesResource> plain = unhandled.store(new TrimmingItemStore<>(true));
    GenericKubernetesResource v1 = version("1", "new");
    plain.put(plain.getKey(v1), v1);
    GenericKubernetesResource v2 = version("2", "rolled");
    plain.put(plain.getKey(v2), v2);

    assertThat(unhandled.held()).isEqualTo(1);
    assertThat(unhandled.read(v1).orElseThrow().getMetadata().getResourceVersion()).isEqualTo("1");
  }

  @Test
  void anUnreadableVersionReadsAsEmptyWithoutAnotherAttempt() {
    HasMetadata bad = put(version("1", "unreadable"));

    assertThat(versions.read(bad)).isEmpty();
    assertThat(versions.read(bad)).isEmpty();
    assertThat(converted).containsExactly("1");
  }
}
