package dev.converge.docscheck.given;

/** A cloud service outside the cluster, as the READMEs' finalizer examples clean up after. */
public interface CloudDatabases {

  /** Whether a drop of {@code database} was asked for and has not finished. */
  boolean dropInProgress(String database);

  /** Asks for {@code database} to be dropped; idempotent. */
  void drop(String database);
}
