/**
 * The create-or-update strategy ({@code update}): read, merge, PUT with the read resourceVersion.
 */
module dev.converge.strategy.update {
  requires transitive dev.converge.core;
  requires org.slf4j;

  exports dev.converge.strategy.update;

  provides dev.converge.strategy.ResourceStrategy with
      dev.converge.strategy.update.UpdateStrategy;
  provides dev.converge.strategy.ServerFieldPreserver with
      dev.converge.strategy.update.internal.ServicePreserver,
      dev.converge.strategy.update.internal.PersistentVolumeClaimPreserver;
}
