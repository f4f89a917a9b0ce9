package dev.converge.operator.internal;

import dev.converge.reconcile.ObjectKey;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One pass of a dry run: every primary each controller's cache holds when the workers start is
 * reconciled once. A reconcile counts whatever its result: a requeue, a delay or a failure does not
 * bring the object back into the pass (a dry-run write triggers no watch event, yet requeues would
 * otherwise keep the pass running for ever). Primaries that appear later are reconciled if they
 * come before the pass ends, but the pass does not wait for them.
 */
public final class DryRunPass implements ControllerRuntime.Listener {

  private final Set<String> remaining = ConcurrentHashMap.newKeySet();
  private final List<String> primaries = Collections.synchronizedList(new ArrayList<>());
  private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
  private final CompletableFuture<Void> done = new CompletableFuture<>();

  /** Adds the primaries of {@code controller}, before its workers start. */
  public void expect(ControllerRuntime<?> controller) {
    String kind = HasMetadata.getKind(controller.definition().primaryType());
    for (HasMetadata primary : controller.cachedPrimaries()) {
      ObjectKey key = ObjectKey.of(primary);
      if (remaining.add(id(controller.name(), key))) {
        primaries.add(kind + " " + key);
      }
    }
    controller.listener(this);
  }

  /** Called once every controller's primaries are expected: a pass over nothing is done now. */
  public void begin() {
    if (remaining.isEmpty()) {
      done.complete(null);
    }
  }

  /** Completes once every expected primary was reconciled once. */
  public CompletableFuture<Void> done() {
    return done;
  }

  /** The primaries of the pass, as {@code Kind namespace/name}, sorted. */
  public List<String> primaries() {
    synchronized (primaries) {
      return primaries.stream().sorted().toList();
    }
  }

  /** Reconciles that failed other than by a refused write, as {@code Kind namespace/name: why}. */
  public List<String> failures() {
    synchronized (failures) {
      return List.copyOf(failures);
    }
  }

  @Override
  public void processed(String controller, ObjectKey key) {
    if (remaining.remove(id(controller, key)) && remaining.isEmpty()) {
      done.complete(null);
    }
  }

  @Override
  public void failed(String controller, String kind, ObjectKey key, Throwable failure) {
    if (!refusedByServer(failure)) {
      failures.add(kind + " " + key + ": " + failure);
    }
  }

  /** A 4xx answer to a dry run is in the report as a refused write already. */
  private static boolean refusedByServer(Throwable failure) {
    for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof KubernetesClientException kce
          && kce.getCode() >= 400
          && kce.getCode() < 500) {
        return true;
      }
    }
    return false;
  }

  private static String id(String controller, ObjectKey key) {
    return controller + "\u0000" + key;
  }
}
