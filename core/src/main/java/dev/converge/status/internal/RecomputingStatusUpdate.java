package dev.converge.status.internal;

import dev.converge.retry.ConflictRetry;
import dev.converge.retry.internal.ResourceText;
import dev.converge.status.StatusOutcome;
import dev.converge.status.StatusWriter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the status a reconciler computes from its primary: only when it differs from the stored
 * one, with the read's resourceVersion, and on 409 Conflict from a fresh read with the status
 * computed again from that read. A primary deleted meanwhile is done, also when a new object of the
 * same name (another UID) has taken its place: the status computed for one object is never written
 * to another. A primary whose generation moved on is left to the reconcile of the new generation. A
 * conflict that persists after {@value #MAX_ATTEMPTS} attempts is thrown, and the runtime retries
 * the reconcile with backoff.
 *
 * <p>No sleeping between attempts: the fresh read is what makes the next attempt different.
 */
public final class RecomputingStatusUpdate {

  /** Writes tried before a conflict is handed back to the runtime. */
  public static final int MAX_ATTEMPTS = 3;

  private static final Logger LOG = LoggerFactory.getLogger(RecomputingStatusUpdate.class);

  private final KubernetesClient client;
  private final StatusWriter writer;
  private final BiConsumer<HasMetadata, String> serverMovedPast;

  public RecomputingStatusUpdate(KubernetesClient client, StatusWriter writer) {
    this(client, writer, (read, evidence) -> {});
  }

  /**
   * @param serverMovedPast told when the object as read turns out to be behind the API server:
   *     deleted there, or at another resourceVersion; with what the server answered
   */
  public RecomputingStatusUpdate(
      KubernetesClient client,
      StatusWriter writer,
      BiConsumer<HasMetadata, String> serverMovedPast) {
    this.client = Objects.requireNonNull(client, "client");
    this.writer = Objects.requireNonNull(writer, "writer").withOptimisticLock();
    this.serverMovedPast = Objects.requireNonNull(serverMovedPast, "serverMovedPast");
  }

  /**
   * Applies {@code compute} to a copy of {@code asRead} and writes the status difference. {@code
   * asRead} is not modified.
   */
  public <T extends HasMetadata> StatusOutcome<T> update(T asRead, Consumer<T> compute) {
    Objects.requireNonNull(asRead, "asRead");
    Objects.requireNonNull(compute, "compute");
    T base = asRead;
    for (int attempt = 1; ; attempt++) {
      try {
        return writer.update(base, compute);
      } catch (KubernetesClientException e) {
        if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
          return gone(base, e, attempt == 1);
        }
        if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt >= MAX_ATTEMPTS) {
          throw e;
        }
        T fresh = client.resource(base).get();
        if (fresh == null) {
          LOG.debug("{}: deleted before its status could be written", ResourceText.describe(base));
          if (attempt == 1) {
            serverMovedPast.accept(asRead, "had deleted it");
          }
          return new StatusOutcome.Gone<>(base);
        }
        String uid = base.getMetadata().getUid();
        String freshUid = fresh.getMetadata().getUid();
        if (ConflictRetry.replaced(base, fresh)) {
          LOG.info(
              "{}: status not written: the object read (uid {}) was deleted, and the name now"
                  + " belongs to a new object (uid {}), which its own reconcile handles",
              ResourceText.describe(base),
              uid,
              freshUid);
          if (attempt == 1) {
            serverMovedPast.accept(
                asRead, "had replaced it by a new object (uid " + freshUid + ")");
          }
          return new StatusOutcome.Gone<>(base);
        }
        if (attempt == 1) {
          serverMovedPast.accept(
              asRead, "was at resourceVersion " + fresh.getMetadata().getResourceVersion());
        }
        Long was = base.getMetadata().getGeneration();
        Long now = fresh.getMetadata().getGeneration();
        if (!Objects.equals(was, now)) {
          LOG.info(
              "{}: status not written, generation {} replaced {} since the read; its own"
                  + " reconcile writes it",
              ResourceText.describe(base),
              now,
              was);
          return new StatusOutcome.Superseded<>(fresh);
        }
        LOG.info(
            "{}: status write conflicted (resourceVersion {} is stale, now {}); recomputing"
                + " from a fresh read",
            ResourceText.describe(base),
            base.getMetadata().getResourceVersion(),
            fresh.getMetadata().getResourceVersion());
        base = fresh;
      }
    }
  }

  private <T extends HasMetadata> StatusOutcome<T> gone(
      T base, KubernetesClientException e, boolean asRead) {
    // 404 from /status means either the object is gone, or its kind has no status subresource.
    if (client.resource(base).get() != null) {
      throw new IllegalStateException(
          "status of "
              + ResourceText.describe(base)
              + " cannot be"
              + " written: the API server has no status subresource for it (404 on /status); add"
              + " 'subresources: {status: {}}' to the CustomResourceDefinition",
          e);
    }
    LOG.debug("{}: deleted before its status could be written", ResourceText.describe(base));
    if (asRead) {
      serverMovedPast.accept(base, "had deleted it");
    }
    return new StatusOutcome.Gone<>(base);
  }
}
