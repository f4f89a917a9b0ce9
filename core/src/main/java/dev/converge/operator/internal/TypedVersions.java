package dev.converge.operator.internal;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The custom resources of one kind read into their class once per stored version, for the readers
 * that only look at them: index functions, predicates and event handlers.
 *
 * <p>An informer of a custom resource stores it as it came ({@link GenericKubernetesResource}, see
 * {@code SharedInformers#view} for why), and each of those readers needs it as its class. Read on
 * demand, one update event cost two conversions per index function (fabric8 recomputes the keys of
 * the version before and after to move the index entry) and two more for the handlers. Here the
 * {@link #store stores} of the kind's informers convert each version once, as it is stored, and
 * keep it with the version it replaced until the handlers have seen that update.
 *
 * <p>The typed objects are shared by every such reader, as a built-in kind's stored objects are;
 * whoever may change an object (a reconciler, a strategy) gets a conversion of its own through
 * {@code ResourceCache}. A version is found by identity with the stored object, so an object the
 * store no longer holds (an event handled long after newer ones arrived) is converted afresh, never
 * confused with another version of the same name.
 */
final class TypedVersions<R extends HasMetadata> {

  private final Function<HasMetadata, Optional<R>> convert;
  private final boolean keepReplaced;

  /** By cache key: the stored version and, until its update is handled, the one it replaced. */
  private final Map<String, Versions<R>> byKey = new ConcurrentHashMap<>();

  private record Version<R>(HasMetadata stored, Optional<R> typed) {}

  private record Versions<R>(Version<R> latest, Version<R> replaced) {
    /** The version whose stored object is {@code stored} itself; null for none. */
    Version<R> find(HasMetadata stored) {
      if (latest.stored == stored) {
        return latest;
      }
      return replaced != null && replaced.stored == stored ? replaced : null;
    }
  }

  /**
   * @param convert the object as its class; empty when it cannot be read as one (the function
   *     reports it)
   * @param handled true when handlers read each update and then call {@link #handled}: only then is
   *     a replaced version kept for them (without handlers, nothing would let it go)
   */
  TypedVersions(Function<HasMetadata, Optional<R>> convert, boolean handled) {
    this.convert = convert;
    this.keepReplaced = handled;
  }

  /**
   * {@code stored} as its class: the version converted when it was stored if the store still holds
   * it (or it was just replaced), otherwise a conversion of its own.
   */
  Optional<R> read(HasMetadata stored) {
    Versions<R> versions = byKey.get(Cache.metaNamespaceKeyFunc(stored));
    Version<R> known = versions == null ? null : versions.find(stored);
    return known != null ? known.typed : convert.apply(stored);
  }

  /**
   * Forgets the version {@code replaced} once the handlers have read it as the object before an
   * update: nothing reads it afterwards.
   */
  void handled(HasMetadata replaced) {
    byKey.computeIfPresent(
        Cache.metaNamespaceKeyFunc(replaced),
        (key, versions) ->
            versions.replaced != null && versions.replaced.stored == replaced
                ? new Versions<>(versions.latest, null)
                : versions);
  }

  /** Objects converted and held now, for tests. */
  int held() {
    return byKey.values().stream().mapToInt(v -> v.replaced == null ? 1 : 2).sum();
  }

  /**
   * The store of one informer of the kind: {@code inner} keeps the objects as they came, and each
   * one put is converted here, once.
   */
  ItemStore<GenericKubernetesResource> store(ItemStore<GenericKubernetesResource> inner) {
    return new ItemStore<>() {
      @Override
      public String getKey(GenericKubernetesResource obj) {
        return inner.getKey(obj);
      }

      @Override
      public GenericKubernetesResource put(String key, GenericKubernetesResource obj) {
        GenericKubernetesResource previous = inner.put(key, obj); // trimmed in place first
        Version<R> version = new Version<>(obj, convert.apply(obj));
        byKey.compute(
            key,
            (k, held) ->
                new Versions<>(
                    version,
                    keepReplaced && held != null && held.latest.stored == previous
                        ? held.latest
                        : null));
        return previous;
      }

      @Override
      public GenericKubernetesResource remove(String key) {
        byKey.remove(key);
        return inner.remove(key);
      }

      @Override
      public Stream<String> keySet() {
        return inner.keySet();
      }

      @Override
      public Stream<GenericKubernetesResource> values() {
        return inner.values();
      }

      @Override
      public int size() {
        return inner.size();
      }

      @Override
      public GenericKubernetesResource get(String key) {
        return inner.get(key);
      }

      @Override
      public boolean isFullState() {
        return inner.isFullState();
      }
    };
  }
}
