package dev.converge.strategy;

/**
 * Raised at startup when configuration names a strategy that is not installed (a typo, or a plugin
 * jar missing from the classpath), or when selection configuration cannot be parsed.
 */
public final class StrategyConfigurationException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * A configuration error.
   *
   * @param message what is wrong, naming the strategy or text at fault and what would be accepted
   */
  public StrategyConfigurationException(String message) {
    super(message);
  }
}
