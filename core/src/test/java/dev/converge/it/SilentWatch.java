package dev.converge.it;

import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.lang.reflect.Field;
import java.util.concurrent.CompletableFuture;

/**
 * Makes an informer's watch stop delivering, as a connection that died without its client noticing
 * does: the watch is closed behind the informer's back, and the informer does not reconnect.
 */
public final class SilentWatch {

  private SilentWatch() {}

  public static void silence(SharedIndexInformer<?> informer) throws Exception {
    Field reflectorField = informer.getClass().getDeclaredField("reflector");
    reflectorField.setAccessible(true);
    Object reflector = reflectorField.get(informer);
    Field watchField = reflector.getClass().getDeclaredField("watchFuture");
    watchField.setAccessible(true);
    ((CompletableFuture<?>) watchField.get(reflector)).thenAccept(w -> ((Watch) w).close()).get();
  }
}
