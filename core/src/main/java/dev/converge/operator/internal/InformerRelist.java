package dev.converge.operator.internal;

import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends an informer's current watch and has it list again and watch anew, keeping its store, its
 * indexes and its handlers: the list is compared with the store, so handlers hear of every object
 * added, changed or deleted while the watch delivered nothing.
 *
 * <p>fabric8 offers no public call for this; it is reached through two private fields of the
 * informer and its reflector, of the fabric8 version Converge is built against (checked by {@code
 * InformerRelistIT}). When those fields are not there, {@link #relist} says so and does nothing.
 */
final class InformerRelist {

  private static final Logger log = LoggerFactory.getLogger(InformerRelist.class);

  private static final String INFORMER =
      "io.fabric8.kubernetes.client.informers.impl.DefaultSharedIndexInformer";
  private static final String REFLECTOR_CLASS =
      "io.fabric8.kubernetes.client.informers.impl.cache.Reflector";

  private static final Field REFLECTOR = field(INFORMER, "reflector");
  private static final Field WATCH = field(REFLECTOR_CLASS, "watchFuture");
  private static final Method STOPPED = method(REFLECTOR_CLASS, "isStopped");
  private static final Method LIST_AND_WATCH = method(REFLECTOR_CLASS, "listSyncAndWatch");

  private InformerRelist() {}

  /** True when this fabric8 version lets an informer be relisted. */
  static boolean available() {
    return REFLECTOR != null && WATCH != null && STOPPED != null && LIST_AND_WATCH != null;
  }

  /**
   * Closes the informer's watch and starts a list followed by a new watch.
   *
   * @return false when the informer cannot be relisted (another implementation, or a fabric8
   *     version whose internals differ)
   */
  static boolean relist(SharedIndexInformer<?> informer) {
    if (!available() || !REFLECTOR.getDeclaringClass().isInstance(informer)) {
      return false;
    }
    try {
      Object reflector = REFLECTOR.get(informer);
      if (reflector == null || Boolean.TRUE.equals(STOPPED.invoke(reflector))) {
        return false;
      }
      CompletableFuture<?> watch = (CompletableFuture<?>) WATCH.get(reflector);
      if (watch != null) {
        // A closed watch reports a graceful end, on which the reflector does not reconnect: the
        // list below starts the next watch.
        var unused = watch.thenAccept(w -> ((Watch) w).close());
      }
      LIST_AND_WATCH.invoke(reflector);
      return true;
    } catch (IllegalAccessException | InvocationTargetException | ClassCastException e) {
      log.debug("informer {} cannot be relisted: {}", informer, e.toString());
      return false;
    }
  }

  private static Field field(String owner, String name) {
    try {
      Field f = Class.forName(owner).getDeclaredField(name);
      f.setAccessible(true);
      return f;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  private static Method method(String owner, String name) {
    try {
      return Class.forName(owner).getMethod(name);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }
}
