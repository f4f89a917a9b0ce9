package dev.converge.docscheck.given;

import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.StrategyContext;
import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * The user's own strategy of the READMEs' examples (the conformance kit is shown checking it). It
 * only has to compile: the snippets that name it are never run.
 */
public final class MyStrategy implements ResourceStrategy {

  @Override
  public String name() {
    return "mine";
  }

  @Override
  public <R extends HasMetadata> ApplyResult<R> apply(R desired, StrategyContext context) {
    throw new UnsupportedOperationException("a stand-in for the README snippets");
  }
}
