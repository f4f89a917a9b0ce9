package dev.converge.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.strategy.StrategyConfigurationException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OperatorProcessTest {

  private final ByteArrayOutputStream errors = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(errors, true, StandardCharsets.UTF_8);

  @Test
  void aConfigurationErrorIsOneLineAndExitCodeTwo() throws Exception {
    int code =
        OperatorProcess.run(
            "test-operator",
            () -> {
              throw new StrategyConfigurationException(
                  "no strategy 'replace' is installed; installed: ssa");
            },
            err);
    assertThat(code).isEqualTo(OperatorProcess.CONFIGURATION_ERROR);
    assertThat(errors.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "test-operator: no strategy 'replace' is installed; installed: ssa"
                + System.lineSeparator());

    errors.reset();
    assertThat(
            OperatorProcess.run(
                "test-operator",
                () -> {
                  throw new IllegalArgumentException(
                      "HTTP port 8081 for probes and metrics: Address already in use");
                },
                err))
        .isEqualTo(2);
    assertThat(errors.toString(StandardCharsets.UTF_8)).startsWith("test-operator: HTTP port 8081");
  }

  @Test
  void anyOtherStartFailureIsThrownAsItIs() {
    assertThatThrownBy(
            () ->
                OperatorProcess.run(
                    "test-operator",
                    () -> {
                      throw new IOException("cannot read /etc/operator.properties");
                    },
                    err))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("/etc/operator.properties");
    assertThat(errors.size()).isZero();
  }
}
