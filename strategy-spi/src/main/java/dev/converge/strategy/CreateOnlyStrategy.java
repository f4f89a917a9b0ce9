package dev.converge.strategy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Optional;
import java.util.Set;

/**
 * The {@value #NAME} write policy: creates the object when it is missing and never changes it
 * afterwards. For values generated once that must survive every later reconcile and users' edits: a
 * password, a key pair, a claim on a volume.
 *
 * <p>A reconciler that generates a database password each time it runs would overwrite the stored
 * one on every reconcile with any strategy that updates; with this one the first value stays:
 *
 * <pre>{@code
 * Secret password = new SecretBuilder()
 *     .withMetadata(DependentMetadata.of(db, Map.of("app", name)))   // named after the primary
 *     .addToStringData("password", randomPassword())                  // only the first one is kept
 *     .build();
 * Secret live = context.apply(password, ApplyOptions.usingStrategy(CreateOnlyStrategy.NAME)).live();
 * }</pre>
 *
 * <p>or for the whole kind, {@code StrategySelection.parse("default=ssa, v1/Secret=create-only")}.
 * A user who edits the Secret (rotating the password by hand) keeps the edit; deleting it makes the
 * next reconcile create a new one. The object is read from the cache, so a steady-state apply sends
 * no request.
 *
 * <p>A create that loses a race (the cache had not seen an object created meanwhile: 409
 * AlreadyExists) is not an error: the object the server holds is read and returned, unchanged. An
 * object created with {@code create-only} still counts as applied for pruning, so it is kept as
 * long as its primary asks for it. It needs only the {@code create} verb. It ships in core, beside
 * the SPI, because it is a policy rather than a way of writing: it has no merge, no schema and no
 * field ownership to get right, and every operator may need it whatever write method it chose.
 */
public final class CreateOnlyStrategy implements ResourceStrategy {

  /** The name to select it by: {@value}. */
  public static final String NAME = "create-only";

  /** The strategy, as {@link java.util.ServiceLoader} makes it. */
  public CreateOnlyStrategy() {}

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Creates {@code desired} when the cache holds no object of its kind and name; otherwise sends
   * nothing and returns the cached object, whatever it holds.
   *
   * @throws ResourceWriteException when the API server refuses the create, or a create that found
   *     the object already there cannot read it back
   */
  @Override
  public <R extends HasMetadata> ApplyResult<R> apply(R desired, StrategyContext context) {
    Optional<R> live = context.current(desired);
    if (live.isPresent()) {
      return ApplyResult.unchanged(live.get());
    }
    try {
      return new ApplyResult<>(
          ApplyOutcome.CREATED, context.client().resource(desired).create(), "POST");
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw ResourceWriteException.of(desired, "POST", e);
      }
      // Created meanwhile by an earlier attempt or another writer: it is there, which is all this
      // strategy asks for.
      R current = context.client().resource(desired).get();
      if (current == null) {
        throw ResourceWriteException.of(desired, "POST (then GET after 409 AlreadyExists)", e);
      }
      return ApplyResult.unchanged(current);
    }
  }

  /**
   * Only {@code create}: this strategy never updates.
   *
   * @return {@code create}
   */
  @Override
  public Set<String> verbs() {
    return Set.of("create");
  }
}
