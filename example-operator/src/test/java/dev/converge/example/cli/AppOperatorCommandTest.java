package dev.converge.example.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.example.OperatorSettings;
import dev.converge.operator.RunSettings;
import dev.converge.strategy.ApiKind;
import dev.converge.strategy.StrategyConfigurationException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class AppOperatorCommandTest {

  private static final ApiKind DEPLOYMENT = ApiKind.parse("apps/v1/Deployment");
  private static final ApiKind SERVICE = ApiKind.parse("v1/Service");

  private static RunSettings parse(String... args) throws Exception {
    AppOperatorCommand command = new AppOperatorCommand();
    new CommandLine(command).parseArgs(args);
    return command.settings();
  }

  @Test
  void defaultsAreSsaForDeploymentsUpdateForServicesAllNamespacesNoLeaderElection()
      throws Exception {
    RunSettings settings = parse();
    assertThat(settings.strategies().strategyFor(DEPLOYMENT)).isEqualTo("ssa");
    assertThat(settings.strategies().strategyFor(SERVICE)).isEqualTo("update");
    assertThat(settings.namespaces()).isEmpty();
    assertThat(settings.leaderElection()).isEmpty();
  }

  @Test
  void strategyFlagsOverrideOneKindEachAndKeepTheOtherDefaults() throws Exception {
    RunSettings settings = parse("--strategy", "v1/Service=merge-patch", "-n", "shop");
    assertThat(settings.strategies().strategyFor(SERVICE)).isEqualTo("merge-patch");
    assertThat(settings.strategies().strategyFor(DEPLOYMENT)).isEqualTo("ssa");
    assertThat(settings.namespaces()).containsExactly("shop");

    RunSettings both =
        parse(
            "--strategy",
            "apps/v1/Deployment=update",
            "--strategy",
            "v1/Service=ssa",
            "--strategy",
            "default=merge-patch");
    assertThat(both.strategies().strategyFor(DEPLOYMENT)).isEqualTo("update");
    assertThat(both.strategies().strategyFor(SERVICE)).isEqualTo("ssa");
    assertThat(both.strategies().strategyFor(new ApiKind("v1", "ConfigMap")))
        .isEqualTo("merge-patch");
  }

  @Test
  void aConfigFileSetsStrategiesAndFlagsWinOverIt(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("operator.properties");
    Files.writeString(
        file,
        """
        converge.strategy.default=update
        converge.strategy.kind.apps/v1/Deployment=merge-patch
        converge.strategy.kind.v1/Service=ssa
        """);
    RunSettings fromFile = parse("--config", file.toString());
    assertThat(fromFile.strategies().strategyFor(DEPLOYMENT)).isEqualTo("merge-patch");
    assertThat(fromFile.strategies().strategyFor(SERVICE)).isEqualTo("ssa");
    assertThat(fromFile.strategies().defaultStrategy()).isEqualTo("update");

    RunSettings overridden = parse("--config", file.toString(), "--strategy", "v1/Service=update");
    assertThat(overridden.strategies().strategyFor(SERVICE)).isEqualTo("update");
    assertThat(overridden.strategies().strategyFor(DEPLOYMENT)).isEqualTo("merge-patch");
  }

  @Test
  void aMalformedStrategyFlagSaysWhatIsExpected() {
    assertThatThrownBy(() -> parse("--strategy", "Deployment"))
        .isInstanceOf(StrategyConfigurationException.class)
        .hasMessageContaining("kind=strategy");
    assertThatThrownBy(() -> parse("--strategy", "Deployment=ssa"))
        .isInstanceOf(StrategyConfigurationException.class)
        .hasMessageContaining("apps/v1/Deployment");
  }

  @Test
  void leaderElectionUsesTheGivenLeaseNamespace() throws Exception {
    RunSettings settings = parse("--leader-elect", "--leader-election-namespace", "ops");
    assertThat(settings.leaderElection())
        .hasValueSatisfying(
            election -> {
              assertThat(election.leaseNamespace()).isEqualTo("ops");
              assertThat(election.leaseName()).isEqualTo(OperatorSettings.OPERATOR_NAME);
            });
  }
}
