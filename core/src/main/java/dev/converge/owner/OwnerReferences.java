package dev.converge.owner;

import static dev.converge.retry.internal.ResourceText.blank;

import dev.converge.retry.internal.ResourceText;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Owner references on a dependent object, with the rules of the API server's garbage collector: a
 * namespaced owner may only own objects in its own namespace, a cluster-scoped owner may own
 * anything, and an object has at most one controller.
 *
 * <p>The mutating methods change the dependent <em>in memory</em>, the way one builds a desired
 * object before creating or writing it; never call them on an object taken from an informer cache.
 */
public final class OwnerReferences {

  private OwnerReferences() {}

  /**
   * Makes {@code owner} the controller of {@code dependent} ({@code controller: true}, {@code
   * blockOwnerDeletion: true}), so that deleting the owner garbage-collects the dependent and
   * events of the dependent can be routed to the owner. Idempotent.
   *
   * @param owner the object that controls; it must have been stored (have a uid)
   * @param dependent the object being built, changed in memory
   * @return true when the dependent's references changed
   * @throws AlreadyControlledException when a different object already controls the dependent
   * @throws InvalidOwnerException when the owner has no uid/apiVersion/kind or the scopes forbid it
   */
  public static boolean setController(HasMetadata owner, HasMetadata dependent) {
    OwnerReference wanted = referenceTo(owner, dependent, true);
    List<OwnerReference> refs = refsOf(dependent);
    Optional<OwnerReference> existing = controllerOf(dependent);
    if (existing.isPresent() && !sameObject(existing.get(), wanted)) {
      OwnerReference other = existing.get();
      throw new AlreadyControlledException(
          ResourceText.describe(dependent)
              + " is already controlled by "
              + other.getKind()
              + " "
              + other.getName()
              + " (uid "
              + other.getUid()
              + "), so "
              + ResourceText.describe(owner)
              + " cannot become its controller; an object has at most"
              + " one controller. Remove the existing controller reference first, or use"
              + " OwnerReferences.addOwner for a non-controller reference.",
          other);
    }
    return upsert(dependent, refs, wanted, true);
  }

  /**
   * Makes {@code owner} the controller of {@code dependent} unless the dependent already names a
   * controller, which is then kept as the caller's deliberate choice. What {@code Context.apply}
   * does to every object it writes for the primary.
   *
   * @param owner the object that controls; it must have been stored (have a uid)
   * @param dependent the object being built, changed in memory
   * @return true when the dependent's references changed
   * @throws InvalidOwnerException when the owner has no uid/apiVersion/kind or the scopes forbid it
   */
  public static boolean setControllerIfAbsent(HasMetadata owner, HasMetadata dependent) {
    if (controllerOf(dependent).isPresent()) {
      return false;
    }
    return setController(owner, dependent);
  }

  /**
   * Adds a non-controller owner reference: the dependent is garbage-collected only when all of its
   * owners are gone. An existing reference to the same owner keeps its controller flag. Idempotent.
   *
   * @param owner the object that owns; it must have been stored (have a uid)
   * @param dependent the object being built, changed in memory
   * @return true when the dependent's references changed
   * @throws InvalidOwnerException when the owner has no uid/apiVersion/kind or the scopes forbid it
   */
  public static boolean addOwner(HasMetadata owner, HasMetadata dependent) {
    OwnerReference wanted = referenceTo(owner, dependent, false);
    return upsert(dependent, refsOf(dependent), wanted, false);
  }

  /**
   * Removes every reference to {@code owner} (matched by API group, kind and name) from the
   * dependent.
   *
   * @param owner the object whose references go
   * @param dependent the object being built, changed in memory
   * @return true when a reference was removed
   */
  public static boolean remove(HasMetadata owner, HasMetadata dependent) {
    Objects.requireNonNull(owner, "owner");
    ObjectMeta meta = Objects.requireNonNull(dependent, "dependent").getMetadata();
    if (meta == null || meta.getOwnerReferences() == null) {
      return false;
    }
    OwnerReference target =
        new OwnerReferenceBuilder()
            .withApiVersion(ResourceText.apiVersionOf(owner))
            .withKind(ResourceText.kindOf(owner))
            .withName(owner.getMetadata() == null ? null : owner.getMetadata().getName())
            .withUid(owner.getMetadata() == null ? null : owner.getMetadata().getUid())
            .build();
    List<OwnerReference> kept = new ArrayList<>();
    for (OwnerReference ref : meta.getOwnerReferences()) {
      if (!sameObject(ref, target)) {
        kept.add(ref);
      }
    }
    if (kept.size() == meta.getOwnerReferences().size()) {
      return false;
    }
    meta.setOwnerReferences(kept);
    return true;
  }

  /**
   * The reference with {@code controller: true}, if any.
   *
   * @param object the object to look at; may be null
   * @return its controller reference, or empty when it has none
   */
  public static Optional<OwnerReference> controllerOf(HasMetadata object) {
    if (object == null
        || object.getMetadata() == null
        || object.getMetadata().getOwnerReferences() == null) {
      return Optional.empty();
    }
    return object.getMetadata().getOwnerReferences().stream()
        .filter(ref -> Boolean.TRUE.equals(ref.getController()))
        .findFirst();
  }

