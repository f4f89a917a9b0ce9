/** The three-way JSON merge patch strategy ({@code merge-patch}). */
module dev.converge.strategy.patch {
  requires transitive dev.converge.strategy.spi;
  // Named here rather than only through dev.converge.strategy.spi: a Converge jar carries an
  // Automatic-Module-Name, not its descriptor, and an automatic module passes on no requires.
  requires transitive kubernetes.client.api;
  requires transitive kubernetes.model.common;
  requires transitive kubernetes.model.core;
  requires tools.jackson.databind;
  requires org.slf4j;

  exports dev.converge.strategy.patch;

  provides dev.converge.strategy.ResourceStrategy with
      dev.converge.strategy.patch.MergePatchStrategy;
}
