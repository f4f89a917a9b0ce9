/** The server-side apply strategy ({@code ssa}). */
module dev.converge.strategy.ssa {
  requires transitive dev.converge.core;
  requires org.slf4j;

  exports dev.converge.strategy.ssa;

  provides dev.converge.strategy.ResourceStrategy with
      dev.converge.strategy.ssa.ServerSideApplyStrategy;
}
