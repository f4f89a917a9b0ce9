package dev.converge.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.operator.RunSettings;
import dev.converge.strategy.ApiKind;
import dev.converge.strategy.StrategyConfigurationException;
import dev.converge.strategy.StrategySelection;
import io.fabric8.kubernetes.client.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class OperatorOptionsTest {

  private static final ApiKind DEPLOYMENT = ApiKind.parse("apps/v1/Deployment");
  private static final ApiKind SERVICE = ApiKind.parse("v1/Service");
  private static final ApiKind CONFIG_MAP = ApiKind.parse("v1/ConfigMap");
  private static final StrategySelection DEFAULTS =
      StrategySelection.parse("default=ssa, v1/Service=update");

  @Command(name = "test-operator")
  static final class TestCommand {
    @Mixin OperatorOptions options = new OperatorOptions();
  }

  private static OperatorOptions parse(String... args) {
    TestCommand command = new TestCommand();
    new CommandLine(command).parseArgs(args);
    return command.options;
  }

  @Test
  void withoutFlagsEverythingHasItsDefault() throws Exception {
    OperatorOptions options = parse();
    assertThat(options.namespaces()).isEmpty();
    assertThat(options.strategies(DEFAULTS)).isEqualTo(DEFAULTS);
    assertThat(options.leaderElection("test-operator")).isEmpty();
    assertThat(options.httpPort()).isEqualTo(8081);
  }

  @Test
  void namespacesAreRepeatableAndCommaSeparated() {
    assertThat(parse("-n", "a,b", "--namespace", "c").namespaces())
        .containsExactlyInAnyOrder("a", "b", "c");
  }

  @Test
  void strategyFlagsOverrideOneKindEachAndSetTheDefaultOnlyWhenAsked() throws Exception {
    StrategySelection one = parse("--strategy", "apps/v1/Deployment=update").strategies(DEFAULTS);
    assertThat(one.strategyFor(DEPLOYMENT)).isEqualTo("update");
    assertThat(one.strategyFor(SERVICE)).isEqualTo("update");
    assertThat(one.strategyFor(CONFIG_MAP)).isEqualTo("ssa");

    StrategySelection withDefault = parse("--strategy", "default=merge-patch").strategies(DEFAULTS);
    assertThat(withDefault.strategyFor(CONFIG_MAP)).isEqualTo("merge-patch");
    assertThat(withDefault.strategyFor(SERVICE)).as("the default's kinds stay").isEqualTo("update");
  }

  @Test
  void theConfigFileIsReadAndFlagsWinOverIt(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("operator.properties");
    Files.writeString(
        file,
        """
        converge.strategy.kind.apps/v1/Deployment=merge-patch
        converge.strategy.kind.v1/Service=ssa
        """);
    StrategySelection fromFile = parse("--config", file.toString()).strategies(DEFAULTS);
    assertThat(fromFile.strategyFor(DEPLOYMENT)).isEqualTo("merge-patch");
    assertThat(fromFile.strategyFor(SERVICE)).isEqualTo("ssa");
    assertThat(fromFile.defaultStrategy()).as("the file sets no default").isEqualTo("ssa");

    StrategySelection overridden =
        parse("--config", file.toString(), "--strategy", "v1/Service=update").strategies(DEFAULTS);
    assertThat(overridden.strategyFor(SERVICE)).isEqualTo("update");
    assertThat(overridden.strategyFor(DEPLOYMENT)).isEqualTo("merge-patch");
  }

  @Test
  void aMalformedStrategyOrAMissingConfigFileSaysWhat(@TempDir Path dir) {
    assertThatThrownBy(() -> parse("--strategy", "Deployment").strategies(DEFAULTS))
        .isInstanceOf(StrategyConfigurationException.class)
        .hasMessageContaining("kind=strategy");
    Path missing = dir.resolve("absent.properties");
    assertThatThrownBy(() -> parse("--config", missing.toString()).strategies(DEFAULTS))
        .hasMessageContaining("absent.properties");
  }

  @Test
  void leaderElectionTakesTheLeaseInTheGivenNamespace() throws Exception {
    OperatorOptions options = parse("--leader-elect", "--leader-election-namespace", "ops");
    assertThat(options.leaderElection("test-operator"))
        .hasValueSatisfying(
            election -> {
              assertThat(election.leaseNamespace()).isEqualTo("ops");
              assertThat(election.leaseName()).isEqualTo("test-operator");
            });
  }

  @Test
  void theClientConfigComesFromTheKubeconfigWithTheUserAgent(@TempDir Path dir) throws Exception {
    Path kubeconfig = dir.resolve("config");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: one
          cluster: {server: "https://one.example:6443"}
        - name: two
          cluster: {server: "https://two.example:6443"}
        users:
        - name: someone
          user: {token: abc}
        contexts:
        - name: first
          context: {cluster: one, user: someone, namespace: shop}
        - name: second
          context: {cluster: two, user: someone}
        current-context: first
        """);
    Config current = parse("--kubeconfig", kubeconfig.toString()).clientConfig("test-operator/1.0");
    assertThat(current.getMasterUrl()).startsWith("https://one.example:6443");
    assertThat(current.getNamespace()).isEqualTo("shop");
    assertThat(current.getUserAgent()).isEqualTo("test-operator/1.0");

    Config chosen =
        parse("--kubeconfig", kubeconfig.toString(), "--context", "second")
            .clientConfig("test-operator/1.0");
    assertThat(chosen.getMasterUrl()).startsWith("https://two.example:6443");
  }

  @Test
  void describeListsTheKindsInOrderAndTheDefault() {
    assertThat(
            OperatorOptions.describe(
                StrategySelection.parse(
                    "v1/Service=update, apps/v1/Deployment=ssa, default=merge-patch")))
        .isEqualTo("apps/v1/Deployment=ssa v1/Service=update default=merge-patch");
  }

  @Test
  void settingsStartFromTheOperatorsDefaultsAndTakeWhatTheFlagsSet() throws Exception {
    RunSettings defaults = RunSettings.of("test-operator", DEFAULTS).withWorkers(16);

    RunSettings plain = parse().settings(defaults);
    assertThat(plain).isEqualTo(defaults);

    RunSettings flagged =
        parse(
                "-n",
                "shop",
                "--strategy",
                "v1/Service=ssa",
                "--leader-elect",
                "--leader-election-namespace",
                "ops",
                "--access-review-interval",
                "0",
                "--workers",
                "4")
            .settings(defaults);
    assertThat(flagged.name()).isEqualTo("test-operator");
    assertThat(flagged.namespaces()).containsExactly("shop");
    assertThat(flagged.strategies().strategyFor(SERVICE)).isEqualTo("ssa");
    assertThat(flagged.leaderElection())
        .hasValueSatisfying(
            lease -> {
              assertThat(lease.leaseNamespace()).isEqualTo("ops");
              assertThat(lease.leaseName()).isEqualTo("test-operator");
            });
    assertThat(flagged.accessReviewInterval()).isZero();
    assertThat(flagged.workers()).isEqualTo(4);
  }

  @Test
  void settingsRefuseANegativeReviewIntervalAndNoWorkersNamingTheFlag() {
    RunSettings defaults = RunSettings.of("test-operator", DEFAULTS);
    assertThatThrownBy(() -> parse("--access-review-interval", "-1").settings(defaults))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--access-review-interval");
    assertThatThrownBy(() -> parse("--workers", "0").settings(defaults))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--workers");
  }
}
