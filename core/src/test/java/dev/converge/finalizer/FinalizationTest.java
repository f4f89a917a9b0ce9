package dev.converge.finalizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import dev.converge.reconcile.Context;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The decisions of the finalizer protocol. Writing the finalizer itself is proven against a real
 * API server in FinalizersIT; here the writer is a stand-in so each branch can be checked alone.
 */
class FinalizationTest {

  static final String OURS = "example.com/cleanup";

  private final Finalizers finalizers = mock(Finalizers.class);
  private final List<String> hookCalls = new ArrayList<>();

  @SuppressWarnings("unchecked")
  private final Context<ConfigMap> context = mock(Context.class);

  private static ConfigMap primary(boolean deleting, String... finalizerNames) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withNamespace("ns")
        .withName("db")
        .withDeletionTimestamp(deleting ? "2026-11-29T10:00:00Z" : null)
        .withFinalizers(finalizerNames)
        .endMetadata()
        .build();
  }

  private Finalization<ConfigMap> finalization(FinalizerHook<ConfigMap> hook) {
    return new Finalization<>(
        finalizers,
        OURS,
        (p, c) -> {
          hookCalls.add(p.getMetadata().getName());
          return hook.cleanup(p, c);
        });
  }

  @Test
  void liveObjectGetsTheFinalizerAndProceedsWithTheStoredCopy() {
    ConfigMap live = primary(false);
    ConfigMap stored = primary(false, OURS);
    when(finalizers.add(live, OURS)).thenReturn(stored);

    FinalizationOutcome<ConfigMap> outcome =
        finalization((p, c) -> CleanupResult.done()).apply(live, context);

    assertThat(outcome).isEqualTo(new FinalizationOutcome.Proceed<>(stored));
    assertThat(hookCalls).isEmpty();
    verify(finalizers, never()).remove(any(), anyString());
  }

  @Test
  void successfulCleanupRemovesTheFinalizer() {
    ConfigMap deleting = primary(true, OURS);

    FinalizationOutcome<ConfigMap> outcome =
        finalization((p, c) -> CleanupResult.done()).apply(deleting, context);

    assertThat(outcome).isInstanceOf(FinalizationOutcome.Finalized.class);
    assertThat(hookCalls).containsExactly("db");
    verify(finalizers).remove(deleting, OURS);
  }

  @Test
  void theHookGetsTheReconcileContext() {
    ConfigMap deleting = primary(true, OURS);
    List<Object> seen = new ArrayList<>();

    finalization(
            (p, c) -> {
              seen.add(c);
              return CleanupResult.done();
            })
        .apply(deleting, context);

    assertThat(seen).containsExactly(context);
  }

  @Test
  void failingCleanupKeepsTheFinalizerAndNamesTheResource() {
    ConfigMap deleting = primary(true, OURS);

    assertThatThrownBy(
            () ->
                finalization(
                        (p, c) -> {
                          throw new IllegalStateException("bucket not empty");
                        })
                    .apply(deleting, context))
        .isInstanceOf(FinalizerCleanupException.class)
        .hasMessageContaining("ConfigMap ns/db")
        .hasMessageContaining(OURS)
        .hasMessageContaining("bucket not empty")
        .hasCauseInstanceOf(IllegalStateException.class);
    verify(finalizers, never()).remove(any(), anyString());
  }

  @Test
  void unfinishedCleanupKeepsTheFinalizerAndAsksToComeBack() {
    ConfigMap deleting = primary(true, OURS);

    FinalizationOutcome<ConfigMap> outcome =
        finalization((p, c) -> CleanupResult.retryAfter(Duration.ofSeconds(20)))
            .apply(deleting, context);

    assertThat(outcome).isEqualTo(new FinalizationOutcome.CleanupPending<>(Duration.ofSeconds(20)));
    verify(finalizers, never()).remove(any(), anyString());
  }

  @Test
  void deletingObjectWithoutOurFinalizerIsLeftAlone() {
    ConfigMap deleting = primary(true, "other.example.com/x");

    FinalizationOutcome<ConfigMap> outcome =
        finalization((p, c) -> CleanupResult.done()).apply(deleting, context);

    assertThat(outcome).isInstanceOf(FinalizationOutcome.NotOurs.class);
    assertThat(hookCalls).isEmpty();
    verify(finalizers, never()).add(any(), anyString());
    verify(finalizers, never()).remove(any(), anyString());
  }

  @Test
  void retryDelayMustBePositive() {
    assertThatThrownBy(() -> CleanupResult.retryAfter(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CleanupResult.retryAfter(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
