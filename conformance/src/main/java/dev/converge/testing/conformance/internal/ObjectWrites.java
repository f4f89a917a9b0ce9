package dev.converge.testing.conformance.internal;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.awaitility.Awaitility;

/**
 * Every write anyone makes to one object from now on, as the API server's watch reports them: how a
 * scenario tells the retries a strategy owes to other writers (a controller updating the object's
 * status while the strategy writes, on a busy machine) from retries without cause.
 */
final class ObjectWrites implements AutoCloseable {

  private final Set<String> versions = ConcurrentHashMap.newKeySet();
  private final KubernetesClient client;
  private final HasMetadata object;
  private final Watch watch;
  private final String startVersion;

  private ObjectWrites(KubernetesClient client, HasMetadata object) {
    this.client = client;
    this.object = object;
    this.watch =
        client
            .resource(object)
            .watch(
                new Watcher<HasMetadata>() {
                  @Override
                  public void eventReceived(Action action, HasMetadata changed) {
                    if (action == Action.MODIFIED) {
                      versions.add(changed.getMetadata().getResourceVersion());
                    }
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                });
    this.startVersion = client.resource(object).get().getMetadata().getResourceVersion();
  }

  /** Starts watching {@code object} (named by its namespace and name). */
  static ObjectWrites of(KubernetesClient client, HasMetadata object) {
    return new ObjectWrites(client, object);
  }

  /**
   * The writes seen since the watch began, counted once the watch has caught up with the object as
   * it is now.
   */
  int count() {
    String now = client.resource(object).get().getMetadata().getResourceVersion();
    if (!now.equals(startVersion)) {
      Awaitility.await("the watch of " + object.getMetadata().getName() + " catches up")
          .atMost(Duration.ofSeconds(60))
          .until(() -> versions.contains(now));
    }
    return (int) versions.stream().filter(v -> !v.equals(startVersion)).count();
  }

  @Override
  public void close() {
    watch.close();
  }
}
