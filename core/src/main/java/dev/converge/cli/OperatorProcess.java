package dev.converge.cli;

import dev.converge.operator.CommonPool;
import dev.converge.strategy.StrategyConfigurationException;
import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;

/**
 * The life of an operator process: start, then run until the JVM is asked to stop (SIGTERM from the
 * kubelet, Ctrl-C), then close what was started, within the JVM's shutdown. A configuration error
 * at start-up is a one-line message and exit code 2, not a stack trace.
 *
 * <pre>{@code
 * public Integer call() throws Exception {   // a picocli command
 *   return OperatorProcess.run("app-operator", this::start, System.err);
 * }
 * }</pre>
 *
 * <p>It returns the exit code rather than exiting, so the caller's {@code main} decides. On a JVM
 * that sees one or two processors it first keeps the JDK's asynchronous stages on pooled threads
 * ({@link CommonPool#ensureAsyncPool()}), so that the JDK HTTP client does not start a thread for
 * every API response.
 */
public final class OperatorProcess {

  /** Exit code of a configuration error at start-up. */
  public static final int CONFIGURATION_ERROR = 2;

  /** Starts an operator; closing what it returns stops it. */
  @FunctionalInterface
  public interface Starter {
    AutoCloseable start() throws Exception;
  }

  private OperatorProcess() {}

  /**
   * Starts with {@code starter} and waits until the JVM shuts down, closing what was started from a
   * shutdown hook.
   *
   * @param name the operator's name, first word of an error message
   * @param errors where a configuration error is printed
   * @return 0 once stopped; {@value #CONFIGURATION_ERROR} when {@code starter} throws a {@link
   *     StrategyConfigurationException} or an {@link IllegalArgumentException} (bad flags, a port
   *     in use), whose message is printed as {@code name: message}
   * @throws Exception any other failure of {@code starter}
   */
  public static int run(String name, Starter starter, PrintStream errors) throws Exception {
    CommonPool.ensureAsyncPool(); // before the client's first request
    AutoCloseable started;
    try {
      started = starter.start();
    } catch (StrategyConfigurationException | IllegalArgumentException e) {
      errors.println(name + ": " + e.getMessage());
      return CONFIGURATION_ERROR;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    started.close();
                  } catch (Exception e) {
                    errors.println(name + ": stopping failed: " + e);
                  } finally {
                    stopped.countDown();
                  }
                },
                name + "-shutdown"));
    stopped.await();
    return 0;
  }
}