  /**
   * True when {@code owner} (matched by uid) is the controller of {@code object}. Matching by uid
   * tells a deleted owner from a new one that took its name.
   *
   * @param object the possible dependent
   * @param owner the possible controller; false when it has no uid
   * @return whether {@code object}'s controller reference points to {@code owner}
   */
  public static boolean isControlledBy(HasMetadata object, HasMetadata owner) {
    String uid = owner == null || owner.getMetadata() == null ? null : owner.getMetadata().getUid();
    return !blank(uid) && controllerOf(object).map(ref -> uid.equals(ref.getUid())).orElse(false);
  }

  /**
   * True when {@code object} has any reference (controller or not) to {@code owner}, by uid.
   *
   * @param object the possible dependent
   * @param owner the possible owner; false when it has no uid
   * @return whether one of {@code object}'s owner references points to {@code owner}
   */
  public static boolean isOwnedBy(HasMetadata object, HasMetadata owner) {
    String uid = owner == null || owner.getMetadata() == null ? null : owner.getMetadata().getUid();
    return !blank(uid) && refsOf(object).stream().anyMatch(ref -> uid.equals(ref.getUid()));
  }

  private static OwnerReference referenceTo(
      HasMetadata owner, HasMetadata dependent, boolean controller) {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(dependent, "dependent");
    String ownerText = ResourceText.describe(owner);
    String dependentText = ResourceText.describe(dependent);
    ObjectMeta ownerMeta = owner.getMetadata();
    if (ownerMeta == null || blank(ownerMeta.getName())) {
      throw new InvalidOwnerException(
          "owner " + ownerText + " of " + dependentText + " has no metadata.name");
    }
    if (blank(ownerMeta.getUid())) {
      throw new InvalidOwnerException(
          "owner "
              + ownerText
              + " of "
              + dependentText
              + " has no metadata.uid: use the object as read from (or returned by) the API server,"
              + " not a locally built one");
    }
    String apiVersion = ResourceText.apiVersionOf(owner);
    String kind = owner.getKind();
    if (blank(kind) && !(owner instanceof GenericKubernetesResource)) {
      kind = HasMetadata.getKind(owner.getClass());
    }
    if (blank(apiVersion) || blank(kind)) {
      throw new InvalidOwnerException(
          "owner "
              + ownerText
              + " of "
              + dependentText
              + " has no apiVersion or kind; set them on the owner object");
    }
    String ownerNamespace = ownerMeta.getNamespace();
    String dependentNamespace =
        dependent.getMetadata() == null ? null : dependent.getMetadata().getNamespace();
    if (!blank(ownerNamespace)) {
      if (blank(dependentNamespace)) {
        throw new InvalidOwnerException(
            "namespaced owner "
                + ownerText
                + " cannot own "
                + dependentText
                + ", which has no namespace (cluster-scoped objects may only have"
                + " cluster-scoped owners); if "
                + dependentText
                + " is namespaced, set its"
                + " metadata.namespace to \""
                + ownerNamespace
                + "\"");
      }
      if (!ownerNamespace.equals(dependentNamespace)) {
        throw new InvalidOwnerException(
            "cross-namespace owner references are not allowed: owner "
                + ownerText
                + " is in namespace \""
                + ownerNamespace
                + "\" but "
                + dependentText
                + " is in namespace \""
                + dependentNamespace
                + "\"");
      }
    }
    OwnerReferenceBuilder builder =
        new OwnerReferenceBuilder()
            .withApiVersion(apiVersion)
            .withKind(kind)
            .withName(ownerMeta.getName())
            .withUid(ownerMeta.getUid());
    if (controller) {
      builder.withController(true).withBlockOwnerDeletion(true);
    }
    return builder.build();
  }

  private static boolean upsert(
      HasMetadata dependent, List<OwnerReference> refs, OwnerReference wanted, boolean controller) {
    List<OwnerReference> updated = new ArrayList<>(refs.size() + 1);
    boolean found = false;
    boolean changed = false;
    for (OwnerReference ref : refs) {
      if (!found && sameObject(ref, wanted)) {
        found = true;
        OwnerReference merged = controller ? wanted : keepControllerFlag(ref, wanted);
        changed |= !merged.equals(ref);
        updated.add(merged);
      } else {
        updated.add(ref);
      }
    }
    if (!found) {
      updated.add(wanted);
      changed = true;
    }
    if (changed) {
      if (dependent.getMetadata() == null) {
        dependent.setMetadata(new ObjectMeta());
      }
      dependent.getMetadata().setOwnerReferences(updated);
    }
    return changed;
  }

  private static OwnerReference keepControllerFlag(OwnerReference existing, OwnerReference wanted) {
    return new OwnerReferenceBuilder(wanted)
        .withController(existing.getController())
        .withBlockOwnerDeletion(existing.getBlockOwnerDeletion())
        .build();
  }

  private static List<OwnerReference> refsOf(HasMetadata object) {
    ObjectMeta meta = object == null ? null : object.getMetadata();
    return meta == null || meta.getOwnerReferences() == null
        ? List.of()
        : meta.getOwnerReferences();
  }

  /** Same object as the garbage collector sees it: same API group, kind and name (any version). */
  private static boolean sameObject(OwnerReference a, OwnerReference b) {
    return Objects.equals(groupOf(a.getApiVersion()), groupOf(b.getApiVersion()))
        && Objects.equals(a.getKind(), b.getKind())
        && Objects.equals(a.getName(), b.getName());
  }

  private static String groupOf(String apiVersion) {
    if (apiVersion == null) {
      return "";
    }
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }
}
