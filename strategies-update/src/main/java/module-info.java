/**
 * The create-or-update strategy ({@code update}): read, merge, PUT with the read resourceVersion.
 */
module dev.converge.strategy.update {
  requires transitive dev.converge.strategy.spi;
  // Named here rather than only through dev.converge.strategy.spi: a Converge jar carries an
  // Automatic-Module-Name, not its descriptor, and an automatic module passes on no requires.
  requires transitive kubernetes.client.api;
  requires transitive kubernetes.model.common;
  requires transitive kubernetes.model.core;
  requires org.slf4j;

  exports dev.converge.strategy.update;

  uses dev.converge.strategy.ServerFieldPreserver;

  provides dev.converge.strategy.ResourceStrategy with
      dev.converge.strategy.update.UpdateStrategy;
  provides dev.converge.strategy.ServerFieldPreserver with
      dev.converge.strategy.update.internal.ServicePreserver,
      dev.converge.strategy.update.internal.PersistentVolumeClaimPreserver;
}
