package dev.converge.handler.internal;

import dev.converge.handler.EventHandler;
import dev.converge.reconcile.ObjectKey;
import dev.converge.source.Caches;
import dev.converge.source.ResourceEvent;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Enqueues the controller owner of the object, when that owner is of the given kind. An update that
 * moves the object to another owner enqueues both, so the old owner notices the loss.
 *
 * <p>The owner kind matches on API group and kind; the version is ignored because an owner
 * reference written with one served version stays valid when another becomes the preferred one.
 *
 * @param <T> the watched kind (the owned objects)
 */
public final class EnqueueControllerOwner<T extends HasMetadata> implements EventHandler<T> {

  private final String ownerGroup;
  private final String ownerKind;
  private final boolean ownerNamespaced;

  /**
   * A handler that wakes controller owners of {@code ownerType}; references to owners of other
   * kinds are ignored.
   *
   * @param ownerType the owner kind, usually the controller's primary kind; its API group and kind
   *     are those fabric8 reads from the class (its {@code @Group} and {@code @Kind})
   */
  public EnqueueControllerOwner(Class<? extends HasMetadata> ownerType) {
    Objects.requireNonNull(ownerType, "ownerType");
    this.ownerGroup = groupOf(HasMetadata.getApiVersion(ownerType));
    this.ownerKind = HasMetadata.getKind(ownerType);
    this.ownerNamespaced = Namespaced.class.isAssignableFrom(ownerType);
  }

  @Override
  public Collection<ObjectKey> keysFor(ResourceEvent<? extends T> event, Caches caches) {
    Set<ObjectKey> keys = new LinkedHashSet<>(2);
    if (event instanceof ResourceEvent.Updated<? extends T> update) {
      addOwner(update.oldObject(), keys);
    }
    addOwner(event.object(), keys);
    return keys;
  }

  private void addOwner(HasMetadata object, Set<ObjectKey> keys) {
    if (object.getMetadata().getOwnerReferences() == null) {
      return;
    }
    for (OwnerReference ref : object.getMetadata().getOwnerReferences()) {
      if (Boolean.TRUE.equals(ref.getController())
          && ownerKind.equals(ref.getKind())
          && ownerGroup.equals(groupOf(ref.getApiVersion()))) {
        keys.add(
            new ObjectKey(
                ownerNamespaced ? object.getMetadata().getNamespace() : "", ref.getName()));
      }
    }
  }

  static String groupOf(String apiVersion) {
    if (apiVersion == null) {
      return "";
    }
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  @Override
  public String toString() {
    return "EnqueueControllerOwner["
        + (ownerGroup.isEmpty() ? "" : ownerGroup + "/")
        + ownerKind
        + "]";
  }
}
