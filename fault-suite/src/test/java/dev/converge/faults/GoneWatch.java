package dev.converge.faults;

import dev.converge.example.api.AppDeployment;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.TcpProxy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The suite's own watch of the AppDeployments, through a proxy of its own that is cut with the
 * operators' own: a witness of what a client resuming a watch meets. It counts the answers of the
 * API server that say 410 Gone, as an HTTP status (counted by an interceptor of its client) or as
 * the watch's ERROR event (its close with {@link WatcherException#isHttpGone()}).
 */
final class GoneWatch implements AutoCloseable {

  private final AtomicInteger httpGone = new AtomicInteger();
  private final AtomicInteger watchGone = new AtomicInteger();
  private final KubernetesClient client;
  private final Watch watch;

  /** Lists the AppDeployments of {@code namespace} and watches them from the list's version. */
  GoneWatch(LocalCluster cluster, TcpProxy proxy, String namespace) {
    Interceptor counting =
        new Interceptor() {
          @Override
          public void after(
              HttpRequest request,
              HttpResponse<?> response,
              AsyncBody.Consumer<List<ByteBuffer>> consumer) {
            if (response.code() == 410) {
              httpGone.incrementAndGet();
            }
          }
        };
    client =
        new KubernetesClientBuilder()
            .withConfig(cluster.configVia(proxy))
            .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("count-410", counting))
            .build();
    String version =
        client
            .resources(AppDeployment.class)
            .inNamespace(namespace)
            .list()
            .getMetadata()
            .getResourceVersion();
    watch =
        client
            .resources(AppDeployment.class)
            .inNamespace(namespace)
            .withResourceVersion(version)
            .watch(
                new Watcher<AppDeployment>() {
                  @Override
                  public void eventReceived(Action action, AppDeployment resource) {}

                  @Override
                  public void onClose(WatcherException cause) {
                    if (cause.isHttpGone()) {
                      watchGone.incrementAndGet();
                    }
                  }
                });
  }

  /** Answers 410 Gone seen as an HTTP status. */
  int httpGone() {
    return httpGone.get();
  }

  /** Watches ended by 410 Gone (an ERROR event or the status). */
  int watchGone() {
    return watchGone.get();
  }

  @Override
  public void close() {
    watch.close();
    client.close();
  }
}
