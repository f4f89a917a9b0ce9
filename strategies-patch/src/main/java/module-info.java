/** The three-way JSON merge patch strategy ({@code merge-patch}). */
module dev.converge.strategy.patch {
  requires transitive dev.converge.core;
  requires org.slf4j;

  exports dev.converge.strategy.patch;

  provides dev.converge.strategy.ResourceStrategy with
      dev.converge.strategy.patch.MergePatchStrategy;
}
